// The Voyages of Marco Polo: the map (25 locations, 30 routes) and the action board as SVG, the dice tray,
// the player boards with their contracts and (yours only) goal cards.
// Owns: drawing the view (docs/games/voyages.md) and turning clicks into prompt options: the action space,
// then the die, then the resource choice; a route's end on the map; a contract; a bazaar column.
// Must not: decide a rule. Every move sent is one of `view.prompt.options`, sent exactly as listed; what is
// highlighted comes from the prompt alone. Options without a gesture are the room's buttons.
import { h, s } from "../dom.js";
import { t, t as tr, tOr } from "../i18n.js";
import { DiceBoard, breakdownTable, byGesture, camelsTieNote, describeMove, dicePromptText, diceStatus, die, fitText, goalsAtEnd, logSentence, makeWords, myPending, myPlayer as me, pick as pickFrom, placedDice, placementsText, playerPanel, promptUi, push, SEAT_COLOURS, send, dieWords as sharedDieWords, target, text } from "../shared/board.js";
import { contractName } from "../shared/names.js";

const SEAT_COLOUR_NAMES = ["red", "blue", "green", "yellow"];
const colourName = (i) => t(`w.ex.colour.${SEAT_COLOUR_NAMES[i % 4]}`);
const GOODS = ["pepper", "silk", "gold"];
const RESOURCES = ["coins", "camels", "pepper", "silk", "gold", "vp"];
const RES_FILL = { coins: "#f2c230", camels: "#b47a3c", pepper: "#a3401f", silk: "#6b4fc4", gold: "#e8b81a", vp: "#2f8a57" };
const SPACES = ["coins", "camels", "pepper", "silk", "gold", "khan", "contracts", "travel"];
const goodName = (g) => tOr(`w.resname.${g}`, g);
const SPACE_DICE = { coins: 1, khan: 1, contracts: 1, travel: 2 };
const kindWords = (k) => tOr(`w.vo.kind.${k}`, k);

// The map, drawn in a 1000×650 box (landscape; a phone gets it turned a quarter, 650×1000): Venezia in the
// west, Moscow and Karakorum in the north, Beijing in the east, Sumatra in the south-east.
const MAP_W = 1000;
const MAP_H = 650;
const NODE_XY = {
  0: [62, 300], 1: [170, 180], 2: [300, 110], 3: [490, 86], 4: [680, 100], 5: [795, 165], 6: [935, 178],
  7: [795, 268], 8: [900, 305], 9: [185, 300], 10: [320, 252], 11: [432, 190], 12: [545, 258], 13: [665, 268],
  14: [815, 392], 15: [955, 430], 16: [110, 448], 17: [300, 388], 18: [440, 410], 19: [585, 420], 20: [705, 432],
  21: [890, 528], 22: [230, 548], 23: [420, 548], 24: [660, 548],
};
const NODE_R = { start: 20, oasis: 12, small: 16, large: 21, beijing: 27 };
// landscape: where a large city's city card goes (its centre, relative to the city); Sumatra's three lie in a
// row along the bottom edge. Upright (a phone) the nine cards are a grid under the map, named by city.
const CARD_W = 118;
const CARD_H = 38;
const CARD_AT = { 2: [0, -62], 4: [0, -60], 10: [4, 64], 13: [0, 66], 16: [0, 70], 19: [0, 64] };
const PORT_CARDS_H = 260; // upright: the strip of city cards under the map, its title included
// where a city's bonus (small-city marker, large-city outpost tile) sits, relative to the city
const BONUS_AT = {
  land: {
    3: [34, 18], 12: [32, -28], 14: [36, -14], 18: [0, -32], 23: [36, -20], 24: [36, -22],
    2: [-36, 24], 4: [38, 18], 10: [-34, -24], 13: [36, -26], 16: [40, -22], 19: [-38, -24], 21: [-6, -44],
  },
  port: {
    3: [42, 0], 12: [44, -12], 14: [40, 12], 18: [42, -10], 23: [44, -14], 24: [44, 0],
    2: [-46, -26], 4: [-46, -30], 10: [-44, -30], 13: [46, -20], 16: [52, -24], 19: [-48, -10], 21: [48, -22],
  },
};
const BEIJING_SLOTS_AT = { land: [42, -28], port: [-26, 46] };

// ---- words -------------------------------------------------------------------------------------

const WORDS = makeWords(
  {
    any_good: (n) => t("w.res.goodChoice", { n }),
    two_goods: (n) => t("w.vo.res.twoGoods", { n }),
    contract: (n) => t("w.vo.res.special", { n }),
    other_city_bonus: () => t("w.vo.res.otherBonus"),
  },
  ownCardWords,
);
const { amountWords, bundleWords, contractWords, cardWords } = WORDS;

/** The city cards only the Voyages have, in words (null: a kind both games have). */
function ownCardWords(card) {
  switch (card.kind) {
    case "by_die":
      return t("w.card.byDie", { rewards: `${goodName(card.good)} ${(card.amount_by_die || []).join("/")}` });
    case "city_bonus": {
      const times = card.times_by_die ? t("w.vo.card.timesBy", { times: card.times_by_die.join("/") }) : t("w.vo.card.timesUpTo");
      const words = t("w.vo.card.cityBonus", { times });
      return card.cost && Object.keys(card.cost).length ? t("w.vo.card.payEach", { cost: bundleWords(card.cost), what: words }) : words;
    }
    default:
      return null;
  }
}

class Board extends DiceBoard {
  constructor(pub) {
    const t = pub.track || {};
    super(pub, t, "vo");
    this.cardSlots = t.city_card_slots || [];
    this.tiers = t.travel_tier_cost || [];
    this.beijingVp = t.beijing_vp || [];
    this.bazaar = t.bazaar || {};
    this.markers = t.city_bonus_markers || {};
  }

  name(id) {
    const n = this.nodes.get(Number(id));
    if (!n) return t("w.vo.location", { n: id });
    return n.type === "oasis" ? t("w.vo.oasis", { n: n.id }) : tOr(`w.vo.city.${n.id}`, n.name);
  }

  kind(id) {
    return this.nodes.get(Number(id))?.type || "?";
  }

  space(space) {
    if (SPACES.includes(space)) return t(`w.vo.space.${space}`);
    if (space && space.startsWith("card-")) return t("w.vo.cardIn", { city: this.name(this.cardSlots[Number(space.slice(5))]) });
    return String(space);
  }

  diceNeeded(space) {
    if (this.bazaar[space]) return this.bazaar[space].dice;
    return SPACE_DICE[space] || 1;
  }

  marker(m) {
    return bundleWords(this.markers[String(m)]);
  }
}

/** The id of the first location of a type ("start", "beijing"). */
function nodeOf(B, type) {
  return [...B.nodes.values()].find((n) => n.type === type)?.id;
}

function routeCostWords(e) {
  const extra = [];
  if (e?.coins) extra.push(amountWords("coins", e.coins));
  if (e?.camels) extra.push(amountWords("camels", e.camels));
  return extra.join(" + ");
}

/** Someone's die in the log: "4", "black 3", "a die". */
function aDie(kind, value) {
  return value ? (kind === "own" ? String(value) : `${t(`w.diekind.${kind}`)} ${value}`) : t("w.vo.aDie");
}

function dieWords(kind, value) {
  return aDie(kind, value);
}

/** A contract by what it asks and gives (the data has no names); "a contract" when it is not in view. */
function cname(view, id) {
  const c = findContract(view, id);
  return contractName(id, c ? contractWords(c) : null);
}

