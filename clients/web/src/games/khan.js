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
import { SEAT_COLOURS, die, makeWords, placedDice, placementsText, plural, target, text, wrap } from "../shared/board.js";
import { contractName } from "../shared/names.js";

const RESOURCES = ["coins", "camels", "pepper", "silk", "gold", "jade", "vp"];
const RES_SHORT = { coins: "coins", camels: "camels", pepper: "pepper", silk: "silk", gold: "gold", jade: "jade", vp: "VP" };
const SPACE_NAMES = {
  book1: "Book I",
  book2: "Book II",
  book3a: "Book III (upper)",
  book3b: "Book III (lower)",
  seals: "Guild seals",
  travel1: "Travel 1",
  travel3: "Travel 3",
  travel6: "Travel 6",
  contracts: "Contracts",
  khan: "Khan's favor",
};
const SPACE_GIVES = {
  book1: "offer of tile I",
  book2: "offer of tile II, die ≥ 3",
  book3a: "offer of tile III, die ≥ 5",
  book3b: "offer of tile III, die ≥ 5",
  seals: "a guild seal",
  travel1: "1 location, 2 coins",
  travel3: "up to 3 locations",
  travel6: "up to 6 + extra post",
  contracts: "3 coins + 2 contracts",
  khan: "4 coins + 2 camels",
};
const SPACE_DICE = { seals: 2, travel1: 1, travel3: 2, travel6: 3 };
const BOOK_PILE = { book1: 0, book2: 1, book3a: 2, book3b: 2 };
const BAG_TAKE = { coins: "3 coins", camels: "2 camels", jade: "1 jade" };
const CARGO_HOW = { double: "double it", upgrade: "upgrade it to the next good", vp: "sell it for VP" };

// the map: board coordinates (x 0–100, y 0–60) scaled into a 1000×630 box
const MAP_W = 1000;
const MAP_H = 630;
const mx = (x) => 40 + x * 9.2;
const my = (y) => 40 + y * 9.2;

// ---- words -------------------------------------------------------------------------------------

const { amountWords, bundleWords, contractWords } = makeWords({
  good: (n) => (n === 1 ? "1 good of your choice" : `${n} goods of your choice`),
  contract: () => "a contract from a city with your post",
  draw_contract: (n) => (n === 1 ? "the top contract of the pile" : `${n} contracts from the pile`),
  other_marker: () => "another city's bonus marker",
});

function cardWords(card) {
  if (!card) return "—";
  switch (card.kind) {
    case "per_pip":
      return `${bundleWords(card.reward)} per pip of the die`;
    case "by_die":
      return `by die value 1 to 6: ${(card.rewards || []).map(bundleWords).join(" / ")}`;
    case "count":
      return `${bundleWords(card.reward)} per ${card.counts === "posts" ? "trading post" : "completed contract"}, at most the die value`;
    case "trade":
      return `pay ${bundleWords(card.cost)} for ${bundleWords(card.reward)}, up to the die value times`;
    case "either":
      return `${(card.ways || []).map((w) => `${bundleWords(w.cost)} for ${bundleWords(w.reward)}`).join(" or ")} (one way), up to the die value times`;
    case "city_bonus":
      return `the bonus of your bonus cities, ${(card.times_by_die || []).join("/")} times by die value`;
    case "seal":
      return `pay ${bundleWords(card.cost)}: a guild seal up to the die value`;
    case "move":
      return `move ${(card.steps_by_die || []).join("/")} locations by die value`;
    case "contract":
      return `${bundleWords(card.reward_per_pip)} per pip and a contract`;
    default:
      return JSON.stringify(card);
  }
}

function goalWords(g) {
  return (g.icons || []).map((i) => (i.seal ? `${i.seal}'s seal improved: ${i.vp} VP` : `${i.shield} shield`)).join(", ");
}

class Board {
  constructor(pub) {
    const b = pub.board || {};
    this.pub = pub;
    this.nodes = new Map((b.nodes || []).map((n) => [n.id, n]));
    this.edges = b.edges || [];
    this.cardSlots = b.card_slots || [];
    this.contractCities = b.contract_cities || [];
    this.special = b.special_cities || {};
    this.seals = b.seals || {};
    this.characters = b.characters || {};
  }

  name(id) {
    return this.nodes.get(id)?.name || String(id);
  }

  character(id) {
    return this.characters[id]?.name || id || "—";
  }

  space(space) {
    if (SPACE_NAMES[space]) return SPACE_NAMES[space];
    if (this.special[space]) return `the special city ${this.name(space)}`;
    if (space && space.startsWith("slot-")) {
      const i = Number(space.slice(5));
      if (i < this.cardSlots.length) return `the city card at ${this.name(this.cardSlots[i])}`;
      return `action-area city card ${i - this.cardSlots.length + 1}`;
    }
    return String(space);
  }

  route(a, b) {
    return this.edges.find((e) => (e.a === a && e.b === b) || (e.a === b && e.b === a)) || null;
  }
}

