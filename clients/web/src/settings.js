// The settings page (`#/settings`, v1.2): how this player hears that it is their move. For an account, the server's
// turn signals of turn-based games (`notify`): an e-mail address, a webhook (with the signing secret the server shows
// only to the account), the delay before they go out, and web push on this browser (offered only when the server
// has a VAPID key, `push_key`); for everybody, this browser's own signals while the site is open (the tab's title
// and icon, a sound, system notifications: `signals.js`). Each field the server does not offer (`channels`) is left
// out. Reached from the header's gear, My games and the account page; one column on a phone.
// Owns: the page's markup and its drafts. Must not: keep anything the server keeps (it asks `notify` again on each
// visit), or register a service worker before the player turns web push on.
import { ServerError } from "./connection.js";
import { h } from "./dom.js";
import { has, lang, t } from "./i18n.js";
import { PushFailed, currentSubscription, pushBlocker, subscribe, subscriptionFields, unsubscribe } from "./push.js";
import { signalsPanel } from "./games.js";
import { durationText } from "./turns.js";

/** The delays offered (minutes); the server takes 0 to 14 days. */
export const DELAYS = [0, 5, 15, 30, 60, 180, 720, 1440, 4320];

/** What the page holds between renders: the server's last `notify` answer and what is being typed. */
export const settings = {
  /** the last `notify` answer (null: not loaded yet) */
  answer: null,
  loading: false,
  error: null,
  /** the form's fields as typed: {email, webhook, delay} */
  draft: null,
  saving: false,
  saveError: null,
  saved: false,
  secretBusy: false,
  /** web push in this browser: {here (this browser's endpoint, when the server has it), busy, error, detail} */
  push: { here: null, checked: false, busy: false, error: null, detail: "" },
};

/** Forget the account's settings (another player signed in on this page, or signed out). */
export function forgetSettings() {
  Object.assign(settings, { answer: null, loading: false, error: null, draft: null, saving: false, saveError: null });
  Object.assign(settings, { saved: false, secretBusy: false });
  settings.push = { here: null, checked: false, busy: false, error: null, detail: "" };
}

function sentence(err) {
  if (!(err instanceof ServerError)) return String(err?.message || err);
  const detail = err.message.replace(/^[a-z_]+: /, "");
  if (err.code === "bad_message" && detail) return t("settings.refused", { message: detail });
  if (err.code === "forbidden") return t("settings.notOffered");
  return has(`error.${err.code}`) ? t(`error.${err.code}`) : detail || err.code;
}

function fromAnswer(answer) {
  return { email: answer.email || "", webhook: answer.webhook || "", delay: answer.delay_minutes };
}

function offers(answer, channel) {
  return !Array.isArray(answer.channels) || answer.channels.includes(channel);
}

/** Read the account's settings (`notify` without a field), then whether this browser's push is among them. */
export async function loadSettings(app) {
  if (!app.player || !app.account || settings.loading) return;
  settings.loading = true;
  try {
    settings.answer = await app.conn.request("notify");
    settings.draft = fromAnswer(settings.answer);
    settings.error = null;
  } catch (err) {
    settings.error = sentence(err);
  } finally {
    settings.loading = false;
  }
  app.render();
  await checkPush(app);
}

async function checkPush(app) {
  const answer = settings.answer;
  if (!answer?.push_key) return;
  const sub = await currentSubscription();
  settings.push.here = sub && (answer.push || []).includes(sub.endpoint) ? sub.endpoint : null;
  settings.push.checked = true;
  app.render();
}

async function send(app, fields) {
  const answer = await app.conn.request("notify", fields);
  settings.answer = answer;
  return answer;
}

async function save(app, ev) {
  ev.preventDefault();
  if (settings.saving || !settings.answer || !settings.draft) return;
  const was = fromAnswer(settings.answer);
  const now = settings.draft;
  const fields = {};
  if (now.email.trim() !== was.email) fields.email = now.email.trim();
  if (now.webhook.trim() !== was.webhook) fields.webhook = now.webhook.trim();
  if (Number(now.delay) !== was.delay) fields.delay_minutes = Number(now.delay);
  settings.saving = true;
  settings.saveError = null;
  app.render();
  try {
    const answer = await send(app, fields);
    settings.draft = fromAnswer(answer);
    settings.saved = true;
  } catch (err) {
    settings.saveError = sentence(err);
  } finally {
    settings.saving = false;
    app.render();
  }
}

async function newSecret(app) {
  if (settings.secretBusy) return;
  settings.secretBusy = true;
  app.render();
  try {
    await send(app, { new_secret: true });
  } catch (err) {
    settings.saveError = sentence(err);
  } finally {
    settings.secretBusy = false;
    app.render();
  }
}

