// Marco Polo Expedition: the track as SVG, the hand, the face-up cards and the draw pile, the players.
// Owns: drawing the view (docs/games/expedition.md, "Views") and turning clicks into prompt options.
// Must not: decide a rule. Every move sent is one of `view.prompt.options`, sent as listed; the space a
// figure would enter comes from the view (`figures[i].next`), never from a rule repeated here.
import { clickable, h, s } from "../dom.js";
import { t, t as tr, tOr } from "../i18n.js";
import { scoreTable, tieNote } from "../shared/board.js";

const CARD_COLOURS = { blue: "#2d67b3", yellow: "#d9a514", red: "#c3362c", green: "#2a823d", purple: "#7a47a6" };
const FIGURE_COLOURS = { red: "#d6392b", blue: "#2a68d6", green: "#2e9a48", orange: "#f28c18", white: "#fbfbf7" };
const kindName = (k) => tOr(`w.ex.kind.${k}`, k);
const colourName = (c) => tOr(`w.ex.colour.${c}`, c);
const GOODS = ["oil", "spice", "silk", "fruit"];
const GOODS_TINT = { oil: "#4a4036", spice: "#c2602a", silk: "#b0468a", fruit: "#6d9f2f" };

// 24×24 icons for the card kinds and the requirement glyphs
const ICONS = {
  oil: "M12 2.5C12 2.5 5 10.5 5 15a7 7 0 0 0 14 0c0-4.5-7-12.5-7-12.5z",
  spice: "M3 20 9.5 8.5 12 11l3-5.5L21 20z",
  silk: "M3 6.5q4.5-3 9 0t9 0v11q-4.5-3-9 0t-9 0z",
  fruit: "M12 8.5a6.5 6.5 0 1 0 .01 0zM12 8.5q1-5 6-5.5-1 5-6 5.5z",
  leader: "M12 2.5a4.5 4.5 0 1 0 .01 0zM3 21.5q0-9 9-9t9 9z",
  crate: "M3 8 12 4l9 4v9l-9 4-9-4zM3 8l9 4 9-4M12 12v9",
  card: "M6 2.5h12a2 2 0 0 1 2 2v15a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-15a2 2 0 0 1 2-2z",
};

// ---- reading the view ------------------------------------------------------------------------

function cardType(id) {
  return id.slice(0, id.lastIndexOf("-")); // "blue-oil-2" -> "blue-oil": copies are interchangeable
}

function cardParts(id) {
  const [colour, kind] = id.split("-");
  return { colour, kind };
}

function cardName(id) {
  const { colour, kind } = cardParts(id);
  return t("w.ex.card", { colour: colourName(colour), kind: kindName(kind) });
}

const REQS = ["goods", "four_goods", "leaders", "colour", "five_colours"];

function reqShort(req) {
  if (!req) return t("w.ex.req.start");
  return REQS.includes(req.kind) ? t(`w.ex.req.${req.kind}`, { n: req.n }) : req.kind;
}

function reqLong(req) {
  if (!req) return t("w.ex.reqLong.start");
  return REQS.includes(req.kind) ? t(`w.ex.reqLong.${req.kind}`, { n: req.n }) : JSON.stringify(req);
}

function spaceName(track, pos) {
  if (pos === null || pos === undefined) return t("w.ex.nextSpace");
  const name = track[pos]?.name;
  return name ? tOr(`w.ex.city.${name}`, name) : t("w.ex.space", { n: pos });
}

function landmarks(track) {
  const kantshou = track.findIndex((t) => t.name === "Kantshou");
  return { kantshou: kantshou >= 0 ? kantshou : 16, daidu: track.length - 1 };
}

/** The space figure `fig` would enter next, as the server says (`figures[i].next`); null if unknown. */
function landing(pub, fig) {
  const next = pub.figures[fig]?.next;
  return Number.isInteger(next) ? next : null;
}

function figureLabel(pub, fig, seatName) {
  const f = pub.figures[fig];
  return t("w.ex.figureOf", { colour: colourName(f.colour), who: seatName(f.seat) });
}

function multiset(list) {
  const m = new Map();
  for (const x of list) m.set(x, (m.get(x) || 0) + 1);
  return m;
}

function within(small, big) {
  for (const [k, n] of small) if ((big.get(k) || 0) < n) return false;
  return true;
}

function sameMultiset(a, b) {
  return a.size === b.size && within(a, b);
}

