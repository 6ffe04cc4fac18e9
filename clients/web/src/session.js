// What survives a reload: the guest's name, the token (a guest's or an account's), and the account's name.
// docs/security.md ("Accounts and passwords"): an account's token is kept where a guest's is, in localStorage.
const NAME = "marcopolo.name";
const TOKEN = "marcopolo.token";
const ACCOUNT = "marcopolo.account";

function get(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function set(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: the seat lasts as long as the tab */
  }
}

export const session = {
  /** The name this browser plays under as a guest (kept while signed in: a sign-out returns to it). */
  get name() {
    return get(NAME);
  },
  set name(v) {
    set(NAME, v);
  },
  get token() {
    return get(TOKEN);
  },
  set token(v) {
    set(TOKEN, v);
  },
  /** The account's name while `token` is an account's (signed up or in); null for a guest. */
  get account() {
    return get(ACCOUNT);
  },
  set account(v) {
    set(ACCOUNT, v);
  },
};