function routeWords(e) {
  if (!e) return "";
  const parts = ["coins", "camels", "jade"].filter((k) => e[k]).map((k) => amountWords(k, e[k]));
  let t = parts.join(" + ") || "free";
  if (e.seal) t += `, ${e.seal}'s seal needed`;
  return t;
}

function me(view) {
  return view.you === null || view.you === undefined ? null : view.public.players[view.you];
}

function myPending(view) {
  return (view.public.pending || []).find((p) => p.seat === view.you) || null;
}

/** A contract by what it asks and gives (the data has no names); "a contract" when it is no longer shown. */
function cname(pub, id) {
  const c = findContract(pub, id);
  return contractName(id, c ? contractWords(c) : null);
}

function caravanShields(pub, id) {
  const r = (pub.caravan_routes || []).find((x) => x.id === id);
  return r ? ` ${r.shields.join(" – ")}` : "";
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
  if (kind === "marker") return `the bonus of ${B.name(what)} (${bundleWords(pub.markers?.[what]?.reward)})`;
  if (kind === "special") return `the bonus of ${B.name(what)} (${bundleWords(B.special[what]?.bonus)})`;
  if (kind === "seal") return `the ${what}'s seal bonus (${bundleWords(B.seals[what]?.bonus)})`;
  return "your character's 2 coins";
}

function describe(move, view) {
  const pub = view.public;
  const B = new Board(pub);
  const pend = myPending(view) || {};
  const mine = me(view) || {};
  switch (move.a) {
    case "character":
      return `Play ${B.character(move.character)}`;
    case "goal": {
      const g = (view.private?.goal_offer || []).find((x) => x.id === move.keep);
      return `Keep the goal card${g ? `: ${goalWords(g)}` : ""}`;
    }
    case "space": {
      const n = move.space === "seals" && mine.character === "dewu" ? 1 : SPACE_DICE[move.space] || 1;
      const card = cardOf(pub, move.space);
      return `${B.space(move.space)} (${plural(n, "die", "dice")})${card ? `: ${cardWords(card)}` : ""}`;
    }
    case "die":
      return `Place the ${move.kind} ${move.value} die${pend.kind === "dice" ? ` on ${B.space(pend.space)}` : ""}`;
    case "cancel":
      return "Cancel this action (take the dice back)";
    case "fulfil":
      return `Fulfil ${cname(pub, move.contract)}`;
    case "improve":
      return `Improve your ${move.seal}'s seal for ${bundleWords(B.seals[move.seal]?.improve)}`;
    case "bag":
      return `Money bag: the ${move.kind} ${move.value} die for ${BAG_TAKE[move.take] || move.take}`;
    case "reroll":
      return `Reroll the ${move.kind} ${move.value} die for 1 camel`;
    case "adjust":
      return `Turn the ${move.kind} ${move.value} die to ${move.value + move.by} for 2 camels`;
    case "black":
      if (pend.kind === "black_pick") return `Take the black die showing ${move.value}`;
      return `Buy a black die${move.value ? ` showing ${move.value}` : ""} for 3 camels`;
    case "tile": {
      const t = (mine.tiles || []).find((x) => x.id === move.tile);
      return `Use the outpost tile ${t ? `of ${bundleWords(t.reward)}` : ""}`.trim();
    }
    case "caravan": {
      const r = (pub.caravan_routes || []).find((x) => x.id === move.route);
      return `Claim the caravan route${r ? ` ${r.shields.join(" – ")}` : ""}, starting in ${B.name(move.start)}`;
    }
    case "deliver":
      return "Deliver your caravan's goods";
    case "end":
      return "End your turn";
    case "comp": {
      const camels = (pend.amount ?? move.coins) - move.coins;
      return `Take ${amountWords("coins", move.coins)} and ${amountWords("camels", camels)}`;
    }
    case "pair": {
      const v = move.value;
      return `Use the pair of ${v}s for ${v === 1 || v === 6 ? "1 jade" : v === 2 || v === 5 ? "1 silk" : "1 gold"}`;
    }
    case "singles":
      return "Take the single bonuses for the rest of your dice";
    case "double":
      return `Receive ${sourceWords(pub, B, move.source)} again`;
    case "marker":
      return `Take the bonus marker of ${B.name(move.city)} (${bundleWords(pub.markers?.[move.city]?.reward)})`;
    case "good":
      return `Take 1 ${move.good}`;
    case "offer": {
      const tile = (pub.offers || [])[BOOK_PILE[pend.space] ?? 0];
      const o = tile?.offers?.[move.i];
      return `Take offer ${move.i + 1}${o ? `: ${bundleWords(o.gain)}${o.jade ? ` for ${o.jade} jade` : ""}` : ""}`;
    }
    case "seal":
      return `Take the ${move.seal}'s guild seal${B.seals[move.seal]?.jade ? ` (+${B.seals[move.seal].jade} jade)` : ""}`;
    case "step": {
      const figs = mine.figures || [];
      const from = figs[move.fig];
      const who = figs.length > 1 ? `figure ${move.fig + 1} ` : "";
      const cost = routeWords(B.route(from, move.to));
      return `Move ${who}from ${B.name(from)} to ${B.name(move.to)}${cost ? ` (route: ${cost})` : ""}`;
    }
    case "stop":
      return { travel: "Stop moving here", card: "Stop using the city card", load: "Stop loading the caravan", caravan_move: "Stop the caravan here" }[pend.kind] || "Stop";
    case "post":
      return `Place your extra trading post in ${B.name(move.city)}`;
    case "skip":
      return "Skip the extra trading post";
    case "oases": {
      const camels = (pend.n ?? move.coins) - move.coins;
      return `Oasis bonus: ${amountWords("coins", 2 * move.coins)} and ${amountWords("camels", camels)}`;
    }
    case "relocate":
      return `Move your trading post from ${B.name(move.from)}`;
    case "take":
      return `Take ${cname(pub, move.contract)}${move.discard ? `, discarding ${cname(pub, move.discard)}` : ""}`;
    case "done":
      return "Take no more contracts";
    case "decline":
      return "Decline the contract";
    case "discard": {
      const isNew = pend.contract?.id === move.contract;
      return `Discard ${isNew ? "the new contract" : "your contract"}: ${contractWords(findContract(pub, move.contract))}`;
    }
    case "times": {
      let t = `Use the city card ${plural(move.n, "time")}`;
      const card = (pub.city_cards || []).find((c) => c.card.id === pend.card)?.card;
      const w = card?.kind === "either" ? card.ways[move.way] : null;
      if (w) t += ` (${bundleWords(w.cost)} for ${bundleWords(w.reward)})`;
      return t;
    }
    case "city":
      return `Take ${sourceWords(pub, B, `${B.special[move.city] ? "special" : "marker"}:${move.city}`)}`;
    case "load":
      return `Load 1 ${move.good} onto your caravan`;
    case "haul":
      return `Move your caravan to ${B.name(move.to)}`;
    case "cargo":
      return `${(pend.goods || ["?"])[0]} cargo: ${CARGO_HOW[move.how] || move.how}`;
    default:
      return JSON.stringify(move);
  }
}