/** The prompt sorted by gesture: per figure its paying options, lightening and card-by-card choice. */
function analyse(view) {
  const opts = view.prompt ? view.prompt.options : [];
  const figs = new Map();
  const fig = (f) => {
    if (!figs.has(f)) figs.set(f, { moves: [], lighten: null, choose: null });
    return figs.get(f);
  };
  const picks = [];
  const display = new Map();
  let deck = null;
  const pub = view.public;
  for (const o of opts) {
    const onBoard = o.fig !== undefined && landing(pub, o.fig) !== null;
    if (o.a === "move" && onBoard) fig(o.fig).moves.push({ option: o, types: multiset(o.pay.map(cardType)) });
    else if (o.a === "lighten" && onBoard) fig(o.fig).lighten = o;
    else if (o.a === "choose" && onBoard) fig(o.fig).choose = o;
    else if (o.a === "pick") picks.push(o);
    else if (o.a === "draw" && o.from === "display") display.set(o.slot, o);
    else if (o.a === "draw" && o.from === "deck") deck = o;
  }
  return { figs, picks, display, deck };
}

// ---- the UI state of one room (selected figure and cards) ---------------------------------------

function selection(ctx, moves) {
  const ui = ctx.ui;
  const key = JSON.stringify(ctx.view.prompt);
  if (ui.key !== key) {
    ui.key = key;
    ui.fig = null;
    ui.cards = [];
  }
  const hand = ctx.view.private?.hand || [];
  ui.cards = ui.cards.filter((c) => hand.includes(c));
  const payable = [...moves.figs.entries()].filter(([, m]) => m.moves.length || m.choose);
  if (ui.fig === null && payable.length === 1) ui.fig = payable[0][0];
  return ui;
}

/** For the selected figure: which option the selected cards make, and which cards may still be added. */
function payState(moves, ui) {
  const sel = multiset(ui.cards.map(cardType));
  const figs = ui.fig !== null ? [ui.fig] : [...moves.figs.keys()];
  const options = figs.flatMap((f) => moves.figs.get(f)?.moves || []);
  const ready = ui.fig !== null ? options.find((m) => sameMultiset(m.types, sel)) : undefined;
  const canAdd = (card) => {
    const more = multiset([...ui.cards, card].map(cardType));
    return options.some((m) => within(more, m.types));
  };
  return { ready: ready ? ready.option : null, canAdd, size: options[0]?.option.pay.length || 0 };
}

// ---- drawing ----------------------------------------------------------------------------------

function icon(name, x, y, size, fill, extra = {}) {
  return s("path", {
    d: ICONS[name],
    transform: `translate(${x} ${y}) scale(${size / 24})`,
    fill,
    stroke: "#2b2118",
    "stroke-width": 1.2 * (24 / size),
    "stroke-linejoin": "round",
    ...extra,
  });
}

function reqGlyph(req, cx, y, size, maxWidth) {
  if (!req) return null;
  const items = [];
  switch (req.kind) {
    case "goods":
      for (let i = 0; i < req.n; i++) items.push(["crate", "#d8b27a"]);
      break;
    case "four_goods":
      for (const g of GOODS) items.push([g, GOODS_TINT[g]]);
      break;
    case "leaders":
      for (let i = 0; i < req.n; i++) items.push(["leader", "#8a6a4a"]);
      break;
    case "colour":
      for (let i = 0; i < req.n; i++) items.push(["card", "#9aa3ad"]);
      break;
    case "five_colours":
      for (const c of Object.values(CARD_COLOURS)) items.push(["card", c]);
      break;
    default:
      return null;
  }
  const step = items.length > 1 ? Math.min(size + 1, (maxWidth - size) / (items.length - 1)) : 0;
  const x0 = cx - (step * (items.length - 1) + size) / 2;
  return s(
    "g",
    { class: "req", "aria-hidden": "true" },
    items.map(([name, fill], i) => icon(name, x0 + i * step, y, size, fill)),
  );
}

function boardGeometry(n, narrow) {
  const cols = narrow ? 5 : 10;
  const S = narrow ? 84 : 96;
  const gx = narrow ? 10 : 16;
  const gy = narrow ? 22 : 26;
  const pad = 10;
  const rows = Math.ceil(n / cols);
  const at = (i) => {
    const r = Math.floor(i / cols);
    const k = i % cols;
    const c = r % 2 ? cols - 1 - k : k; // a serpentine: every other row runs right to left
    return { x: pad + c * (S + gx), y: pad + r * (S + gy) };
  };
  return { S, at, width: pad * 2 + cols * S + (cols - 1) * gx, height: pad * 2 + rows * S + (rows - 1) * gy };
}

function spaceKind(t, kantshou, daidu) {
  if (t.pos === 0 || t.pos === kantshou || t.pos === daidu) return "city";
  if (t.score) return t.pos < kantshou ? "score1" : "score2";
  return "plain";
}

