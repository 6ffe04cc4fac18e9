// Accounts (wire contract v1.2, docs/protocol.md "Accounts"): the welcome card (play as a guest, sign in with a
// passkey or a password, create an account), the account page (passkeys, devices, new password, deletion; the
// players you block, for guests too), the header's account control, and the device label a sign-in sends.
// Owns: the forms' drafts and their error lines (kept across renders; passwords are dropped once sent).
// Must not: talk to the socket (the app's requests do) or keep a password anywhere but in these drafts.
import { h, s } from "./dom.js";
import { lang, t } from "./i18n.js";
import { passkeysAvailable } from "./passkey.js";
import { playerHref } from "./people.js";

/** The server's shortest password by default (`--password-min`); the server decides, this only helps early. */
export const PASSWORD_MIN = 8;
/** The contract's longest device label (and name). */
const LABEL_MAX = 32;

/**
 * What the account's list of devices calls this browser: "Firefox · Android", "Chrome · Linux"; at most 32
 * printable characters, never empty. The same words in every language (the list is read on other devices).
 */
export function deviceLabel(ua = typeof navigator !== "undefined" ? navigator.userAgent : "") {
  const s = String(ua || "");
  let browser = "";
  if (/Edg(e|A|iOS)?\//.test(s)) browser = "Edge";
  else if (/OPR\/|Opera/.test(s)) browser = "Opera";
  else if (/SamsungBrowser\//.test(s)) browser = "Samsung Internet";
  else if (/Firefox\/|FxiOS\//.test(s)) browser = "Firefox";
  else if (/Chrom(e|ium)\/|CriOS\//.test(s)) browser = "Chrome";
  else if (/Safari\//.test(s)) browser = "Safari";
  let system = "";
  if (/Android/.test(s)) system = "Android";
  else if (/iPhone/.test(s)) system = "iPhone";
  else if (/iPad/.test(s)) system = "iPad";
  else if (/CrOS/.test(s)) system = "ChromeOS";
  else if (/Windows/.test(s)) system = "Windows";
  else if (/Mac OS X|Macintosh/.test(s)) system = "macOS";
  else if (/Linux/.test(s)) system = "Linux";
  const label = [browser, system].filter(Boolean).join(" · ") || "browser";
  // printable, no control characters, no spaces at either end (the contract's name pattern), 32 at most
  return label.replace(/\p{Cc}/gu, "").slice(0, LABEL_MAX).trim() || "browser";
}

/** Names as the server compares them, roughly (case, width, everything not a letter or digit): for this page only. */
export function roughlySame(a, b) {
  const fold = (x) =>
    String(x || "")
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, "");
  return fold(a) !== "" && fold(a) === fold(b);
}

/**
 * The catalogue key of an error of `sign_in`/`sign_up` (`kind`), `change_password` or `delete_account`, or null
 * when the app's general sentence for the code fits. `bad_message` says "name: …" or "password: …" in its text.
 */
export function authErrorKey(code, message, kind) {
  if (code === "name_taken") return "auth.nameTaken";
  if (code === "bad_credentials") return kind === "sign_in" ? "auth.badCredentials" : "auth.wrongPassword";
  if (code === "rate_limited") return kind === "sign_up" ? "auth.tooManyAccounts" : "auth.tooManyTries";
  if (code === "bad_message") return /password/i.test(message || "") ? "auth.passwordShort" : "auth.nameRefused";
  return null;
}

/**
 * A ban as players read it, from the server's words ("banned until 2030-01-01 12:00 UTC: REASON" or "banned
 * permanently: REASON", server.node.moderation.ban_message); other words are shown as the server said them.
 */
export function bannedSentence(message) {
  const said = String(message || "").replace(/^banned: /, "");
  const m = /^banned (permanently|until (.+?)): ([\s\S]*)$/.exec(said);
  if (!m) return said ? t("banned.said", { message: said }) : t("banned.plain");
  const reason = m[3].trim() || "—";
  return m[2] ? t("banned.until", { until: m[2], reason }) : t("banned.forever", { reason });
}

/** The drafts of every form here, kept across renders (a lobby push redraws the page while one is typed). */
export const forms = {
  mode: "guest", // the welcome card's: "guest" | "sign_in" | "sign_up"
  name: "",
  password: "",
  password2: "",
  error: null,
  busy: false,
  current: "",
  next: "",
  next2: "",
  pwError: null,
  pwBusy: false,
  deletePassword: "",
  deleteError: null,
  deleteBusy: false,
  deleteOpen: false,
  pkError: null, // the passkey sign-in's
  pkBusy: false,
  pkAddError: null, // adding a passkey on the account page
  pkAddBusy: false,
  pkAdded: false,
};

/** Forget every typed password (after a sign-in, a sign-out, a deletion). */
export function clearForms() {
  Object.assign(forms, { password: "", password2: "", error: null, busy: false, current: "", next: "", next2: "" });
  Object.assign(forms, { pwError: null, pwBusy: false, deletePassword: "", deleteError: null, deleteBusy: false, deleteOpen: false });
  Object.assign(forms, { pkError: null, pkBusy: false, pkAddError: null, pkAddBusy: false, pkAdded: false });
}

function draft(key) {
  return (ev) => {
    forms[key] = ev.target.value;
  };
}

function field(id, label, input, hint) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    input,
    hint ? h("p", { class: "hint field-hint", id: `${id}-hint` }, hint) : null,
  );
}

function errorLine(text, testid) {
  return text ? h("p", { class: "form-error", role: "alert", "data-testid": testid }, text) : null;
}

/** A key, drawn (the passkey buttons' sign). */
function keyIcon() {
  return s(
    "svg",
    { class: "key-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: "7.5", cy: "12", r: "4.5", fill: "none", stroke: "currentColor", "stroke-width": "2.2" }),
    s("path", { d: "M12 12h10M18 12v4M21.5 12v3", fill: "none", stroke: "currentColor", "stroke-width": "2.2", "stroke-linecap": "round" }),
  );
}

/** "Sign in with a passkey" (where the browser has WebAuthn), above the password form; null elsewhere. */
function passkeySignIn(app) {
  if (!passkeysAvailable()) return null;
  const go = async () => {
    if (forms.pkBusy) return;
    forms.pkBusy = true;
    forms.pkError = null;
    forms.error = null;
    app.render();
    const error = await app.passkeySignIn();
    forms.pkBusy = false;
    forms.pkError = error;
    app.render();
  };
  return h(
    "div",
    { class: "passkey-way", "data-testid": "passkey-sign-in-block" },
    h(
      "button",
      {
        type: "button",
        class: "primary passkey-button",
        "data-key": "passkey-sign-in",
        "data-testid": "passkey-sign-in",
        "aria-busy": forms.pkBusy ? "true" : null,
        "aria-describedby": "passkey-sign-in-hint",
        onClick: go,
      },
      keyIcon(),
      forms.pkBusy ? t("passkey.waiting") : t("passkey.signIn"),
    ),
    h("p", { class: "hint", id: "passkey-sign-in-hint" }, t("passkey.signInHint")),
    errorLine(forms.pkError, "passkey-error"),
    h("p", { class: "or-line", role: "separator" }, h("span", null, t("passkey.orPassword"))),
  );
}

/** The sign-in or sign-up form (`kind`). */
function authForm(app, kind) {
  const up = kind === "sign_up";
  const submit = async (ev) => {
    ev.preventDefault();
    if (forms.busy) return;
    const name = forms.name.trim();
    if (!name) return;
    forms.pkError = null;
    if (up && forms.password.length < PASSWORD_MIN) forms.error = t("auth.passwordShort", { n: PASSWORD_MIN });
    else if (up && forms.password !== forms.password2) forms.error = t("auth.mismatch");
    else forms.error = null;
    if (forms.error) return app.render();
    forms.busy = true;
    app.render();
    forms.error = await app.authenticate(kind, { name, password: forms.password });
    forms.busy = false;
    if (!forms.error) clearForms();
    app.render();
  };
  const prefix = up ? "up" : "in";
  return h(
    "form",
    { class: `auth-form ${kind}`, "data-testid": `${kind}-form`, onSubmit: submit, novalidate: true },
    up ? null : passkeySignIn(app),
    field(
      `${prefix}-name`,
      up ? t("auth.chooseName") : t("auth.accountName"),
      h("input", {
        id: `${prefix}-name`,
        name: "username",
        required: true,
        maxlength: 32,
        autocomplete: "username",
        autocapitalize: "none",
        spellcheck: "false",
        value: forms.name,
        "data-key": `${prefix}-name`,
        onInput: draft("name"),
      }),
    ),
    field(
      `${prefix}-password`,
      t("auth.password"),
      h("input", {
        id: `${prefix}-password`,
        name: "password",
        type: "password",
        required: true,
        minlength: up ? PASSWORD_MIN : null,
        maxlength: 256,
        autocomplete: up ? "new-password" : "current-password",
        "aria-describedby": up ? `${prefix}-password-hint` : null,
        value: forms.password,
        "data-key": `${prefix}-password`,
        onInput: draft("password"),
      }),
      up ? t("auth.passwordRule", { n: PASSWORD_MIN }) : null,
    ),
    up
      ? field(
          "up-password2",
          t("auth.repeatPassword"),
          h("input", {
            id: "up-password2",
            name: "password2",
            type: "password",
            required: true,
            maxlength: 256,
            autocomplete: "new-password",
            value: forms.password2,
            "data-key": "up-password2",
            onInput: draft("password2"),
          }),
        )
      : null,
    errorLine(forms.error, "auth-error"),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "submit", class: "primary", "data-key": `${kind}-submit`, "data-testid": `${kind}-submit`, "aria-busy": forms.busy ? "true" : null },
        forms.busy ? t("auth.working") : up ? t("auth.signUp") : t("auth.signIn"),
      ),
    ),
    up && app.player && !app.account ? h("p", { class: "hint" }, t("auth.keepsGames", { name: app.name })) : null,
    up ? h("p", { class: "hint" }, t("auth.whyAccount")) : null,
  );
}