// ---- the prompt, sorted by gesture -------------------------------------------------------------

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

/** Options by where they are chosen: spaces, dice, map locations, contracts, offers. */
function analyse(view) {
  const opts = view.prompt ? view.prompt.options : [];
  const A = { spaces: new Map(), dice: new Map(), nodes: new Map(), take: new Map(), fulfil: new Map(), offer: new Map() };
  for (const o of opts) {
    switch (o.a) {
      case "space":
        A.spaces.set(o.space, o);
        break;
      case "die":
        A.dice.set(`${o.kind}-${o.value}`, o);
        break;
      case "step":
      case "haul":
        push(A.nodes, o.to, o);
        break;
      case "post":
      case "city":
      case "marker":
        push(A.nodes, o.city, o);
        break;
      case "relocate":
        push(A.nodes, o.from, o);
        break;
      case "caravan":
        push(A.nodes, o.start, o);
        break;
      case "take":
        push(A.take, o.contract, o);
        break;
      case "fulfil":
        A.fulfil.set(o.contract, o);
        break;
      case "offer":
        A.offer.set(o.i, o);
        break;
      default:
        break;
    }
  }
  return A;
}

const GESTURES = new Set(["space", "die", "step", "haul", "post", "city", "marker", "relocate", "caravan", "take", "fulfil", "offer"]);

function uiState(ctx) {
  const ui = ctx.ui;
  const key = JSON.stringify([ctx.view.prompt, myPending(ctx.view)]);
  if (ui.key !== key) {
    ui.key = key;
    ui.choose = null; // {title, options}: one click stood for several options
  }
  return ui;
}

function send(ctx, option) {
  if (!option || ctx.pending) return;
  ctx.send(option);
}

