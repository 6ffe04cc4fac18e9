// Marco Polo, the classic trading game: the route map as SVG (stopping points by type, land and sea routes,
// pawns, the ransom spaces, the two compass wheels), the player's hand, money and mission, the goods stacks,
// the players, and the turn (spin, fight, trading).
// Owns: drawing the view (docs/games/classic.md, "Views") and turning clicks into prompt options.
// Must not: decide a rule. Every move sent is one of `view.prompt.options`, sent as listed; what is
// highlighted (destinations, cards, routes, the stack) is read from the options, never worked out here.
import { clickable, h, s } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { scoreTable } from "../shared/board.js";

/** What a Golden Table and a Secret of the East are worth at the end (server/games/classic/cards.json; w.cl.ui.totalHow). */
const WORTH = 240;

const GOODS = { violet: "#7d4fb0", green: "#2f8a41", yellow: "#e3b21c", turquoise: "#17a3a0" };
const WIN_COLOURS = ["turquoise", "yellow", "green"];
const PAWNS = [
  { name: "red", fill: "#d62828", text: "#fff" },
  { name: "blue", fill: "#1f5fd1", text: "#fff" },
  { name: "white", fill: "#f7f4ec", text: "#1b1b1b" },
  { name: "black", fill: "#262626", text: "#fff" },
];
const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const NARROW_MAP_WIDTH = 1250; // px: on a small screen the map keeps this width and scrolls inside its box
const SCROLL_BELOW = 1000; // px of window width under which the map scrolls (its labels would be too small)

function scrollingMap(ctx) {
  return ctx.narrow || window.innerWidth < SCROLL_BELOW;
}

// ---- reading the view ------------------------------------------------------------------------

const NODE_INDEX = new WeakMap(); // board object -> Map(id -> node); the board is constant within a view

function board(view) {
  const b = view.public.board;
  if (!NODE_INDEX.has(b)) NODE_INDEX.set(b, new Map(b.nodes.map((n) => [n.id, n])));
  return b;
}

function nodesOf(view) {
  return NODE_INDEX.get(board(view));
}

function nodeOf(view, id) {
  return nodesOf(view).get(id);
}

function nodeName(view, id) {
  const n = nodeOf(view, id);
  return n ? tOr(`w.cl.node.${id}`, n.name) : id;
}

function nodeWords(view, id) {
  const n = nodeOf(view, id);
  if (!n) return id;
  const name = nodeName(view, id);
  if (n.type === "venice" || n.type === "khanbaliq") return name;
  if (n.type === "post") return t(n.port ? "w.cl.postPort" : "w.cl.post", { name, colour: colourName(n.colour) });
  return `${name} (${tOr(`w.cl.kind.${n.type}`, n.type)})`;
}

const colourName = (c) => tOr(`w.cl.colour.${c}`, c);
const routeName = (r) => tOr(`w.cl.route.${r}`, String(r));
const ransomName = (space) => tOr(`w.cl.ransomSpace.${space.id}`, space.name);

function cardParts(id) {
  const [colour, value] = id.split("-");
  return { colour, value };
}

function cardType(id) {
  return id.slice(0, id.lastIndexOf("-")); // "violet-80-2" -> "violet-80": copies are interchangeable
}

function cardName(id) {
  const { colour, value } = cardParts(id);
  return t("w.cl.card", { colour: colourName(colour), value });
}

function cardValue(id) {
  const v = Number(cardParts(id).value);
  return Number.isFinite(v) ? v : 0;
}

function raiders(space) {
  return space === "pirates" || space === "robbers" ? t(`w.cl.${space}`) : String(space);
}

/**
 * A hazard card's name and text in the current language: the name by the card's id, the text by its effect
 * (the server's English words for a card or an effect the catalogue does not know).
 */
export function hazardWords(ev) {
  const fx = ev.effect || {};
  const key = fx.kind === "tribute" ? `w.cl.hzfx.tribute.${fx.space}` : `w.cl.hzfx.${fx.kind}`;
  return {
    name: tOr(`w.cl.hz.${ev.card}`, ev.name),
    text: tOr(key, ev.text, { money: t("w.cl.bezants", { n: Number(fx.amount) || 0 }) }),
  };
}

const cardsN = (n) => t("w.cl.ui.cards", { n });
const turnsN = (n) => t("w.cl.ui.turns", { n });
const pawnName = (seat) => t(`w.cl.pawn.${pawnOf(seat).name}`);

/** A custom property as a style string (dom.js assigns style objects, which custom properties ignore). */
function goodsStyle(colour) {
  return `--goods: ${GOODS[colour] || "#888"}`;
}

function pawnOf(seat) {
  return PAWNS[seat % PAWNS.length];
}

/** The prompt sorted by gesture. */
function analyse(view) {
  const opts = view.prompt ? view.prompt.options : [];
  const a = { spins: new Map(), moves: new Map(), cards: new Map(), cardAction: null, buy: null, all: opts };
  for (const o of opts) {
    if (o.a === "spin") a.spins.set(o.route, o);
    else if (o.a === "move") a.moves.set(o.to, o);
    else if (o.a === "buy") a.buy = o;
    else if (["sell", "gift", "discard"].includes(o.a) || (o.a === "ransom" && o.card)) {
      a.cards.set(cardType(o.card), o);
      a.cardAction = o.a;
    }
  }
  return a;
}

