// Marco Polo II: In the Service of the Khan: the map (locations, routes with their costs and guild-seal gates,
// posts, figures, caravans) and the action board (books with their offer tiles, seals, travel, contracts,
// Khan's favor, the special cities, the city cards, the money bag) as SVG; the contract cities, your dice,
// the player boards and (yours only) goal cards.
// Owns: drawing the view (docs/games/khan.md) and turning clicks into prompt options: an action space, then a
// die; a location on the map (move, extra post, relocate, caravan, bonus city); a contract in a contract city;
// your contract to fulfil; an offer of a book.
// Must not: decide a rule. Every move sent is one of `view.prompt.options`, sent exactly as listed; what is
// highlighted comes from the prompt alone. Options without a gesture are the room's buttons.
import { h, s } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { DiceBoard, breakdownTable, byGesture, camelsTieNote, describeMove, dicePromptText, diceStatus, die, dieWords, fitText, goalsAtEnd, logSentence, makeWords, myPending, myPlayer as me, pick as pickFrom, placedDice, placementsText, playerPanel, promptUi, push, resName, SEAT_COLOURS, send, target, text, wrap } from "../shared/board.js";
import { contractName } from "../shared/names.js";

const RESOURCES = ["coins", "camels", "pepper", "silk", "gold", "jade", "vp"];
const SPACES = ["book1", "book2", "book3a", "book3b", "seals", "travel1", "travel3", "travel6", "contracts", "khan", "bag", "black"];
const spaceName = (sp) => t(`w.kh.space.${sp}`);
const spaceGives = (sp) => t(`w.kh.gives.${sp}`);
const SPACE_DICE = { seals: 2, travel1: 1, travel3: 2, travel6: 3 };
const BOOK_PILE = { book1: 0, book2: 1, book3a: 2, book3b: 2 };
const bagTake = (take) => (["coins", "camels", "jade"].includes(take) ? t(`w.kh.bag.${take}`) : take);
const cargoHow = (how) => (["double", "upgrade", "vp"].includes(how) ? t(`w.kh.cargo.${how}`) : how);
const sealName = (seal) => tOr(`w.kh.seal.${seal}`, seal);
const shieldName = (sh) => tOr(`w.kh.shield.${sh}`, sh);
const goodName = (g) => tOr(`w.resname.${g}`, g);

// the map: board coordinates (x 0–100, y 0–60) scaled into a 1000×630 box
const MAP_W = 1000;
const MAP_H = 630;
const mx = (x) => 40 + x * 9.2;
const my = (y) => 40 + y * 9.2;

// ---- words -------------------------------------------------------------------------------------

const WORDS = makeWords(
  {
    good: (n) => t("w.res.goodChoice", { n }),
    contract: () => t("w.kh.res.contract"),
    draw_contract: (n) => t("w.kh.res.drawContract", { n }),
    other_marker: () => t("w.kh.res.otherMarker"),
  },
  ownCardWords,
);
const { amountWords, bundleWords, contractWords, cardWords } = WORDS;

/** The city cards only Marco Polo II has, in words (null: a kind both games have). */
function ownCardWords(card) {
  const by = (list) => (list || []).join("/");
  switch (card.kind) {
    case "by_die":
      return t("w.card.byDie", { rewards: (card.rewards || []).map(bundleWords).join(" / ") });
    case "city_bonus":
      return t("w.card.cityBonus", { times: by(card.times_by_die) });
    case "seal":
      return t("w.kh.card.seal", { cost: bundleWords(card.cost) });
    case "move":
      return t("w.card.move", { steps: by(card.steps_by_die) });
    case "contract":
      return t("w.kh.card.contract", { reward: bundleWords(card.reward_per_pip) });
    default:
      return null;
  }
}

function goalWords(g) {
  return (g.icons || []).map((i) => (i.seal ? t("w.kh.goal.seal", { seal: sealName(i.seal), vp: i.vp }) : t("w.kh.goal.shield", { shield: shieldName(i.shield) }))).join(", ");
}

/** A location's name in the current language (the catalogue's, else the data's). */
function nodeName(n) {
  return n ? tOr(`w.kh.node.${n.id}`, n.name) : "";
}

class Board extends DiceBoard {
  constructor(pub) {
    const b = pub.board || {};
    super(pub, b, "kh");
    this.cardSlots = b.card_slots || [];
    this.contractCities = b.contract_cities || [];
    this.special = b.special_cities || {};
    this.seals = b.seals || {};
  }

  name(id) {
    const n = this.nodes.get(id);
    return n ? nodeName(n) : String(id);
  }

  space(space) {
    if (SPACES.includes(space)) return spaceName(space);
    if (this.special[space]) return t("w.kh.specialCity", { city: this.name(space) });
    if (space && space.startsWith("slot-")) {
      const i = Number(space.slice(5));
      if (i < this.cardSlots.length) return t("w.kh.cardAt", { city: this.name(this.cardSlots[i]) });
      return t("w.kh.cardArea", { n: i - this.cardSlots.length + 1 });
    }
    return String(space);
  }

}

function routeWords(e) {
  if (!e) return "";
  const parts = ["coins", "camels", "jade"].filter((k) => e[k]).map((k) => amountWords(k, e[k]));
  const cost = parts.join(" + ") || t("w.free");
  return e.seal ? t("w.kh.route.sealed", { cost, seal: sealName(e.seal) }) : cost;
}

/** A contract by what it asks and gives (the data has no names); "a contract" when it is no longer shown. */
function cname(pub, id) {
  const c = findContract(pub, id);
  return contractName(id, c ? contractWords(c) : null);
}

function caravanShields(pub, id) {
  const r = (pub.caravan_routes || []).find((x) => x.id === id);
  return r ? ` ${r.shields.map(shieldName).join(" – ")}` : "";
}