/** One option: send it; several: show them as a short list to pick from. */
function pick(ctx, ui, options, title) {
  if (ctx.pending || !options.length) return;
  if (options.length === 1) return ctx.send(options[0]);
  ui.choose = { title, options };
  ctx.rerender();
  /** @type {HTMLElement | null} */ (document.querySelector(".kh-chooser button"))?.focus();
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
    else parts.push(text(cx - r, y + r * 0.45, `+${k === "good" ? `${n} good` : k === "move" ? `${n}→` : k.replace("_", " ")}`, "small", r * 1.3));
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
    p.figures.forEach((f, i) => push(figures, f, [p.seat, i]));
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
    if (B.contractCities.includes(n.id)) roles.push("contracts");
    if (B.cardSlots.includes(n.id)) roles.push("city card");
    if (markers[n.id]) roles.push(`bonus ${bundleWords(markers[n.id].reward)}`);
    if (n.id in outposts) roles.push(outposts[n.id] ? `first post: ${bundleWords(outposts[n.id].reward)}` : "outpost bonus taken");
    if (B.special[n.id]) roles.push(`special city: ${bundleWords(B.special[n.id].reward)}`);
    const postSeats = posts.get(n.id) || [];
    const figs = figures.get(n.id) || [];
    const cars = caravans.get(n.id) || [];
    const who = [
      postSeats.length ? `posts: ${postSeats.map((i) => ctx.seatName(i)).join(", ")}` : "",
      figs.length ? `figures: ${figs.map(([i]) => ctx.seatName(i)).join(", ")}` : "",
      cars.length ? `caravans: ${cars.map((i) => ctx.seatName(i)).join(", ")}` : "",
    ].filter(Boolean);
    const label = `${n.name}${n.type === "oasis" ? "" : n.type === "start" ? " (start)" : `, ${n.shield} shield`}${roles.length ? `; ${roles.join("; ")}` : ""}${who.length ? `; ${who.join("; ")}` : ""}`;
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
      n.type === "city" ? text(x, y + 4, SHIELD_LETTERS(n.shield), "shield", 11) : null,
      text(x, y + r + 14, n.name.replace(" oasis", ""), n.type === "oasis" ? "oasis-name" : "city-name", n.type === "oasis" ? 11 : 13),
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
      target(g, true, `${options.length === 1 ? describe(options[0], view) : `Choose ${n.name}`}`, `node-${n.id}`, () => pick(ctx, ui, options, n.name));
    }
    return g;
  });
  const desc = pub.players.map((p) => `${ctx.seatName(p.seat)}: figures in ${p.figures.map((f) => B.name(f)).join(" and ")}; posts in ${p.posts.map((c) => B.name(c)).join(", ") || "no city"}`).join(". ");
  return s(
    "svg",
    { class: "kh-map", viewBox: `0 0 ${MAP_W} ${MAP_H}`, role: "group", "aria-labelledby": "kh-map-title kh-map-desc" },
    s("title", { id: "kh-map-title" }, "The map: locations, routes with their costs, trading posts and figures"),
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
    h("span", null, h("span", { class: "lg lg-start" }), "Beijing (start)"),
    h("span", null, h("span", { class: "lg lg-city" }), "city (its shield's first letters)"),
    h("span", null, h("span", { class: "lg lg-special" }), "special city"),
    h("span", null, h("span", { class: "lg lg-oasis" }), "oasis"),
    h("span", null, h("span", { class: "lg lg-sea" }), "sea route (seal needed)"),
    h("span", null, "route costs: ", h("span", { class: "lg lg-coin" }), "coins ", h("span", { class: "lg lg-camel" }), "camels ", h("span", { class: "lg lg-jade" }), "jade"),
    h("span", { class: "shields" }, `shields: ${(B.pub.board?.shields || []).map((sh) => `${SHIELD_LETTERS(sh)} ${sh}`).join(", ")}`),
  );
  return h(
    "section",
    { class: `kh-mapbox panel${zoomed ? " zoomed" : ""}`, "aria-label": "Map" },
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
            zoomed ? "Zoom out (whole map)" : "Zoom in (drag to pan)",
          ),
        )
      : null,
    h("div", { class: "kh-mapscroll", tabindex: zoomed ? "0" : null, "aria-label": zoomed ? "Map, zoomed: scroll to pan" : null }, mapSvg(ctx, A, ui)),
    legend,
  );
}

// ---- the action board --------------------------------------------------------------------------

const CELL_W = 150;
const CELL_H = 92;

