// What the Voyages and Marco Polo II renderers share: resources, contracts and city cards in words, the dice
// (a die, the dice placed on an action space, placements in words), SVG text and clickable targets, seat
// colours; the prompt sorted by gesture, its question, the options and log events both games have in words,
// the board's characters and routes, the player board's frame, the final scoring's table, the status line;
// the tie note (Expedition's too).
// Owns: these widgets and words. Must not: know either game's spaces or rules; a game passes its own
// resource and card words (`makeWords`) for the kinds only it has, and its own options and events
// (`describeMove`, `logSentence`) in words.
import { clickable, h, s } from "../dom.js";
import { t, tOr } from "../i18n.js";

export const SEAT_COLOURS = ["#d23a2e", "#2f6bd8", "#2b9146", "#e0b000"];

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const COMMON = ["coins", "camels", "pepper", "silk", "gold", "jade", "vp", "move", "black_die"];

/**
 * Words for amounts, bundles, contracts and city cards, with a game's own kinds (`{key: n => words}`) added
 * to the common ones (coins, camels, the goods, VP, free moves, black dice: catalogue keys `w.res.<kind>`)
 * and its own kinds of city card (`cards(card)`: words, or null for a kind it does not know either).
 */
/** @param {Record<string, (n: number) => string>} [own] @param {(card: any) => string | null} [cards] */
export function makeWords(own = {}, cards = (_card) => null) {
  const amountWords = (key, n) => (own[key] ? own[key](n) : COMMON.includes(key) ? t(`w.res.${key}`, { n }) : `${n} ${key}`);
  const bundleWords = (items) => {
    const e = Object.entries(items || {});
    return e.length ? e.map(([k, n]) => amountWords(k, n)).join(" + ") : t("w.nothing");
  };
  const contractWords = (c) => (c ? t("w.contract.words", { cost: bundleWords(c.cost), reward: bundleWords(c.reward) }) : "—");
  const wayWords = (w) => t("w.card.way", { cost: bundleWords(w.cost), reward: bundleWords(w.reward) });
  const cardWords = (card) => {
    if (!card) return "—";
    switch (card.kind) {
      case "per_pip":
        return t("w.card.perPip", { reward: bundleWords(card.reward) });
      case "count":
        return t(card.counts === "posts" ? "w.card.perPost" : "w.card.perContract", { reward: bundleWords(card.reward) });
      case "trade":
        return t("w.card.trade", { cost: bundleWords(card.cost), reward: bundleWords(card.reward) });
      case "either":
        return t("w.card.either", { ways: (card.ways || []).map(wayWords).join(` ${t("w.orShort")} `) });
      default:
        return cards(card) ?? JSON.stringify(card);
    }
  };
  return { amountWords, bundleWords, contractWords, wayWords, cardWords };
}

const WORDS = makeWords();

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
    pl.dice.forEach(([k, v], i) => {
      parts.push(die(cx + i * (size + 2), cy, size, k, v, pl.seat));
    });
    cx += w + 4;
  }
  return s("g", { class: "placed" }, parts);
}