function findContract(pub, id) {
  for (const row of Object.values(pub.contract_spaces || {})) for (const c of row) if (c && c.id === id) return c;
  for (const p of pub.players || []) for (const c of p.contracts || []) if (c.id === id) return c;
  for (const it of pub.pending || []) if (it.contract && it.contract.id === id) return it.contract;
  return null;
}

function cardOf(pub, space) {
  return (pub.city_cards || []).find((c) => c.space === space)?.card || null;
}

function sourceWords(pub, B, label) {
  const [kind, what] = String(label).split(":");
  if (kind === "marker") return t("w.kh.src.city", { city: B.name(what), bonus: bundleWords(pub.markers?.[what]?.reward) });
  if (kind === "special") return t("w.kh.src.city", { city: B.name(what), bonus: bundleWords(B.special[what]?.bonus) });
  if (kind === "seal") return t("w.kh.src.seal", { seal: sealName(what), bonus: bundleWords(B.seals[what]?.bonus) });
  return t("w.kh.src.character");
}

/** An option only Marco Polo II has, in words (undefined: one both games have). */
function ownOption(move, q) {
  const { view, pub, B, pend, mine, die } = q;
  switch (move.a) {
    case "goal": {
      const g = (view.private?.goal_offer || []).find((x) => x.id === move.keep);
      return g ? t("w.kh.opt.goal", { goal: goalWords(g) }) : t("w.kh.opt.goalAny");
    }
    case "space": {
      const n = move.space === "seals" && mine.character === "dewu" ? 1 : SPACE_DICE[move.space] || 1;
      const card = cardOf(pub, move.space);
      const words = t("w.opt.space", { space: B.space(move.space), dice: t("w.dice", { n }) });
      return card ? `${words}: ${cardWords(card)}` : words;
    }
    case "improve":
      return t("w.kh.opt.improve", { seal: sealName(move.seal), cost: bundleWords(B.seals[move.seal]?.improve) });
    case "bag":
      return t("w.kh.opt.bag", { die, take: bagTake(move.take) });
    case "black":
      if (pend.kind === "black_pick") return t("w.kh.opt.blackPick", { v: move.value });
      return move.value ? t("w.kh.opt.blackShowing", { v: move.value }) : t("w.kh.opt.black");
    case "tile": {
      const tl = (mine.tiles || []).find((x) => x.id === move.tile);
      return tl ? t("w.kh.opt.tile", { reward: bundleWords(tl.reward) }) : t("w.kh.opt.tileAny");
    }
    case "caravan":
      return t("w.kh.opt.caravan", { route: caravanShields(pub, move.route).trim() || "—", city: B.name(move.start) });
    case "deliver":
      return t("w.kh.opt.deliver");
    case "pair": {
      const v = move.value;
      return t("w.kh.opt.pair", { v, gain: amountWords(v === 1 || v === 6 ? "jade" : v === 2 || v === 5 ? "silk" : "gold", 1) });
    }
    case "singles":
      return t("w.kh.opt.singles");
    case "double":
      return t("w.kh.opt.double", { source: sourceWords(pub, B, move.source) });
    case "marker":
      return t("w.kh.opt.marker", { city: B.name(move.city), bonus: bundleWords(pub.markers?.[move.city]?.reward) });
    case "offer": {
      const tile = (pub.offers || [])[BOOK_PILE[pend.space] ?? 0];
      const o = tile?.offers?.[move.i];
      if (!o) return t("w.kh.opt.offerN", { n: move.i + 1 });
      return t("w.kh.opt.offer", { n: move.i + 1, gain: offerWords(o) });
    }
    case "seal": {
      const jade = B.seals[move.seal]?.jade;
      return t(jade ? "w.kh.opt.sealJade" : "w.kh.opt.seal", { seal: sealName(move.seal), jade });
    }
    case "post":
      return t("w.kh.opt.post", { city: B.name(move.city) });
    case "skip":
      return t("w.kh.opt.skip");
    case "oases": {
      const camels = (pend.n ?? move.coins) - move.coins;
      return t("w.kh.opt.oases", { coins: amountWords("coins", 2 * move.coins), camels: amountWords("camels", camels) });
    }
    case "take": {
      const words = t("w.opt.take", { contract: cname(pub, move.contract) });
      return move.discard ? t("w.opt.takeDiscard", { take: words, contract: cname(pub, move.discard) }) : words;
    }
    case "decline":
      return t("w.opt.decline");
    case "discard": {
      const isNew = pend.contract?.id === move.contract;
      return t(isNew ? "w.opt.discardNew" : "w.opt.discardOld", { words: contractWords(findContract(pub, move.contract)) });
    }
    case "city":
      return t("w.opt.takeBonus", { bonus: sourceWords(pub, B, `${B.special[move.city] ? "special" : "marker"}:${move.city}`) });
    case "load":
      return t("w.kh.opt.load", { good: amountWords(move.good, 1) });
    case "haul":
      return t("w.kh.opt.haul", { city: B.name(move.to) });
    case "cargo":
      return t("w.kh.opt.cargo", { good: goodName((pend.goods || ["?"])[0]), how: cargoHow(move.how) });
    default:
      return undefined;
  }
}

const KHAN = {
  ...WORDS,
  board: (pub) => new Board(pub),
  own: ownOption,
  named: (q, id) => cname(q.pub, id),
  routeWords,
  stopKinds: ["travel", "card", "load", "caravan_move"],
};

function describe(move, view) {
  return describeMove(move, view, KHAN);
}

function offerWords(o) {
  return o.jade ? t("w.kh.offerJade", { gain: bundleWords(o.gain), jade: o.jade }) : bundleWords(o.gain);
}

/** The prompt's question in words, from the view's structure (the phase and your pending item). */
function promptText(view) {
  return dicePromptText(view, "kh");
}

// ---- the prompt, sorted by gesture -------------------------------------------------------------

