// What survives a reload: the player's name and token, in localStorage.
const NAME = "marcopolo.name";
const TOKEN = "marcopolo.token";

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
};