async function pushOn(app) {
  const p = settings.push;
  if (p.busy || !settings.answer?.push_key) return;
  Object.assign(p, { busy: true, error: null, detail: "" });
  app.render();
  try {
    const sub = await subscribe(settings.answer.push_key, lang());
    const answer = await send(app, { push: subscriptionFields(sub) });
    p.here = (answer.push || []).includes(sub.endpoint) ? sub.endpoint : null;
  } catch (err) {
    if (err instanceof PushFailed) Object.assign(p, { error: err.code, detail: err.detail });
    else Object.assign(p, { error: "server", detail: sentence(err) });
  } finally {
    p.busy = false;
    app.render();
  }
}

async function pushOff(app, everywhere) {
  const p = settings.push;
  if (p.busy) return;
  Object.assign(p, { busy: true, error: null, detail: "" });
  app.render();
  try {
    const endpoint = await unsubscribe();
    if (everywhere) await send(app, { push: "" });
    else if (endpoint || p.here) await send(app, { push_remove: endpoint || p.here });
    p.here = null;
  } catch (err) {
    Object.assign(p, { error: "server", detail: sentence(err) });
  } finally {
    p.busy = false;
    app.render();
  }
}

function field(id, label, input, hint) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hint ? h("p", { class: "hint field-hint", id: `${id}-hint` }, hint) : null);
}

function typing(key) {
  return (ev) => {
    settings.draft[key] = ev.target.value;
    settings.saved = false;
  };
}

function delayLabel(minutes) {
  return minutes === 0 ? t("settings.delayNow") : durationText(minutes * 60);
}

function serverForm(app) {
  const answer = settings.answer;
  const draft = settings.draft;
  const delays = DELAYS.includes(draft.delay) ? DELAYS : [...DELAYS, draft.delay].sort((a, b) => a - b);
  const email = offers(answer, "email") || answer.email;
  const webhook = offers(answer, "webhook") || answer.webhook;
  return h(
    "form",
    { class: "card-panel settings-form", "aria-labelledby": "server-signals-title", "data-testid": "server-signals", onSubmit: (ev) => save(app, ev), novalidate: true },
    h("h2", { id: "server-signals-title" }, t("settings.server")),
    h("p", { class: "hint" }, t("settings.serverAbout")),
    email
      ? field(
          "notify-email",
          t("settings.email"),
          h("input", { id: "notify-email", type: "email", maxlength: 254, autocomplete: "email", value: draft.email, "data-key": "notify-email", "aria-describedby": "notify-email-hint", onInput: typing("email") }),
          t("settings.emailHint"),
        )
      : null,
    webhook
      ? field(
          "notify-webhook",
          t("settings.webhook"),
          h("input", { id: "notify-webhook", type: "url", maxlength: 2000, inputmode: "url", placeholder: "https://", value: draft.webhook, "data-key": "notify-webhook", "aria-describedby": "notify-webhook-hint", onInput: typing("webhook") }),
          t("settings.webhookHint"),
        )
      : null,
    field(
      "notify-delay",
      t("settings.delay"),
      h(
        "select",
        {
          id: "notify-delay",
          "data-key": "notify-delay",
          "aria-describedby": "notify-delay-hint",
          onChange: (ev) => {
            draft.delay = Number(ev.target.value);
            settings.saved = false;
          },
        },
        delays.map((m) => h("option", { value: String(m), selected: m === Number(draft.delay) }, delayLabel(m))),
      ),
      t("settings.delayHint"),
    ),
    settings.saveError ? h("p", { class: "form-error", role: "alert", "data-testid": "settings-error" }, settings.saveError) : null,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", class: "primary", "data-key": "settings-save", "data-testid": "settings-save" }, settings.saving ? t("settings.saving") : t("settings.save")),
      h("span", { class: "saved", role: "status", "data-testid": "settings-saved" }, settings.saved ? t("settings.saved") : ""),
    ),
    webhook && answer.secret
      ? h(
          "div",
          { class: "secret-row" },
          h("p", { class: "secret-line" }, h("span", null, t("settings.secret")), " ", h("code", { class: "secret", "data-testid": "webhook-secret" }, answer.secret)),
          h("p", { class: "hint" }, t("settings.secretHint")),
          h(
            "button",
            { type: "button", "data-key": "new-secret", "data-testid": "new-secret", onClick: () => newSecret(app) },
            settings.secretBusy ? t("settings.saving") : t("settings.newSecret"),
          ),
        )
      : null,
  );
}