/** Options by where they are chosen: spaces, dice, map locations, contracts, offers. */
function analyse(view) {
  const A = { spaces: new Map(), dice: new Map(), nodes: new Map(), take: new Map(), fulfil: new Map(), offer: new Map() };
  const node = (key) => ["nodes", key, true];
  return byGesture(view, A, {
    space: ["spaces", "space"],
    die: ["dice", (o) => `${o.kind}-${o.value}`],
    step: node("to"),
    haul: node("to"),
    post: node("city"),
    city: node("city"),
    marker: node("city"),
    relocate: node("from"),
    caravan: node("start"),
    take: ["take", "contract", true],
    fulfil: ["fulfil", "contract"],
    offer: ["offer", "i"],
  });
}

/** The bonus actions of a turn: the room's bar folds their buttons under one heading. */
const BONUS = new Set(["bag", "reroll", "adjust", "black"]);

const GESTURES = new Set(["space", "die", "step", "haul", "post", "city", "marker", "relocate", "caravan", "take", "fulfil", "offer"]);

/** One option: send it; several: show them as a short list to pick from. */
function pick(ctx, ui, options, title) {
  pickFrom(ctx, ui, options, title, "kh-chooser");
}

// ---- SVG pieces --------------------------------------------------------------------------------

/** One resource as a chip with its count: coins round, camels square, goods coloured, jade a diamond, VP a star. */
function chip(kind, n, cx, cy, r = 8) {
  const label = n === undefined || n === null ? "" : String(n);
  let shape;
  if (kind === "camels") shape = s("rect", { class: "chip c-camels", x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: r * 0.35 });
  else if (kind === "jade") shape = s("path", { class: "chip c-jade", d: `M${cx} ${cy - r - 1}L${cx + r + 1} ${cy}L${cx} ${cy + r + 1}L${cx - r - 1} ${cy}Z` });
  else if (kind === "vp") shape = s("path", { class: "chip c-vp", d: `M${cx} ${cy - r}L${cx + r * 0.95} ${cy - r * 0.3}L${cx + r * 0.6} ${cy + r * 0.85}L${cx - r * 0.6} ${cy + r * 0.85}L${cx - r * 0.95} ${cy - r * 0.3}Z` });
  else shape = s("circle", { class: `chip c-${kind}`, cx, cy, r });
  const light = ["pepper", "silk", "vp", "seal"].includes(kind);
  return s("g", { class: "res-chip" }, shape, label ? text(cx, cy + r * 0.45, label, `chip-n${light ? " light" : ""}`, r * 1.25) : null);
}

const CHIP_KINDS = ["coins", "camels", "pepper", "silk", "gold", "jade", "vp"];

/**
 * A bundle of resources as a row of chips from (x, y), the row's centre line; returns [elements, width].
 * @returns {[Element[], number]}
 */
function chipRow(bundle, x, y, r = 8) {
  const parts = [];
  let cx = x + r;
  for (const [k, n] of Object.entries(bundle || {})) {
    if (CHIP_KINDS.includes(k)) parts.push(chip(k, n, cx, y, r));
    else parts.push(text(cx - r, y + r * 0.45, `+${k === "good" ? t("w.kh.icon.good", { count: n }) : k === "move" ? `${n}→` : tOr(`w.kh.icon.${k}`, k.replace("_", " "))}`, "small", r * 1.3));
    cx += CHIP_KINDS.includes(k) ? 2 * r + 4 : r * 5;
  }
  return [parts, cx - x];
}

function costChips(e, x, y) {
  const parts = [];
  const items = [
    ["coins", e.coins],
    ["camels", e.camels],
    ["jade", e.jade],
  ].filter(([, n]) => n);
  const w = items.length * 17 + (e.seal ? 17 : 0);
  let cx = x - w / 2;
  for (const [k, n] of items) {
    if (k === "coins") parts.push(s("circle", { class: "chip c-coins", cx: cx + 8, cy: y, r: 8 }));
    else if (k === "camels") parts.push(s("rect", { class: "chip c-camels", x: cx, y: y - 8, width: 16, height: 16, rx: 3 }));
    else parts.push(s("path", { class: "chip c-jade", d: `M${cx + 8} ${y - 9}L${cx + 17} ${y}L${cx + 8} ${y + 9}L${cx - 1} ${y}Z` }));
    parts.push(text(cx + 8, y + 4.5, String(n), "chip-n", 12));
    cx += 17;
  }
  if (e.seal) {
    parts.push(s("rect", { class: "chip c-seal", x: cx, y: y - 8, width: 16, height: 16, rx: 8 }));
    parts.push(text(cx + 8, y + 4.5, e.seal[0].toUpperCase(), "chip-n light", 11));
  }
  return s("g", { class: "cost" }, parts);
}

// ---- the map -----------------------------------------------------------------------------------

