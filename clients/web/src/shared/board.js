// What the Voyages and Marco Polo II renderers share: resources and contracts in words, the dice (a die, the
// dice placed on an action space, placements in words), SVG text and clickable targets, seat colours.
// Owns: these widgets and words. Must not: know either game's spaces or rules; a game passes its own
// resource words (`makeWords`) for the kinds only it has.
import { clickable, s } from "../dom.js";
import { t } from "../i18n.js";

export const SEAT_COLOURS = ["#d23a2e", "#2f6bd8", "#2b9146", "#e0b000"];

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const COMMON = ["coins", "camels", "pepper", "silk", "gold", "jade", "vp", "move", "black_die"];

/**
 * Words for amounts, bundles and contracts, with a game's own kinds (`{key: n => words}`) added to the
 * common ones (coins, camels, the goods, VP, free moves, black dice: catalogue keys `w.res.<kind>`).
 */
export function makeWords(own = {}) {
  const amountWords = (key, n) => (own[key] ? own[key](n) : COMMON.includes(key) ? t(`w.res.${key}`, { n }) : `${n} ${key}`);
  const bundleWords = (items) => {
    const e = Object.entries(items || {});
    return e.length ? e.map(([k, n]) => amountWords(k, n)).join(" + ") : t("w.nothing");
  };
  const contractWords = (c) => (c ? t("w.contract.words", { cost: bundleWords(c.cost), reward: bundleWords(c.reward) }) : "—");
  return { amountWords, bundleWords, contractWords };
}

/** A good or resource by its name alone ("silk", "VP"), for chips and headings. */
export function resName(key) {
  return t(`w.resname.${key}`);
}

/** A die in words: "your 4", "the black 3", "your die (any value)". */
export function dieWords(kind, value) {
  if (!value) return t(kind === "own" ? "w.die.ownAny" : "w.die.any", { kind: t(`w.diekind.${kind}`) });
  return t(kind === "own" ? "w.die.own" : "w.die.other", { v: value, kind: t(`w.diekind.${kind}`) });
}

export function text(x, y, str, cls = "", size = 13, extra = {}) {
  return s("text", { x, y, class: cls, "font-size": size, ...extra }, str);
}

/** SVG text squeezed to `maxW` when it would run wider (names and words differ in length by language). */
export function fitText(x, y, str, cls, size, maxW) {
  const fit = String(str).length * size * 0.56 > maxW ? { textLength: maxW, lengthAdjust: "spacingAndGlyphs" } : {};
  return text(x, y, str, cls, size, fit);
}

/** Make a board element a highlighted, keyboard-usable choice (when `on`). */
export function target(el, on, label, key, onActivate) {
  if (!on) return el;
  el.classList.add("target");
  el.setAttribute("data-key", key);
  clickable(el, label, onActivate);
  return el;
}

/**
 * A die: own dice in the seat's colour, black, white and grey neutral ones. A value of null shows no
 * number; 0 shows "?" (a die whose value is chosen when placed), except a black die not yet rolled (blank).
 */
export function die(x, y, size, kind, value, seat, extra = {}) {
  const fill = kind === "own" && seat !== null && seat !== undefined ? SEAT_COLOURS[seat % 4] : null;
  const label = value ? String(value) : kind === "black" ? "" : "?";
  return s(
    "g",
    { class: `die d-${kind}`, transform: `translate(${x} ${y})`, ...extra },
    s("rect", { width: size, height: size, rx: size * 0.2, fill }),
    value === null ? null : s("text", { x: size / 2, y: size * 0.74, "font-size": size * 0.7, class: seat === 3 && kind === "own" ? "dark" : "" }, label),
  );
}

/**
 * The dice placed on one space from (x, y), each placement a run; shrunk so that all fit `maxW` (two rows at
 * most) and, when given, `maxH`.
 */
export function placedDice(placements, x, y, size, maxW, maxH = 0) {
  const count = placements.reduce((n, pl) => n + pl.dice.length, 0);
  const rows = count > 6 ? 2 : 1;
  const perRow = Math.ceil(count / rows);
  size = Math.max(9, Math.min(size, (maxW - (placements.length - 1) * 4) / Math.max(1, perRow) - 2));
  if (maxH && rows > 1) size = Math.max(9, Math.min(size, (maxH - 3) / 2));
  const parts = [];
  let cx = x;
  let cy = y;
  for (const pl of placements) {
    const w = pl.dice.length * (size + 2);
    if (cx + w > x + maxW && cx > x) {
      cx = x;
      cy += size + 3;
    }
    pl.dice.forEach(([k, v], i) => parts.push(die(cx + i * (size + 2), cy, size, k, v, pl.seat)));
    cx += w + 4;
  }
  return s("g", { class: "placed" }, parts);
}

/** The dice placed on a space in words: "Ann 3, 4; neutral 1". */
export function placementsText(view, placements) {
  return placements
    .map((pl) => `${pl.seat === null || pl.seat === undefined ? t("w.neutral") : view.seats[pl.seat]?.name || t("room.seat", { n: pl.seat + 1 })} ${pl.dice.map(([k, v]) => (k === "own" ? v : `${t(`w.diekind.${k}`)} ${v}`)).join(", ")}`)
    .join("; ");
}

/** Cut `str` into at most `lines` lines of about `width` characters (the full text belongs in a title). */
export function wrap(str, width, lines) {
  const out = [];
  let cur = "";
  for (const w of str.split(" ")) {
    if ((cur + " " + w).trim().length > width && cur) {
      out.push(cur);
      cur = w;
    } else cur = (cur + " " + w).trim();
  }
  if (cur) out.push(cur);
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = `${out[lines - 1].slice(0, width - 1)}…`;
  }
  return out;
}