function describe(move, view) {
  const pub = view.public;
  const space = pub.fight?.space || (typeof pub.spin?.value === "string" ? pub.spin.value : null);
  const route = (r) => tOr(`w.cl.route.${r}`, r);
  switch (move.a) {
    case "spin": {
      const both = (view.prompt?.options || []).filter((o) => o.a === "spin").length > 1;
      return t(both ? "w.cl.opt.spinBy" : "w.cl.opt.spin", { route: route(move.route) });
    }
    case "move":
      return t("w.cl.opt.move", { to: nodeWords(view, move.to) });
    case "fight":
      return t("w.cl.opt.fight", { raiders: raiders(space) });
    case "decline":
      return t("w.cl.opt.decline");
    case "ransom":
      return move.card ? t("w.cl.opt.ransomCard", { card: cardName(move.card), raiders: raiders(space) }) : t("w.cl.opt.ransom", { raiders: raiders(space) });
    case "gift":
      return t("w.cl.opt.gift", { card: cardName(move.card) });
    case "sell":
      return t("w.cl.opt.sell", { card: cardName(move.card), value: cardValue(move.card) });
    case "done":
      return t(pub.phase === "sell" ? "w.cl.opt.doneSelling" : "w.cl.opt.doneTrading");
    case "buy":
      return t("w.cl.opt.buy", { colour: colourName(pub.trade?.colour || "") });
    case "force":
      return t("w.cl.opt.force", { who: view.seats[move.seat]?.name || t("room.seat", { n: move.seat + 1 }) });
    case "discard":
      return t("w.cl.opt.discard", { card: cardName(move.card) });
    default:
      return JSON.stringify(move);
  }
}

/** The prompt's question in words, from the view's structure (the phase, the spin, the gifts so far). */
function promptText(view) {
  const pub = view.public;
  const opts = view.prompt?.options || [];
  switch (pub.phase) {
    case "spin":
      return t(opts.filter((o) => o.a === "spin").length > 1 ? "w.cl.prompt.spinBoth" : "w.cl.prompt.spin");
    case "move":
      return t("w.cl.prompt.move", { n: pub.spin?.value ?? "?" });
    case "gift":
      return t("w.cl.prompt.gift");
    case "fight":
    case "ransom":
    case "sell":
    case "buy":
    case "discard":
      return t(`w.cl.prompt.${pub.phase}`);
    default:
      return view.prompt?.text || "";
  }
}

function missionWords(view, p) {
  if (p.secret) return p.mission ? t("w.cl.ui.missionDoneIn", { city: nodeName(view, p.mission) }) : t("w.cl.ui.missionDone");
  if (p.table) return t("w.cl.ui.tableSecret");
  return t("w.cl.ui.noTable");
}

// ---- the UI state of one room ------------------------------------------------------------------

function uiState(ctx) {
  const ui = ctx.ui;
  const key = JSON.stringify([ctx.view.public.turns, ctx.view.public.phase, ctx.view.prompt]);
  ui.fresh = ui.key !== key;
  if (ui.fresh) ui.key = key;
  return ui;
}

// ---- the map -------------------------------------------------------------------------------------

function nodeShape(n) {
  switch (n.type) {
    case "venice":
      return [s("circle", { class: "shape", r: 21 }), s("circle", { class: "inner", r: 12 })];
    case "khanbaliq":
      return [s("rect", { class: "shape", x: -20, y: -20, width: 40, height: 40, rx: 4 }), s("rect", { class: "inner", x: -10, y: -10, width: 20, height: 20, rx: 2 })];
    case "mission": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? 9 : 22;
        const ang = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(`${(r * Math.cos(ang)).toFixed(1)},${(r * Math.sin(ang)).toFixed(1)}`);
      }
      return [s("polygon", { class: "shape", points: pts.join(" ") })];
    }
    case "port":
      return [s("polygon", { class: "shape", points: "0,-17 16,12 -16,12" })];
    case "post":
      return [s("circle", { class: "shape", r: 16, fill: GOODS[n.colour] || "#999" })];
    default:
      return [s("circle", { class: "shape", r: 8 })];
  }
}

function nodeRadius(n) {
  return { venice: 21, khanbaliq: 22, mission: 22, port: 16, post: 16 }[n.type] || 8;
}

function wheel(ctx, moves, route, cx, cy, r) {
  const { view } = ctx;
  const sectors = board(view).wheels[route] || [];
  const spin = view.public.spin;
  const spun = spin && spin.route === route ? spin.sector : null;
  const n = sectors.length || 8;
  const parts = [];
  const pt = (ang, rad) => `${(cx + rad * Math.cos(ang)).toFixed(1)},${(cy + rad * Math.sin(ang)).toFixed(1)}`;
  sectors.forEach((v, i) => {
    const a0 = -Math.PI / 2 - Math.PI / n + (i * 2 * Math.PI) / n;
    const a1 = a0 + (2 * Math.PI) / n;
    const hazard = typeof v === "string";
    parts.push(
      s("path", {
        class: `sector ${hazard ? "hazard" : ""} ${i === spun ? "spun" : ""}`,
        d: `M${cx},${cy} L${pt(a0, r)} A${r},${r} 0 0 1 ${pt(a1, r)} Z`,
      }),
    );
    const mid = (a0 + a1) / 2;
    const [tx, ty] = pt(mid, r * 0.66).split(",");
    parts.push(s("text", { class: "sector-label", x: tx, y: Number(ty) + 7, "font-size": hazard ? 17 : 21 }, hazard ? (v === "pirates" ? "☠" : "⚔") : String(v)));
  });
  parts.push(s("circle", { class: "hub", cx, cy, r: 9 }));
  parts.push(s("text", { class: "wheel-title", x: cx, y: cy + r + 26 }, t(route === "land" ? "w.cl.ui.compassLand" : "w.cl.ui.compassSea")));
  const option = moves.spins.get(route);
  const g = s(
    "g",
    { class: `wheel ${route} ${option ? "target" : ""} ${spun !== null ? "last" : ""}`, "data-route": route },
    s("title", null, t("w.cl.ui.compassSectors", { route: routeName(route), sectors: sectors.map((v) => (typeof v === "string" ? raiders(v) : v)).join(", ") })),
    option ? s("circle", { class: "target-ring", cx, cy, r: r + 8 }) : null,
    parts,
  );
  if (option) {
    g.setAttribute("data-key", `wheel-${route}`);
    clickable(g, describe(option, view), () => !ctx.pending && ctx.send(option));
  } else {
    g.setAttribute("role", "img");
    const last = spun !== null ? (typeof sectors[spun] === "string" ? raiders(sectors[spun]) : sectors[spun]) : null;
    g.setAttribute("aria-label", last !== null ? t("w.cl.ui.compassLast", { route: routeName(route), value: last }) : t("w.cl.ui.compass", { route: routeName(route) }));
  }
  return g;
}