function findContract(view, id) {
  const mine = me(view)?.contracts || [];
  return [...mine, ...(view.public.display || [])].find((c) => c.id === id) || null;
}

function cardData(pub, id) {
  return (pub.city_cards || []).find((c) => c.card.id === id)?.card || null;
}

/** An option only the Voyages have, in words (undefined: one both games have). */
function ownOption(move, q) {
  const { view, pub, B, pend, die } = q;
  switch (move.a) {
    case "space": {
      const words = t("w.opt.space", { space: B.space(move.space), dice: t("w.dice", { n: B.diceNeeded(move.space) }) });
      const cc = move.space.startsWith("card-") ? (pub.city_cards || [])[Number(move.space.slice(5))] : null;
      return cc ? `${words}: ${cardWords(cc.card)}` : words;
    }
    case "bag":
      return t("w.vo.opt.bag", { die });
    case "black":
      return t("w.kh.opt.black");
    case "column": {
      const row = B.bazaar[pend?.res]?.by_die || [];
      return t("w.vo.opt.column", { n: move.n, good: goodName(pend?.res || ""), gain: bundleWords(row[move.n - 1]) });
    }
    case "goods":
      return t("w.vo.opt.goods", { a: amountWords(move.goods[0], 1), b: amountWords(move.goods[1], 1) });
    case "take": {
      let words = t("w.opt.take", { contract: cname(view, move.contract) });
      if (move.bonus) {
        const slot = (pend?.eligible || []).find(([, c]) => c === move.contract)?.[0];
        words = t("w.vo.opt.takeBonus", { take: words, bonus: amountWords(move.bonus, slot === 4 ? 1 : 2) });
      }
      return move.discard ? t("w.opt.takeDiscard", { take: words, contract: cname(view, move.discard) }) : words;
    }
    case "step":
      if (!move.goods) return undefined;
      return t("w.vo.opt.payingGoods", { move: describe({ ...move, goods: undefined }, view), a: amountWords(move.goods[0], 1), b: amountWords(move.goods[1], 1) });
    case "trade": {
      if (move.give) return t("w.vo.opt.give", { good: amountWords(move.give, 1) });
      const card = cardData(pub, pend?.card);
      const cost = card?.kind === "either" ? { camels: 2 } : card?.cost || {};
      return Object.keys(cost).length ? t("w.vo.opt.payFor", { cost: bundleWords(cost), good: amountWords(move.get, 1) }) : t("w.opt.good", { good: amountWords(move.get, 1) });
    }
    case "city":
      return t("w.opt.takeBonus", { bonus: t("w.kh.src.city", { city: B.name(move.city), bonus: B.marker(pub.city_bonus?.[String(move.city)]) }) });
    case "bonus":
      return t("w.vo.opt.bonus", { bonus: B.marker(move.marker) });
    case "post":
      return t("w.vo.opt.post", { city: B.name(move.city) });
    case "keep":
      return t("w.vo.opt.keep", { contract: cname(view, move.discard) });
    case "decline":
      return t("w.vo.opt.decline");
    case "goals": {
      const offer = view.private?.goal_offer || [];
      const words = move.keep.map((id) => {
        const g = offer.find((x) => x.id === id);
        return g ? goalWords(B, g) : t("w.kind.goal");
      });
      return t("w.vo.opt.goals", { goals: words.join("; ") });
    }
    default:
      return undefined;
  }
}

const VOYAGES = {
  ...WORDS,
  board: (pub) => new Board(pub),
  own: ownOption,
  named: (q, id) => cname(q.view, id),
  routeWords: routeCostWords,
  stopKinds: ["travel", "card"],
  ownDie: (move, q) => (move.kind === "own" && q.mine.character === "raschid" ? t("w.vo.dieAs", { v: move.value }) : q.die),
};

function describe(move, view) {
  return describeMove(move, view, VOYAGES);
}

/** A goal card: its two cities and its VP. */
function goalWords(B, g) {
  return t("w.vo.goal", { cities: g.cities.map((c) => B.name(c)).join(" + "), vp: g.vp });
}

/** A die of yours as the object of a sentence: "your 4 die", "the black 3 die", "your die (any value)". */
function theDie(kind, value) {
  return sharedDieWords(kind, value);
}

/** The prompt's question in words, from the view's structure (the phase and your pending item). */
function promptText(view) {
  return dicePromptText(view, "vo");
}

// ---- the prompt, sorted by gesture -------------------------------------------------------------

function analyse(view) {
  const A = {
    spaces: new Map(),
    dice: [],
    dieActions: [],
    black: null,
    fulfil: new Map(),
    column: new Map(),
    good: new Map(),
    goods: [],
    take: new Map(),
    step: new Map(),
    keep: new Map(),
    relocate: new Map(),
    city: new Map(),
  };
  return byGesture(view, A, {
    space: ["spaces", "space"],
    die: ["dice"],
    bag: ["dieActions"],
    reroll: ["dieActions"],
    adjust: ["dieActions"],
    black: ["black", null],
    fulfil: ["fulfil", "contract"],
    column: ["column", "n"],
    good: ["good", "good"],
    goods: ["goods"],
    take: ["take", "contract", true],
    step: ["step", "to", true],
    keep: ["keep", "discard"],
    relocate: ["relocate", "from"],
    city: ["city", "city"],
  });
}

const GESTURES = new Set(["space", "die", "bag", "reroll", "adjust", "black", "fulfil", "column", "good", "goods", "take", "step", "keep", "relocate", "city"]);

/** The room's own selections; forgotten when the prompt changes. */
function uiState(ctx) {
  return promptUi(ctx, () => ({
    dieMenu: null, // [kind, value] of the die whose bonus actions are shown
    bag: false, // the money bag was clicked: the next die goes in it
    naming: false, // Raschid: the value picker for an own die is open
    goods: [], // goods picked for a "2 different goods" choice
  }));
}

// ---- SVG pieces --------------------------------------------------------------------------------

const PATHS = {
  camels: "M1.5 21V14.5Q3.5 6.5 7.5 11.5Q10.5 5 13.5 11.5L17.5 7.5H21.5L21 10.5L19 12.5V21H16.5V16H6V21Z",
  pepper: "M12 3.5C9.2 3.5 8 5.6 8.6 7.6C5.4 9.3 4.4 13.4 5.6 16.8C7 20.8 10.4 21.6 12 21.6S17 20.8 18.4 16.8C19.6 13.4 18.6 9.3 15.4 7.6C16 5.6 14.8 3.5 12 3.5Z",
  silk: "M3 5H18Q21.5 8.5 18.5 12.5Q21.5 16.5 18 20H3Z",
  gold: "M1.5 19.5L6 8.5H18L22.5 19.5Z",
  vp: "M12 1.8L14.9 8.4L22 9.1L16.6 13.8L18.2 21L12 17.2L5.8 21L7.4 13.8L2 9.1L9.1 8.4Z",
  contract: "M5 2H15.5L20 6.5V22H5Z",
  move: "M2 9.5H13V4L22 12L13 20V14.5H2Z",
  other_city_bonus: "M12 2L21 7V17L12 22L3 17V7Z",
};

