// The turn clock as a countdown: the view's top-level `clock: {seats, deadline}` (ms since the epoch, the same
// for every viewer) drawn as the time left, updated every quarter second without re-rendering the page; a
// turn-based room's days are counted in words ("2 days 3:04:05"), and its late seats (`clock.late`) named.
// A waiting room's `fill_at` (when bots take its empty seats) is counted in words the same way ("... in 42 s"),
// and announced to screen readers only at 30, 10 and 0 seconds (a persistent polite region, `#announce-fill`).
// Owns: the countdown's markup and its ticking. Must not: decide anything when it runs out (the server plays).
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

/** Seconds left until `deadline` (ms since the epoch), never below 0. */
export function secondsLeft(deadline, now = Date.now()) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

function daysText(n) {
  try {
    return new Intl.NumberFormat(lang(), { style: "unit", unit: "day", unitDisplay: "short" }).format(n);
  } catch {
    return `${n} d`;
  }
}

/** "m:ss" for a number of seconds (h:mm:ss from an hour on, "2 days 3:04:05" from a day on). */
export function clockText(seconds) {
  let s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  if (days) {
    s %= 86400;
    const rest = `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
    return `${daysText(days)} ${rest}`;
  }
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** The room's countdown, or null when no clock runs. `seatName(i)` names a seat. */
export function clockPanel(view, seatName) {
  const clock = view.clock;
  if (!clock || typeof clock.deadline !== "number" || view.result) return null;
  const seats = Array.isArray(clock.seats) ? clock.seats : [];
  const auto = Array.isArray(clock.auto) ? clock.auto : [];
  const late = Array.isArray(clock.late) ? clock.late : [];
  const yours = view.you !== null && view.you !== undefined && seats.includes(view.you);
  const who = seats.map((s) => seatName(s)).join(", ");
  const left = secondsLeft(clock.deadline);
  return h(
    "p",
    { class: `turn-clock ${yours ? "yours" : ""}`, "data-testid": "clock", role: "timer" },
    h("span", { class: "clock-who" }, yours ? t("clock.yours") : t("clock.for", { names: who })),
    " ",
    h("strong", { class: "clock-left", "data-deadline": clock.deadline, "data-left": left }, clockText(left)),
    auto.length ? h("span", { class: "hint clock-auto" }, ` ${t("clock.auto", { names: auto.map((s) => seatName(s)).join(", ") })}`) : null,
    late.length ? h("span", { class: "clock-late", "data-testid": "clock-late" }, ` ${t("clock.late", { names: late.map((s) => seatName(s)).join(", ") })}`) : null,
  );
}

/** "Bots fill the empty seats in 42 s", or "now" once the time is up. */
export function fillText(left) {
  return left > 0 ? t("fill.in", { n: left }) : t("fill.now");
}

/** The mark a screen reader hears at (30, 10 or 0 seconds left), or null above 30 s. */
export function fillMark(left) {
  if (left <= 0) return 0;
  if (left <= 10) return 10;
  if (left <= 30) return 30;
  return null;
}

/** The last mark announced, per `fill_at`: the first sight of a countdown sets it without a word. */
const fillMarks = new Map();

/** The live countdown of a waiting room's `fill_at`, or null when bots do not fill its seats. */
export function fillCountdown(view) {
  if (view.status !== "waiting" || typeof view.fill_at !== "number") return null;
  const left = secondsLeft(view.fill_at);
  return h("strong", { class: "fill-left", "data-testid": "fill-left", "data-fill-at": view.fill_at, "data-left": left }, fillText(left));
}

function tickFill(el) {
  const at = Number(el.getAttribute("data-fill-at"));
  const left = secondsLeft(at);
  const text = fillText(left);
  if (el.textContent !== text) el.textContent = text;
  el.setAttribute("data-left", String(left));
  el.classList.toggle("urgent", left <= 10);
  const mark = fillMark(left);
  const seen = fillMarks.has(at);
  if (seen && fillMarks.get(at) === mark) return;
  fillMarks.set(at, mark);
  const region = typeof document !== "undefined" ? document.getElementById("announce-fill") : null;
  if (seen && mark !== null && region) region.textContent = text;
}

/** Update every countdown on the page (elements with `data-deadline` or `data-fill-at`) to the time left now. */
/** @param {ParentNode} [root] */
export function tickClocks(root = document) {
  for (const el of root.querySelectorAll("[data-fill-at]")) tickFill(el);
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const left = secondsLeft(Number(el.getAttribute("data-deadline")));
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    el.setAttribute("data-left", String(left));
    el.classList.toggle("urgent", left <= 10);
  }
}