/** The three ways in, as a row of toggle buttons; `modes` lists those offered. */
function modeSwitch(app, modes, current) {
  const labels = { guest: t("auth.asGuest"), sign_in: t("auth.signIn"), sign_up: t("auth.signUp") };
  return h(
    "div",
    { class: "auth-modes", role: "group", "aria-label": t("auth.howToPlay") },
    modes.map((m) =>
      h(
        "button",
        {
          type: "button",
          "aria-pressed": m === current ? "true" : "false",
          "data-key": `mode-${m}`,
          "data-testid": `mode-${m}`,
          onClick: () => {
            forms.mode = m;
            forms.error = null;
            forms.pkError = null;
            if (m === "sign_up" && !forms.name && app.name && !app.account) forms.name = app.name;
            app.render();
          },
        },
        labels[m],
      ),
    ),
  );
}

/**
 * The lobby's first card (no name yet): play as a guest (the name form, chosen at first), sign in, or create an
 * account. `guestForm` is the lobby's name form.
 */
export function welcomeCard(app, guestForm, note = null) {
  const mode = ["guest", "sign_in", "sign_up"].includes(forms.mode) ? forms.mode : "guest";
  return h(
    "section",
    { class: "card-panel auth-card welcome-card", "aria-labelledby": "welcome-title" },
    h("h2", { id: "welcome-title" }, t("lobby.welcome")),
    app.farewell ? h("p", { class: "farewell", role: "status", "data-testid": "farewell" }, app.farewell) : null,
    note,
    modeSwitch(app, ["guest", "sign_in", "sign_up"], mode),
    mode === "guest" ? guestForm : authForm(app, mode),
  );
}