function icon(key, x, y, size) {
  const t = `translate(${x} ${y}) scale(${size / 24})`;
  const r = size / 2;
  switch (key) {
    case "coins":
      return s("circle", { class: "ic ic-coins", cx: x + r, cy: y + r, r: r * 0.86 });
    case "black_die":
      return s("rect", { class: "ic ic-black", x: x + 1, y: y + 1, width: size - 2, height: size - 2, rx: size * 0.2 });
    case "any_good":
    case "two_goods":
      return s(
        "g",
        { class: `ic ic-${key}` },
        s("circle", { cx: x + r * 0.62, cy: y + r * 1.25, r: r * 0.55, fill: RES_FILL.pepper }),
        s("circle", { cx: x + r * 1.38, cy: y + r * 1.25, r: r * 0.55, fill: RES_FILL.silk }),
        s("circle", { cx: x + r, cy: y + r * 0.6, r: r * 0.55, fill: RES_FILL.gold }),
      );
    case "other_city_bonus":
      return s("g", { class: "ic-other", transform: t }, s("path", { class: "ic ic-other_city_bonus", d: PATHS.other_city_bonus }), s("text", { x: 7, y: 17.5, "font-size": 15 }, "?"));
    default:
      if (!PATHS[key]) return s("text", { x, y: y + size * 0.8, "font-size": size * 0.7 }, key);
      return s("path", { class: `ic ic-${key}`, d: PATHS[key], transform: t });
  }
}

/** Amounts as number + icon pairs from (x, y), `size` high; returns the group and its width. */
function bundle(items, x, y, size, { showOne = false } = {}) {
  const parts = [];
  let cx = x;
  for (const [k, n0] of Object.entries(items || {})) {
    const n = k === "two_goods" ? 2 * n0 : n0;
    const implied = n === 1 && !showOne && ["move", "contract", "black_die", "any_good", "other_city_bonus"].includes(k);
    if (!implied) {
      const label = String(n);
      parts.push(s("text", { class: "n", x: cx, y: y + size * 0.82, "font-size": size * 0.9 }, label));
      cx += label.length * size * 0.56 + 1;
    }
    parts.push(icon(k, cx, y, size));
    cx += size * 1.25;
  }
  return { node: s("g", { class: "bundle" }, parts), width: Math.max(0, cx - x - size * 0.25) };
}

// ---- the map -----------------------------------------------------------------------------------

function mapSvg(ctx, A, ui) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const port = Boolean(ctx.narrow);
  const W = port ? MAP_H : MAP_W;
  const H = port ? MAP_W + PORT_CARDS_H : MAP_H;
  const at = (id) => {
    const [x, y] = NODE_XY[id] || [0, 0];
    return port ? [y, x] : [x, y];
  };
  const orient = port ? "port" : "land";
  const F = port ? 1.3 : 1; // upright on a phone the map is shown smaller: its pieces are drawn bigger
  const figuresAt = new Map();
  const postsAt = new Map();
  for (const p of pub.players) {
    p.figures.forEach((loc, f) => {
      push(figuresAt, loc, { seat: p.seat, fig: f, many: p.figures.length > 1 });
    });
    for (const c of p.posts) push(postsAt, c, p.seat);
  }
  const name = (i) => ctx.seatName(i);

  // the figures a travel step may move, and where from (to highlight the routes in use)
  const stepFrom = new Map();
  for (const [to, list] of A.step) for (const o of list) push(stepFrom, to, me(view)?.figures?.[o.fig]);

  const routes = B.edges.map((e) => {
    const [x1, y1] = at(e.a);
    const [x2, y2] = at(e.b);
    const cost = routeCostWords(e);
    const active = (stepFrom.get(e.a) || []).includes(e.b) || (stepFrom.get(e.b) || []).includes(e.a);
    const parts = [s("line", { class: "road-edge", x1, y1, x2, y2 }), s("line", { class: "road", x1, y1, x2, y2 })];
    if (e.coins || e.camels) {
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      const key = e.coins ? "coins" : "camels";
      const n = e.coins || e.camels;
      const w = 17 + String(n).length * 8;
      parts.push(
        s(
          "g",
          { class: `cost cost-${key}`, transform: `translate(${mx} ${my}) scale(${F}) translate(${-w / 2} -10)` },
          s("rect", { width: w + 4, height: 20, rx: 10 }),
          text(4, 15, String(n), "n", 14),
          icon(key, 5 + String(n).length * 8, 3, 14),
        ),
      );
    }
    return s(
      "g",
      { class: `route ${active ? "active" : ""}`, "data-route": `${e.a}-${e.b}` },
      s("title", null, t("w.vo.map.route", { a: B.name(e.a), b: B.name(e.b), cost: cost ? t("w.vo.map.extra", { cost }) : t("w.vo.map.noExtra") })),
      parts,
    );
  });

  const cardsAt = new Map();
  for (const cc of pub.city_cards || []) push(cardsAt, cc.city, cc);

  const extras = [];
  const nodes = [...B.nodes.values()].map((n) => {
    const [x, y] = at(n.id);
    const r = NODE_R[n.type] || 14;
    const parts = [];
    parts.push(s("circle", { class: "node-shape", cx: 0, cy: 0, r }));
    if (n.type === "oasis") parts.push(text(0, 4.5, String(n.id), "oasis-n", 12));
    else if (port && n.id === 21) parts.push(text(r + 4, 5, B.name(n.id), "city-name start", 15)); // clear of a route
    else parts.push(text(0, r + 15, B.name(n.id), "city-name", n.type === "small" ? 14 : 15));
    // trading posts on the rim, each seat at its own corner (Beijing's go on its VP spaces)
    const posts = postsAt.get(n.id) || [];
    if (n.type !== "beijing") {
      for (const seat of posts) {
        const ang = [-135, -45, 45, 135][seat % 4] * (Math.PI / 180);
        const px = Math.cos(ang) * (r + 1);
        const py = Math.sin(ang) * (r + 1);
        parts.push(s("rect", { class: "post", x: px - 6, y: py - 6, width: 12, height: 12, rx: 2, fill: SEAT_COLOURS[seat % 4] }));
      }
    }
    // figures: pawns across the middle
    const figs = figuresAt.get(n.id) || [];
    figs.forEach((f, i) => {
      const fx = (i - (figs.length - 1) / 2) * 13;
      parts.push(
        s(
          "g",
          { class: "figure", transform: `translate(${fx} ${-2})` },
          s("path", { d: "M-6 9 L-3.2 -1 A4.6 4.6 0 1 1 3.2 -1 L6 9 Z", fill: SEAT_COLOURS[f.seat % 4] }),
        ),
      );
    });
    const words = [`${B.name(n.id)}, ${kindWords(n.type)}`];
    if (n.type === "small") words.push(t("w.vo.map.bonus", { bonus: B.marker(pub.city_bonus?.[String(n.id)]) }));
    if (n.type === "large") {
      const tile = pub.outposts?.[String(n.id)];
      words.push(tile ? t("w.vo.map.firstPost", { bonus: bundleWords(tile.reward) }) : t("w.vo.map.outpostTaken"));
    }
    if (posts.length) words.push(t("w.vo.map.posts", { who: posts.map(name).join(", ") }));
    for (const f of figs) words.push(f.many ? t("w.vo.map.figureN", { who: name(f.seat), fig: f.fig + 1 }) : t("w.vo.map.figure", { who: name(f.seat) }));

    // what a click here means now: a step, a post to move, a small city's bonus
    const steps = A.step.get(n.id) || [];
    const reloc = A.relocate.get(n.id);
    const city = A.city.get(n.id);
    const options = [...steps, ...(reloc ? [reloc] : []), ...(city ? [city] : [])];
    const g = s(
      "g",
      { class: `node n-${n.type}`, transform: `translate(${x} ${y}) scale(${F})`, "data-node": n.id },
      s("title", null, words.join("; ")),
      options.length ? s("circle", { class: "ring", r: r + 6 }) : null,
      parts,
    );
    const verb = steps.length ? "w.vo.map.moveTo" : reloc ? "w.vo.map.relocateHere" : "w.vo.map.bonusOf";
    target(g, options.length > 0, t(verb, { where: words.join("; ") }), `node-${n.id}`, () => pick(ctx, ui, options, t("w.vo.map.to", { city: B.name(n.id) })));
    if (!options.length) {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", words.join("; "));
    }

    // the city's bonus: a small city's marker, a large city's outpost tile while nobody took it
    const bAt = BONUS_AT[orient][n.id];
    if (bAt && (n.type === "small" || n.type === "large")) {
      const [dx, dy] = bAt;
      const items = n.type === "small" ? B.markers[String(pub.city_bonus?.[String(n.id)])] : pub.outposts?.[String(n.id)]?.reward;
      if (items) {
        const b = bundle(items, 0, 0, 14);
        const w = b.width + 10;
        extras.push(
          s(
            "g",
            { class: `bonus b-${n.type}`, transform: `translate(${x + dx * F} ${y + dy * F}) scale(${F}) translate(${-w / 2} -11)`, "aria-hidden": "true" },
            s("rect", { width: w, height: 22, rx: n.type === "small" ? 11 : 4 }),
            s("g", { transform: "translate(5 4)" }, b.node),
          ),
        );
      }
    }
    // Beijing: the 10/7/4/1 spaces with the posts in arrival order
    if (n.type === "beijing") {
      const [dx, dy] = BEIJING_SLOTS_AT[orient];
      B.beijingVp.forEach((vp, i) => {
        const seat = (pub.beijing || [])[i];
        const sx = x + dx * F + (i % 2) * 26 * F;
        const sy = y + dy * F + Math.floor(i / 2) * 26 * F;
        extras.push(
          s(
            "g",
            { class: "bj-slot", transform: `translate(${sx} ${sy}) scale(${F})` },
            s("title", null, seat !== undefined ? t("w.vo.map.beijingTaken", { city: B.name(n.id), vp, who: name(seat) }) : t("w.vo.map.beijing", { city: B.name(n.id), vp })),
            s("rect", { width: 23, height: 23, rx: 3, style: seat !== undefined ? { fill: SEAT_COLOURS[seat % 4] } : null }),
            text(11.5, 16, String(vp), seat !== undefined && seat !== 3 ? "light" : "", 12),
          ),
        );
      });
    }
    // the city card of a large city (landscape), clickable when its action space is an option
    const cAt = CARD_AT[n.id];
    if (!port && cAt) {
      for (const cc of cardsAt.get(n.id) || []) {
        const face = cityCardFace(cc.card, 0);
        const w = Math.max(CARD_W, face.width + 12);
        extras.push(cityCard(ctx, A, cc, B, { x: x + cAt[0] - w / 2, y: y + cAt[1] - CARD_H / 2, w, h: CARD_H }));
      }
    }
    return g;
  });

  // the cards without a place by their city: Sumatra's (landscape), all nine (upright)
  const loose = (pub.city_cards || []).filter((cc) => port || !CARD_AT[cc.city]);
  if (port) {
    const cw = (W - 16) / 3;
    loose.forEach((cc, i) => {
      extras.push(cityCard(ctx, A, cc, B, { x: (i % 3) * (cw + 8), y: H - PORT_CARDS_H + 84 + Math.floor(i / 3) * 60, w: cw, h: 54, named: true }));
    });
  } else {
    const widths = loose.map((cc) => Math.max(CARD_W, cityCardFace(cc.card, 0).width + 12));
    let cx = W - widths.reduce((a, b) => a + b + 6, -6);
    loose.forEach((cc, i) => {
      extras.push(cityCard(ctx, A, cc, B, { x: cx, y: H - CARD_H - 2, w: widths[i], h: CARD_H }));
      cx += widths[i] + 6;
    });
  }

  const desc = pub.players
    .map((p) =>
      t(p.figures.length > 1 ? "w.vo.map.descMany" : "w.vo.map.desc", {
        who: name(p.seat),
        colour: colourName(p.seat),
        figures: p.figures.map((f) => B.name(f)).join(` ${t("w.vo.map.and")} `),
        posts: p.posts.map((c) => B.name(c)).join(", ") || t("w.vo.map.noCity"),
      }),
    )
    .join(". ");
  return s(
    "svg",
    { class: `vy-map ${port ? "portrait" : "landscape"}`, viewBox: `-8 -8 ${W + 16} ${H + 16}`, role: "group", "aria-labelledby": "vy-map-title vy-map-desc" },
    s("title", { id: "vy-map-title" }, t("w.vo.map.title", { locations: B.nodes.size, routes: B.edges.length, from: B.name(nodeOf(B, "start")), to: B.name(nodeOf(B, "beijing")) })),
    s("desc", { id: "vy-map-desc" }, desc),
    s("rect", { class: "sea", x: -8, y: -8, width: W + 16, height: H + 16, rx: 14 }),
    port ? text(4, H - PORT_CARDS_H + 68, t("w.vo.map.cards"), "cards-title", 17) : null,
    s("g", { class: "routes" }, routes),
    s("g", { class: "extras" }, extras),
    s("g", { class: "nodes" }, nodes),
  );
}

