// Chat panels: a room's and the lobby's lines (pushed as `chat`, the kept ones from `chat_log`) and a form; a
// line of a sender without an account (v1.2 `guest: true`) says "guest" after the name.
// Owns: the chat markup. Chat text is plain text: it only ever becomes a text node (never markup).
// Must not: keep lines beyond what the app holds (app.chats) or send anything but `chat`.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { guestTag } from "./people.js";

export const CHAT_MAX = 500;

function timeOf(at) {
  try {
    return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  } catch {
    return "";
  }
}

/** A chat panel; `where` is a room id, or "" for the lobby. */
export function chatPanel(app, where) {
  const lines = app.chats.get(where) || [];
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
  return h(
    "section",
    { class: "chat card-panel", "aria-labelledby": `${key}-title`, "data-testid": where ? "room-chat" : "lobby-chat" },
    h("h2", { id: `${key}-title` }, where ? t("chat.room") : t("chat.lobby")),
    lines.length
      ? h(
          "ol",
          { class: "chat-lines", tabindex: "0", "aria-label": t("chat.lines") },
          lines.map((l) =>
            h(
              "li",
              { class: l.from === app.player ? "mine" : "" },
              h("span", { class: "chat-at" }, timeOf(l.at)),
              " ",
              h("strong", { class: "chat-name" }, l.name),
              guestTag(l.guest),
              ": ",
              h("span", { class: "chat-text" }, l.text),
            ),
          ),
        )
      : h("p", { class: "hint chat-empty" }, t("chat.empty")),
    h(
      "form",
      { class: "chat-form row", onSubmit: submit },
      input,
      h("button", { type: "submit", "data-key": `${key}-send` }, t("chat.send")),
    ),
  );
}

/** Keep every chat list scrolled to its newest line (after a render). */
/** @param {ParentNode} [root] */
export function scrollChats(root = document) {
  for (const el of root.querySelectorAll(".chat-lines")) el.scrollTop = el.scrollHeight;
}