function ransomBox(view, space) {
  const lying = view.public.ransom[space.id] || { money: 0, cards: [] };
  const W = 250;
  const H = 78;
  const x = Math.max(4, Math.min(board(view).canvas.width - W - 4, space.x - W / 2));
  const y = Math.max(4, Math.min(board(view).canvas.height - H - 4, space.y - H / 2));
  const shown = lying.cards.slice(0, 6);
  const chips = shown.map((c, i) =>
    s(
      "g",
      { transform: `translate(${112 + i * 22} ${38})` },
      s("rect", { class: "chip", width: 20, height: 30, rx: 3, fill: GOODS[cardParts(c).colour] || "#999" }),
      s("text", { class: "chip-n", x: 10, y: 20 }, cardParts(c).value),
    ),
  );
  const more = lying.cards.length > shown.length ? s("text", { class: "ransom-more", x: W - 8, y: 58 }, `+${lying.cards.length - shown.length}`) : null;
  const what = [lying.money ? t("w.cl.bezants", { n: lying.money }) : null, ...lying.cards.map(cardName)].filter(Boolean);
  const label = `${ransomName(space)} (${routeName(space.route)}): ${what.length ? what.join(", ") : t("w.cl.ui.ransomEmpty")}`;
  return s(
    "g",
    { class: `ransom ${space.id}`, transform: `translate(${x} ${y})`, role: "img", "aria-label": label, "data-space": space.id },
    s("title", null, label),
    s("rect", { class: "ransom-frame", width: W, height: H, rx: 10 }),
    s("text", { class: "ransom-title", x: 12, y: 24 }, `${space.id === "pirates" ? "☠" : "⚔"} ${t(space.id === "pirates" ? "w.cl.ui.ransomPirates" : "w.cl.ui.ransomRobbers")}`),
    s("text", { class: "ransom-money", x: 12, y: 60 }, lying.money ? t("w.cl.ui.bz", { money: lying.money }) : lying.cards.length ? "" : t("w.empty")),
    chips,
    more,
  );
}

function legend() {
  const rows = [
    ["city", t("w.cl.ui.lgCity")],
    ["post", t("w.cl.kind.post")],
    ["port", t("w.cl.ui.lgPort")],
    ["mission", t("w.cl.kind.mission")],
    ["land", t("w.cl.ui.lgLand")],
    ["sea", t("w.cl.ui.lgSea")],
  ];
  return s(
    "g",
    { class: "legend", transform: "translate(360 612)", "aria-hidden": "true" },
    s("rect", { class: "legend-frame", x: -14, y: -22, width: 250, height: rows.length * 30 + 14, rx: 8 }),
    rows.map(([k, text], i) => {
      const y = i * 30;
      let mark;
      if (k === "land" || k === "sea") mark = s("line", { class: `route ${k}`, x1: -4, y1: y - 5, x2: 30, y2: y - 5 });
      else mark = s("g", { class: `node ${k}`, transform: `translate(13 ${y - 5}) scale(0.7)` }, nodeShape({ type: k, colour: "violet" }));
      return s("g", null, mark, s("text", { class: "legend-text", x: 42, y }, text));
    }),
  );
}