function board(ctx, moves, ui) {
  const { view, seatName } = ctx;
  const pub = view.public;
  const track = pub.track;
  const { kantshou, daidu } = landmarks(track);
  const geo = boardGeometry(track.length, ctx.narrow);
  const { S } = geo;
  // a phone shows the same board in five columns: bigger type and glyphs, the requirement as glyphs only
  const L = ctx.narrow
    ? { name: 12.5, pos: 12, badge: 13, glyph: 17, glyphY: 33, label: 0, figure: 12 }
    : { name: 13, pos: 11, badge: 12, glyph: 16, glyphY: 30, label: 11, figure: 11 };

  // which spaces are targets of which figures
  const targets = new Map();
  for (const [fig, m] of moves.figs) {
    const pos = landing(pub, fig);
    if (!targets.has(pos)) targets.set(pos, []);
    targets.get(pos).push({ fig, ...m });
  }
  const pay = payState(moves, ui);

  // a click on a highlighted space (or on a movable figure): choose that figure, then move when the
  // selected cards pay exactly one of its options
  const onSpace = (pos, fig = null) => {
    if (ctx.pending) return;
    const here = targets.get(pos) || [];
    const mine = here.find((t) => t.fig === (fig ?? ui.fig)) || here[0];
    if (!mine) return;
    if (ui.fig === mine.fig && pay.ready) return ctx.send(pay.ready);
    if (mine.choose) return ctx.send(mine.choose);
    if (ui.fig !== mine.fig) {
      ui.fig = mine.fig;
      const sel = multiset(ui.cards.map(cardType));
      if (!mine.moves.some((m) => within(sel, m.types))) ui.cards = [];
    }
    const again = payState(moves, ui);
    if (again.ready) return ctx.send(again.ready);
    if (!ui.cards.length && mine.moves.length === 1) ui.cards = [...mine.moves[0].option.pay];
    ctx.rerender();
    focusPayment(ctx);
  };

  const route = track.map((t) => {
    const p = geo.at(t.pos);
    return `${p.x + S / 2},${p.y + S / 2}`;
  });
  const figuresAt = new Map();
  for (const f of pub.figures) {
    if (!figuresAt.has(f.pos)) figuresAt.set(f.pos, []);
    figuresAt.get(f.pos).push(f);
  }

  const spaces = track.map((t) => {
    const { x, y } = geo.at(t.pos);
    const kind = spaceKind(t, kantshou, daidu);
    const chest = pub.chests[t.pos];
    const figs = figuresAt.get(t.pos) || [];
    const here = targets.get(t.pos) || [];
    const isTarget = here.length > 0;
    const selected = isTarget && here.some((h2) => h2.fig === ui.fig);
    const parts = [];
    parts.push(s("rect", { class: "frame", x: 0, y: 0, width: S, height: S, rx: 12 }));
    if (t.name && t.score) {
      // left of the scoring badge; squeezed to fit when the font's letters are wide
      const room = S - 9 - 2 * L.badge - 6;
      const fit = t.name.length * L.name * 0.64 > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
      parts.push(s("text", { class: "city-name left", x: 6, y: 18, "font-size": L.name, ...fit }, t.name));
    } else if (t.name) {
      parts.push(s("text", { class: "city-name", x: S / 2, y: 18, "font-size": L.name }, t.name));
    } else {
      parts.push(s("text", { class: "pos", x: 7, y: 16, "font-size": L.pos }, String(t.pos)));
    }
    if (t.score) {
      const cx = S - 3 - L.badge;
      const cy = 3 + L.badge;
      parts.push(s("circle", { class: "score", cx, cy, r: L.badge }));
      parts.push(s("text", { class: "score-n", x: cx, y: cy + L.badge * 0.42, "font-size": L.badge * 1.2 }, String(t.score)));
    }
    if (t.req) {
      const gy = L.glyphY;
      parts.push(reqGlyph(t.req, S / 2, gy, L.glyph, S - 14));
      if (L.label) parts.push(s("text", { class: "req-text", x: S / 2, y: gy + L.glyph + 14, "font-size": L.label }, reqShort(t.req)));
    }
    if (chest) {
      const cy = S - 24;
      parts.push(
        s(
          "g",
          { class: "chest", transform: `translate(6 ${cy})` },
          s("rect", { x: 0, y: 3, width: 28, height: 17, rx: 3 }),
          s("path", { d: "M0 9h28", class: "lid" }),
          s("text", { x: 14, y: 18, "font-size": 11 }, String(chest)),
        ),
      );
    }
    if (figs.length) {
      const step = Math.min(24, (S - 12) / figs.length);
      const r = Math.min(L.figure, step / 2 - 1);
      const x0 = S / 2 - (step * (figs.length - 1)) / 2;
      figs.forEach((f, i) => {
        const movable = moves.figs.has(f.fig);
        const g = s(
          "g",
          {
            class: `figure ${movable ? "movable" : ""} ${ui.fig === f.fig ? "chosen" : ""}`,
            "data-fig": f.fig,
            transform: `translate(${x0 + i * step} ${S - 15})`,
          },
          s("circle", { r, fill: FIGURE_COLOURS[f.colour] || f.colour }),
          s("text", { y: r * 0.38, "font-size": r * 1.05, class: f.colour === "white" || f.colour === "yellow" ? "dark" : "" }, String(f.seat + 1)),
        );
        if (movable) {
          g.addEventListener("click", (ev) => {
            ev.stopPropagation();
            onSpace(landing(pub, f.fig), f.fig);
          });
        }
        parts.push(g);
      });
    }
    if (isTarget) parts.push(s("rect", { class: "target-ring", x: -4, y: -4, width: S + 8, height: S + 8, rx: 15 }));

    const bits = [t.name ? tr("w.ex.b.named", { name: spaceName(track, t.pos), n: t.pos }) : tr("w.ex.b.space", { n: t.pos })];
    if (t.score) bits.push(tr("w.ex.b.scoring", { n: t.score }));
    bits.push(reqLong(t.req));
    if (chest) bits.push(tr("w.ex.b.chest", { n: chest }));
    for (const f of figs) bits.push(tr("w.ex.b.stands", { fig: figureLabel(pub, f.fig, seatName) }));
    const g = s(
      "g",
      {
        class: `space ${kind} ${isTarget ? "target" : ""} ${selected ? "selected" : ""}`,
        transform: `translate(${x} ${y})`,
        "data-pos": t.pos,
        "data-target-figs": isTarget ? here.map((h2) => h2.fig).join(" ") : null,
      },
      s("title", null, bits.join("; ")),
      parts,
    );
    if (isTarget) {
      const who = here.map((h2) => figureLabel(pub, h2.fig, seatName)).join(` ${tr("w.orShort")} `);
      g.setAttribute("data-key", `space-${t.pos}`);
      clickable(g, tr("w.ex.b.moveTo", { who, to: bits.join("; ") }), () => onSpace(t.pos));
      if (selected) g.setAttribute("aria-pressed", "true");
    } else {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", bits.join("; "));
    }
    return g;
  });

  const desc = pub.figures
    .map((f) => t("w.ex.b.on", { fig: figureLabel(pub, f.fig, seatName), space: spaceName(track, f.pos) }))
    .concat(t(`w.ex.kantshou.${pub.kantshou === "open" || pub.kantshou === "triggered" ? pub.kantshou : "done"}`))
    .join(". ");
  return s(
    "svg",
    {
      class: "track",
      viewBox: `0 0 ${geo.width} ${geo.height}`,
      role: "group",
      "aria-labelledby": "track-title track-desc",
      "data-cols": ctx.narrow ? 5 : 10,
    },
    s("title", { id: "track-title" }, t("w.ex.b.title", { n: track.length })),
    s("desc", { id: "track-desc" }, desc),
    s("polyline", { class: "road", points: route.join(" ") }),
    spaces,
  );
}