function mapSvg(ctx, A, ui) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const posts = new Map();
  const figures = new Map();
  const caravans = new Map();
  for (const p of pub.players) {
    for (const c of p.posts) push(posts, c, p.seat);
    p.figures.forEach((f, i) => {
      push(figures, f, [p.seat, i]);
    });
    if (p.caravan) push(caravans, p.caravan.at, p.seat);
  }
  const active = new Set();
  for (const [to, opts] of A.nodes) {
    for (const o of opts) {
      if (o.a === "step") active.add([me(view).figures[o.fig], to].sort().join("|"));
    }
  }
  const routes = B.edges.map((e) => {
    const a = B.nodes.get(e.a);
    const b = B.nodes.get(e.b);
    const [x1, y1, x2, y2] = [mx(a.x), my(a.y), mx(b.x), my(b.y)];
    const on = active.has([e.a, e.b].sort().join("|"));
    return s(
      "g",
      { class: `route${e.seal ? " sea" : ""}${on ? " active" : ""}`, "data-route": `${e.a}-${e.b}` },
      s("title", null, `${B.name(e.a)} – ${B.name(e.b)}: ${routeWords(e)}`),
      s("line", { class: "road", x1, y1, x2, y2 }),
      costChips(e, (x1 + x2) / 2, (y1 + y2) / 2),
    );
  });
  const markers = pub.markers || {};
  const outposts = pub.outposts || {};
  const nodes = [...B.nodes.values()].map((n) => {
    const x = mx(n.x);
    const y = my(n.y);
    const r = n.type === "oasis" ? 10 : n.type === "start" ? 17 : 15;
    const options = A.nodes.get(n.id) || [];
    const roles = [];
    if (B.contractCities.includes(n.id)) roles.push(t("w.kh.map.contracts"));
    if (B.cardSlots.includes(n.id)) roles.push(t("w.kh.map.cityCard"));
    if (markers[n.id]) roles.push(t("w.kh.map.bonus", { bonus: bundleWords(markers[n.id].reward) }));
    if (n.id in outposts) roles.push(outposts[n.id] ? t("w.kh.map.firstPost", { bonus: bundleWords(outposts[n.id].reward) }) : t("w.kh.map.outpostTaken"));
    if (B.special[n.id]) roles.push(t("w.kh.map.special", { bonus: bundleWords(B.special[n.id].reward) }));
    const postSeats = posts.get(n.id) || [];
    const figs = figures.get(n.id) || [];
    const cars = caravans.get(n.id) || [];
    const who = [
      postSeats.length ? t("w.kh.map.posts", { who: postSeats.map((i) => ctx.seatName(i)).join(", ") }) : "",
      figs.length ? t("w.kh.map.figures", { who: figs.map(([i]) => ctx.seatName(i)).join(", ") }) : "",
      cars.length ? t("w.kh.map.caravans", { who: cars.map((i) => ctx.seatName(i)).join(", ") }) : "",
    ].filter(Boolean);
    const name = nodeName(n);
    const label = `${name}${n.type === "oasis" ? "" : n.type === "start" ? ` (${t("w.kh.map.start")})` : `, ${t("w.kh.map.shield", { shield: shieldName(n.shield) })}`}${roles.length ? `; ${roles.join("; ")}` : ""}${who.length ? `; ${who.join("; ")}` : ""}`;
    const shape =
      n.type === "start"
        ? s("rect", { class: "node-shape", x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 4 })
        : s("circle", { class: "node-shape", cx: x, cy: y, r });
    const g = s(
      "g",
      { class: `node n-${n.type}${B.special[n.id] ? " n-special" : ""}`, "data-node": n.id, role: "img", "aria-label": label },
      s("title", null, label),
      options.length ? s("circle", { class: "ring", cx: x, cy: y, r: r + 8 }) : null,
      shape,
      n.type === "city" ? text(x, y + 4, SHIELD_LETTERS(n.shield), "shield", 11, { "aria-hidden": "true" }) : null,
      text(x, y + r + 14, n.type === "oasis" ? tOr(`w.kh.oasis.${n.id}`, n.name.replace(" oasis", "")) : name, n.type === "oasis" ? "oasis-name" : "city-name", n.type === "oasis" ? 11 : 13),
      postSeats.map((seat, i) => s("rect", { class: "post", x: x - r - 2 + i * 10, y: y - r - 12, width: 9, height: 9, fill: SEAT_COLOURS[seat % 4] })),
      figs.map(([seat], i) =>
        s("path", {
          class: "figure",
          d: `M${x + r - 2 + i * 11} ${y + 4}l5 -13a4 4 0 1 1 2 0l5 13z`,
          fill: SEAT_COLOURS[seat % 4],
        }),
      ),
      cars.map((seat, i) => s("path", { class: "caravan", d: `M${x - r - 14 + i * 9} ${y + 8}l8 -12l8 12z`, fill: SEAT_COLOURS[seat % 4] })),
    );
    if (options.length) {
      g.removeAttribute("role");
      target(g, true, `${options.length === 1 ? describe(options[0], view) : t("w.choose", { what: name })}`, `node-${n.id}`, () => pick(ctx, ui, options, name));
    }
    return g;
  });
  const desc = pub.players.map((p) => t("w.kh.map.desc", { who: ctx.seatName(p.seat), figures: p.figures.map((f) => B.name(f)).join(", "), posts: p.posts.map((c) => B.name(c)).join(", ") || "—" })).join(". ");
  return s(
    "svg",
    { class: "kh-map", viewBox: `0 0 ${MAP_W} ${MAP_H}`, role: "group", "aria-labelledby": "kh-map-title kh-map-desc" },
    s("title", { id: "kh-map-title" }, t("w.kh.map.title")),
    s("desc", { id: "kh-map-desc" }, desc),
    s("rect", { class: "land", x: 0, y: 0, width: MAP_W, height: MAP_H, rx: 10 }),
    routes,
    nodes,
  );
}

const SHIELD_LETTERS = (shield) => (shield ? shield.slice(0, 2) : "");

/** The map in its panel: a legend of its signs, and on a phone a zoom that pans inside the panel. */
function mapPanel(ctx, A, ui) {
  const B = new Board(ctx.view.public);
  const zoomed = ctx.narrow && ui.mapZoom;
  const legend = h(
    "p",
    { class: "kh-legend" },
    h("span", null, h("span", { class: "lg lg-start" }), t("w.kh.lg.start", { city: B.name("beijing") })),
    h("span", null, h("span", { class: "lg lg-city" }), t("w.kh.lg.city")),
    h("span", null, h("span", { class: "lg lg-special" }), t("w.kh.lg.special")),
    h("span", null, h("span", { class: "lg lg-oasis" }), t("w.kh.lg.oasis")),
    h("span", null, h("span", { class: "lg lg-sea" }), t("w.kh.lg.sea")),
    h("span", null, `${t("w.kh.lg.costs")} `, h("span", { class: "lg lg-coin" }), `${resName("coins")} `, h("span", { class: "lg lg-camel" }), `${resName("camels")} `, h("span", { class: "lg lg-jade" }), resName("jade")),
    h("span", { class: "shields" }, `${t("w.kh.lg.shields")} ${(B.pub.board?.shields || []).map((sh) => `${SHIELD_LETTERS(sh)} ${shieldName(sh)}`).join(", ")}`),
  );
  return h(
    "section",
    { class: `kh-mapbox panel${zoomed ? " zoomed" : ""}`, "aria-label": t("w.kh.tab.map") },
    ctx.narrow
      ? h(
          "div",
          { class: "kh-zoombar" },
          h(
            "button",
            {
              type: "button",
              class: "link",
              "data-key": "map-zoom",
              "aria-pressed": zoomed ? "true" : "false",
              onClick: () => {
                ui.mapZoom = !ui.mapZoom;
                ctx.rerender();
              },
            },
            zoomed ? t("w.kh.zoomOut") : t("w.kh.zoomIn"),
          ),
        )
      : null,
    h("div", { class: "kh-mapscroll", tabindex: zoomed ? "0" : null, "aria-label": zoomed ? t("w.kh.zoomed") : null }, mapSvg(ctx, A, ui)),
    legend,
  );
}