function mapSvg(ctx, moves) {
  const { view, seatName } = ctx;
  const b = board(view);
  const pub = view.public;
  const W = b.canvas.width;
  const H = b.canvas.height;
  const mine = view.private?.mission && !pub.players[view.you]?.secret ? view.private.mission : null;
  const pawnsAt = new Map();
  for (const p of pub.players) {
    if (!pawnsAt.has(p.pawn)) pawnsAt.set(p.pawn, []);
    pawnsAt.get(p.pawn).push(p);
  }
  const revealed = new Map(pub.players.filter((p) => p.secret && p.mission).map((p) => [p.mission, p]));
  const routes = b.edges.map(([a, c, mode]) => {
    const na = nodesOf(view).get(a);
    const nc = nodesOf(view).get(c);
    return s("line", { class: `route ${mode}`, x1: na.x, y1: na.y, x2: nc.x, y2: nc.y, "data-edge": `${a}-${c}` });
  });
  const nodes = b.nodes.map((n) => {
    const option = moves.moves.get(n.id);
    const here = pawnsAt.get(n.id) || [];
    const bits = [n.type === "venice" ? t("w.cl.kind.venice") : nodeWords(view, n.id)];
    if (n.id === mine) bits.push(t("w.cl.ui.mySecretCity"));
    if (revealed.has(n.id)) bits.push(t("w.cl.ui.missionOf", { who: seatName(revealed.get(n.id).seat) }));
    for (const p of here) bits.push(t("w.cl.ui.pawnHere", { who: seatName(p.seat), pawn: pawnName(p.seat) }));
    const g = s(
      "g",
      {
        class: `node ${n.type} ${option ? "target" : ""} ${n.id === mine ? "my-mission" : ""}`,
        transform: `translate(${n.x} ${n.y})`,
        "data-node": n.id,
      },
      s("title", null, bits.join("; ")),
      n.id === mine ? s("circle", { class: "mission-ring", r: 31 }) : null,
      option ? s("circle", { class: "target-ring", r: 30 }) : null,
      nodeShape(n),
      option ? s("circle", { class: "hit", r: 30 }) : null,
    );
    if (option) {
      g.setAttribute("data-key", `node-${n.id}`);
      clickable(g, `${describe(option, view)}. ${bits.slice(1).join("; ")}`.replace(/\. $/, ""), () => !ctx.pending && ctx.send(option));
    } else {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", bits.join("; "));
    }
    return g;
  });
  const labels = b.nodes.map((n) => {
    const big = ["venice", "khanbaliq", "mission"].includes(n.type);
    const y = n.y + nodeRadius(n) + (big ? 22 : 19);
    return s("text", { class: `label ${big ? "big" : ""} ${moves.moves.has(n.id) ? "target" : ""}`, x: n.x, y }, nodeName(view, n.id));
  });
  const tags = [];
  if (mine) {
    const n = nodesOf(view).get(mine);
    tags.push(s("text", { class: "tag mine", x: n.x, y: n.y - 34 }, t("w.cl.ui.yourMission")));
  }
  for (const [city, p] of revealed) {
    const n = nodesOf(view).get(city);
    if (n) tags.push(s("text", { class: "tag", x: n.x, y: n.y - 34 }, t("w.cl.ui.doneBy", { who: seatName(p.seat) })));
  }
  const pawns = [];
  for (const [id, list] of pawnsAt) {
    const n = nodesOf(view).get(id);
    if (!n) continue;
    const r = nodeRadius(n);
    const step = 29;
    const x0 = n.x - (step * (list.length - 1)) / 2;
    list.forEach((p, i) => {
      const c = pawnOf(p.seat);
      const me = p.seat === view.you;
      pawns.push(
        s(
          "g",
          { class: `pawn ${me ? "me" : ""} ${p.seat === pub.turn ? "turn" : ""}`, transform: `translate(${x0 + i * step} ${n.y - r - 20}) scale(1.25)`, "data-seat": p.seat, "aria-hidden": "true" },
          s("path", { d: "M-11 12 L-7 -2 A9 9 0 1 1 7 -2 L11 12 Z", fill: c.fill }),
          s("text", { y: 8, fill: c.text }, String(p.seat + 1)),
        ),
      );
    });
  }
  const desc = pub.players
    .map((p) =>
      t(p.route ? "w.cl.ui.pawnAtBy" : "w.cl.ui.pawnAt", { who: seatName(p.seat), pawn: pawnName(p.seat), city: nodeName(view, p.pawn), route: routeName(p.route) }),
    )
    .concat(
      b.ransom_spaces.map((sp) => {
        const l = pub.ransom[sp.id];
        const what = [l.money ? t("w.cl.bezants", { n: l.money }) : null, ...l.cards.map(cardName)].filter(Boolean);
        return `${ransomName(sp)}: ${what.length ? what.join(", ") : t("w.empty")}`;
      }),
    )
    .join(". ");
  return s(
    "svg",
    {
      class: "route-map",
      viewBox: `0 0 ${W} ${H}`,
      role: "group",
      "aria-labelledby": "map-title map-desc",
      style: scrollingMap(ctx) ? { width: `${NARROW_MAP_WIDTH}px` } : null,
    },
    s("title", { id: "map-title" }, t("w.cl.ui.mapTitle", { n: b.nodes.length })),
    s("desc", { id: "map-desc" }, desc),
    s("rect", { class: "sea-bg", x: 0, y: 0, width: W, height: H, rx: 18 }),
    s("g", { class: "routes", "aria-hidden": "true" }, routes),
    b.ransom_spaces.map((sp) => ransomBox(view, sp)),
    wheel(ctx, moves, "land", 95, 690, 58),
    wheel(ctx, moves, "sea", 240, 690, 58),
    legend(),
    s("g", { class: "nodes" }, nodes),
    s("g", { class: "labels", "aria-hidden": "true" }, labels, tags),
    s("g", { class: "pawns" }, pawns),
  );
}

/** Scroll the page so that your pawn shows above the prompt bar's sheet (a phone), when it is hidden. */
function followPawn(box) {
  const pawn = box.querySelector(".pawn.me");
  if (!pawn || !box.isConnected) return;
  const r = pawn.getBoundingClientRect();
  const sheet = document.querySelector(".prompt-bar.sheet");
  const bottom = sheet ? sheet.getBoundingClientRect().top : window.innerHeight;
  if (r.top >= 0 && r.bottom <= bottom) return;
  window.scrollBy({ top: r.top + r.height / 2 - bottom / 2, behavior: "instant" });
}