function cardFace(id) {
  const { colour, kind } = cardParts(id);
  return [
    h("span", { class: "band" }, colourName(colour)),
    " ", // (a space in the name: "green spice", not "greenspice"; a flex box shows none)
    s("svg", { class: "kind-icon", viewBox: "0 0 24 24", "aria-hidden": "true" }, icon(kind, 0, 0, 24, "currentColor")),
    h("span", { class: "kind" }, kind === "leader" ? t("w.ex.kind.leaderShort") : kindName(kind)),
  ];
}

/**
 * A card: a list item, or a button named by its face (what is seen is what a voice names) followed by what it
 * does (`label`, for screen readers); a dimmed card cannot be used now (aria-disabled).
 */
function cardEl(id, { onClick = null, pressed = false, usable = false, dim = false, key = "", label = "", extra = {} } = {}) {
  const { colour, kind } = cardParts(id);
  const cls = `card c-${colour} k-${kind} ${usable ? "usable" : ""} ${pressed ? "pressed" : ""} ${dim ? "dim" : ""}`;
  const common = { class: cls, "data-card": id, "data-type": cardType(id), ...extra };
  if (!onClick) return h("div", { ...common, role: "listitem", "aria-label": label || cardName(id), "aria-disabled": dim ? "true" : null }, cardFace(id));
  return h(
    "button",
    { ...common, type: "button", "data-key": key, "aria-pressed": pressed ? "true" : "false", "aria-disabled": dim ? "true" : null, onClick },
    cardFace(id),
    label ? h("span", { class: "sr" }, `: ${label}`) : null,
  );
}