function when(seconds) {
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch {
    return new Date(seconds * 1000).toLocaleString();
  }
}

function devicesPanel(app) {
  // this device first, then the others newest first (as the server lists them)
  const list = app.devices ? [...app.devices.filter((d) => d.current), ...app.devices.filter((d) => !d.current)] : null;
  let body;
  if (!list) body = h("p", { class: "hint" }, t("account.loadingDevices"));
  else
    body = h(
      "ul",
      { class: "devices", "data-testid": "devices" },
      list.map((d) =>
        h(
          "li",
          { class: `device${d.current ? " current" : ""}`, "data-device": d.id },
          h(
            "div",
            { class: "device-info" },
            h("strong", { class: "device-name" }, d.device),
            d.current ? h("span", { class: "tag this-device" }, t("account.thisDevice")) : null,
            h("div", { class: "hint" }, t("account.since", { when: when(d.created) })),
          ),
          d.current
            ? null
            : h(
                "button",
                {
                  type: "button",
                  "data-key": `device-out-${d.id}`,
                  "data-testid": "device-sign-out",
                  "aria-label": t("account.signOutDeviceOf", { device: d.device, when: when(d.created) }),
                  onClick: () => app.signOutDevice(d.id),
                },
                t("account.signOutDevice"),
              ),
        ),
      ),
    );
  return h(
    "section",
    { class: "card-panel", "aria-labelledby": "devices-title" },
    h("h2", { id: "devices-title" }, t("account.devices"), list ? h("span", { class: "count" }, ` (${list.length})`) : null),
    h("p", { class: "hint" }, t("account.devicesAbout")),
    body,
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "button", "data-key": "sign-out-everywhere", "data-testid": "sign-out-everywhere", onClick: () => app.signOut(true) },
        t("account.signOutEverywhere"),
      ),
    ),
  );
}