// ---- the action board --------------------------------------------------------------------------

const CELL_W = 150;
const CELL_H = 92;
const CELL_H_PHONE = 82;

function actionSvg(ctx, A) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const pend = myPending(view);
  const COLS = ctx.narrow ? 2 : 4; // two columns on a phone: the cards' text stays readable
  const CH = ctx.narrow ? CELL_H_PHONE : CELL_H; // a phone's cells are lower: the dice sit closer to the text
  const DICE_Y = ctx.narrow ? 55 : 58;
  const cells = [];
  const spaceBox = (space, title, lines, placements, i, { need = 0, extra = null, icons = null } = {}) => {
    const col = i % COLS;
    const row = Math.floor(i / COLS);
    const x = col * CELL_W + 2;
    const y = row * CH + 2;
    const option = A.spaces.get(space);
    const chosen = pend?.kind === "dice" && pend.space === space;
    const full = `${title}${need ? ` (${t("w.dice", { n: need })})` : ""}: ${lines.join(" ")}${placements.length ? `; ${t("w.placed", { dice: placementsText(view, placements) })}` : ""}`;
    const g = s(
      "g",
      { class: `kh-space${chosen ? " chosen" : ""}`, "data-space": space, role: "img", "aria-label": full },
      s("title", null, full),
      s("rect", { class: "box", x, y, width: CELL_W - 4, height: CH - 4, rx: 6 }),
      fitText(x + 6, y + 16, title, "box-title", 13, CELL_W - 16),
    );
    // what the space shows beside its title, drawn over it: said by its label, so kept out of the target (a voice
    // names a target by its visible words; these numbers and chips are not words), and clicks go through it
    const art = s(
      "g",
      { class: "kh-space-art", "aria-hidden": "true" },
      need ? text(x + CELL_W - 10, y + CH - 10, t("w.dice", { n: need }), "need", 10.5) : null,
      icons ? s("g", { class: "icons", transform: `translate(${x + 6} ${y + 22})` }, icons) : wrap(lines.join(" "), 27, 3).map((ln, k) => text(x + 6, y + 30 + k * 11, ln, "small", 9.8)),
      extra,
      placedDice(placements, x + 6, y + DICE_Y, 20, CELL_W - 16, CH - DICE_Y - 4),
    );
    if (option) {
      g.removeAttribute("role");
      target(g, true, t("w.choose", { what: describe(option, view) }), `space-${space}`, () => send(ctx, option));
    }
    cells.push(s("g", { class: "kh-cell" }, g, art));
  };
  let i = 0;
  for (const sp of ["book1", "book2", "book3a", "book3b"]) {
    const tile = (pub.offers || [])[BOOK_PILE[sp]];
    const offers = (tile?.offers || []).map((o, k) => `${k + 1}) ${offerWords(o)}`);
    const offerIcons = (tile?.offers || []).map((o, k) => {
      const [row] = chipRow(o.gain, (k % 2) * 70, 8 + Math.floor(k / 2) * 16, 6);
      return s("g", null, row, o.jade ? chip("jade", `-${o.jade}`, (k % 2) * 70 + 58, 8 + Math.floor(k / 2) * 16, 5) : null);
    });
    spaceBox(sp, spaceName(sp), [spaceGives(sp)], pub.spaces?.[sp] || [], i++, { need: 1, icons: offerIcons });
    cells[cells.length - 1].querySelector("title").textContent += `; ${t("w.kh.offers", { offers: offers.join("; ") })}`;
  }
  const dewu = me(view)?.character === "dewu";
  const steps = (n, more = "") => [chip("move", "", 8, 10, 8), fitText(20, 14, `${n}${more}`, "icon-text", 11, CELL_W - 36)];
  const SPACE_ICONS = {
    seals: [chip("seal", "", 8, 10, 8), fitText(20, 14, t("w.kh.icon.seal"), "icon-text", 11, CELL_W - 36)],
    travel1: [...steps(t("w.kh.icon.travel1")), chip("coins", 2, 80, 10, 8)],
    travel3: steps(t("w.kh.icon.travel3")),
    travel6: steps(t("w.kh.icon.travel6")),
    contracts: [chip("coins", 3, 8, 10, 8), fitText(20, 14, t("w.kh.icon.contracts"), "icon-text", 11, CELL_W - 36)],
  };
  for (const sp of ["seals", "travel1", "travel3", "travel6", "contracts"]) {
    spaceBox(sp, spaceName(sp), [spaceGives(sp)], pub.spaces?.[sp] || [], i++, { need: sp === "seals" && dewu ? 1 : SPACE_DICE[sp] || 1, icons: SPACE_ICONS[sp] });
  }
  const khanTaken = (pub.khan || []).length;
  spaceBox("khan", spaceName("khan"), [spaceGives("khan"), t("w.kh.khanTaken", { n: khanTaken })], pub.khan || [], i++, {
    need: 1,
    icons: [chipRow({ coins: 4, camels: 2 }, 0, 10)[0], text(56, 14, t("w.kh.icon.khan", { n: khanTaken }), "icon-text", 11)],
  });
  spaceBox("bag", spaceName("bag"), [spaceGives("bag")], pub.bag || [], i++, {
    icons: [chip("coins", 3, 8, 10, 8), text(20, 14, t("w.orShort"), "icon-text", 10), chip("camels", 2, 42, 10, 8), text(54, 14, t("w.orShort"), "icon-text", 10), chip("jade", 1, 76, 10, 8)],
  });
  const blacks = pub.black_dice || [];
  spaceBox("black", spaceName("black"), [t("w.kh.blackLeft", { n: blacks.length })], blacks.length ? [{ seat: null, dice: blacks.map((v) => ["black", v || 0]) }] : [], i++, {
    icons: [fitText(0, 14, t("w.kh.icon.black", { n: blacks.length }), "icon-text", 11, 84), chip("camels", 3, 96, 10, 8)],
  });
  for (const [city, sp] of Object.entries(B.special)) {
    const [row, w] = chipRow(sp.reward, 0, 10, 7);
    spaceBox(city, B.name(city), [t("w.kh.specialGives", { reward: bundleWords(sp.reward), seal: sealName(sp.seal) })], pub.special?.[city] || [], i++, {
      need: 1,
      icons: [row, fitText(w + 2, 14, t("w.kh.icon.special", { seal: tOr(`w.kh.sealShort.${sp.seal}`, sp.seal) }), "icon-text", 10, CELL_W - 16 - w - 4)],
    });
  }
  i++;
  for (const cc of pub.city_cards || []) {
    const where = cc.city ? B.name(cc.city) : t("w.kh.actionArea");
    spaceBox(cc.space, `${where}`, [cardWords(cc.card)], cc.used ? [cc.used] : [], i++, { need: 1 });
  }
  const rows = Math.ceil(i / COLS);
  return s(
    "svg",
    { class: "kh-actions", viewBox: `0 0 ${COLS * CELL_W + 4} ${rows * CH + 4}`, role: "group", "aria-label": t("w.kh.actionsLabel") },
    s("title", null, t("w.kh.tab.actions")),
    cells,
  );
}