/**
 * After a space was picked the question is which cards pay: the keyboard goes to the first card that can pay (or
 * to Move when the cards are chosen already), as it goes to a new prompt's first option; scrolled into view only
 * for a keyboard player (a mouse's page stays put).
 */
function focusPayment(ctx) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector("#confirm-move:not(:disabled)") || document.querySelector(".hand button.card.usable"));
  if (!el) return;
  el.focus({ preventScroll: true });
  if (ctx.app?.keyboard) el.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function handPanel(ctx, moves, ui) {
  const { view } = ctx;
  const hand = view.private?.hand;
  if (!hand) return null;
  const picking = view.private.picking;
  const pay = payState(moves, ui);
  const moving = view.prompt && view.public.phase === "move" && !picking && moves.figs.size > 0;
  const pickTypes = new Map(moves.picks.map((o) => [cardType(o.card), o]));
  const pickedLeft = multiset(picking ? picking.cards : []);
  const cards = hand.map((id, i) => {
    const key = `hand-${id}`;
    if (picking) {
      if ((pickedLeft.get(id) || 0) > 0) {
        pickedLeft.set(id, pickedLeft.get(id) - 1);
        return cardEl(id, { pressed: true, label: t("w.ex.picked", { card: cardName(id) }) });
      }
      const o = pickTypes.get(cardType(id));
      if (!o || !view.prompt) return cardEl(id, { dim: Boolean(view.prompt) });
      return cardEl(id, { key, usable: true, onClick: () => !ctx.pending && ctx.send(o), label: t("w.ex.opt.pick", { card: cardName(id) }) });
    }
    if (!moving) return cardEl(id, {});
    const chosen = ui.cards.includes(id);
    const usable = chosen || pay.canAdd(id);
    const toggle = () => {
      if (ctx.pending) return;
      if (chosen) ui.cards.splice(ui.cards.indexOf(id), 1);
      else if (pay.canAdd(id)) ui.cards.push(id);
      else return;
      ctx.rerender();
      if (payState(moves, ui).ready) focusPayment(ctx); // the cards pay: Move is next
    };
    return cardEl(id, { key, usable, pressed: chosen, dim: !usable, onClick: toggle, extra: { "data-i": i } });
  });

  let bar = null;
  if (moving) {
    const f = ui.fig;
    const where = f !== null ? spaceName(view.public.track, landing(view.public, f)) : null;
    let hint;
    if (f === null) hint = t("w.ex.hint.choose");
    else if (pay.ready) hint = t("w.ex.hint.ready", { where, cards: ui.cards.map(cardName).join(", ") });
    else if (moves.figs.get(f)?.moves.length) hint = t("w.ex.hint.select", { where, n: pay.size, req: reqShort(view.public.track[landing(view.public, f)].req) });
    else hint = t("w.ex.hint.cannot", { where });
    // two figures of one player (2-player game) may aim at the same space: say which one moves
    const figChoice =
      moves.figs.size > 1
        ? h(
            "div",
            { class: "fig-choice", role: "group", "aria-label": t("w.ex.figToMove") },
            [...moves.figs.keys()].map((fg) => {
              const colour = view.public.figures[fg].colour;
              return h(
                "button",
                {
                  type: "button",
                  class: "fig-button",
                  "data-fig": fg,
                  "data-key": `fig-${fg}`,
                  "aria-pressed": ui.fig === fg ? "true" : "false",
                  onClick: () => {
                    if (ui.fig !== fg) {
                      ui.fig = fg;
                      ui.cards = [];
                    }
                    ctx.rerender();
                  },
                },
                h("span", { class: `swatch f-${colour}`, style: { background: FIGURE_COLOURS[colour] }, "aria-hidden": "true" }, String(view.public.figures[fg].seat + 1)),
                ` ${t("w.ex.figTo", { colour: colourName(colour), to: spaceName(view.public.track, landing(view.public, fg)) })}`,
              );
            }),
          )
        : null;
    bar = h(
      "div",
      { class: "action-bar" },
      figChoice,
      h("p", { class: "hint" }, hint),
      h(
        "button",
        {
          type: "button",
          id: "confirm-move",
          class: "primary",
          "data-key": "confirm",
          disabled: !pay.ready || ctx.pending,
          onClick: () => pay.ready && ctx.send(pay.ready),
        },
        pay.ready && f !== null ? t("w.ex.moveTo", { colour: colourName(view.public.figures[f].colour), where }) : t("w.ex.move"),
      ),
      ui.cards.length
        ? h(
            "button",
            {
              type: "button",
              class: "link",
              "data-key": "clear",
              onClick: () => {
                ui.cards = [];
                ctx.rerender();
              },
            },
            t("w.ex.clear"),
          )
        : null,
    );
  } else if (picking && view.prompt) {
    bar = h("div", { class: "action-bar" }, h("p", { class: "hint" }, t("w.ex.hint.paying", { where: spaceName(view.public.track, landing(view.public, picking.fig)) })));
  }
  return h(
    "section",
    { class: "hand panel", "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title" }, t("w.ex.hand", { n: hand.length })),
    h("div", { class: "cards", role: moving || picking ? "group" : "list", "aria-labelledby": "hand-title" }, cards),
    bar,
  );
}

