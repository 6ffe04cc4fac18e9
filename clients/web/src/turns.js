// Turn-based play (v1.2) in words: a turn's length ("3 days"), the room's rule ("Turn-based: 3 days a move; a
// late player is waited for"), a deadline as a relative time ("in 2 days", "late"), the timed-out room's
// sentence, and the rows of `my_games` brought up to date by the live views this page holds.
// Owns: these words and the rows' order. Must not: decide whose turn it is (the server's `your_turn` and the
// view's `prompt` say so) or what happens on expiry.
import { lang, t } from "./i18n.js";
import { asksForMove } from "./signals.js";

export const DAY = 86400;
/** The turn lengths the create form offers for a turn-based room (the server allows 10 s to 14 days). */
export const TURN_DAYS = [1, 3, 7, 14];
export const DEFAULT_TURN_DAYS = 3;
/** What a turn-based seat's expiry does (`create.on_expiry`). */
export const ON_EXPIRY = ["wait", "bot", "end"];

/** A turn's length in words: "3 days", "36 hours", "10 minutes". */
export function durationText(seconds) {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  if (s >= DAY && s % DAY === 0) return t("time.days", { n: s / DAY });
  if (s >= 3600) return t("time.hours", { n: Math.round(s / 3600) });
  if (s >= 60) return t("time.minutes", { n: Math.round(s / 60) });
  return t("time.seconds", { n: s });
}

/** The time banks the create form offers (seconds; 0: none): a turn-based room's, and a live room's. */
export const BANK_CHOICES = [0, 12 * 3600, DAY, 3 * DAY, 7 * DAY];
export const LIVE_BANK_CHOICES = [0, 60, 120, 300, 600];

/** The view's `turn: {mode, turn_seconds, on_expiry, time_bank_seconds?}` as a sentence; null for a live room. */
export function turnRuleText(turn) {
  if (!turn || turn.mode !== "turn_based") return null;
  const rule = ON_EXPIRY.includes(turn.on_expiry) ? turn.on_expiry : "wait";
  const text = t(`turn.${rule}`, { time: durationText(turn.turn_seconds) });
  return turn.time_bank_seconds > 0 ? `${text} ${t("turn.bank", { time: durationText(turn.time_bank_seconds) })}` : text;
}

/** "in 2 days", "in 5 hours", "in 12 minutes" (the language's own words, `Intl.RelativeTimeFormat`). */
export function relativeTime(ms, now = Date.now()) {
  const s = Math.max(0, (ms - now) / 1000);
  let value;
  let unit;
  if (s < 60) [value, unit] = [Math.max(1, Math.ceil(s)), "second"];
  else if (s < 2 * 3600) [value, unit] = [Math.round(s / 60), "minute"];
  else if (s < 2 * DAY) [value, unit] = [Math.round(s / 3600), "hour"];
  else [value, unit] = [Math.round(s / DAY), "day"];
  try {
    return new Intl.RelativeTimeFormat(lang(), { numeric: "always" }).format(value, /** @type {any} */ (unit));
  } catch {
    return `+${value} ${unit}`;
  }
}

/** A seat's deadline in words: `{late: true, text: "late"}` once passed (or marked late), else "in 2 days". */
export function deadlineWords(deadline, late = false, now = Date.now()) {
  if (late || (typeof deadline === "number" && deadline <= now)) return { late: true, text: t("games.late") };
  if (typeof deadline !== "number") return null;
  return { late: false, text: relativeTime(deadline, now) };
}

/** "The game ended: time ran out for Bob." (the server's message, translated when it is the usual one). */
export function timeoutSentence(message) {
  const m = /^time ran out for (.+)$/.exec(message || "");
  if (m) return t("closed.timeoutFor", { names: m[1] });
  return message ? t("closed.timeout", { message }) : t("closed.timeoutPlain");
}

/** The ms left in a seat's time bank at the clock's deadline (v1.2 `clock.bank`), 0 without one. */
function bankOf(clock, seat) {
  const b = Array.isArray(clock?.bank) ? clock.bank[seat] : null;
  return typeof b === "number" ? b : 0;
}

/** When a `my_games` row's seat runs out of time: `out_at` (the deadline plus its bank), else the deadline. */
export function dueAt(row) {
  if (typeof row.out_at === "number") return row.out_at;
  return typeof row.deadline === "number" ? row.deadline : null;
}

/**
 * The rows of `my_games` as the page knows them now: a room whose view this page holds (a seat it re-joined)
 * takes whose turn, the deadline, lateness, status and names from that view; finished rooms go. Sorted as the
 * server sorts: the player's turn first, then the seat out of time first (bank included), then as listed (the newest first).
 * `viewOf(room)` is the held view or null.
 */
export function liveRows(rows, viewOf) {
  const out = [];
  rows.forEach((row, i) => {
    const view = viewOf(row.room);
    if (!view || view.you === null || view.you === undefined) {
      out.push({ ...row, waitingFor: null, order: i });
      return;
    }
    if (view.status === "finished" || view.result || view.closed) return;
    const clock = view.clock || null;
    const clockSeats = Array.isArray(clock?.seats) ? clock.seats : [];
    const mine = clockSeats.includes(view.you);
    const names = Array.isArray(view.seats) ? view.seats.map((s) => (s?.taken ? s.name || null : null)) : row.players;
    out.push({
      ...row,
      status: view.status,
      seat: view.you,
      your_turn: asksForMove(view),
      deadline: mine && typeof clock.deadline === "number" ? clock.deadline : null,
      out_at: mine && typeof clock.deadline === "number" ? clock.deadline + bankOf(clock, view.you) : null,
      late: Array.isArray(clock?.late) ? clock.late.includes(view.you) : false,
      players: names,
      waitingFor: !mine && clockSeats.length ? clockSeats.map((s) => names?.[s]).filter(Boolean) : null,
      order: i,
    });
  });
  const far = Number.POSITIVE_INFINITY;
  out.sort((a, b) => {
    if (a.your_turn !== b.your_turn) return a.your_turn ? -1 : 1;
    const da = dueAt(a) ?? far;
    const db = dueAt(b) ?? far;
    if (da !== db) return da - db;
    return a.order - b.order;
  });
  return out;
}