function pushPanel(app) {
  const answer = settings.answer;
  const p = settings.push;
  // a browser that blocks this site's notifications (asked before, or set so) cannot get web push: said at once
  const denied = typeof Notification !== "undefined" && Notification.permission === "denied" && !p.busy;
  const blocker = pushBlocker() || (denied && !p.here ? "denied" : null);
  const others = (answer.push || []).filter((e) => e !== p.here).length;
  let body;
  if (blocker) body = h("p", { class: "push-state", "data-testid": "push-state", "data-state": blocker }, t(`push.${blocker}`));
  else if (p.here)
    body = h(
      "p",
      { class: "push-state", "data-testid": "push-state", "data-state": "on" },
      h("span", null, t("push.on")),
      " ",
      h("button", { type: "button", class: "link", "data-key": "push-off", "data-testid": "push-off", onClick: () => pushOff(app, false) }, t("push.off")),
    );
  else
    body = h(
      "div",
      { class: "push-state", "data-testid": "push-state", "data-state": p.error || "off" },
      h(
        "button",
        { type: "button", "data-key": "push-on", "data-testid": "push-on", disabled: p.busy || !p.checked ? true : null, onClick: () => pushOn(app) },
        p.busy ? t("settings.saving") : t("push.enable"),
      ),
      p.error
        ? h(
            "p",
            { class: "form-error", role: "alert", "data-testid": "push-error" },
            t(p.error === "server" ? "push.serverFailed" : `push.${p.error}`),
            p.detail ? h("span", { class: "push-detail" }, ` (${p.detail})`) : null,
          )
        : null,
    );
  return h(
    "section",
    { class: "card-panel push-panel", "aria-labelledby": "push-title", "data-testid": "push" },
    h("h2", { id: "push-title" }, t("push.title")),
    h("p", { class: "hint" }, t("push.about")),
    body,
    others
      ? h(
          "p",
          { class: "push-others" },
          t("push.others", { n: others }),
          " ",
          h("button", { type: "button", class: "link", "data-key": "push-off-all", "data-testid": "push-off-all", onClick: () => pushOff(app, true) }, t("push.offEverywhere")),
        )
      : null,
  );
}

/** The whole settings page. */
export function renderSettings(app) {
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  let server;
  if (!app.account)
    server = h(
      "section",
      { class: "card-panel", "data-testid": "settings-guest" },
      h("h2", null, t("settings.server")),
      h("p", null, t("settings.accountsOnly")),
      h("p", null, h("a", { href: "#/account", "data-key": "settings-sign-in" }, t("settings.signIn"))),
    );
  else if (!settings.answer || !settings.draft)
    server = h("section", { class: "card-panel" }, h("p", { class: settings.error ? "form-error" : "hint", role: settings.error ? "alert" : null }, settings.error || t("settings.loading")));
  else server = [serverForm(app), settings.answer.push_key ? pushPanel(app) : null];
  return h(
    "div",
    { class: "lobby settings-page", "data-testid": "settings-page" },
    h("section", { class: "card-panel", "aria-labelledby": "settings-title" }, back, h("h1", { id: "settings-title" }, t("settings.title")), h("p", { class: "hint" }, t("settings.about"))),
    server,
    signalsPanel(app, t("settings.local")),
  );
}

/** The header's gear: the settings page. */
const GEAR_ICON =
  '<svg class="settings-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M6.9 1h2.2l.4 1.9c.4.1.8.3 1.1.5l1.7-1 1.5 1.5-1 1.7c.2.4.4.7.5 1.1l1.9.4v2.2l-1.9.4c-.1.4-.3.8-.5 1.1l1 1.7-1.5 1.5-1.7-1c-.4.2-.7.4-1.1.5L9.1 15H6.9l-.4-1.9c-.4-.1-.8-.3-1.1-.5l-1.7 1-1.5-1.5 1-1.7c-.2-.4-.4-.7-.5-1.1L1 9.1V6.9l1.9-.4c.1-.4.3-.8.5-1.1l-1-1.7 1.5-1.5 1.7 1c.4-.2.7-.4 1.1-.5zM8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></svg>';

/** The header's link to the settings page (an icon; its words are its label), once the player is known. */
export function drawSettingsLink(app, host) {
  if (!host) return;
  const here = app.page.page === "settings";
  const signature = `${t("settings.title")}|${app.player ? "p" : "-"}|${here}`;
  if (host.dataset.sig === signature) return;
  host.dataset.sig = signature;
  if (!app.player) return host.replaceChildren();
  const link = h("a", {
    class: "head-button settings-link",
    href: "#/settings",
    "data-testid": "settings-link",
    "aria-label": t("settings.title"),
    title: t("settings.title"),
    "aria-current": here ? "page" : null,
  });
  link.insertAdjacentHTML("afterbegin", GEAR_ICON);
  host.replaceChildren(link);
}