/** A face-up card's option: its name, and its place in the row when another face-up card has the same name. */
export function drawFaceLabel(display, slot) {
  const card = cardName(display[slot] || "?-?-0");
  const twins = display.filter((id) => id !== null && cardName(id) === card).length;
  return twins > 1 ? t("w.ex.opt.drawFaceAt", { card, n: slot + 1 }) : t("w.ex.opt.drawFace", { card });
}

function marketPanel(ctx, moves) {
  const pub = ctx.view.public;
  const drawing = ctx.view.prompt && pub.phase === "draw";
  const slots = pub.display.map((id, slot) => {
    if (id === null) return h("div", { class: "card empty", role: "listitem", "aria-label": t("w.ex.emptySlot") }, t("w.empty"));
    const o = moves.display.get(slot);
    if (!o) return cardEl(id, { extra: { "data-slot": slot } });
    return cardEl(id, {
      key: `slot-${slot}`,
      usable: true,
      label: drawFaceLabel(pub.display, slot),
      onClick: () => !ctx.pending && ctx.send(o),
      extra: { "data-slot": slot },
    });
  });
  const pileLabel = t("w.ex.pile", { n: pub.deck });
  const pile = moves.deck
    ? h(
        "button",
        {
          type: "button",
          class: "pile usable",
          id: "draw-pile",
          "data-key": "pile",
          onClick: () => !ctx.pending && ctx.send(moves.deck),
        },
        h("span", { class: "pile-n" }, String(pub.deck)),
        " ",
        h("span", null, t("w.ex.drawPile")),
        h("span", { class: "sr" }, `: ${t("w.ex.opt.drawDeck")} (${t("w.ex.cards", { n: pub.deck })})`),
      )
    : h("div", { class: "pile", id: "draw-pile", role: drawing ? "img" : "listitem", "aria-label": pileLabel }, h("span", { class: "pile-n" }, String(pub.deck)), h("span", null, t("w.ex.drawPile")));
  return h(
    "section",
    { class: `market panel ${drawing ? "drawing" : ""}`, "aria-labelledby": "market-title" },
    h("h2", { id: "market-title" }, drawing ? t("w.ex.drawACard") : t("w.ex.faceUp")),
    h("div", { class: "cards", role: drawing ? "group" : "list", "aria-labelledby": "market-title" }, slots, pile),
    h("p", { class: "hint" }, t("w.ex.discard", { n: pub.discard.length })),
  );
}