function passkeysPanel(app) {
  const available = passkeysAvailable();
  const add = async () => {
    if (forms.pkAddBusy) return;
    forms.pkAddBusy = true;
    forms.pkAddError = null;
    forms.pkAdded = false;
    app.render();
    const error = await app.addPasskey();
    forms.pkAddBusy = false;
    forms.pkAddError = error;
    forms.pkAdded = !error;
    app.render();
  };
  return h(
    "section",
    { class: "card-panel passkeys", "aria-labelledby": "passkeys-title", "data-testid": "passkeys-panel" },
    h("h2", { id: "passkeys-title" }, t("passkey.title")),
    h("p", { class: "hint" }, t("passkey.about")),
    forms.pkAdded ? h("p", { class: "form-ok", role: "status", "data-testid": "passkey-added" }, t("passkey.addedHere")) : null,
    errorLine(forms.pkAddError, "passkey-add-error"),
    available
      ? h(
          "div",
          { class: "row" },
          h(
            "button",
            {
              type: "button",
              class: "passkey-button",
              "data-key": "passkey-add",
              "data-testid": "passkey-add",
              "aria-busy": forms.pkAddBusy ? "true" : null,
              onClick: add,
            },
            keyIcon(),
            forms.pkAddBusy ? t("passkey.waiting") : t("passkey.add"),
          ),
        )
      : h("p", { class: "hint", "data-testid": "passkey-unsupported" }, t("passkey.unsupported")),
  );
}

function passwordPanel(app) {
  const submit = async (ev) => {
    ev.preventDefault();
    if (forms.pwBusy) return;
    if (forms.next.length < PASSWORD_MIN) forms.pwError = t("auth.passwordShort", { n: PASSWORD_MIN });
    else if (forms.next !== forms.next2) forms.pwError = t("auth.mismatch");
    else forms.pwError = null;
    if (forms.pwError) return app.render();
    forms.pwBusy = true;
    app.render();
    forms.pwError = await app.changePassword(forms.current, forms.next);
    forms.pwBusy = false;
    if (!forms.pwError) Object.assign(forms, { current: "", next: "", next2: "" });
    app.render();
  };
  const input = (id, key, autocomplete) =>
    h("input", { id, type: "password", required: true, maxlength: 256, autocomplete, value: forms[key], "data-key": id, onInput: draft(key) });
  return h(
    "form",
    { class: "card-panel auth-form", "aria-labelledby": "password-title", "data-testid": "password-form", onSubmit: submit, novalidate: true },
    h("h2", { id: "password-title" }, t("account.changePassword")),
    // for password managers: the account this new password belongs to
    h("input", { type: "text", name: "username", autocomplete: "username", value: app.name || "", hidden: true, readonly: true, tabindex: "-1" }),
    field("pw-current", t("account.currentPassword"), input("pw-current", "current", "current-password")),
    field("pw-new", t("account.newPassword"), input("pw-new", "next", "new-password"), t("auth.passwordRule", { n: PASSWORD_MIN })),
    field("pw-new2", t("auth.repeatPassword"), input("pw-new2", "next2", "new-password")),
    errorLine(forms.pwError, "password-error"),
    h("p", { class: "hint" }, t("account.changeSignsOut")),
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", "data-key": "pw-submit", "data-testid": "password-submit" }, forms.pwBusy ? t("auth.working") : t("account.changePassword")),
    ),
  );
}

function deletePanel(app) {
  const submit = async (ev) => {
    ev.preventDefault();
    if (forms.deleteBusy || !forms.deletePassword) return;
    forms.deleteBusy = true;
    app.render();
    forms.deleteError = await app.deleteAccount(forms.deletePassword);
    forms.deleteBusy = false;
    app.render();
  };
  return h(
    "section",
    { class: "card-panel danger-zone", "aria-labelledby": "delete-title" },
    h(
      "details",
      { class: "delete-account", open: Boolean(forms.deleteOpen), onToggle: (ev) => (forms.deleteOpen = ev.target.open) },
      h("summary", { "data-key": "delete-open", "data-testid": "delete-open" }, h("h2", { id: "delete-title" }, t("account.delete"))),
      h("p", null, t("account.deleteAbout")),
      h(
        "form",
        { class: "auth-form", onSubmit: submit, "data-testid": "delete-form", novalidate: true },
        h("input", { type: "text", name: "username", autocomplete: "username", value: app.name || "", hidden: true, readonly: true, tabindex: "-1" }),
        field(
          "delete-password",
          t("account.deleteConfirm"),
          h("input", {
            id: "delete-password",
            type: "password",
            required: true,
            maxlength: 256,
            autocomplete: "current-password",
            value: forms.deletePassword,
            "data-key": "delete-password",
            onInput: draft("deletePassword"),
          }),
        ),
        errorLine(forms.deleteError, "delete-error"),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "submit", class: "danger", "data-key": "delete-submit", "data-testid": "delete-submit" },
            forms.deleteBusy ? t("auth.working") : t("account.deleteButton"),
          ),
        ),
      ),
    ),
  );
}