function mapPanel(ctx, moves, ui) {
  const svg = mapSvg(ctx, moves);
  if (!scrollingMap(ctx)) return h("div", { class: "map panel" }, svg);
  // a phone or a small window: the map keeps a readable size and scrolls inside its box; a new turn
  // centres the choices (or your pawn)
  const box = h("div", {
    class: "map panel scroll",
    tabindex: "0",
    "aria-label": t("w.cl.ui.mapScroll"),
    onScroll: (ev) => {
      ui.scroll = ev.target.scrollLeft;
    },
  });
  box.append(svg);
  const b = board(ctx.view);
  let focusX = null;
  const me = ctx.view.you !== null && ctx.view.you !== undefined ? ctx.view.public.players[ctx.view.you] : null;
  // the map follows your pawn: wherever it went (a move, a port, a fight's result), it is scrolled into view;
  // not at the end, when the result at the top is what to read
  const pawnMoved = Boolean(me) && ui.pawnAt !== me.pawn && !ctx.view.result;
  if (me) ui.pawnAt = me.pawn;
  if (ui.fresh || ui.scroll === undefined || pawnMoved) {
    const xs = [...moves.moves.keys()].map((id) => nodesOf(ctx.view).get(id)?.x).filter((x) => x !== undefined);
    if (xs.length) focusX = (Math.min(...xs) + Math.max(...xs)) / 2;
    else if (me) focusX = nodesOf(ctx.view).get(me.pawn)?.x ?? null;
  }
  requestAnimationFrame(() => {
    if (focusX !== null) ui.scroll = Math.max(0, (focusX / b.canvas.width) * NARROW_MAP_WIDTH - box.clientWidth / 2);
    box.scrollLeft = ui.scroll || 0;
    if (pawnMoved) followPawn(box);
  });
  return box;
}

// ---- the panels ------------------------------------------------------------------------------------

function cardEl(id, { option = null, label = "", key = "" } = {}) {
  const { colour, value } = cardParts(id);
  const face = [h("span", { class: "band" }, colourName(colour)), " ", h("span", { class: "value" }, value), " ", h("span", { class: "unit" }, t("w.cl.ui.cardUnit"))];
  const common = { class: `mp-card g-${colour} ${option ? "usable" : ""}`, "data-card": id, "data-type": cardType(id), style: goodsStyle(colour) };
  if (!option) return h("div", { ...common, role: "listitem", "aria-label": t("w.cl.ui.cardLabel", { card: cardName(id) }) }, face);
  // named by its face, then what it does in words (a voice says what it sees: WCAG 2.5.3)
  return h("button", { ...common, type: "button", "data-key": key }, face, label ? h("span", { class: "sr" }, `: ${label}`) : null);
}

function handPanel(ctx, moves) {
  const { view } = ctx;
  const priv = view.private;
  if (!priv) return null;
  const pub = view.public;
  const me = pub.players[view.you] || {};
  const hand = priv.hand;
  const cards = hand.map((id, i) => {
    const option = moves.cards.get(cardType(id));
    if (!option) return cardEl(id, {});
    const el = cardEl(id, { option, key: `card-${id}`, label: describe(option, view) });
    el.addEventListener("click", () => !ctx.pending && ctx.send(option));
    el.dataset.i = i;
    return el;
  });
  const counts = Object.fromEntries(WIN_COLOURS.map((c) => [c, hand.filter((id) => cardParts(id).colour === c).length]));
  let mission;
  if (me.secret) mission = t("w.cl.ui.missionHome", { city: nodeName(view, priv.mission) });
  else if (priv.mission) mission = h("span", null, `${t("w.cl.ui.sendsYou")} `, h("strong", { class: "mission-city" }, nodeName(view, priv.mission)), ` ${t("w.cl.ui.secretUntil")}`);
  else mission = t("w.cl.ui.bringEighties", { n: hand.filter((id) => cardParts(id).value === "80").length });
  const hints = {
    sell: t("w.cl.ui.hintSell"),
    gift: t("w.cl.ui.hintGift"),
    discard: t("w.cl.ui.hintDiscard"),
    ransom: t(moves.all.some((o) => o.a === "ransom" && o.pay === "money") ? "w.cl.ui.hintRansomOrPay" : "w.cl.ui.hintRansom"),
  };
  return h(
    "section",
    { class: "hand panel", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("w.cl.ui.hand", { n: hand.length, worth: hand.reduce((sum, id) => sum + cardValue(id), 0) })),
    moves.cardAction ? h("p", { class: "hint do" }, hints[moves.cardAction]) : null,
    // a list of cards, or a group when some of them are buttons (a list holds list items only)
    h("div", { class: "mp-cards", role: moves.cardAction || cards.some((c) => c.tagName === "BUTTON") || !cards.length ? "group" : "list", "aria-labelledby": "hand-title" }, cards.length ? cards : h("p", { class: "hint" }, t("w.cl.ui.noCards"))),
    h(
      "dl",
      { class: "mine" },
      h("dt", null, t("w.cl.ui.money")),
      h("dd", { class: "money" }, typeof me.money === "number" ? t("w.cl.bezants", { n: me.money }) : "?"),
      h("dt", null, t("w.cl.ui.total")),
      h("dd", { class: "total" }, t("w.cl.ui.totalOf", { total: priv.total, target: pub.target }), h("span", { class: "hint" }, ` ${t("w.cl.ui.totalHow")}`)),
      h("dt", null, t("w.cl.ui.colours")),
      h(
        "dd",
        { class: "colours" },
        WIN_COLOURS.map((c) => h("span", { class: `colour-count ${counts[c] >= 1 && counts[c] <= 2 ? "ok" : "no"}`, style: goodsStyle(c) }, `${colourName(c)} ${counts[c]}`)),
        h("span", { class: "hint" }, ` ${t("w.cl.ui.coloursHow")}`),
      ),
      h("dt", null, t("w.cl.ui.mission")),
      h("dd", { class: "mission" }, mission),
    ),
    priv.notices.length ? h("ul", { class: "notices-mine" }, priv.notices.map((n) => h("li", null, noticeLine(ctx, n)))) : null,
  );
}

