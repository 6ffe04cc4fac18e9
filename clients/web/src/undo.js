// Undo within a turn (v1.2): the prompt bar's "Undo" button, shown while the prompt offers it (`prompt.undo`),
// and its keys (`u`, or Ctrl+Z / ⌘Z, while no text field has the focus).
// Owns: the button's markup and which key presses ask for it. Must not: send anything itself (`app.undo` does,
// with `v`, like a move) or decide when a turn may be taken back (the server's prompt says).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The keys, as `aria-keyshortcuts` names them (the button's title says them in words). */
export const UNDO_SHORTCUTS = "U Control+Z Meta+Z";

/** Whether a key press asks to take back the turn: `u`, or Ctrl+Z (⌘Z), while no text field has the focus. */
export function isUndoKey(ev) {
  if (!ev || ev.defaultPrevented || ev.repeat || ev.altKey) return false;
  const el = ev.target;
  if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/i.test(el.tagName || ""))) return false;
  const key = typeof ev.key === "string" ? ev.key.toLowerCase() : "";
  if (key === "z") return Boolean(ev.ctrlKey || ev.metaKey) && !ev.shiftKey;
  return key === "u" && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey;
}

/**
 * The "Undo" row of the prompt bar, first in its body (in view wherever the choices are, on a phone too), while
 * the prompt offers it; disabled while the room has a request in flight. `ctx` is the room's render context.
 */
export function undoRow(ctx) {
  if (!ctx.view.prompt?.undo || ctx.view.you === null || ctx.view.you === undefined) return null;
  return h(
    "div",
    { class: "undo-row" },
    h(
      "button",
      {
        type: "button",
        class: "undo",
        "data-key": "undo",
        "data-testid": "undo",
        title: t("room.undoTitle"),
        "aria-keyshortcuts": UNDO_SHORTCUTS,
        disabled: ctx.pending,
        onClick: () => ctx.app.undo(ctx.room),
      },
      h("span", { "aria-hidden": "true" }, "↶ "),
      t("room.undo"),
    ),
    h("span", { class: "hint undo-hint" }, t("room.undoHint")),
  );
}