// ---- HTML panels -------------------------------------------------------------------------------

function contractButton(ctx, ui, c, options, { fulfil = null, where = "" } = {}) {
  const label = `${contractName(c.id, contractWords(c))}`;
  const body = [h("span", { class: "pay" }, t("w.pay", { what: bundleWords(c.cost) })), h("span", { class: "get" }, t("w.get", { what: bundleWords(c.reward) }))];
  // a button is named by what it shows, then what it does in words (a voice says what it sees: WCAG 2.5.3)
  if (fulfil) {
    return h("button", { type: "button", class: "kh-contract target", "data-contract": c.id, "data-key": `fulfil-${c.id}`, onClick: () => send(ctx, fulfil) }, body, h("span", { class: "tag" }, t("w.tag.fulfil")), h("span", { class: "sr" }, `: ${t("w.opt.fulfil", { contract: label })}`));
  }
  if (options?.length) {
    return h("button", { type: "button", class: "kh-contract target", "data-contract": c.id, "data-key": `take-${c.id}`, onClick: () => pick(ctx, ui, options, t("w.kh.takeThis")) }, body, h("span", { class: "tag" }, t("w.tag.take")), h("span", { class: "sr" }, `: ${t("w.opt.take", { contract: label })}${where}`));
  }
  return h("div", { class: "kh-contract", "data-contract": c.id, role: "img", "aria-label": label }, body);
}

function contractsPanel(ctx, A, ui) {
  const pub = ctx.view.public;
  const B = new Board(pub);
  return h(
    "section",
    { class: "panel kh-cities", "aria-label": t("w.kh.citiesLabel") },
    h("h2", null, t("w.kh.tab.contracts"), h("span", { class: "hint" }, ` · ${t("w.kh.pile", { n: pub.pile })}`)),
    h(
      "div",
      { class: "kh-city-rows" },
      Object.entries(pub.contract_spaces || {}).map(([city, row]) =>
        h(
          "div",
          { class: "kh-city-row", "data-city": city },
          h("span", { class: "k" }, B.name(city)),
          h("div", { class: "kh-city-contracts" }, row.map((c) => (c ? contractButton(ctx, ui, c, A.take.get(c.id), { where: ` (${B.name(city)})` }) : h("span", { class: "kh-contract empty" }, t("w.empty"))))),
        ),
      ),
    ),
  );
}

function offerPanel(ctx, A) {
  const pub = ctx.view.public;
  const pend = myPending(ctx.view);
  if (!A.offer.size || pend?.kind !== "offer") return null;
  const tile = (pub.offers || [])[BOOK_PILE[pend.space] ?? 0];
  return h(
    "section",
    { class: "panel kh-offers", "aria-label": t("w.kh.chooseOffer") },
    h("h2", null, t("w.kh.offersOf", { space: spaceName(pend.space) })),
    h(
      "div",
      { class: "kh-offer-row" },
      (tile?.offers || []).map((o, i) => {
        const opt = A.offer.get(i);
        const words = offerWords(o);
        return opt
          ? h("button", { type: "button", class: "kh-offer target", "data-offer": i, "data-key": `offer-${i}`, onClick: () => send(ctx, opt) }, `${i + 1}) ${words}`)
          : h("span", { class: "kh-offer off" }, `${i + 1}) ${words}`);
      }),
    ),
  );
}

