// The log events the server adds for every game, whatever the game (v1.2 `undo`: "NAME took back their move"),
// and a renderer's log lines with them put in words here, so no game renderer needs to know them.
// Owns: the words of the shared events. Must not: know a game's own events (its renderer says them).
import { t } from "../i18n.js";

/** The events every game's public log may hold besides its own. */
const SHARED = new Set(["undo"]);

/** Whether a log event is one the server adds for every game (said here, not by the game's renderer). */
export function isSharedEvent(ev) {
  return Boolean(ev) && SHARED.has(ev.ev);
}

/** A shared event in words ("Ann took back their move."), or null for a game's own event. */
export function sharedLogLine(ev, view) {
  if (!isSharedEvent(ev)) return null;
  const seat = ev.seat;
  const who = typeof seat === "number" ? view?.seats?.[seat]?.name || t("room.seat", { n: seat + 1 }) : "";
  if (ev.ev === "undo") return t("w.log.undo", { who });
  return null;
}

/**
 * The view's log lines (`renderer.logLines`, `{n, text}` each): the game's own events said by its renderer, the
 * shared ones here, in the log's order.
 */
export function logLinesOf(renderer, view) {
  const events = Array.isArray(view.public?.log) ? view.public.log : [];
  if (!events.some(isSharedEvent)) return renderer.logLines(view);
  const own = events.filter((ev) => !isSharedEvent(ev));
  const lines = own.length ? renderer.logLines({ ...view, public: { ...view.public, log: own } }) : [];
  const shared = events.filter(isSharedEvent).map((ev) => ({ n: ev.n, text: sharedLogLine(ev, view) }));
  const numbered = (l) => l !== null && typeof l === "object" && typeof l.n === "number";
  if (!lines.every(numbered) || !shared.every(numbered)) return [...lines, ...shared];
  return [...lines, ...shared].sort((a, b) => a.n - b.n);
}