/** A city card's effect as icons from (6, top), 38 high; returns the parts and their width. */
function cityCardFace(card, top) {
  const parts = [];
  const mid = top + 19;
  const sz = 14;
  const arrow = (x) => text(x, mid + 5, "→", "arrow", 14);
  let width = 0;
  switch (card.kind) {
    case "trade": {
      const a = bundle(card.cost, 6, mid - sz / 2, sz);
      const b = bundle(card.reward, 6 + a.width + 20, mid - sz / 2, sz);
      parts.push(a.node, arrow(8 + a.width), b.node);
      width = a.width + 20 + b.width;
      break;
    }
    case "either": {
      (card.ways || []).forEach((wy, i) => {
        const yy = top + 3 + i * 17;
        const a = bundle(wy.cost, 6, yy, 13);
        const b = bundle(wy.reward, 6 + a.width + 18, yy, 13);
        parts.push(a.node, text(8 + a.width, yy + 11, "⇄", "arrow", 12), b.node);
        width = Math.max(width, a.width + 18 + b.width);
      });
      break;
    }
    case "per_pip": {
      const b = bundle(card.reward, 6, mid - sz / 2, sz);
      parts.push(b.node, text(10 + b.width, mid + 5, tr("w.vo.cc.perPip"), "small", 12));
      width = b.width + 40;
      break;
    }
    case "by_die": {
      const t = tr("w.vo.cc.byDie", { list: (card.amount_by_die || []).join(" ") });
      parts.push(icon(card.good, 6, mid - sz / 2, sz), text(24, mid + 5, t, "small", 12));
      width = 18 + t.length * 6.4;
      break;
    }
    case "count": {
      const b = bundle(card.reward, 6, mid - sz / 2, sz);
      const t = tr(card.counts === "posts" ? "w.vo.cc.posts" : "w.vo.cc.contracts");
      parts.push(b.node, text(10 + b.width, mid + 5, t, "small", 12));
      width = b.width + 4 + t.length * 6.6;
      break;
    }
    case "city_bonus": {
      const cost = card.cost && Object.keys(card.cost).length ? bundle(card.cost, 6, mid - sz / 2, sz) : null;
      if (cost) parts.push(cost.node, arrow(8 + cost.width));
      const t = tr(card.times_by_die ? "w.vo.cc.bonus12" : "w.vo.cc.bonus");
      parts.push(text(cost ? 26 + cost.width : 6, mid + 5, t, "small", 12));
      width = (cost ? 20 + cost.width : 0) + t.length * 6.6;
      break;
    }
    default:
      parts.push(text(6, mid + 5, card.kind, "small", 12));
      width = 60;
  }
  return { parts, width };
}