function actionSvg(ctx, A, ui) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const pend = myPending(view);
  const COLS = ctx.narrow ? 2 : 4; // two columns on a phone: the cards' text stays readable
  const cells = [];
  const spaceBox = (space, title, lines, placements, i, { need = 0, extra = null, icons = null } = {}) => {
    const col = i % COLS;
    const row = Math.floor(i / COLS);
    const x = col * CELL_W + 2;
    const y = row * CELL_H + 2;
    const option = A.spaces.get(space);
    const chosen = pend?.kind === "dice" && pend.space === space;
    const full = `${title}${need ? ` (${plural(need, "die", "dice")})` : ""}: ${lines.join(" ")}${placements.length ? `; dice: ${placementsText(view, placements)}` : ""}`;
    const g = s(
      "g",
      { class: `kh-space${chosen ? " chosen" : ""}`, "data-space": space, role: "img", "aria-label": full },
      s("title", null, full),
      s("rect", { class: "box", x, y, width: CELL_W - 4, height: CELL_H - 4, rx: 6 }),
      text(x + 6, y + 16, title, "box-title", 13),
      need ? text(x + CELL_W - 10, y + CELL_H - 10, plural(need, "die", "dice"), "need", 10.5) : null,
      icons ? s("g", { class: "icons", transform: `translate(${x + 6} ${y + 22})`, "aria-hidden": "true" }, icons) : wrap(lines.join(" "), 27, 3).map((ln, k) => text(x + 6, y + 30 + k * 11, ln, "small", 9.8)),
      extra,
      placedDice(placements, x + 6, y + 58, 20, CELL_W - 16),
    );
    if (option) {
      g.removeAttribute("role");
      target(g, true, `Choose ${describe(option, view)}`, `space-${space}`, () => send(ctx, option));
    }
    cells.push(g);
  };
  let i = 0;
  for (const sp of ["book1", "book2", "book3a", "book3b"]) {
    const tile = (pub.offers || [])[BOOK_PILE[sp]];
    const offers = (tile?.offers || []).map((o, k) => `${k + 1}) ${bundleWords(o.gain)}${o.jade ? ` (${o.jade} jade)` : ""}`);
    const offerIcons = (tile?.offers || []).map((o, k) => {
      const [row] = chipRow(o.gain, (k % 2) * 70, 8 + Math.floor(k / 2) * 16, 6);
      return s("g", null, row, o.jade ? chip("jade", `-${o.jade}`, (k % 2) * 70 + 58, 8 + Math.floor(k / 2) * 16, 5) : null);
    });
    spaceBox(sp, SPACE_NAMES[sp], [SPACE_GIVES[sp]], pub.spaces?.[sp] || [], i++, { need: 1, icons: offerIcons });
    cells[cells.length - 1].querySelector("title").textContent += `; offers: ${offers.join("; ")}`;
  }
  const dewu = me(view)?.character === "dewu";
  const steps = (n, more = "") => [chip("move", "", 8, 10, 8), text(20, 14, `${n}${more}`, "icon-text", 11)];
  const SPACE_ICONS = {
    seals: [chip("seal", "", 8, 10, 8), text(20, 14, "a guild seal", "icon-text", 11)],
    travel1: [...steps("1 step"), chip("coins", 2, 80, 10, 8)],
    travel3: steps("up to 3 steps"),
    travel6: steps("up to 6 + 1 post"),
    contracts: [chip("coins", 3, 8, 10, 8), text(20, 14, "+ 2 contracts", "icon-text", 11)],
  };
  for (const sp of ["seals", "travel1", "travel3", "travel6", "contracts"]) {
    spaceBox(sp, SPACE_NAMES[sp], [SPACE_GIVES[sp]], pub.spaces?.[sp] || [], i++, { need: sp === "seals" && dewu ? 1 : SPACE_DICE[sp] || 1, icons: SPACE_ICONS[sp] });
  }
  const khanTaken = (pub.khan || []).length;
  spaceBox("khan", SPACE_NAMES.khan, [SPACE_GIVES.khan, `(${khanTaken} of 4 taken)`], pub.khan || [], i++, {
    need: 1,
    icons: [chipRow({ coins: 4, camels: 2 }, 0, 10)[0], text(56, 14, `${khanTaken}/4 taken`, "icon-text", 11)],
  });
  spaceBox("bag", "Money bag", ["bonus: a die for 3 coins, 2 camels or 1 jade"], pub.bag || [], i++, {
    icons: [chip("coins", 3, 8, 10, 8), text(20, 14, "or", "icon-text", 10), chip("camels", 2, 42, 10, 8), text(54, 14, "or", "icon-text", 10), chip("jade", 1, 76, 10, 8)],
  });
  const blacks = pub.black_dice || [];
  spaceBox("black", "Black dice", [`${blacks.length} left; buy one for 3 camels`], blacks.length ? [{ seat: null, dice: blacks.map((v) => ["black", v || 0]) }] : [], i++, {
    icons: [text(0, 14, `${blacks.length} left · buy:`, "icon-text", 11), chip("camels", 3, 96, 10, 8)],
  });
  for (const [city, sp] of Object.entries(B.special)) {
    const [row, w] = chipRow(sp.reward, 0, 10, 7);
    spaceBox(city, B.name(city), [`${bundleWords(sp.reward)} + ${sp.seal}'s bonus if improved; post needed`], pub.special?.[city] || [], i++, {
      need: 1,
      icons: [row, text(w + 2, 14, `+ ${sp.seal}'s seal`, "icon-text", 10)],
    });
  }
  i++;
  for (const cc of pub.city_cards || []) {
    const where = cc.city ? B.name(cc.city) : "Action area";
    spaceBox(cc.space, `${where}`, [cardWords(cc.card)], cc.used ? [cc.used] : [], i++, { need: 1 });
  }
  const rows = Math.ceil(i / COLS);
  return s(
    "svg",
    { class: "kh-actions", viewBox: `0 0 ${COLS * CELL_W + 4} ${rows * CELL_H + 4}`, role: "group", "aria-label": "Action spaces with the dice placed on them" },
    s("title", null, "Action spaces"),
    cells,
  );
}

// ---- HTML panels -------------------------------------------------------------------------------

function contractButton(ctx, ui, c, options, { fulfil = null, where = "" } = {}) {
  const label = `${contractName(c.id, contractWords(c))}`;
  const body = [h("span", { class: "pay" }, `pay ${bundleWords(c.cost)}`), h("span", { class: "get" }, `get ${bundleWords(c.reward)}`)];
  if (fulfil) {
    return h("button", { type: "button", class: "kh-contract target", "data-contract": c.id, "data-key": `fulfil-${c.id}`, "aria-label": `Fulfil ${label}`, onClick: () => send(ctx, fulfil) }, body, h("span", { class: "tag" }, "fulfil"));
  }
  if (options?.length) {
    return h("button", { type: "button", class: "kh-contract target", "data-contract": c.id, "data-key": `take-${c.id}`, "aria-label": `Take ${label}${where}`, onClick: () => pick(ctx, ui, options, "Take this contract") }, body, h("span", { class: "tag" }, "take"));
  }
  return h("div", { class: "kh-contract", "data-contract": c.id, role: "img", "aria-label": label }, body);
}