function noticeLine(ctx, n) {
  switch (n.ev) {
    case "buy":
      return t("w.cl.ui.drew", { card: cardName(n.card) });
    case "golden_table":
      return t("w.cl.ui.tableNames", { city: nodeName(ctx.view, n.mission) });
    case "forced_sale":
      if (n.from !== undefined) return t("w.cl.ui.tookFrom", { card: cardName(n.card), who: ctx.seatName(n.from) });
      return n.card ? t("w.cl.ui.madeSell", { who: ctx.seatName(n.to), card: cardName(n.card) }) : t("w.cl.ui.madeSellBlind", { who: ctx.seatName(n.to) });
    default:
      return JSON.stringify(n);
  }
}

function turnPanel(ctx, moves) {
  const { view, seatName } = ctx;
  const pub = view.public;
  const mineNow = Boolean(view.prompt);
  const who = seatName(pub.turn);
  const lines = [];
  if (pub.spin) {
    const v = pub.spin.value;
    lines.push(
      h("p", { class: "spin-line" }, `${t("w.cl.ui.spun", { who, route: routeName(pub.spin.route) })} `, h("strong", null, typeof v === "string" ? t("w.cl.ui.theRaiders", { raiders: raiders(v) }) : String(v))),
    );
  }
  if (pub.fight) {
    const f = pub.fight;
    lines.push(
      h(
        "p",
        { class: `fight-line ${f.won ? "won" : "lost"}` },
        `${t("w.cl.ui.fight")} `,
        h("span", { class: "die", "aria-label": t("w.cl.ui.rolled", { who, n: f.player }) }, `${DIE[f.player] || ""} ${f.player}`),
        ` ${t("w.cl.ui.against", { raiders: raiders(f.space) })} `,
        h("span", { class: "die", "aria-label": t("w.cl.ui.raidersRolled", { raiders: raiders(f.space), n: f.raiders }) }, `${DIE[f.raiders] || ""} ${f.raiders}`),
        ": ",
        h("strong", null, t(f.won ? "w.cl.ui.won" : "w.cl.ui.lost", { who })),
      ),
    );
  }
  if (pub.trade) {
    const tr = pub.trade;
    lines.push(
      h(
        "p",
        { class: "trade-line" },
        `${t("w.cl.ui.trading", { who, city: nodeName(view, tr.post) })} `,
        h("span", { class: "swatch-goods", style: { background: GOODS[tr.colour] } }),
        ` ${colourName(tr.colour)}: ${t("w.cl.ui.bought", { n: tr.bought })}`,
      ),
    );
  }
  let act = null;
  if (mineNow && moves.spins.size) {
    act = h(
      "div",
      { class: "route-choices", role: "group", "aria-label": t("w.cl.ui.route") },
      [...moves.spins.values()].map((o) =>
        h("button", { type: "button", class: `route-choice ${o.route}`, "data-route": o.route, "data-key": `route-${o.route}`, disabled: ctx.pending, onClick: () => ctx.send(o) }, describe(o, view)),
      ),
    );
  } else if (mineNow && moves.moves.size) {
    act = h(
      "div",
      { class: "dest-choices", role: "group", "aria-label": t("w.cl.ui.whereEnds") },
      h("span", { class: "hint" }, `${t("w.cl.ui.clickRinged")} `),
      [...moves.moves.values()].map((o) =>
        h("button", { type: "button", class: "dest", "data-to": o.to, "data-key": `dest-${o.to}`, disabled: ctx.pending, onClick: () => ctx.send(o) }, nodeWords(view, o.to)),
      ),
    );
  }
  if (!lines.length && !act) return null;
  return h("section", { class: `turn panel ${mineNow ? "mine" : ""}`, "aria-label": t("w.cl.ui.thisTurn") }, lines, act);
}

function stacksPanel(ctx, moves) {
  const pub = ctx.view.public;
  const trade = pub.trade;
  const piles = Object.entries(pub.stacks).map(([colour, n]) => {
    const buying = moves.buy && trade?.colour === colour;
    const inner = [h("span", { class: "pile-n" }, String(n)), " ", h("span", { class: "pile-c" }, colourName(colour))];
    const style = goodsStyle(colour);
    if (buying) {
      return h(
        "button",
        {
          type: "button",
          id: "buy-pile",
          class: "mp-pile usable",
          style,
          "data-colour": colour,
          "data-key": "buy-pile",
          onClick: () => !ctx.pending && ctx.send(moves.buy),
        },
        inner,
        " ",
        h("span", { class: "pile-buy" }, t("w.cl.ui.buy20")),
        h("span", { class: "sr" }, `: ${describe(moves.buy, ctx.view)} (${t("w.cl.ui.inStack", { cards: cardsN(n), n: trade.bought })})`),
      );
    }
    // a list's item, or (in the group of a purchase) a picture of a stack
    return h("div", { class: "mp-pile", style, "data-colour": colour, role: moves.buy ? "img" : "listitem", "aria-label": t("w.cl.ui.stackOf", { colour: colourName(colour), cards: cardsN(n) }) }, inner);
  });
  return h(
    "section",
    { class: `stacks panel ${moves.buy ? "buying" : ""}`, "aria-labelledby": "stacks-title" },
    h("h2", { id: "stacks-title" }, moves.buy ? t("w.cl.ui.buyFrom", { colour: colourName(trade.colour) }) : t("w.cl.ui.stacks")),
    h("div", { class: "mp-piles", role: moves.buy ? "group" : "list", "aria-labelledby": "stacks-title" }, piles),
    h("p", { class: "hint" }, t("w.cl.ui.left", { tables: pub.tables, secrets: pub.secrets })),
  );
}