function cityCard(ctx, A, cc, B, { x, y, w, h: hgt, named = false }) {
  const space = `card-${cc.slot}`;
  const option = A.spaces.get(space);
  const used = cc.used;
  const card = t("w.vo.cityCard", { city: B.name(cc.city), card: cardWords(cc.card) });
  const words = used ? t("w.vo.cityCardUsed", { card, who: used.seat === null ? t("w.vo.neutralDie") : ctx.seatName(used.seat) }) : card;
  const g = s(
    "g",
    { class: `vy-space city-card ${used ? "used" : ""}`, transform: `translate(${x} ${y})`, "data-space": space, "data-card": cc.card.id },
    s("title", null, words),
    s("rect", { class: "frame", width: w, height: hgt, rx: 5 }),
    named ? text(6, 15, B.name(cc.city), "card-city", 14) : null,
    cityCardFace(cc.card, named ? hgt - 38 : 0).parts,
    used ? placedDice([used], w - 22, hgt - 22, 18, 22) : null,
  );
  target(g, Boolean(option), t("w.choose", { what: words }), space, () => send(ctx, option));
  if (!option) {
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", words);
  }
  return g;
}

// ---- the action board ------------------------------------------------------------------------

const AB_W = 460;

function box(x, y, w, hgt, title, cls = "", titleW = w - 16) {
  return [s("rect", { class: `box ${cls}`, x, y, width: w, height: hgt, rx: 8 }), title ? fitText(x + 8, y + 18, title, "box-title", 14, titleW) : null];
}

/** The widest a space's title may run before the icons drawn beside it. */
const TITLE_W = { khan: 108, bag: 90 };

function actionSvg(ctx, A, ui) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const pend = myPending(view);
  const spaces = pub.spaces || {};
  const out = [];
  let y = 0;

  // round counter, start player, the black dice on the board
  out.push(fitText(0, 20, tr("w.vo.b.round"), "box-title", 14, 44));
  for (let r = 1; r <= 5; r++) {
    const cur = r === pub.round;
    out.push(
      s(
        "g",
        { class: `round ${cur ? "current" : r < pub.round ? "past" : ""}`, transform: `translate(${48 + (r - 1) * 28} 2)` },
        s("circle", { cx: 12, cy: 12, r: 11 }),
        text(12, 17, String(r), "", 13),
      ),
    );
  }
  const blackN = pub.black_dice || 0;
  const blackG = s(
    "g",
    { class: "vy-space black-pool", transform: `translate(${AB_W - 160} 0)`, "data-black": "" },
    s("title", null, tr(A.black ? "w.vo.b.blackBuyable" : "w.vo.b.blackPool", { count: blackN })),
    s("rect", { class: "frame", width: 160, height: 28, rx: 6 }),
    fitText(8, 19, tr("w.vo.b.black"), "small", 12, 58),
    [...Array(blackN).keys()].map((i) => die(70 + i * 17, 6, 15, "black", null, null)),
  );
  out.push(target(blackG, Boolean(A.black), tr("w.vo.b.buyBlack"), "black", () => send(ctx, A.black)));
  y = 38;

  // an action space: its frame is the click target when "space" is an option
  const spaceBox = (space, x, yy, w, hgt, title, inner) => {
    const option = A.spaces.get(space);
    const chosen = pend?.kind === "dice" && pend.space === space;
    const placed = space === "khan" ? pub.khan || [] : spaces[space] || [];
    const label = `${B.space(space)}, ${tr("w.dice", { n: B.diceNeeded(space) })}; ${placed.length ? tr("w.placed", { dice: placementsText(view, placed) }) : tr("w.empty")}`;
    const g = s(
      "g",
      { class: `vy-space ${chosen ? "chosen" : ""}`, "data-space": space, transform: `translate(${x} ${yy})` },
      s("title", null, label),
      box(0, 0, w, hgt, title, "space", TITLE_W[space] || w - 16),
      inner,
    );
    target(g, Boolean(option), tr("w.choose", { what: label }), `space-${space}`, () => send(ctx, option));
    if (!option) {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", label);
    }
    return g;
  };

  // take 5 coins, Khan's favor
  out.push(
    spaceBox("coins", 0, y, 136, 84, tr("w.vo.b.coins"), [
      bundle({ coins: 5 }, 10, 28, 18).node,
      placedDice(spaces.coins || [], 10, 56, 20, 120),
    ]),
  );
  const khan = pub.khan || [];
  const ladder = [];
  for (let i = 0; i < 4; i++) {
    const x = 12 + i * 74;
    ladder.push(s("rect", { class: "slot", x, y: 48, width: 56, height: 28, rx: 5 }));
    if (i < khan.length) ladder.push(placedDice([khan[i]], x + 18, 52, 20, 40));
    if (i < 3) ladder.push(text(x + 65, 67, "≤", "small", 13));
  }
  out.push(
    spaceBox("khan", 144, y, AB_W - 144, 84, tr("w.vo.space.khan"), [
      bundle({ camels: 2, any_good: 1 }, 120, 6, 16, { showOne: true }).node,
      ladder,
    ]),
  );
  y += 92;

  // the bazaar: a row per good, a column per die value; the pending column choice makes cells targets
  const rowH = 62;
  const rows = ["camels", "pepper", "silk", "gold"];
  out.push(...box(0, y, AB_W, 26 + rows.length * rowH, tr("w.vo.b.bazaar"), "bazaar"));
  rows.forEach((res, ri) => {
    const ry = y + 26 + ri * rowH;
    const info = B.bazaar[res] || { dice: 1, by_die: [] };
    const cells = [];
    const colOn = pend?.kind === "column" && pend.res === res;
    info.by_die.forEach((gain, ci) => {
      const cx = 86 + ci * 61;
      const option = colOn ? A.column.get(ci + 1) : null;
      const items = Object.entries(gain);
      const first = bundle(Object.fromEntries(items.slice(0, 1)), 0, 0, 15, { showOne: true });
      const rest = items.length > 1 ? bundle(Object.fromEntries(items.slice(1)), 0, 0, 12, { showOne: true }) : null;
      const cell = s(
        "g",
        { class: "cell", transform: `translate(${cx} ${ry + 2})`, "data-row": res, "data-column": ci + 1 },
        s("title", null, tr("w.vo.opt.column", { n: ci + 1, good: goodName(res), gain: bundleWords(gain) })),
        s("rect", { class: "frame", width: 57, height: 34, rx: 4 }),
        text(4, 11, String(ci + 1), "colno", 10),
        s("g", { transform: `translate(${(57 - first.width) / 2} ${rest ? 3 : 10})` }, first.node),
        rest ? s("g", { transform: `translate(${(57 - rest.width) / 2} 20)` }, rest.node) : null,
      );
      target(cell, Boolean(option), tr("w.vo.opt.column", { n: ci + 1, good: goodName(res), gain: bundleWords(gain) }), `col-${ci + 1}`, () => send(ctx, option));
      cells.push(cell);
    });
    const label = s("g", null, text(8, 20, tOr(`w.vo.b.row.${res}`, res), "row-name", 14), [...Array(info.dice).keys()].map((i) => s("rect", { class: "need", x: 8 + i * 13, y: 27, width: 10, height: 10, rx: 2 })));
    const placed = placedDice(spaces[res] || [], 86, 40, 18, AB_W - 96);
    out.push(spaceBox(res, 0, ry, 82, rowH - 4, null, [label]));
    out.push(s("g", { class: "bazaar-row", "data-row": res }, cells, s("g", { transform: `translate(0 ${ry})` }, placed)));
  });
  y += 26 + rows.length * rowH + 8;

  // contracts: the space and the display of six (slot number = the die needed; slots 5 and 6 pay extra)
  const disp = pub.display || [];
  const cw = (AB_W - 16 - 8) / 3;
  const chH = 64;
  const dispRows = 2;
  const inner = [
    fitText(120, 18, tr("w.vo.b.contracts"), "small", 12, AB_W - 128), // squeezed rather than cut at the edge
    placedDice(spaces.contracts || [], 8, 26, 18, AB_W - 16),
  ];
  out.push(spaceBox("contracts", 0, y, AB_W, 50 + dispRows * (chH + 6), tr("w.vo.space.contracts"), inner));
  const eligible = new Set((pend?.kind === "contracts" ? pend.eligible || [] : []).map(([, c]) => c));
  for (let i = 0; i < 6; i++) {
    const cx = 8 + (i % 3) * (cw + 4);
    const cy = y + 50 + Math.floor(i / 3) * (chH + 6);
    const c = disp[i];
    const extra = i === 4 ? tr("w.vo.b.extra1") : i === 5 ? tr("w.vo.b.extra2") : null;
    if (!c) {
      out.push(s("g", { transform: `translate(${cx} ${cy})`, class: "contract empty" }, s("rect", { width: cw, height: chH, rx: 6 }), text(8, 16, tr("w.vo.b.slot", { n: i + 1 }), "small", 11)));
      continue;
    }
    const options = A.take.get(c.id) || [];
    const g = contractCard(c, cx, cy, cw, chH, tr("w.vo.b.slot", { n: i + 1 }), extra);
    g.setAttribute("data-contract", c.id);
    if (eligible.has(c.id) && !options.length) g.classList.add("dim");
    const label = tr("w.vo.b.slotContract", { n: i + 1, words: `${contractWords(c)}${extra ? ` (${extra})` : ""}` });
    target(g, options.length > 0, tr("w.opt.take", { contract: label }), `take-${c.id}`, () => pick(ctx, ui, options, tr("w.opt.take", { contract: tr("w.vo.b.slotN", { n: i + 1 }) })));
    if (!options.length) {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", label);
    }
    out.push(g);
  }
  y += 50 + dispRows * (chH + 6) + 8;

  // travel (costs by steps taken) and the money bag
  const tiers = B.tiers.slice(1);
  out.push(
    spaceBox("travel", 0, y, 290, 88, tr("w.vo.space.travel"), [
      fitText(64, 18, tr("w.vo.b.travel"), "small", 12, 290 - 72),
      tiers.map((cost, i) =>
        s("g", { transform: `translate(${8 + i * 46} 26)`, class: "tier" }, s("rect", { width: 42, height: 24, rx: 4 }), text(5, 16, `${i + 1}:`, "small", 11), text(28, 17, String(cost), "n", 13)),
      ),
      placedDice(spaces.travel || [], 8, 58, 20, 274),
    ]),
  );
  const dieBag = A.dieActions.some((o) => o.a === "bag");
  const bagG = s(
    "g",
    { class: `vy-space bag ${ui.bag ? "chosen" : ""}`, transform: `translate(298 ${y})`, "data-space": "bag" },
    s("title", null, (pub.bag || []).length ? tr("w.vo.b.bagWithDice", { dice: placementsText(view, pub.bag) }) : tr("w.vo.b.bagTitle")),
    box(0, 0, AB_W - 298, 88, tr("w.kh.space.bag"), "space", TITLE_W.bag),
    bundle({ coins: 3 }, 104, 5, 16).node,
    placedDice(pub.bag || [], 8, 30, 18, AB_W - 314),
  );
  out.push(
    target(bagG, dieBag, tr("w.vo.b.bagChoose"), "bag", () => {
      ui.bag = !ui.bag;
      ui.dieMenu = null;
      ctx.rerender();
    }),
  );
  y += 96;

  return s(
    "svg",
    { class: "vy-actions", viewBox: `-2 -2 ${AB_W + 4} ${y + 2}`, role: "group", "aria-labelledby": "vy-actions-title" },
    s("title", { id: "vy-actions-title" }, tr("w.vo.b.title", { round: pub.round })),
    out,
  );
}