function contractsPanel(ctx, A, ui) {
  const pub = ctx.view.public;
  const B = new Board(pub);
  return h(
    "section",
    { class: "panel kh-cities", "aria-label": "Contracts in the contract cities" },
    h("h3", null, "Contracts", h("span", { class: "hint" }, ` · pile ${pub.pile}`)),
    h(
      "div",
      { class: "kh-city-rows" },
      Object.entries(pub.contract_spaces || {}).map(([city, row]) =>
        h(
          "div",
          { class: "kh-city-row", "data-city": city },
          h("span", { class: "k" }, B.name(city)),
          h("div", { class: "kh-city-contracts" }, row.map((c) => (c ? contractButton(ctx, ui, c, A.take.get(c.id), { where: ` in ${B.name(city)}` }) : h("span", { class: "kh-contract empty" }, "empty")))),
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
    { class: "panel kh-offers", "aria-label": "Choose an offer" },
    h("h3", null, `Offers of ${SPACE_NAMES[pend.space]}`),
    h(
      "div",
      { class: "kh-offer-row" },
      (tile?.offers || []).map((o, i) => {
        const opt = A.offer.get(i);
        const words = `${bundleWords(o.gain)}${o.jade ? ` for ${o.jade} jade` : ""}`;
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
        h("p", null, `${ui.choose.title}: which one?`),
        ui.choose.options.map((o) => h("button", { type: "button", "data-move": JSON.stringify(o), onClick: () => send(ctx, o) }, describe(o, view))),
        h("button", { type: "button", class: "secondary", onClick: () => { ui.choose = null; ctx.rerender(); } }, "Back"),
      ),
    );
  }
  if (mine) {
    const dice = mine.dice.map(([k, v], i) => {
      const opt = A.dice.get(`${k}-${v}`);
      const svg = s("svg", { viewBox: "0 0 30 30", width: 30, height: 30, "aria-hidden": "true" }, die(2, 2, 26, k, v, mine.seat));
      const label = `${k} die ${v}`;
      return opt
        ? h("button", { type: "button", class: "kh-die target", "data-kind": k, "data-value": v, "data-key": `die-${k}-${v}-${i}`, "aria-label": describe(opt, view), onClick: () => send(ctx, opt) }, svg)
        : h("span", { class: "kh-die", "data-kind": k, "data-value": v, role: "img", "aria-label": label }, svg);
    });
    const what = pend?.kind === "dice" ? `Choose a die for ${new Board(view.public).space(pend.space)}` : "Your dice";
    parts.push(h("div", { class: "kh-tray-dice" }, h("span", { class: "k" }, `${what}:`), dice.length ? dice : h("span", { class: "hint" }, "none left")));
  }
  if (!parts.length) return null;
  return h("section", { class: "panel kh-tray", "aria-label": "Your dice and choices" }, parts);
}

function playerBoard(ctx, A, p) {
  const { view } = ctx;
  const pub = view.public;
  const B = new Board(pub);
  const mine = p.seat === view.you;
  const turn = pub.turn === p.seat && pub.phase === "play" && !view.result;
  const colour = SEAT_COLOURS[p.seat % 4];
  const res = RESOURCES.map((r) => h("span", { class: `kh-res r-${r}`, "data-res": r }, h("b", null, String(p[r])), ` ${RES_SHORT[r]}`));
  const dice = p.dice.length
    ? s("svg", { viewBox: `0 0 ${p.dice.length * 22} 22`, width: p.dice.length * 22, height: 22, class: "mini", role: "img", "aria-label": p.dice.map(([k, v]) => `${k} ${v || "?"}`).join(", ") }, p.dice.map(([k, v], i) => die(i * 22 + 1, 1, 20, k, v, p.seat)))
    : h("span", { class: "hint" }, "none left");
  const seals = Object.entries(p.seals || {});
  const contracts = (p.contracts || []).map((c) => contractButton(ctx, null, c, null, { fulfil: mine ? A.fulfil.get(c.id) : null }));
  const goals = mine ? view.private?.goals || [] : p.goals || [];
  const offer = mine ? view.private?.goal_offer || [] : [];
  const goalList = goals.length || offer.length
    ? h(
        "ul",
        { class: "kh-goals", "aria-label": mine ? "Your goal cards (secret)" : "Goal cards" },
        goals.map((g) => h("li", { "data-goal": g.id }, goalWords(g))),
        offer.map((g) => h("li", { "data-goal": g.id, class: "offered" }, `offered: ${goalWords(g)}`)),
      )
    : null;
  return h(
    "section",
    { class: `kh-player panel ${mine ? "me" : ""} ${turn ? "turn" : ""}`, "data-seat": p.seat, style: { borderTopColor: colour }, "aria-label": `${ctx.seatName(p.seat)}'s board` },
    h(
      "h3",
      null,
      h("span", { class: "swatch", style: { background: colour }, "aria-hidden": "true" }),
      ctx.seatName(p.seat),
      mine ? " (you)" : "",
      turn ? h("span", { class: "turn-tag" }, "to play") : null,
      pub.first === p.seat ? h("span", { class: "start-tag" }, "first") : null,
    ),
    h("p", { class: "kh-char", title: B.characters[p.character]?.ability || "" }, B.character(p.character), h("span", { class: "sr" }, `: ${B.characters[p.character]?.ability || ""}`)),
    h("div", { class: "kh-resline" }, res),
    h("div", { class: "kh-line" }, h("span", { class: "k" }, "Dice: "), dice),
    h("p", { class: "kh-line" }, `Posts: ${p.posts.length} placed, ${p.posts_left} left · contracts done: ${p.completed} · seals: ${seals.map(([k, v]) => `${k}${v === "improved" ? " ★" : ""}`).join(", ") || "none"}`),
    p.tiles?.length ? h("p", { class: "kh-line" }, `Outpost tiles: ${p.tiles.map((t) => bundleWords(t.reward)).join("; ")}`) : null,
    p.caravan ? h("p", { class: "kh-line" }, `Caravan${caravanShields(pub, p.caravan.route)} at ${B.name(p.caravan.at)}: ${p.caravan.goods.join(", ") || "empty"}`) : null,
    h("div", { class: "kh-contracts" }, contracts.length ? contracts : h("span", { class: "hint" }, "no active contract")),
    goalList ? h("h4", null, mine && !view.result ? "Your goal cards (secret)" : "Goal cards") : null,
    goalList,
  );
}

function cityCardsNote(ctx) {
  const pub = ctx.view.public;
  const B = new Board(pub);
  const draft = pub.draft;
  const rows = [];
  if (draft?.offer?.length) rows.push(h("p", null, h("b", null, "Characters offered: "), draft.offer.map((c) => `${B.character(c)} (${B.characters[c]?.ability || ""})`).join(" · ")));
  const over = pub.phase === "over" || ctx.view.result;
  rows.push(h("p", { class: "hint" }, over ? "Game over after round 5." : `Round ${pub.round} of 5 · city card deck ${pub.deck} · black dice ${(pub.black_dice || []).length}`));
  return h("div", { class: "kh-note" }, rows);
}

// ---- the log -----------------------------------------------------------------------------------

function logLine(ev, view) {
  const pub = view.public;
  const B = new Board(pub);
  const who = ev.seat !== undefined && ev.seat !== null ? view.seats[ev.seat]?.name || `Seat ${ev.seat + 1}` : "";
  switch (ev.ev) {
    case "round":
      return `Round ${ev.round} begins; ${view.seats[ev.first]?.name || "?"} is first player.`;
    case "roll":
      return `${who} rolled ${ev.dice.map(([k, v]) => `${v}${k === "own" ? "" : ` ${k}`}`).join(", ")}.`;
    case "character":
      return `${who} chose ${B.character(ev.character)}.`;
    case "goal_kept":
      return `${who} kept a goal card.`;
    case "compensation":
      return `${who} took compensation (${plural(ev.coins, "coin")}, the rest as camels).`;
    case "double":
      return `${who} received ${sourceWords(pub, B, ev.source)} again.`;
    case "place":
      return `${who} placed ${ev.dice.map(([k, v]) => `${k} ${v}`).join(", ")} on ${B.space(ev.space)}${ev.fee ? `, paying ${plural(ev.fee, "coin")}` : ""}.`;
    case "offer":
      return `${who} took offer ${ev.i + 1} of ${B.space(ev.space)}.`;
    case "seal":
      return `${who} took the ${ev.seal}'s guild seal.`;
    case "improve":
      return `${who} improved the ${ev.seal}'s seal.`;
    case "step":
      return `${who} moved from ${B.name(ev.from)} to ${B.name(ev.to)}.`;
    case "post":
      return `${who} placed trading post ${ev.nth} in ${B.name(ev.city)}${ev.vp ? ` (+${ev.vp} VP)` : ""}.`;
    case "outpost":
      return `${who} took the outpost bonus of ${B.name(ev.city)}.`;
    case "relocate":
      return `${who} moved a trading post from ${B.name(ev.from)} to ${B.name(ev.to)}.`;
    case "take_contract":
      return `${who} took ${cname(pub, ev.contract)}.`;
    case "draw_contract":
      return `${who} drew a contract from the pile.`;
    case "discard":
      return `${who} discarded ${cname(pub, ev.contract)}.`;
    case "fulfil":
      return `${who} fulfilled ${cname(pub, ev.contract)}.`;
    case "bag":
      return `${who} put a die in the money bag for ${BAG_TAKE[ev.take] || ev.take}.`;
    case "reroll":
      return `${who} rerolled a ${ev.from}: ${ev.to}.`;
    case "adjust":
      return `${who} turned a ${ev.from} to ${ev.from + ev.by}.`;
    case "black_die":
      return `${who} took a black die: ${ev.value}.`;
    case "tile":
      return `${who} used an outpost tile.`;
    case "caravan":
      return `${who} claimed the caravan route${caravanShields(pub, ev.route)} at ${B.name(ev.at)}.`;
    case "deliver":
      return `${who} delivered the caravan (${(ev.goods || []).join(", ") || "empty"}).`;
    case "card_times":
      return `${who} used a city card ${plural(ev.n, "time")}.`;
    case "end_turn":
      return `${who} ended the turn.`;
    case "final_scoring":
      return `Final scoring: ${(ev.scores || []).map((sc, i) => `${view.seats[i]?.name || `Seat ${i + 1}`} ${sc}`).join(", ")}.`;
    default:
      return String(ev.ev);
  }
}

function breakdownPanel(view) {
  const res = view.result;
  if (!res?.breakdown) return null;
  const items = [
    ["in_game", "in game"],
    ["goal_seals", "goal seals"],
    ["shields", "shields"],
    ["shield_count", "(shields)"],
    ["goods", "goods"],
    ["coins", "coins"],
    ["contracts", "most contracts"],
    ["caravan", "caravan"],
    ["total", "total"],
  ];
  return h(
    "section",
    { class: "panel kh-breakdown", "aria-labelledby": "kh-bd-title" },
    h("h2", { id: "kh-bd-title" }, "Final scoring in detail"),
    h(
      "div",
      { class: "kh-scroll" },
      h(
        "table",
        null,
        h("thead", null, h("tr", null, h("th", null, "player"), items.map(([, l]) => h("th", null, l)), h("th", null, "camels"))),
        h(
          "tbody",
          null,
          res.breakdown.map((b, i) => h("tr", { "data-seat": i }, h("th", null, view.seats[i]?.name || `Seat ${i + 1}`), items.map(([k]) => h("td", null, String(b[k] ?? 0))), h("td", null, String(res.tiebreak?.[i] ?? "")))),
        ),
      ),
    ),
  );
}

// ---- the renderer ------------------------------------------------------------------------------

export default {
  id: "khan",
  title: "Marco Polo II: In the Service of the Khan",
  house: "The map, the cards, the contracts and the tiles are all reconstructions (house data): scores are not comparable with the printed game.",
  minSeats: 2,
  maxSeats: 4,
  scoreUnit: "VP",
  options: [
    { key: "caravans", label: "Caravans expansion" },
    { key: "black_dice_variant", label: "Black dice variant (rolled each round, keep their value)" },
  ],

  render(ctx) {
    const A = analyse(ctx.view);
    const ui = uiState(ctx);
    const pub = ctx.view.public;
    if (!pub.board || !pub.players) return h("p", { class: "hint" }, "Setting up…");
    const map = mapPanel(ctx, A, ui);
    const actions = h("section", { class: "kh-actionbox panel", "aria-label": "Action spaces" }, actionSvg(ctx, A, ui));
    const players = h("div", { class: "kh-players" }, pub.players.map((p) => playerBoard(ctx, A, p)));
    const side = [trayPanel(ctx, A, ui), offerPanel(ctx, A), contractsPanel(ctx, A, ui)];
    const boards = A.nodes.size ? [map, actions] : [actions, map];
    if (ctx.narrow) return h("div", { class: "khan narrow" }, cityCardsNote(ctx), side, boards, breakdownPanel(ctx.view), players);
    // the map across the whole board column (its names readable), then the action board beside the contracts
    return h("div", { class: "khan" }, cityCardsNote(ctx), map, h("div", { class: "kh-grid" }, h("div", { class: "kh-main" }, actions), h("div", { class: "kh-side" }, side)), breakdownPanel(ctx.view), players);
  },

  describe,

  hasGesture(move, view) {
    if (!GESTURES.has(move.a)) return false;
    if (move.a === "die") return me(view) !== null;
    return true;
  },

  status(view, ctx) {
    const pub = view.public;
    if (pub.phase === "play" && pub.turn !== null && pub.turn !== undefined) return `Round ${pub.round} of 5: ${ctx.seatName(pub.turn)} is playing.`;
    if (pub.phase === "draft" && pub.draft?.order?.length) return `Character draft: ${ctx.seatName(pub.draft.order[0])} is choosing.`;
    const waiting = [...new Set((pub.pending || []).map((p) => p.seat))].map((i) => ctx.seatName(i));
    if (waiting.length) return `Round ${pub.round} of 5: waiting for ${waiting.join(" and ")}.`;
    return `Round ${pub.round} of 5.`;
  },

  logLines(view) {
    return (view.public.log || []).map((ev) => ({ n: ev.n, text: logLine(ev, view) }));
  },

  resultNote(view) {
    const res = view.result;
    const top = Math.max(...res.scores);
    const tied = res.scores.filter((x) => x === top).length;
    if (tied > 1 && tied > res.winners.length) return "Tied on points: the player with the most camels wins.";
    if (tied > 1) return "Tied on points and on camels: a shared win.";
    return null;
  },
};