function playersPanel(ctx) {
  const { view, seatName } = ctx;
  const pub = view.public;
  const rows = pub.players.map((p) => {
    const figs = pub.figures.filter((f) => f.seat === p.seat);
    const mine = p.seat === view.you;
    let gold = null;
    if (p.gold !== undefined) gold = t("w.res.gold", { n: p.gold });
    else if (view.result) gold = t("w.res.gold", { n: view.result.scores[p.seat] }); // the end tells every total
    else if (mine && view.private?.gold !== undefined) gold = t("w.res.gold", { n: view.private.gold });
    const cv = p.chest_values || (mine ? view.private?.chest_values : null);
    const chestText = cv ? ` (${["1", "2", "3"].filter((k) => cv[k]).map((k) => `${cv[k]}×${k}`).join(", ")})` : "";
    const turn = pub.turn === p.seat && !view.result;
    return h(
      "li",
      { class: `player ${turn ? "turn" : ""} ${mine ? "me" : ""}`, "data-seat": p.seat },
      h(
        "span",
        { class: "swatches", "aria-hidden": "true" },
        figs.map((f) => h("span", { class: `swatch f-${f.colour}`, style: { background: FIGURE_COLOURS[f.colour] } }, String(p.seat + 1))),
      ),
      h("span", { class: "pname" }, seatName(p.seat), mine ? ` ${t("room.you")}` : "", turn ? h("span", { class: "turn-tag" }, pub.phase === "draw" ? t("w.ex.drawing") : t("w.ex.moving")) : null),
      h(
        "span",
        { class: "pstats" },
        `${t("w.ex.cards", { n: p.hand })} · ${t("w.ex.chests", { n: p.chests })}${chestText}`,
        gold ? h("strong", { class: "gold" }, ` · ${gold}`) : h("span", { class: "gold hidden-gold" }, ` · ${t("w.ex.goldHidden")}`),
      ),
      h("span", { class: "sr" }, `, ${t("w.ex.figuresOn", { list: figs.map((f) => t("w.ex.b.on", { fig: colourName(f.colour), space: spaceName(pub.track, f.pos) })).join(", ") })}`),
    );
  });
  const k = t(`w.ex.kantshouLong.${pub.kantshou === "open" || pub.kantshou === "triggered" ? pub.kantshou : "done"}`);
  return h(
    "section",
    { class: "players panel", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title" }, t("w.kh.tab.players")),
    h("ul", null, rows),
    h("p", { class: "hint" }, t("w.ex.turnK", { n: pub.turns + 1, k })),
  );
}

// ---- the result ---------------------------------------------------------------------------------

/** The chests a seat holds by value ("2×3, 1×2"), or null. */
function chestsHeld(cv) {
  if (!cv) return null;
  return ["3", "2", "1"].filter((k) => cv[k]).map((k) => `${cv[k]}×${k}`).join(", ") || "0";
}

/** Every seat's gold at the start: one 3-chest (server/games/expedition/engine.py, the set-up). */
const START_GOLD = 3;

/**
 * Each seat's gold by where it came from, counted from the whole game's log (the start, chests on the track, the
 * Kantshou and the final scoring, less a chest per lightened load) when it adds up to the totals, and the
 * furthest figure that breaks a tie of gold; for the room's result panel.
 */
function resultDetails(view, events) {
  const pub = view.public;
  const res = view.result;
  const furthest = [t("w.ex.bd.furthest"), (i) => (typeof res.tiebreak?.[i] === "number" ? spaceName(pub.track, res.tiebreak[i]) : null)];
  const held = [t("w.ex.bd.held"), (i) => chestsHeld(res.breakdown?.[i]?.chest_values || pub.players?.[i]?.chest_values)];
  // the server's breakdown (the engine counts the gold by source from the set-up): no log needed
  if (res.breakdown?.every((b) => typeof b?.start === "number")) {
    const by = (key) => (i) => res.breakdown[i]?.[key] ?? null;
    return scoreTable(view, "ex-breakdown", [
      [t("w.ex.bd.start"), by("start")],
      [t("w.ex.bd.chests"), by("chests")],
      [t("w.ex.bd.kantshou"), by("kantshou")],
      [t("w.ex.bd.daidu"), by("final")],
      [t("w.ex.bd.lighten"), by("lighten")],
      [t("w.ex.bd.total"), (i) => res.scores[i]],
      held,
      furthest,
    ]);
  }
  const zero = () => res.scores.map(() => 0);
  const parts = { chests: zero(), kantshou: zero(), daidu: zero(), lighten: zero() };
  for (const ev of events || []) {
    if ((ev.ev === "move" || ev.ev === "lighten") && ev.chest) parts.chests[ev.seat] += ev.chest;
    if (ev.ev === "lighten") parts.lighten[ev.seat] -= 1;
    if (ev.ev === "kantshou_scoring" || ev.ev === "final_scoring") {
      for (const p of ev.paid || []) parts[ev.ev === "final_scoring" ? "daidu" : "kantshou"][p.seat] += p.gold;
    }
  }
  const whole = res.scores.every((sc, i) => START_GOLD + parts.chests[i] + parts.kantshou[i] + parts.daidu[i] + parts.lighten[i] === sc);
  const by = (key) => (i) => parts[key][i];
  const columns = whole
    ? [
        [t("w.ex.bd.start"), () => START_GOLD],
        [t("w.ex.bd.chests"), by("chests")],
        [t("w.ex.bd.kantshou"), by("kantshou")],
        [t("w.ex.bd.daidu"), by("daidu")],
        [t("w.ex.bd.lighten"), by("lighten")],
      ]
    : [];
  columns.push([t("w.ex.bd.total"), (i) => res.scores[i]]);
  columns.push(held);
  columns.push(furthest);
  return [scoreTable(view, "ex-breakdown", columns), whole ? null : h("p", { class: "hint" }, t("w.ex.bd.partial"))];
}

// ---- the renderer -----------------------------------------------------------------------------

function describe(move, view) {
  const pub = view.public;
  const fig = (f) => t("w.ex.figure", { colour: colourName(pub.figures[f]?.colour || "?") });
  const to = (f) => spaceName(pub.track, landing(pub, f));
  switch (move.a) {
    case "move":
      return t("w.ex.opt.move", { fig: fig(move.fig), to: to(move.fig), cards: move.pay.map(cardName).join(", ") });
    case "lighten":
      return t("w.ex.opt.lighten", { fig: fig(move.fig), to: to(move.fig) });
    case "choose":
      return t("w.ex.opt.choose", { fig: fig(move.fig), to: to(move.fig) });
    case "pick":
      return t("w.ex.opt.pick", { card: cardName(move.card) });
    case "cancel":
      return t("w.ex.opt.cancel");
    case "pass":
      return t("w.ex.opt.pass");
    case "stop":
      return t("w.ex.opt.stop");
    case "draw":
      return move.from === "deck" ? t("w.ex.opt.drawDeck") : drawFaceLabel(pub.display, move.slot);
    default:
      return JSON.stringify(move);
  }
}

/** The prompt's question in words, from the view's structure (the phase, a payment card by card). */
function promptText(view) {
  const pub = view.public;
  if (pub.phase === "draw") return t("w.ex.prompt.draw");
  if (view.private?.picking) return t("w.ex.prompt.pick");
  const opts = view.prompt?.options || [];
  if (opts.some((o) => o.a === "stop")) return t("w.ex.prompt.moveOn");
  return t("w.ex.prompt.move");
}

function logLine(ev, pub, seatName) {
  const who = ev.seat !== undefined && ev.seat !== null ? seatName(ev.seat) : "";
  const fig = ev.fig !== undefined ? t("w.ex.figure", { colour: colourName(pub.figures[ev.fig]?.colour || "?") }) : "";
  const to = ev.to !== undefined ? spaceName(pub.track, ev.to) : "";
  const extra = `${ev.chest ? `, ${t("w.ex.log.chest", { n: ev.chest })}` : ""}${ev.caught_up ? ` ${t("w.ex.log.caught")}` : ""}`;
  const paid = (list) => list.map((p) => `${seatName(p.seat)} ${p.gold}`).join(", ") || t("w.ex.log.nobody");
  switch (ev.ev) {
    case "move":
      return t("w.ex.log.move", { who, fig, to, cards: (ev.paid || []).map(cardName).join(", "), extra });
    case "lighten":
      return t("w.ex.log.lighten", { who, fig, to, extra });
    case "pass":
      return t("w.ex.log.pass", { who });
    case "stop":
      return t("w.ex.log.stop", { who });
    case "draw":
      return ev.slot === null || ev.slot === undefined ? t("w.ex.log.drawDeck", { who }) : t("w.ex.log.drawFace", { who, card: cardName(ev.card) });
    case "take":
      return t("w.ex.log.take", { who, from: seatName(ev.from_seat) });
    case "reshuffle":
      return t("w.ex.log.reshuffle", { n: ev.cards });
    case "kantshou_scoring":
      return t("w.ex.log.kantshou", { paid: paid(ev.paid) });
    case "final_scoring":
      return t("w.ex.log.final", { paid: paid(ev.paid) });
    case "stalemate":
      return t("w.ex.log.stalemate");
    default:
      return `${ev.ev}`;
  }
}

export default {
  id: "expedition",
  title: "Marco Polo Expedition",
  get house() {
    return t("w.ex.house");
  },
  minSeats: 2,
  maxSeats: 5,
  get scoreUnit() {
    return t("w.resname.gold");
  },
  get options() {
    return [
      { key: "open_gold", label: t("w.ex.optOpenGold") },
      { key: "move_both", label: t("w.ex.optMoveBoth") },
    ];
  },

  render(ctx) {
    const moves = analyse(ctx.view);
    const ui = selection(ctx, moves);
    return h(
      "div",
      { class: "expedition" },
      h("div", { class: "board panel" }, board(ctx, moves, ui)),
      h("div", { class: "tableau" }, handPanel(ctx, moves, ui), marketPanel(ctx, moves), playersPanel(ctx)),
    );
  },

  describe,

  promptText,

  /** Passing or stopping (then drawing) ends the figure's move: first in the prompt bar. */
  choiceKind(move) {
    return move.a === "pass" || move.a === "stop" ? "end" : null;
  },

  hasGesture(move, view) {
    if (move.a === "move" || move.a === "choose") return landing(view.public, move.fig) !== null;
    return move.a === "pick" || move.a === "draw";
  },

  status(view, ctx) {
    const pub = view.public;
    if (pub.turn === undefined) return "";
    return t(pub.phase === "draw" ? "w.ex.st.drawing" : "w.ex.st.moving", { who: ctx.seatName(pub.turn) });
  },

  logLines(view) {
    const pub = view.public;
    const seatName = (i) => view.seats[i]?.name || t("room.seat", { n: i + 1 });
    return (pub.log || []).map((ev) => ({ n: ev.n, text: logLine(ev, pub, seatName) }));
  },

  resultNote(view) {
    return tieNote(view, "w.ex.tie", "w.ex.tieShared");
  },

  resultDetails,
};
