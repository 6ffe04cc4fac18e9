// Chat panels: a room's and the lobby's lines (pushed as `chat`, the kept ones from `chat_log`) and a form; a
// line of a sender without an account (v1.2 `guest: true`) says "guest" after the name; on another player's
// line, a small menu to block or report its sender (v1.2 moderation).
// Owns: the chat markup. Chat text is plain text: it only ever becomes a text node (never markup).
// Must not: keep lines beyond what the app holds (app.chats) or send anything but `chat` (the app's requests
// send `block` and `report`).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { guestTag } from "./people.js";

export const CHAT_MAX = 500;
/** The contract's longest report reason (protocol/messages.py `ReportReason`). */
export const REASON_MAX = 500;

function timeOf(at) {
  try {
    return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  } catch {
    return "";
  }
}

/** A line's key among its panel's: its id (v1.2), else when and from whom (an older server's lines). */
export function lineKey(l) {
  return l.line || `${l.at}|${l.from}`;
}

function menuOpen(app, where, key) {
  const m = app.chatMenu;
  return Boolean(m && m.where === where && m.key === key);
}

/** The report form under a line: why (required, plain text), then Send or Cancel. */
function reportForm(app, where, menu) {
  const submit = async (ev) => {
    ev.preventDefault();
    const reason = (menu.reason || "").trim();
    if (!reason) {
      menu.error = t("report.needReason");
      return app.render();
    }
    if (menu.busy) return;
    menu.busy = true;
    menu.error = null;
    app.render();
    const error = await app.report(menu.player, where, reason);
    menu.busy = false;
    if (error) menu.error = error;
    else {
      if (app.chatMenu === menu) app.chatMenu = null;
      app.notify(t("report.sent", { name: menu.name }), "info");
    }
    app.render();
  };
  const id = `report-${menu.key}`;
  return h(
    "form",
    { class: "report-form", "data-testid": "report-form", onSubmit: submit, novalidate: true },
    h("label", { for: id }, t("report.why", { name: menu.name })),
    h("textarea", {
      id,
      rows: 2,
      maxlength: REASON_MAX,
      required: true,
      "data-key": id,
      "data-testid": "report-reason",
      value: menu.reason || "",
      onInput: (ev) => {
        menu.reason = ev.target.value;
        if (menu.error) {
          menu.error = null; // what was missing is being typed
          app.render();
        }
      },
    }),
    h("p", { class: "hint" }, t("report.about")),
    menu.error ? h("p", { class: "form-error", role: "alert", "data-testid": "report-error" }, menu.error) : null,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", class: "primary", "data-key": `${id}-send`, "data-testid": "report-send", "aria-busy": menu.busy ? "true" : null }, t("report.send")),
      h(
        "button",
        {
          type: "button",
          "data-key": `${id}-cancel`,
          onClick: () => {
            app.chatMenu = null;
            app.render();
          },
        },
        t("report.cancel"),
      ),
    ),
  );
}

/** "…" on another player's line, and when open its Block and Report buttons (and the report form). */
function lineMenu(app, where, l) {
  const key = lineKey(l);
  const open = menuOpen(app, where, key);
  const toggle = h(
    "button",
    {
      type: "button",
      class: "chat-more",
      "aria-expanded": open ? "true" : "false",
      "aria-label": t("chat.actionsFor", { name: l.name }),
      title: t("chat.actionsFor", { name: l.name }),
      "data-key": `chat-more-${key}`,
      "data-testid": "chat-more",
      onClick: () => {
        app.chatMenu = open ? null : { where, key, player: l.from, name: l.name, report: false, reason: "", error: null, busy: false };
        app.render();
      },
    },
    "⋯",
  );
  if (!open) return [toggle];
  const menu = app.chatMenu;
  const actions = h(
    "span",
    { class: "chat-actions", role: "group", "aria-label": t("chat.actionsFor", { name: l.name }) },
    h(
      "button",
      { type: "button", class: "link", "data-key": `chat-block-${key}`, "data-testid": "chat-block", onClick: () => app.block(l.from, l.name) },
      t("chat.block"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "link",
        "data-key": `chat-report-${key}`,
        "data-testid": "chat-report",
        "aria-expanded": menu.report ? "true" : "false",
        onClick: () => {
          menu.report = !menu.report;
          app.render();
          // straight to the reason (after the render that draws its form)
          if (menu.report) setTimeout(() => document.getElementById(`report-${key}`)?.focus({ preventScroll: false }), 0);
        },
      },
      t("chat.report"),
    ),
  );
  return [toggle, actions];
}

/** A chat panel; `where` is a room id, or "" for the lobby. */
export function chatPanel(app, where) {
  const blocked = app.blockedIds;
  const lines = (app.chats.get(where) || []).filter((l) => !blocked.has(l.from));
  const key = where ? `chat-${where}` : "chat-lobby";
  const input = h("input", {
    class: "chat-input",
    name: "chat",
    maxlength: CHAT_MAX,
    autocomplete: "off",
    "aria-label": t("chat.say"),
    placeholder: t("chat.placeholder"),
    value: app.chatDrafts.get(where) || "",
    "data-key": `${key}-input`,
    onInput: (ev) => app.chatDrafts.set(where, ev.target.value),
  });
  const submit = (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (text) app.chat(where, text);
  };
  // the host muted this viewer's seat: said before anything is typed (a line sent anyway is refused, and said so)
  const view = where ? app.store.get(where)?.view : null;
  const mine = view && view.you !== null && view.you !== undefined ? view.seats?.[view.you] : null;
  const error = app.chatErrors.get(where);
  return h(
    "section",
    { class: "chat card-panel", "aria-labelledby": `${key}-title`, "data-testid": where ? "room-chat" : "lobby-chat" },
    h("h2", { id: `${key}-title` }, where ? t("chat.room") : t("chat.lobby")),
    lines.length
      ? h(
          "ol",
          { class: "chat-lines", tabindex: "0", "aria-label": t("chat.lines") },
          lines.map((l) => {
            const own = l.from === app.player;
            return h(
              "li",
              { class: own ? "mine" : "", "data-line": lineKey(l) },
              h("span", { class: "chat-at" }, timeOf(l.at)),
              " ",
              h("strong", { class: "chat-name" }, l.name),
              guestTag(l.guest),
              ": ",
              h("span", { class: "chat-text" }, l.text),
              own || !l.from ? null : [" ", lineMenu(app, where, l)],
            );
          }),
        )
      : h("p", { class: "hint chat-empty" }, t("chat.empty")),
    app.chatMenu && app.chatMenu.where === where && app.chatMenu.report ? reportForm(app, where, app.chatMenu) : null,
    mine?.muted ? h("p", { class: "hint chat-muted", "data-testid": "chat-muted" }, t("chat.mutedYou")) : null,
    error ? h("p", { class: "form-error", role: "alert", "data-testid": "chat-error" }, error) : null,
    h(
      "form",
      { class: "chat-form row", onSubmit: submit },
      input,
      h("button", { type: "submit", "data-key": `${key}-send` }, t("chat.send")),
    ),
  );
}

/**
 * Keep every chat list scrolled to its newest line (after a render), or to the line whose menu is open (the
 * menu a player opened must not scroll away under the next line).
 * @param {ParentNode} [root]
 */
export function scrollChats(root = document) {
  for (const el of root.querySelectorAll(".chat-lines")) {
    const open = el.querySelector(".chat-more[aria-expanded='true']")?.closest("li");
    if (open instanceof HTMLElement) el.scrollTop = Math.max(0, open.offsetTop + open.offsetHeight - el.clientHeight);
    else el.scrollTop = el.scrollHeight;
  }
}