/** The dice placed on a space in words: "Ann 3, 4; neutral 1". */
export function placementsText(view, placements) {
  return placements
    .map((pl) => {
      const neutral = pl.seat === null || pl.seat === undefined;
      const who = neutral ? t("w.neutral") : view.seats[pl.seat]?.name || t("room.seat", { n: pl.seat + 1 });
      // a die's kind is said unless it is the placer's own (a neutral placement's dice are neutral: said once)
      const dice = pl.dice.map(([k, v]) => (k === "own" || (neutral && k === "neutral") ? v : `${t(`w.diekind.${k}`)} ${v}`));
      return `${who} ${dice.join(", ")}`;
    })
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

// ---- what both dice-placement games have -------------------------------------------------------

/** Add `value` to the list under `key`. */
export function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

/** The viewer's own pending item (a bonus action or a choice to make), or null. */
export function myPending(view) {
  return (view.public.pending || []).find((p) => p.seat === view.you) || null;
}

/** The viewer's own player record (null for a spectator). */
export function myPlayer(view) {
  return view.you === null || view.you === undefined ? null : view.public.players[view.you];
}

/** A seat's player name (or "seat N"). */
export function seatWords(view, seat) {
  return view.seats[seat]?.name || t("room.seat", { n: seat + 1 });
}

/**
 * The prompt's options sorted by where they are chosen: `groups` (the game's empty maps, lists and nulls by
 * name) filled by `rules`, an option's action → [group, key]: no key, the group is a list; a key (an
 * option's field, or a function of the option), the group maps it to the option; `many`, to all options
 * with that key; a key of null, the group is that one option.
 */
export function byGesture(view, groups, rules) {
  for (const o of view.prompt ? view.prompt.options : []) {
    const rule = rules[o.a];
    if (!rule) continue;
    const [group, key, many] = rule;
    const k = typeof key === "function" ? key(o) : o[key];
    if (key === undefined) groups[group].push(o);
    else if (key === null) groups[group] = o;
    else if (many) push(groups[group], k, o);
    else groups[group].set(k, o);
  }
  return groups;
}

/**
 * The room's own selections (`ctx.ui`), reset when the prompt or your pending item changes: `choose` (one
 * click stood for several options: {title, options}) and the game's own (`fresh()`).
 */
export function promptUi(ctx, fresh = () => ({})) {
  const ui = ctx.ui;
  const key = JSON.stringify([ctx.view.prompt, myPending(ctx.view)]);
  if (ui.key !== key) {
    ui.key = key;
    Object.assign(ui, fresh(), { choose: null });
  }
  return ui;
}

/** Send one option (not while a move is on its way). */
export function send(ctx, option) {
  if (!option || ctx.pending) return;
  ctx.send(option);
}

/** One option: send it; several: show them as a short list to pick from (`chooser`: its class), focused. */
export function pick(ctx, ui, options, title, chooser) {
  if (ctx.pending || !options.length) return;
  if (options.length === 1) return ctx.send(options[0]);
  ui.choose = { title, options };
  ctx.rerender();
  /** @type {HTMLElement | null} */ (document.querySelector(`.${chooser} button`))?.focus(); // brings the short list into view (a phone)
}

/** A dice-placement game's question from the view's structure (the phase, your pending item); `prefix` the game's words (`vo`, `kh`). */
export function dicePromptText(view, prefix) {
  const pub = view.public;
  if (pub.phase === "draft") return t("w.prompt.character");
  const pend = myPending(view);
  if (pend) return tOr(`w.${prefix}.prompt.${pend.kind}`, tOr(`w.prompt.${pend.kind}`, view.prompt?.text || ""));
  if (pub.main_done) return t("w.prompt.bonusOrEnd");
  return t("w.prompt.space");
}

/** Lookups into a game's constant board (`data`): locations by id, routes, characters (`w.<prefix>.char.<id>`). */
export class DiceBoard {
  constructor(pub, data, prefix) {
    this.pub = pub;
    this.prefix = prefix;
    this.nodes = new Map((data.nodes || []).map((n) => [n.id, n]));
    this.edges = data.edges || [];
    this.characters = data.characters || {};
  }

  character(id) {
    return tOr(`w.${this.prefix}.char.${id}`, this.characters[id]?.name || id || "—");
  }

  ability(id) {
    return tOr(`w.${this.prefix}.ability.${id}`, this.characters[id]?.ability || "");
  }

  route(a, b) {
    return this.edges.find((e) => (e.a === a && e.b === b) || (e.a === b && e.b === a)) || null;
  }
}

/**
 * An option of a dice-placement game in words. `game` says what differs: `board(pub)` its board,
 * `own(move, q)` its own options (undefined: one both games have; `q`: view, pub, B, pend, mine, die),
 * `named(q, id)` a contract, `routeWords(edge)` a route's extra cost, `stopKinds` the pending kinds whose
 * stop has its own words, `ownDie(move, q)` (optional) the die of a `die` option.
 */
export function describeMove(move, view, game) {
  // a move paying coins or camels with jade (Marco Polo II): the same move in words, and what the jade pays
  if (move.jade && typeof move.jade === "object") {
    const { jade, ...plain } = move;
    const what = game.bundleWords(Object.fromEntries(Object.entries(jade).filter(([, n]) => n)));
    return t("w.opt.withJade", { move: describeMove(plain, view, game), what });
  }
  const pub = view.public;
  const q = { view, pub, B: game.board(pub), pend: myPending(view) || {}, mine: myPlayer(view) || {}, die: dieWords(move.kind, move.value) };
  const own = game.own(move, q);
  if (own !== undefined) return own;
  const { B, pend, mine, die } = q;
  switch (move.a) {
    case "character":
      return t("w.opt.character", { name: B.character(move.character) });
    case "die": {
      const d = game.ownDie ? game.ownDie(move, q) : die;
      return pend.kind === "dice" ? t("w.opt.dieOn", { die: d, space: B.space(pend.space) }) : t("w.opt.die", { die: d });
    }
    case "cancel":
      return t("w.opt.cancel");
    case "fulfil":
      return t("w.opt.fulfil", { contract: game.named(q, move.contract) });
    case "reroll":
      return t("w.opt.reroll", { die });
    case "adjust":
      return t("w.opt.adjust", { die, to: move.value + move.by });
    case "end":
      return t("w.opt.end");
    case "comp": {
      const camels = (pend.amount ?? move.coins) - move.coins;
      return t("w.opt.comp", { coins: WORDS.amountWords("coins", move.coins), camels: WORDS.amountWords("camels", camels) });
    }
    case "good":
      return t("w.opt.good", { good: game.amountWords(move.good, 1) });
    case "step": {
      const figs = mine.figures || [];
      const from = figs[move.fig];
      const cost = game.routeWords(B.route(from, move.to));
      const words = t(figs.length > 1 ? "w.opt.stepFig" : "w.opt.step", { fig: move.fig + 1, from: B.name(from), to: B.name(move.to) });
      return cost ? `${words} (${t("w.route", { cost })})` : words;
    }
    case "stop":
      return game.stopKinds.includes(pend.kind) ? t(`w.kh.opt.stop.${pend.kind}`) : t("w.opt.stop");
    case "relocate":
      return t("w.opt.relocate", { city: B.name(move.from) });
    case "done":
      return t("w.opt.doneContracts");
    case "times": {
      const words = t("w.opt.times", { n: move.n });
      const card = (pub.city_cards || []).find((c) => c.card.id === pend.card)?.card;
      const w = card?.kind === "either" ? card.ways[move.way] : null;
      return w ? `${words} (${game.wayWords(w)})` : words;
    }
    default:
      return JSON.stringify(move);
  }
}

/**
 * A log event of a dice-placement game in words: `own(who)` says the game's own events (undefined: one
 * both games say alike), `named(id)` a contract, `die(kind, value)` a placed die.
 */
export function logSentence(ev, view, B, own, { named, die }) {
  const who = ev.seat !== undefined && ev.seat !== null ? seatWords(view, ev.seat) : "";
  const words = own(who);
  if (words !== undefined) return words;
  switch (ev.ev) {
    case "character":
      return t("w.log.character", { who, name: B.character(ev.character) });
    case "place": {
      const dice = ev.dice.map(([k, v]) => die(k, v)).join(", ");
      return ev.fee ? t("w.log.placeFee", { who, dice, space: B.space(ev.space), fee: WORDS.amountWords("coins", ev.fee) }) : t("w.log.place", { who, dice, space: B.space(ev.space) });
    }
    case "step":
    case "relocate":
      return t(`w.log.${ev.ev}`, { who, from: B.name(ev.from), to: B.name(ev.to) });
    case "post":
      return ev.vp ? t("w.kh.log.postVp", { who, nth: ev.nth, city: B.name(ev.city), vp: ev.vp }) : t("w.kh.log.post", { who, nth: ev.nth, city: B.name(ev.city) });
    case "take_contract":
      return t("w.log.took", { who, what: named(ev.contract) });
    case "fulfil":
      return t("w.log.fulfilled", { who, what: named(ev.contract) });
    case "black_die":
      return t("w.log.blackDie", { who, v: ev.value });
    case "end_turn":
      return t("w.log.endTurn", { who });
    case "final_scoring":
      return t("w.log.final", { scores: (ev.scores || []).map((sc, i) => `${seatWords(view, i)} ${sc}`).join(", ") });
    default:
      return String(ev.ev);
  }
}

/**
 * A player's board: the heading (colour, name, you, to play, `start` tag), character, resources (`res`,
 * classed `resClass`), dice (`dice` after `diceLabel`), the game's own `lines`, contracts and goal cards;
 * `cls` the game's class prefix (`kh`, `vy`).
 */
export function playerPanel(ctx, p, { cls, B, start, resClass, res, diceLabel, dice, lines, contracts, goalList }) {
  const { view } = ctx;
  const pub = view.public;
  const mine = p.seat === view.you;
  const turn = pub.turn === p.seat && pub.phase === "play" && !view.result;
  const colour = SEAT_COLOURS[p.seat % 4];
  return h(
    "section",
    { class: `${cls}-player panel ${mine ? "me" : ""} ${turn ? "turn" : ""}`, "data-seat": p.seat, style: { borderTopColor: colour }, "aria-label": t("w.boardOf", { who: ctx.seatName(p.seat) }) },
    // the board's top-level panels are h2 under the room's h1 (axe-core's heading-order), the goals h3 under it
    h(
      "h2",
      null,
      h("span", { class: "swatch", style: { background: colour }, "aria-hidden": "true" }),
      ctx.seatName(p.seat),
      mine ? ` ${t("room.you")}` : "",
      turn ? h("span", { class: "turn-tag" }, t("w.toPlay")) : null,
      start,
    ),
    h("p", { class: `${cls}-char`, title: B.ability(p.character) }, B.character(p.character), h("span", { class: "sr" }, `: ${B.ability(p.character)}`)),
    h("div", { class: resClass }, res),
    h("div", { class: `${cls}-line` }, h("span", { class: "k" }, diceLabel), dice),
    lines,
    h("div", { class: `${cls}-contracts` }, contracts.length ? contracts : h("span", { class: "hint" }, t("w.noContract"))),
    goalList ? h("h3", null, mine && !view.result ? t("w.goalsSecret") : t("w.goals")) : null,
    goalList,
  );
}

/** The seats of a finished game, best first (the result's `ranking`, else by score). */
export function rankingOf(res) {
  const n = res.scores.length;
  return Array.isArray(res.ranking) ? res.ranking : [...Array(n).keys()].sort((a, b) => res.scores[b] - res.scores[a]);
}

/**
 * The final scoring as a table, best first, for the room's result panel: a row per seat (the winners marked), a
 * column per `[heading, seat => value]`; `cls` names it (the games' tests find it), and it scrolls sideways when
 * it is wider than the panel.
 */
export function scoreTable(view, cls, columns) {
  const res = view.result;
  if (!res) return null;
  const cell = (v) => (v === null || v === undefined ? "—" : String(v));
  return h(
    "div",
    // a region the keyboard can scroll sideways on a phone
    { class: `score-table ${cls}`, "data-testid": "score-table", role: "region", tabindex: "0", "aria-label": t("w.bd.title") },
    h(
      "table",
      null,
      h("caption", null, t("w.bd.title")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("w.bd.player")), columns.map(([head]) => h("th", { scope: "col" }, head)))),
      h(
        "tbody",
        null,
        rankingOf(res).map((i) =>
          h(
            "tr",
            { "data-seat": i, class: res.winners.includes(i) ? "winner" : null },
            h("th", { scope: "row" }, seatWords(view, i), i === view.you ? ` ${t("room.you")}` : ""),
            columns.map(([, of]) => h("td", null, cell(of(i)))),
          ),
        ),
      ),
    ),
  );
}