function trayPanel(ctx, A, ui) {
  const { view } = ctx;
  const mine = me(view);
  const pend = myPending(view);
  const parts = [];
  if (ui.choose) {
    parts.push(
      h(
        "div",
        { class: "kh-chooser", role: "group", "aria-label": ui.choose.title },
        h("p", null, t("w.whichOne", { what: ui.choose.title })),
        ui.choose.options.map((o) => h("button", { type: "button", "data-move": JSON.stringify(o), onClick: () => send(ctx, o) }, describe(o, view))),
        h("button", { type: "button", class: "secondary", onClick: () => { ui.choose = null; ctx.rerender(); } }, t("w.back")),
      ),
    );
  }
  if (mine) {
    const dice = mine.dice.map(([k, v], i) => {
      const opt = A.dice.get(`${k}-${v}`);
      const svg = s("svg", { viewBox: "0 0 30 30", width: 30, height: 30, "aria-hidden": "true" }, die(2, 2, 26, k, v, mine.seat));
      const label = dieWords(k, v);
      return opt
        ? h("button", { type: "button", class: "kh-die target", "data-kind": k, "data-value": v, "data-key": `die-${k}-${v}-${i}`, "aria-label": describe(opt, view), onClick: () => send(ctx, opt) }, svg)
        : h("span", { class: "kh-die", "data-kind": k, "data-value": v, role: "img", "aria-label": label }, svg);
    });
    const what = pend?.kind === "dice" ? t("w.kh.dieFor", { space: new Board(view.public).space(pend.space) }) : t("w.yourDice");
    parts.push(h("div", { class: "kh-tray-dice" }, h("span", { class: "k" }, `${what}:`), dice.length ? dice : h("span", { class: "hint" }, t("w.noneLeft"))));
  }
  if (!parts.length) return null;
  return h("section", { class: "panel kh-tray", "aria-label": t("w.kh.trayLabel") }, parts);
}

function playerBoard(ctx, A, p) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const mine = p.seat === view.you;
  const res = RESOURCES.map((r) => h("span", { class: `kh-res r-${r}`, "data-res": r }, h("b", null, String(p[r])), ` ${resName(r)}`));
  const dice = p.dice.length
    ? s("svg", { viewBox: `0 0 ${p.dice.length * 22} 22`, width: p.dice.length * 22, height: 22, class: "mini", role: "img", "aria-label": p.dice.map(([k, v]) => dieWords(k, v)).join(", ") }, p.dice.map(([k, v], i) => die(i * 22 + 1, 1, 20, k, v, p.seat)))
    : h("span", { class: "hint" }, t("w.noneLeft"));
  const seals = Object.entries(p.seals || {});
  const contracts = (p.contracts || []).map((c) => contractButton(ctx, null, c, null, { fulfil: mine ? A.fulfil.get(c.id) : null }));
  const goals = mine ? view.private?.goals || [] : p.goals || [];
  const offer = mine ? view.private?.goal_offer || [] : [];
  const goalList = goals.length || offer.length
    ? h(
        "ul",
        { class: "kh-goals", "aria-label": mine ? t("w.goalsSecret") : t("w.goals") },
        goals.map((g) => h("li", { "data-goal": g.id }, goalWords(g))),
        offer.map((g) => h("li", { "data-goal": g.id, class: "offered" }, t("w.offered", { what: goalWords(g) }))),
      )
    : null;
  return playerPanel(ctx, p, {
    cls: "kh",
    B,
    start: pub.first === p.seat ? h("span", { class: "start-tag" }, t("w.first")) : null,
    resClass: "kh-resline",
    res,
    diceLabel: `${t("w.dicePlain")}: `,
    dice,
    contracts,
    goalList,
    lines: [
      h("p", { class: "kh-line" }, t("w.kh.playerLine", { placed: p.posts.length, left: p.posts_left, done: p.completed, seals: seals.map(([k, v]) => `${sealName(k)}${v === "improved" ? " ★" : ""}`).join(", ") || "—" })),
      p.tiles?.length ? h("p", { class: "kh-line" }, t("w.kh.tiles", { tiles: p.tiles.map((x) => bundleWords(x.reward)).join("; ") })) : null,
      p.caravan ? h("p", { class: "kh-line" }, t("w.kh.caravanAt", { route: caravanShields(pub, p.caravan.route), city: B.name(p.caravan.at), goods: p.caravan.goods.map(goodName).join(", ") || t("w.empty") })) : null,
    ],
  });
}

function cityCardsNote(ctx) {
  const pub = ctx.view.public;
  const B = new Board(pub);
  const draft = pub.draft;
  const rows = [];
  if (draft?.offer?.length) rows.push(h("p", null, h("b", null, `${t("w.charsOffered")}: `), draft.offer.map((c) => `${B.character(c)} (${B.ability(c)})`).join(" · ")));
  const over = pub.phase === "over" || ctx.view.result;
  rows.push(h("p", { class: "hint" }, over ? t("w.kh.over") : t("w.kh.note", { round: pub.round, deck: pub.deck, black: (pub.black_dice || []).length })));
  return h("div", { class: "kh-note" }, rows);
}

// ---- the log -----------------------------------------------------------------------------------

function logLine(ev, view) {
  const pub = view.public;
  const B = new Board(pub);
  const own = (who) => {
    const L = (key, params) => t(`w.kh.log.${key}`, { who, ...params });
    switch (ev.ev) {
      case "round":
        return t("w.log.round", { round: ev.round, first: view.seats[ev.first]?.name || "?" });
      case "roll":
        return t("w.log.roll", { who, dice: ev.dice.map(([k, v]) => `${v}${k === "own" ? "" : ` ${t(`w.diekind.${k}`)}`}`).join(", ") });
      case "goal_kept":
        return L("goalKept");
      case "compensation":
        return L("compensation", { coins: amountWords("coins", ev.coins) });
      case "double":
        return L("double", { source: sourceWords(pub, B, ev.source) });
      case "offer":
        return L("offer", { n: ev.i + 1, space: B.space(ev.space) });
      case "seal":
        return L("seal", { seal: sealName(ev.seal) });
      case "improve":
        return L("improve", { seal: sealName(ev.seal) });
      case "outpost":
        return L("outpost", { city: B.name(ev.city) });
      case "draw_contract":
        return L("drawContract");
      case "discard":
        return t("w.log.discarded", { who, what: cname(pub, ev.contract) });
      case "bag":
        return L("bag", { take: bagTake(ev.take) });
      case "reroll":
        return t("w.log.reroll", { who, from: ev.from, to: ev.to });
      case "adjust":
        return t("w.log.adjust", { who, from: ev.from, to: ev.from + ev.by });
      case "tile":
        return L("tile");
      case "caravan":
        return L("caravan", { route: caravanShields(pub, ev.route), city: B.name(ev.at) });
      case "deliver":
        return L("deliver", { goods: (ev.goods || []).map(goodName).join(", ") || t("w.empty") });
      case "card_times":
        return t("w.log.cardTimes", { who, n: ev.n });
      default:
        return undefined;
    }
  };
  const die = (k, v) => (k === "own" ? String(v) : `${t(`w.diekind.${k}`)} ${v}`);
  return logSentence(ev, view, B, own, { named: (id) => cname(pub, id), die });
}