function contractCard(c, x, y, w, hgt, head, extra) {
  const cost = bundle(c.cost, 6, 20, 13);
  const reward = bundle(c.reward, 6, 42, 14);
  return s(
    "g",
    { class: "contract", transform: `translate(${x} ${y})` },
    s("title", null, `${contractWords(c)}${extra ? ` (${extra})` : ""}`),
    s("rect", { class: "frame", width: w, height: hgt, rx: 6 }),
    head ? fitText(6, 13, head, "small", 11, extra ? w * 0.32 : w - 12) : null,
    extra ? fitText(w - 5, 13, extra === tr("w.vo.b.extra1") ? tr("w.vo.b.extra1Short") : tr("w.vo.b.extra2Short"), "small bonus-tag end", 10, w * 0.6) : null,
    cost.node,
    text(w - 6, 36, "↓", "arrow end", 12),
    s("line", { class: "sep", x1: 4, x2: w - 4, y1: 38.5, y2: 38.5 }),
    reward.node,
  );
}

// ---- clicking --------------------------------------------------------------------------------

/** One option: send it; several: show them as a short list to pick from. */
function pick(ctx, ui, options, title) {
  pickFrom(ctx, ui, options, title, "vy-chooser");
}

// ---- the dice tray and the chooser -------------------------------------------------------------

function dieButton(kind, value, seat, { on = false, pressed = false, label = "", key = "", onClick = null, extra = {} } = {}) {
  const face = s("svg", { viewBox: "0 0 30 30", "aria-hidden": "true" }, die(2, 2, 26, kind, value, seat));
  if (!on) return h("span", { class: "vy-die", "data-kind": kind, "data-value": value, role: "img", "aria-label": label, ...extra }, face);
  return h(
    "button",
    { type: "button", class: `vy-die usable ${pressed ? "pressed" : ""}`, "data-kind": kind, "data-value": value, "data-key": key, "aria-label": label, "aria-pressed": pressed ? "true" : "false", onClick, ...extra },
    face,
  );
}

