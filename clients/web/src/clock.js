// The turn clock as a countdown: the view's top-level `clock: {seats, deadline}` (ms since the epoch, the same
// for every viewer) drawn as the time left, updated every quarter second without re-rendering the page; a
// turn-based room's days are counted in words ("2 days 3:04:05"), and its late seats (`clock.late`) named.
// (v1.2) A room with time banks (`clock.bank`, ms per seat at the deadline) shows the bank of each seat the clock
// runs for (and the viewer's own), counting down once the deadline has passed: the seat's time runs out at
// `deadline + bank`.
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

/** Seconds left in a bank of `bank` ms whose seat's deadline is `deadline`: all of it before the deadline, then less. */
export function bankLeft(deadline, bank, running = true, now = Date.now()) {
  const ms = running ? Math.min(bank, deadline + bank - now) : bank;
  return Math.max(0, Math.ceil(ms / 1000));
}

/** The time banks shown beside the countdown: the seats the clock runs for, and the viewer's own. */
function bankParts(view, clock, seats, seatName) {
  const banks = Array.isArray(clock.bank) ? clock.bank : null;
  if (!banks) return [];
  const late = Array.isArray(clock.late) ? clock.late : [];
  const you = typeof view.you === "number" ? view.you : null;
  const shown = [...seats];
  if (you !== null && !shown.includes(you)) shown.push(you);
  return shown
    .filter((s) => typeof banks[s] === "number")
    .map((s) => {
      const running = seats.includes(s) && !late.includes(s);
      const left = bankLeft(clock.deadline, banks[s], running);
      const attrs = { class: `bank-left ${running && Date.now() >= clock.deadline ? "spending" : ""}`, "data-left": left };
      if (running) Object.assign(attrs, { "data-bank-end": clock.deadline + banks[s], "data-bank": banks[s] });
      return h(
        "span",
        { class: "clock-bank", "data-testid": "clock-bank", "data-seat": s },
        s === you ? t("clock.bankYours") : t("clock.bankOf", { name: seatName(s) }),
        " ",
        h("strong", attrs, clockText(left)),
      );
    });
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
    ...bankParts(view, clock, seats, seatName),
    auto.length ? h("span", { class: "hint clock-auto" }, ` ${t("clock.auto", { names: auto.map((s) => seatName(s)).join(", ") })}`) : null,
    late.length ? h("span", { class: "clock-late", "data-testid": "clock-late" }, ` ${t("clock.late", { names: late.map((s) => seatName(s)).join(", ") })}`) : null,
  );
}

/** The most log events one clock move marks (a move adds a few). */
const MARKS_PER_MOVE = 200;

/**
 * Add the log events the turn clock made (v1.2 `clock_moves: [{seat, by, v, n_from, n_to}]`, the view's last
 * few) to `marks` (event number `n` -> seat); true when one was new.
 * @param {Map<number, number>} marks
 */
export function addClockMarks(marks, view) {
  let added = false;
  for (const m of Array.isArray(view?.clock_moves) ? view.clock_moves : []) {
    if (typeof m?.n_from !== "number" || typeof m.n_to !== "number" || typeof m.seat !== "number") continue;
    for (let n = m.n_from; n <= m.n_to && n - m.n_from < MARKS_PER_MOVE; n++) {
      if (marks.get(n) !== m.seat) {
        marks.set(n, m.seat);
        added = true;
      }
    }
  }
  return added;
}

/** "(the clock played for Ann)" after a log line the clock's move made, or null for a player's own line. */
export function clockMark(marks, n, seatName) {
  if (typeof n !== "number" || !marks?.has(n)) return null;
  return h("span", { class: "clock-mark", "data-testid": "clock-mark" }, ` ${t("log.byClock", { name: seatName(marks.get(n)) })}`);
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

/** Update every countdown on the page (elements with `data-deadline`, `data-bank-end` or `data-fill-at`) to the time
 * left now. */
/** @param {ParentNode} [root] */
export function tickClocks(root = document) {
  for (const el of root.querySelectorAll("[data-fill-at]")) tickFill(el);
  for (const el of root.querySelectorAll("[data-bank-end]")) {
    const end = Number(el.getAttribute("data-bank-end"));
    const bank = Number(el.getAttribute("data-bank"));
    const left = bankLeft(end - bank, bank);
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    el.setAttribute("data-left", String(left));
    el.classList.toggle("spending", Date.now() >= end - bank);
    el.classList.toggle("urgent", left <= 10);
  }
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const left = secondsLeft(Number(el.getAttribute("data-deadline")));
    const text = clockText(left);
    if (el.textContent !== text) el.textContent = text;
    el.setAttribute("data-left", String(left));
    el.classList.toggle("urgent", left <= 10);
  }
}