/** The final scoring in detail and every seat's goal cards, for the room's result panel. */
function resultDetails(view) {
  const keys = ["in_game", "goal_seals", "shields", "shield_count", "goods", "coins", "contracts", "caravan", "total"];
  return [breakdownTable(view, { cls: "kh", prefix: "kh", keys }), goalsAtEnd(view, goalWords)];
}

// ---- the phone layout: tabs -------------------------------------------------------------------

const TABS = ["actions", "map", "contracts", "players"];

/** The tab the prompt needs: the map for a move on it, the contracts to take one, else the action board. */
function neededTab(A) {
  if (A.nodes.size) return "map";
  if (A.take.size) return "contracts";
  if (A.fulfil.size && !A.spaces.size) return "players";
  return "actions";
}

/**
 * A phone shows one of the big panels at a time (tabs: action board, map, contracts, player boards) under
 * your dice and choices; a new prompt opens the tab it needs, a tab chosen by hand stays until then.
 * Every panel stays in the page (hidden), so its labels and targets are there for assistive technology.
 */
function phone(ctx, A, ui, { map, actions, players }) {
  if (ui.tabKey !== ui.key) {
    ui.tabKey = ui.key;
    ui.tab = neededTab(A);
  }
  const tab = TABS.includes(ui.tab) ? ui.tab : "actions";
  const counts = { actions: A.spaces.size, map: A.nodes.size, contracts: A.take.size, players: A.fulfil.size };
  const panels = {
    actions,
    map,
    contracts: contractsPanel(ctx, A, ui),
    players,
  };
  const bar = h(
    "div",
    { class: "kh-tabs", role: "tablist", "aria-label": t("w.kh.tabs") },
    TABS.map((name) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `kh-tab-${name}`,
          class: `kh-tab${counts[name] ? " has-choices" : ""}`,
          "data-tab": name,
          "data-key": `tab-${name}`,
          "aria-selected": tab === name ? "true" : "false",
          "aria-controls": `kh-panel-${name}`,
          onClick: () => {
            ui.tab = name;
            ctx.rerender();
          },
        },
        t(`w.kh.tabname.${name}`),
        counts[name] ? h("span", { class: "kh-tab-n", "aria-label": t("w.kh.tabChoices", { n: counts[name] }) }, String(counts[name])) : null,
      ),
    ),
  );
  return h(
    "div",
    { class: "khan narrow", "data-tab": tab },
    cityCardsNote(ctx),
    trayPanel(ctx, A, ui),
    offerPanel(ctx, A),
    bar,
    TABS.map((name) => h("div", { class: "kh-tabpanel", role: "tabpanel", id: `kh-panel-${name}`, "aria-labelledby": `kh-tab-${name}`, hidden: tab !== name }, panels[name])),
  );
}

// ---- the renderer ------------------------------------------------------------------------------

export default {
  id: "khan",
  title: "Marco Polo II: In the Service of the Khan",
  minSeats: 2,
  maxSeats: 4,
  get scoreUnit() {
    return t("w.resname.vp");
  },

  render(ctx) {
    const A = analyse(ctx.view);
    const ui = promptUi(ctx);
    const pub = ctx.view.public;
    if (!pub.board || !pub.players) return h("p", { class: "hint" }, t("w.settingUp"));
    const map = mapPanel(ctx, A, ui);
    const actions = h("section", { class: "kh-actionbox panel", "aria-label": t("w.kh.tab.actions") }, actionSvg(ctx, A));
    const players = h("div", { class: "kh-players" }, pub.players.map((p) => playerBoard(ctx, A, p)));
    if (ctx.narrow) return phone(ctx, A, ui, { map, actions, players });
    const side = [trayPanel(ctx, A, ui), offerPanel(ctx, A), contractsPanel(ctx, A, ui)];
    // the map across the whole board column (its names readable), then the action board beside the contracts
    return h("div", { class: "khan" }, cityCardsNote(ctx), map, h("div", { class: "kh-grid" }, h("div", { class: "kh-main" }, actions), h("div", { class: "kh-side" }, side)), players);
  },

  promptText,

  get house() {
    return t("w.kh.house");
  },

  get options() {
    return [
      { key: "caravans", label: t("w.kh.optCaravans") },
      { key: "black_dice_variant", label: t("w.kh.optBlackDice") },
    ];
  },

  describe,

  /** End your turn first in the prompt bar; the bonus actions (money bag, rerolls, changes, black dice) folded. */
  choiceKind(move) {
    if (move.a === "end") return "end";
    return BONUS.has(move.a) ? "bonus" : null;
  },

  hasGesture(move, view) {
    if (!GESTURES.has(move.a)) return false;
    if (move.a === "die") return me(view) !== null;
    return true;
  },

  status(view, ctx) {
    return diceStatus(view, ctx, { draft: true });
  },

  logLines(view) {
    return (view.public.log || []).map((ev) => ({ n: ev.n, text: logLine(ev, view) }));
  },

  resultNote: camelsTieNote,

  resultDetails,
};