/** The players this player blocks (`blocks`, v1.2), each with Unblock; a guest's blocks are kept by its player id. */
export function blocksPanel(app) {
  const list = app.blocks;
  let body;
  if (!list) body = h("p", { class: "hint" }, t("block.loading"));
  else if (!list.length) body = h("p", { class: "hint", "data-testid": "blocks-empty" }, t("block.none"));
  else
    body = h(
      "ul",
      { class: "devices blocks", "data-testid": "blocks" },
      list.map((b) =>
        h(
          "li",
          { class: "device", "data-player": b.player },
          h("div", { class: "device-info" }, h("strong", { class: "device-name" }, b.name || t("block.someone"))),
          h(
            "button",
            {
              type: "button",
              "data-key": `unblock-${b.player}`,
              "data-testid": "unblock",
              "aria-label": t("block.unblockOf", { name: b.name || t("block.someone") }),
              onClick: () => app.unblock(b.player),
            },
            t("block.unblock"),
          ),
        ),
      ),
    );
  return h(
    "section",
    { class: "card-panel", "aria-labelledby": "blocks-title", "data-testid": "blocks-panel", id: "blocked" },
    h("h2", { id: "blocks-title" }, t("block.title"), list ? h("span", { class: "count" }, ` (${list.length})`) : null),
    h("p", { class: "hint" }, app.account ? t("block.about") : t("block.aboutGuest")),
    body,
  );
}

/** The account page (`#/account`): the account's panels, or sign-in and sign-up for a guest. */
export function renderAccount(app) {
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  if (!app.account) {
    const mode = forms.mode === "sign_up" ? "sign_up" : "sign_in";
    return h(
      "section",
      { class: "lobby account-page" },
      back,
      h(
        "section",
        { class: "card-panel auth-card", "aria-labelledby": "account-title" },
        h("h1", { id: "account-title" }, t("account.title")),
        modeSwitch(app, ["sign_in", "sign_up"], mode),
        authForm(app, mode),
        h(
          "p",
          { class: "as-guest" },
          h("a", { href: "#/", "data-key": "keep-guest", "data-testid": "keep-guest" }, t("auth.keepGuest", { name: app.name || "" })),
        ),
      ),
      app.player ? blocksPanel(app) : null,
    );
  }
  return h(
    "section",
    { class: "lobby account-page", "data-testid": "account-page" },
    back,
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "account-title" },
      h("h1", { id: "account-title" }, t("account.title")),
      h("p", { "data-testid": "signed-in-as" }, t("account.signedInAs"), " ", h("strong", { class: "account-name" }, app.name)),
      h("p", { class: "hint" }, t("account.about")),
      app.player
        ? h("p", null, h("a", { href: playerHref(app.player), "data-key": "my-player-page", "data-testid": "my-player-page" }, t("account.myPage")))
        : null,
      h("p", null, h("a", { href: "#/settings", "data-key": "account-settings", "data-testid": "account-settings" }, t("settings.signalsLink"))),
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", "data-key": "sign-out", "data-testid": "sign-out", onClick: () => app.signOut(false) }, t("account.signOut")),
      ),
    ),
    passkeysPanel(app),
    devicesPanel(app),
    blocksPanel(app),
    passwordPanel(app),
    deletePanel(app),
  );
}

const PERSON =
  '<svg class="person" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="5" r="3"/><path d="M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5z"/></svg>';

/** The header's account control: "Sign in" for a guest, the account's name (a link to its page) once signed in. */
export function drawAccountControl(app, host) {
  const signature = `${lang()}|${app.account ? "a" : app.player ? "g" : "-"}|${app.name || ""}`;
  if (host.dataset.sig === signature) return;
  host.dataset.sig = signature;
  if (app.account && app.name) {
    const link = h(
      "a",
      { class: "head-button account-link", href: "#/account", "data-testid": "account-button", "aria-label": t("account.yours", { name: app.name }) },
      h("span", { class: "account-name" }, app.name),
    );
    link.insertAdjacentHTML("afterbegin", PERSON);
    host.replaceChildren(link);
  } else if (app.player && app.name) {
    host.replaceChildren(
      h("span", { class: "who-name", "data-testid": "guest-name" }, app.name, h("span", { class: "sr" }, ` (${t("room.guestTag")})`)),
      h("a", { class: "head-button", href: "#/account", "data-testid": "account-button" }, t("auth.signIn")),
    );
  } else host.replaceChildren();
}