/** The final scoring of a dice-placement game: the breakdown's `keys` (headed `w.<prefix>.bd.<key>`) and the camels of the tie-break. */
export function breakdownTable(view, { cls, prefix, keys }) {
  const res = view.result;
  if (!res?.breakdown) return null;
  const columns = keys.map((k) => [t(`w.${prefix}.bd.${k}`), (i) => res.breakdown[i]?.[k] ?? 0]);
  return scoreTable(view, `${cls}-breakdown`, [...columns, [resName("camels"), (i) => res.tiebreak?.[i] ?? null]]);
}

/** Every seat's goal cards, shown by the final scoring (`goalWords(goal)` their words), for the result panel. */
export function goalsAtEnd(view, goalWords) {
  const players = view.public.players || [];
  if (!view.result || !players.some((p) => p.goals?.length)) return null;
  return h(
    "div",
    { class: "goals-at-end" },
    h("h3", null, t("w.goals")),
    h("ul", null, rankingOf(view.result).map((i) => h("li", { "data-seat": i }, h("strong", null, `${seatWords(view, i)}: `), (players[i]?.goals || []).map(goalWords).join("; ") || "—"))),
  );
}

/** The room's status line: whose turn, (with `draft`) who picks a character, who is being waited for. */
export function diceStatus(view, ctx, { draft = false } = {}) {
  const pub = view.public;
  if (pub.phase === "play" && pub.turn !== null && pub.turn !== undefined) return t("w.st.playing", { round: pub.round, who: ctx.seatName(pub.turn) });
  if (draft && pub.phase === "draft" && pub.draft?.order?.length) return t("w.st.draft", { who: ctx.seatName(pub.draft.order[0]) });
  const waiting = [...new Set((pub.pending || []).map((p) => p.seat))].map((i) => ctx.seatName(i));
  if (waiting.length) return t("w.st.waiting", { round: pub.round, who: waiting.join(", ") });
  return t("w.st.round", { round: pub.round });
}

/** Why a tie on the top score stands or is broken: `broken` (the tie-break decided), `shared` (it did not). */
export function tieNote(view, broken, shared) {
  const res = view.result;
  const top = Math.max(...res.scores);
  const tied = res.scores.filter((x) => x === top).length;
  if (tied > 1 && tied > res.winners.length) return t(broken);
  if (tied > 1) return t(shared);
  return null;
}

/** Camels break a tie of VP; a tie of camels too is shared. */
export function camelsTieNote(view) {
  return tieNote(view, "w.tie.camels", "w.tie.camelsShared");
}