function trayPanel(ctx, A, ui) {
  const { view } = ctx;
  const mine = me(view);
  if (!mine) return null;
  const pend = myPending(view);
  const B = new Board(view.public);
  const seat = view.you;
  const raschid = mine.character === "raschid";
  const choosing = pend?.kind === "dice";
  const dieOpts = (k, v) => A.dice.filter((o) => o.kind === k && (o.value === v || (raschid && k === "own" && v === 0)));
  const actsOf = (k, v) => A.dieActions.filter((o) => o.kind === k && o.value === v);

  let hint;
  if (view.result) hint = tr("room.over");
  else if (!view.prompt) hint = view.public.phase === "play" ? tr("w.vo.hint.wait") : tr("room.waitingOthers");
  else if (ui.choose) hint = ui.choose.title;
  else if (choosing) hint = tr("w.vo.hint.dice", { space: B.space(pend.space), n: pend.picked.length + 1, need: pend.need });
  else if (ui.bag) hint = tr("w.vo.hint.bag");
  else if (pend?.kind === "column") hint = tr("w.vo.hint.column", { good: goodName(pend.res) });
  else if (pend?.kind === "travel") hint = tr("w.vo.hint.travel");
  else if (pend?.kind === "contracts") hint = tr("w.vo.hint.contracts");
  else if (A.good.size) hint = `${tr("w.prompt.good")}`;
  else if (A.goods.length) hint = ui.goods.length ? tr("w.vo.hint.goodsOne", { good: goodName(ui.goods[0]) }) : tr("w.vo.prompt.two_goods");
  else if (A.keep.size) hint = tr("w.vo.hint.keep");
  else if (A.spaces.size) hint = tr("w.vo.hint.spaces");
  else if (A.dieActions.length || A.fulfil.size || A.black) hint = tr("w.vo.hint.bonus");
  else hint = promptText(view);

  const dice = mine.dice.map(([k, v], i) => {
    const key = `die-${i}`;
    const kind = k === "own" || k === "black" ? k : "white";
    const value = v || tr("w.vo.die.anyValue");
    const label = tr(`w.vo.die.${kind}`, { v: value });
    const inSentence = tr(`w.vo.die.${kind}In`, { v: value });
    if (choosing) {
      const opts = dieOpts(k, v);
      if (!opts.length) return dieButton(k, v, seat, { on: false, label });
      if (raschid && k === "own") {
        return dieButton(k, v, seat, {
          on: true,
          pressed: ui.naming,
          key,
          label: tr("w.vo.die.name", { die: label }),
          onClick: () => {
            ui.naming = !ui.naming;
            ctx.rerender();
          },
        });
      }
      return dieButton(k, v, seat, { on: true, key, label: tr("w.opt.die", { die: inSentence }), onClick: () => send(ctx, opts[0]) });
    }
    const acts = actsOf(k, v);
    if (ui.bag) {
      const bag = acts.find((o) => o.a === "bag");
      return dieButton(k, v, seat, { on: Boolean(bag), key, label: tr("w.vo.die.bag", { die: inSentence }), onClick: () => send(ctx, bag) });
    }
    const open = ui.dieMenu && ui.dieMenu[0] === k && ui.dieMenu[1] === v;
    return dieButton(k, v, seat, {
      on: acts.length > 0,
      pressed: open,
      key,
      label: tr("w.vo.die.bonus", { die: label }),
      onClick: () => {
        ui.dieMenu = open ? null : [k, v];
        ctx.rerender();
      },
    });
  });

  const extra = [];
  if (raschid && mine.dice.some(([k, v]) => k === "own" && !v)) {
    extra.push(h("p", { class: "hint vy-raschid" }, tr("w.vo.raschid", { name: B.character("raschid") })));
  }
  if (choosing && pend.picked.length) {
    extra.push(h("p", { class: "hint" }, tr("w.vo.chosenSoFar", { dice: pend.picked.map(([k, v]) => dieWords(k, v)).join(", ") })));
  }
  if (choosing && raschid && ui.naming) {
    const values = A.dice.filter((o) => o.kind === "own");
    extra.push(
      h(
        "div",
        { class: "vy-faces", role: "group", "aria-label": tr("w.vo.dieValue") },
        values.map((o) => dieButton("own", o.value, seat, { on: true, key: `face-${o.value}`, label: tr("w.vo.die.placeAs", { v: o.value }), onClick: () => send(ctx, o), extra: { "data-face": o.value } })),
      ),
    );
  }
  if (ui.dieMenu && !choosing && !ui.bag) {
    const [k, v] = ui.dieMenu;
    extra.push(
      h(
        "div",
        { class: "vy-menu", role: "group", "aria-label": tr("w.vo.bonusWith", { die: theDie(k, v) }) },
        actsOf(k, v).map((o) => choiceButton(ctx, o, describe(o, view))),
      ),
    );
  }
  if (A.good.size || A.goods.length) {
    const have = mine;
    extra.push(
      h(
        "div",
        { class: "vy-goodpick", role: "group", "aria-label": A.good.size ? tr("w.vo.takeGood") : tr("w.vo.takeTwoGoods") },
        GOODS.map((g) =>
          resIcon(g, tr("w.vo.plusOne", { good: goodName(g) }), {
            on: A.good.has(g) || A.goods.some((o) => o.goods.includes(g)),
            pressed: ui.goods.includes(g),
            label: tr(A.good.has(g) ? "w.vo.good.take" : "w.vo.good.choose", { good: goodName(g), have: have[g] }),
            onClick: () => pickGood(ctx, A, ui, g),
            extra: { "data-good": g, "data-key": `good-${g}` },
          }),
        ),
      ),
    );
  }
  if (ui.choose) {
    extra.push(
      h(
        "div",
        { class: "vy-chooser", role: "group", "aria-label": ui.choose.title },
        ui.choose.options.map((o) => choiceButton(ctx, o, describe(o, view))),
        h("button", { type: "button", class: "link", "data-key": "choose-back", onClick: () => { ui.choose = null; ctx.rerender(); } }, tr("replay.back")),
      ),
    );
  }
  return h(
    "section",
    { class: `vy-tray panel ${view.prompt ? "active" : ""}`, "aria-labelledby": "vy-tray-title" },
    h("h2", { id: "vy-tray-title" }, tr("w.yourDice")),
    h("p", { class: "hint vy-hint" }, hint),
    h("div", { class: "vy-dice", role: "group", "aria-label": tr("w.yourDice") }, dice.length ? dice : h("span", { class: "hint" }, tr("w.noneLeft"))),
    extra,
  );
}

/** A good chosen in the tray: one for "1 good", two different ones (toggled) for "2 different goods". */
function pickGood(ctx, A, ui, g) {
  if (A.good.has(g)) return send(ctx, A.good.get(g));
  if (!A.goods.length || ctx.pending) return;
  if (ui.goods.includes(g)) ui.goods = ui.goods.filter((x) => x !== g);
  else ui.goods = [...ui.goods, g];
  if (ui.goods.length === 2) {
    const o = A.goods.find((m) => m.goods.every((x) => ui.goods.includes(x)));
    ui.goods = [];
    if (o) return send(ctx, o);
  }
  ctx.rerender();
}

function choiceButton(ctx, option, label) {
  return h(
    "button",
    { type: "button", class: "choice", "data-move": JSON.stringify(option), "data-key": `vy-${JSON.stringify(option)}`, disabled: ctx.pending, onClick: () => send(ctx, option) },
    label,
  );
}

// ---- player boards -----------------------------------------------------------------------------

function resIcon(key, n, { on = false, label = "", onClick = null, pressed = false, extra = {} } = {}) {
  // a resource with its amount; a button when it is a choice (the goods in the tray)
  const svg = s("svg", { viewBox: "0 0 24 24", class: "ricon", "aria-hidden": "true" }, key === "vp" ? s("path", { class: "ic ic-vp", d: PATHS.vp }) : icon(key, 0, 0, 24));
  const body = [svg, h("span", { class: "rn" }, String(n))];
  if (!on) return h("span", { class: `res r-${key}`, title: `${n} ${goodName(key)}`, ...extra }, body);
  return h("button", { type: "button", class: `res r-${key} usable ${pressed ? "pressed" : ""}`, "aria-label": label, "aria-pressed": pressed ? "true" : "false", onClick, ...extra }, body);
}

function miniSvg(w, hgt, nodes) {
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: "mini", "aria-hidden": "true" }, nodes);
}