function playersPanel(ctx) {
  const { view, seatName } = ctx;
  const pub = view.public;
  const rows = pub.players.map((p) => {
    const c = pawnOf(p.seat);
    const mine = p.seat === view.you;
    const turn = pub.turn === p.seat && !view.result;
    return h(
      "li",
      { class: `player ${turn ? "turn" : ""} ${mine ? "me" : ""}`, "data-seat": p.seat },
      h("span", { class: "swatch", style: { background: c.fill, color: c.text }, "aria-hidden": "true" }, String(p.seat + 1)),
      h("span", { class: "pname" }, seatName(p.seat), mine ? ` ${t("room.you")}` : "", turn ? h("span", { class: "turn-tag" }, tOr(`w.cl.tag.${pub.phase}`, pub.phase)) : null),
      h(
        "span",
        { class: "pstats" },
        `${t(p.route ? "w.cl.ui.pawnOnBy" : "w.cl.ui.pawnOn", { pawn: pawnName(p.seat), city: nodeName(view, p.pawn), route: routeName(p.route) })} · `,
        h("strong", { class: "money" }, t("w.cl.bezants", { n: p.money })),
        ` · ${cardsN(p.hand)} · ${missionWords(view, p)}${p.skip ? ` · ${t("w.cl.ui.misses", { turns: turnsN(p.skip) })}` : ""}`,
      ),
    );
  });
  return h(
    "section",
    { class: "players panel", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title" }, t("w.cl.ui.players")),
    h("ul", null, rows),
    h(
      "p",
      { class: "hint" },
      view.result
        ? t("w.cl.ui.endedAfter", { turns: turnsN(pub.turns) })
        : pub.options?.max_rounds
          ? t("w.cl.ui.roundOf", { round: pub.round, max: pub.options.max_rounds })
          : t("w.cl.ui.round", { round: pub.round }),
      ` ${t("w.cl.ui.goal", { target: pub.target })}`,
    ),
  );
}

// ---- the log -----------------------------------------------------------------------------------

function logLine(ev, view, seatName) {
  const who = ev.seat !== undefined && ev.seat !== null ? seatName(ev.seat) : "";
  const L = (key, params) => t(`w.cl.log.${key}`, { who, ...params });
  const bezants = (n) => t("w.cl.bezants", { n });
  switch (ev.ev) {
    case "spin":
      return L("spin", { route: tOr(`w.cl.route.${ev.route}`, ev.route), value: typeof ev.value === "string" ? raiders(ev.value) : ev.value });
    case "move":
      return ev.short ? L("moveShort", { from: nodeName(view, ev.from), to: nodeName(view, ev.to) }) : t("w.log.step", { who, from: nodeName(view, ev.from), to: nodeName(view, ev.to) });
    case "no_move":
      return L("noMove");
    case "fight": {
      const base = L("fight", { raiders: raiders(ev.space), player: ev.player, them: ev.raiders });
      if (ev.player < ev.raiders) return `${base} ${t("w.cl.log.lost")}`;
      const loot = ev.loot || {};
      if (loot.bank) return `${base} ${t("w.cl.log.wonBank", { money: bezants(loot.money) })}`;
      const got = [loot.money ? bezants(loot.money) : null, ...(loot.cards || []).map(cardName)].filter(Boolean);
      return `${base} ${t("w.cl.log.won", { what: got.join(", ") })}`;
    }
    case "decline":
      return L("decline");
    case "ransom":
      return L("ransom", { what: ev.card ? cardName(ev.card) : bezants(ev.money), raiders: raiders(ev.space) });
    case "sell":
      return L("sell", { card: cardName(ev.card), money: bezants(ev.value) });
    case "buy":
      return L(ev.free ? "buyFree" : "buy", { colour: colourName(ev.colour) });
    case "hazard":
      return `${L("hazard", hazardWords(ev))}${ev.paid !== undefined ? ` (${t("w.cl.log.paid", { n: ev.paid })})` : ""}`;
    case "discard":
      return L("discard", { card: cardName(ev.card) });
    case "gifts":
      return L("gifts", { cards: ev.cards.map(cardName).join(", ") });
    case "golden_table":
      return L("table");
    case "mission":
      return L("mission", { city: nodeName(view, ev.city) });
    case "venice":
      return L("venice");
    case "win":
      return L("win", { money: bezants(ev.total) });
    case "miss_turn":
      return L("miss");
    case "forced_sale":
      return t("w.cl.log.forced", { buyer: seatName(ev.buyer), seller: seatName(ev.seller), money: bezants(ev.price) });
    case "round_limit":
      return t("w.cl.log.roundLimit");
    default:
      return `${ev.ev}`;
  }
}

// ---- the result ----------------------------------------------------------------------------------

/** What the end reveals of every seat, best first: the mission city, the goods cards by colour, the win's colours. */
function revealedAtEnd(view) {
  const res = view.result;
  const order = res.ranking || res.scores.map((_, i) => i);
  const name = (i) => view.seats[i]?.name || t("room.seat", { n: i + 1 });
  const line = (i) => {
    const b = res.breakdown[i] || {};
    const parts = [];
    if (b.mission) parts.push(t(b.mission_done ? "w.cl.bd.missionDone" : "w.cl.bd.missionOpen", { city: nodeName(view, b.mission) }));
    else parts.push(t("w.cl.ui.progress0"));
    const goods = Object.entries(b.colours || {})
      .filter(([, n]) => n)
      .map(([c, n]) => `${n} ${colourName(c)}`);
    parts.push(goods.length ? t("w.cl.bd.goodsBy", { list: goods.join(", ") }) : t("w.cl.bd.noGoods"));
    parts.push(t(b.colours_ok ? "w.cl.bd.coloursOk" : "w.cl.bd.coloursNo"));
    if (b.venice) parts.push(t("w.cl.bd.venice"));
    return parts.join("; ");
  };
  return h(
    "div",
    { class: "revealed-at-end", "data-testid": "revealed" },
    h("h3", null, t("w.cl.bd.revealed")),
    typeof res.target === "number" ? h("p", { class: "hint" }, t("w.cl.bd.target", { n: res.target })) : null,
    h("ul", null, order.map((i) => h("li", { "data-seat": i }, h("strong", null, `${name(i)}: `), line(i)))),
  );
}

// ---- the renderer --------------------------------------------------------------------------------

export default {
  id: "classic",
  title: "Marco Polo (classic)",
  get house() {
    return t("w.cl.house");
  },
  minSeats: 2,
  maxSeats: 4,
  get scoreUnit() {
    return t("w.cl.ui.scoreUnit");
  },

  render(ctx) {
    const moves = analyse(ctx.view);
    const ui = uiState(ctx);
    return h(
      "div",
      { class: "classic" },
      turnPanel(ctx, moves),
      mapPanel(ctx, moves, ui),
      h("div", { class: "classic-tableau" }, handPanel(ctx, moves), stacksPanel(ctx, moves), playersPanel(ctx)),
    );
  },

  describe,

  promptText,

  /** Done trading or selling ends that step of the turn: first in the prompt bar. */
  choiceKind(move) {
    return move.a === "done" ? "end" : null;
  },

  hasGesture(move) {
    return ["spin", "move", "sell", "gift", "discard", "buy"].includes(move.a) || (move.a === "ransom" && Boolean(move.card));
  },

  status(view, ctx) {
    const pub = view.public;
    if (pub.turn === undefined) return "";
    return tOr(`w.cl.st.${pub.phase}`, t("w.cl.st.playing", { who: ctx.seatName(pub.turn) }), { who: ctx.seatName(pub.turn) });
  },

  logLines(view) {
    const seatName = (i) => view.seats[i]?.name || t("room.seat", { n: i + 1 });
    return (view.public.log || []).map((ev) => ({ n: ev.n, text: logLine(ev, view, seatName) }));
  },

  resultDetails(view) {
    const res = view.result;
    const players = view.public.players || [];
    const progress = [t("w.cl.ui.progress0"), t("w.cl.ui.progress1"), t("w.cl.ui.missionDone")];
    const bd = res.breakdown;
    if (bd?.length) {
      // the server's breakdown: the parts of every total and every secret the end reveals
      const by = (key) => (i) => bd[i]?.[key] ?? null;
      return [
        scoreTable(view, "cl-breakdown", [
          [t("w.cl.bd.progress"), (i) => progress[res.progress?.[i]] ?? null],
          [t("w.cl.bd.money"), by("money")],
          [t("w.cl.bd.goods"), by("goods")],
          [t("w.cl.bd.table"), by("table")],
          [t("w.cl.bd.secret"), by("secret")],
          [t("w.cl.bd.total"), (i) => res.scores[i]],
        ]),
        revealedAtEnd(view),
      ];
    }
    const worth = (i) => (players[i]?.table ? WORTH : 0) + (players[i]?.secret ? WORTH : 0);
    return scoreTable(view, "cl-breakdown", [
      [t("w.cl.bd.progress"), (i) => progress[res.progress?.[i]] ?? null],
      [t("w.cl.bd.money"), (i) => players[i]?.money ?? null],
      [t("w.cl.bd.goods"), (i) => (players[i] ? res.scores[i] - players[i].money - worth(i) : null)],
      [t("w.cl.bd.table"), (i) => (players[i]?.table ? WORTH : 0)],
      [t("w.cl.bd.secret"), (i) => (players[i]?.secret ? WORTH : 0)],
      [t("w.cl.bd.total"), (i) => res.scores[i]],
    ]);
  },

  resultNote(view) {
    const res = view.result;
    const words = [t("w.cl.ui.progress0"), t("w.cl.ui.progress1"), t("w.cl.ui.missionDone")];
    const progress = (res.progress || []).map((p, i) => `${view.seats[i]?.name || t("room.seat", { n: i + 1 })}: ${words[p] || p}`).join(", ");
    if (res.reason === "venice") return t("w.cl.ui.endVenice", { progress });
    if (res.reason === "round_limit") return t("w.cl.ui.endLimit", { progress });
    return null;
  },
};