function playerBoard(ctx, A, p) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const mine = p.seat === view.you;
  const resources = RESOURCES.map((r) => resIcon(r, p[r], { extra: { "data-res": r } }));
  const dice = p.dice.length ? miniSvg(p.dice.length * 22, 22, p.dice.map(([k, v], i) => die(i * 22 + 1, 1, 20, k, v, p.seat))) : h("span", null, tr("w.noneLeft"));
  const contracts = p.contracts.map((c) => {
    const svg = s("svg", { viewBox: "0 0 150 64", class: "contract-svg", "aria-hidden": "true" }, contractCard(c, 1, 1, 148, 62, tr("w.vo.b.contract"), null));
    const fulfil = mine ? A.fulfil.get(c.id) : null;
    const keep = mine ? A.keep.get(c.id) : null;
    const option = fulfil || keep;
    const label = contractName(c.id, contractWords(c));
    if (!option) return h("div", { class: "vy-contract", "data-contract": c.id, role: "img", "aria-label": label }, svg);
    return h(
      "button",
      { type: "button", class: `vy-contract usable ${keep ? "discard" : ""}`, "data-contract": c.id, "data-key": `contract-${c.id}`, onClick: () => send(ctx, option) },
      svg,
      h("span", { class: "tag" }, fulfil ? tr("w.tag.fulfil") : tr("w.tag.discard")),
      // named by its visible word, then in words (a voice says what it sees: WCAG 2.5.3)
      h("span", { class: "sr" }, `: ${fulfil ? tr("w.opt.fulfil", { contract: label }) : tr("w.vo.discardFor", { contract: label })}`),
    );
  });
  const goals = mine ? view.private?.goals || [] : p.goals || [];
  const posts = new Set(p.posts);
  const goalList = goals.length
    ? h(
        "ul",
        { class: "vy-goals", "aria-label": mine ? tr("w.goalsSecret") : tr("w.goals") },
        goals.map((g) => h("li", { "data-goal": g.id }, `${g.cities.map((c) => `${B.name(c)}${posts.has(c) ? " ✓" : ""}`).join(" + ")}: ${tr("w.res.vp", { n: g.vp })}`)),
      )
    : null;
  return playerPanel(ctx, p, {
    cls: "vy",
    B,
    start: pub.start_player === p.seat ? h("span", { class: "start-tag", title: tr("w.vo.startPlayer") }, tr("w.vo.start")) : null,
    resClass: "vy-res",
    res: resources,
    diceLabel: `${tr("w.dicePlain")}:`,
    dice,
    lines: h("p", { class: "vy-line" }, tr("w.vo.playerLine", { placed: p.posts.length, left: p.posts_left, done: p.completed, goals: p.goal_cards })),
    contracts,
    goalList,
  });
}

// ---- the log -----------------------------------------------------------------------------------

function logLine(ev, view) {
  const B = new Board(view.public);
  const own = (who) => {
    const L = (key, params) => t(`w.vo.log.${key}`, { who, ...params });
    switch (ev.ev) {
      case "round":
        return L("round", { round: ev.round, first: view.seats[ev.start_player]?.name || "?" });
      case "roll":
        return L("roll", { dice: ev.dice.map(([k, v]) => (v ? aDie(k, v) : "?")).join(", ") });
      case "bazaar":
        return L("bazaar", { gain: bundleWords((B.bazaar[ev.res]?.by_die || [])[ev.column - 1]) });
      case "take_contract":
        return ev.discard ? L("tookDiscard", { what: cname(view, ev.contract), old: cname(view, ev.discard) }) : undefined;
      case "step": {
        const cost = [ev.coins ? amountWords("coins", ev.coins) : "", ev.camels ? amountWords("camels", ev.camels) : ""].filter(Boolean).join(" + ");
        return cost ? L("stepCost", { from: B.name(ev.from), to: B.name(ev.to), cost }) : undefined;
      }
      case "outpost_bonus":
        return L("outpost", { city: B.name(ev.city) });
      case "bag":
        return L("bag", { die: aDie(ev.die[0], ev.die[1]) });
      case "reroll":
        return t("w.log.reroll", { who, from: aDie(ev.kind, ev.from), to: ev.to });
      case "adjust":
        return t("w.log.adjust", { who, from: aDie(ev.kind, ev.from), to: ev.from + ev.by });
      case "compensation":
        return L("compensation", { coins: amountWords("coins", ev.coins), camels: amountWords("camels", ev.camels) });
      case "special_contract":
        if (ev.contract) return L("special", { what: cname(view, ev.contract) });
        return L(ev.kept ? "specialKept" : "specialDeclined");
      case "mercator":
        return L("mercator", { what: goodName(ev.res) });
      case "card_times":
        return t("w.log.cardTimes", { who, n: ev.times });
      case "display_refill":
        return L("refill", { n: (ev.contracts || []).length });
      case "goals_kept":
        return L("goalsKept");
      default:
        return undefined;
    }
  };
  return logSentence(ev, view, B, own, { named: (id) => cname(view, id), die: dieWords });
}

/** The final scoring in detail and every seat's goal cards, for the room's result panel. */
function resultDetails(view) {
  const keys = ["in_game", "goal_cards", "goal_cities", "coins", "beijing", "goods", "most_contracts", "all_posts", "total"];
  const B = new Board(view.public);
  return [breakdownTable(view, { cls: "vy", prefix: "vo", keys }), goalsAtEnd(view, (g) => goalWords(B, g))];
}

// ---- the renderer ------------------------------------------------------------------------------

export default {
  id: "voyages",
  title: "The Voyages of Marco Polo",
  minSeats: 2,
  maxSeats: 4,
  get scoreUnit() {
    return t("w.resname.vp");
  },
  get options() {
    return [{ key: "expert", label: t("w.vo.optExpert") }];
  },

  render(ctx) {
    const A = analyse(ctx.view);
    const ui = uiState(ctx);
    const pub = ctx.view.public;
    if (!pub.track || !pub.players) return h("p", { class: "hint" }, t("w.settingUp"));
    const map = h("section", { class: "vy-mapbox panel", "aria-label": t("w.kh.tab.map") }, mapSvg(ctx, A, ui));
    const tray = trayPanel(ctx, A, ui);
    const actions = h("section", { class: "vy-actionbox panel", "aria-label": t("w.kh.tab.actions") }, actionSvg(ctx, A, ui));
    const players = h("div", { class: "vy-players" }, pub.players.map((p) => playerBoard(ctx, A, p)));
    if (ctx.narrow) {
      // one column on a phone: your dice first, then the map when a location is to be chosen
      const onMap = A.step.size || A.relocate.size || A.city.size;
      return h("div", { class: "voyages narrow" }, tray, onMap ? [map, actions] : [actions, map], players);
    }
    return h("div", { class: "voyages" }, h("div", { class: "vy-grid" }, map, h("div", { class: "vy-side" }, tray, actions)), players);
  },

  describe,

  promptText,

  /** End your turn first in the prompt bar; the bonus actions (on your dice and the black dice) are side actions. */
  choiceKind(move) {
    if (move.a === "end") return "end";
    return ["bag", "reroll", "adjust", "black"].includes(move.a) ? "bonus" : null;
  },

  hasGesture(move, view) {
    if (!GESTURES.has(move.a)) return false;
    if (move.a === "die" || move.a === "bag" || move.a === "reroll" || move.a === "adjust") return me(view) !== null;
    return true;
  },

  status: diceStatus,

  logLines(view) {
    return (view.public.log || []).map((ev) => ({ n: ev.n, text: logLine(ev, view) }));
  },

  resultNote: camelsTieNote,

  resultDetails,
};
