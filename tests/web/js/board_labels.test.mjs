// The boards rendered in node (a small stand-in for the document, fake_dom.mjs): their accessibility texts
// (the Voyages' map and route titles, die buttons, the tray's groups, the action board's titles) and the
// words drawn on them (card faces, map tags, reward icons) come from the catalogues, so a Hungarian board
// reads in Hungarian; the English board says what it always said.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { installFakeDom, readable } from "./fake_dom.mjs";

installFakeDom();
const { setLang, t } = await import("../../../clients/web/src/i18n.js");
const { default: voyages } = await import("../../../clients/web/src/games/voyages.js");
const { default: khan } = await import("../../../clients/web/src/games/khan.js");
const { default: classic } = await import("../../../clients/web/src/games/classic.js");
const { default: expedition } = await import("../../../clients/web/src/games/expedition.js");

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = (game) => JSON.parse(readFileSync(join(here, "fixtures", `${game}.json`), "utf-8"));
const FIXTURES = fixtures("voyages");

/** A sampled view with what the greedy games seldom show: two figures each, a taken Beijing space, dice in
 * the money bag, used city cards, a per-pip card, black and white dice, and the given pending item and options. */
function variant(pending, options) {
  const v = structuredClone(FIXTURES[0]);
  const p = v.public;
  for (const pl of p.players) pl.figures = [pl.figures[0], pl.figures[0]];
  p.beijing = [1];
  p.bag = [{ seat: 0, dice: [["own", 3]] }];
  p.city_cards[0].used = { seat: null, dice: [["neutral", 2]] };
  p.city_cards[1].used = { seat: 1, dice: [["own", 4]] };
  p.city_cards[2].card = { id: "city-card-99", kind: "per_pip", reward: { coins: 1 } };
  p.players[v.you].dice = [["own", 3], ["black", 5], ["white", 2], ["own", 0]];
  p.pending = pending ? [{ seat: v.you, ...pending }] : [];
  v.prompt = { text: "", options };
  return v;
}

const SMALL = FIXTURES[0].public.track.nodes.filter((n) => n.type === "small").map((n) => n.id);
const VIEWS = [
  ...FIXTURES,
  variant({ kind: "dice", space: "travel", need: 2, picked: [["own", 4]] }, [
    { a: "die", kind: "own", value: 3 },
    { a: "die", kind: "black", value: 5 },
    { a: "die", kind: "white", value: 2 },
  ]),
  variant(null, [{ a: "relocate", from: SMALL[0] }, { a: "city", city: SMALL[1] }, { a: "goods", goods: ["pepper", "silk"] }, { a: "step", fig: 0, to: SMALL[2] }]),
  variant(null, [{ a: "bag", kind: "black", value: 5 }, { a: "reroll", kind: "own", value: 3 }]),
];

/** Every board of every view (wide and on a phone, with the tray's selections open), as its readable texts. */
function boards(code) {
  setLang(code);
  const out = [];
  for (const view of VIEWS) {
    for (const narrow of [false, true]) {
      const ctx = { view, narrow, ui: {}, pending: false, seatName: (i) => view.seats[i]?.name || "?", rerender() {}, send() {} };
      out.push(voyages.render(ctx));
      const first = view.public.players[view.you]?.dice?.[0] || null;
      const options = (view.prompt?.options || []).slice(0, 2);
      for (const ui of [{ bag: true }, { naming: true }, { goods: ["pepper"] }, { dieMenu: first }, { choose: { title: "?", options } }]) {
        Object.assign(ctx.ui, { bag: false, naming: false, goods: [], dieMenu: null, choose: null }, ui);
        out.push(voyages.render(ctx));
      }
    }
  }
  setLang("en");
  return out;
}

const texts = (trees) => trees.flatMap(readable);

// what the board said in English before its words were in the catalogues
const ENGLISH = [
  "The map: 25 locations and 30 routes from Venezia to Beijing",
  "Route ",
  "no extra cost",
  " extra",
  "bonus: ",
  "first trading post takes",
  "first-post bonus taken",
  "trading posts: ",
  "'s figure is here",
  "'s figure 2 is here",
  "Move to ",
  "Move your post here from",
  "Take the bonus of",
  "VP space",
  "figure in",
  "figures in",
  "no city yet",
  "City cards (a trading post in the city lets you use its card)",
  "× die",
  "City card in ",
  "used this round by",
  "a neutral die",
  "Black dice on the board",
  "buy one for 3 camels",
  "Buy a black die for 3 camels",
  "Money bag: any die for 3 coins, a bonus action",
  "dice in it",
  "Money bag: choose it, then a die, for 3 coins",
  "Action spaces",
  "Your die",
  "Black die",
  "White die",
  "(value of your choice)",
  "name its value",
  "Place your die",
  "Place black die",
  "Place white die",
  "Put black die 5 in the money bag",
  ": bonus actions",
  "Chosen so far",
  "The value of your die",
  "Place an own die as a",
  "Bonus actions with",
  "Take 1 good",
  "Take 2 different goods",
  "Take 1 pepper",
  "Choose 1 pepper",
  "(you have",
  "+1 pepper",
];

test("the English board says every one of its accessibility texts as before", () => {
  const all = texts(boards("en"));
  for (const words of ENGLISH) assert.ok(all.some((x) => x.includes(words)), words);
  for (const exact of ["Map", "Your dice", "back"]) assert.ok(all.includes(exact), exact);
});

test("a Hungarian board has none of the English labels: the map, the routes, the dice, the tray", () => {
  const trees = boards("hu");
  const all = texts(trees);
  for (const words of ENGLISH) assert.ok(!all.some((x) => x.includes(words)), `${words}: ${all.find((x) => x.includes(words))}`);
  for (const exact of ["Map", "Your dice", "back"]) assert.ok(!all.includes(exact), exact);
  // the map's title and the die buttons, in Hungarian
  const map = [...trees[0].descendants()].find((el) => el.getAttribute("id") === "vy-map-title");
  assert.equal(map?.textContent, "A térkép: 25 helyszín és 30 út Velence és Peking között");
  const labels = new Set(trees.flatMap((tree) => [...tree.descendants()]).filter((el) => el.tagName === "button" && el.classList.contains("vy-die")).map((b) => b.getAttribute("aria-label")));
  for (const label of ["Saját kockád (3): bónuszakciók", "a fekete kocka (5) lerakása", "a fehér kocka (2) lerakása", "a fekete kocka (5) beletétele a pénzeszsákba", "Saját kockád (választott érték): nevezd meg az értékét"]) {
    assert.ok(labels.has(label), `${label} not in ${[...labels].join(" | ")}`);
  }
  // the goods of the tray by the game's Hungarian names
  assert.ok(all.includes("+1 bors") && all.includes("1 bors elvétele (van: 0)"));
});

// ---- the other boards: what they drew or said in English -----------------------------------------------------

/** Every view of a game rendered wide and on a phone in the language `code`, as readable texts. */
function render(renderer, views, code) {
  setLang(code);
  const out = views.flatMap((view) =>
    [false, true].flatMap((narrow) => readable(renderer.render({ view, narrow, ui: {}, pending: false, seatName: (i) => view.seats[i]?.name || "?", rerender() {}, send() {} }))),
  );
  setLang("en");
  return out;
}

/** Marco Polo II with a book offer of the reward kinds drawn as words (a good, a contract, a draw, a marker). */
function khanViews() {
  const views = fixtures("khan");
  const v = structuredClone(views[0]);
  v.public.offers[0].offers[0].gain = { good: 1, contract: 1, draw_contract: 1, other_marker: 1 };
  return [...views, v];
}

/** The classic game with a mission not yet done (the map tags it "your mission"). */
function classicViews() {
  const views = fixtures("classic");
  const v = structuredClone(views.find((x) => x.private?.mission));
  v.public.players[v.you].secret = false;
  return [...views, v];
}

const OTHERS = [
  ["khan", khan, khanViews, ["+1 good", "+contract", "+draw contract", "+other marker"], []],
  ["classic", classic, classicViews, ["your mission", ": done", " bz", "green 50 card", "Venice"], ["bezants", "turquoise", "violet"]],
  ["expedition", expedition, () => fixtures("expedition"), [], ["leader", "blue", "red", "green", "purple"]],
];

for (const [game, renderer, views, parts, exact] of OTHERS) {
  test(`the ${game} board draws its words in Hungarian, the same ones as before in English`, () => {
    const sample = views();
    const en = render(renderer, sample, "en");
    const hu = render(renderer, sample, "hu");
    for (const words of parts) {
      assert.ok(en.some((x) => x.includes(words)), `English: ${words}`);
      assert.ok(!hu.some((x) => x.includes(words)), `${words}: ${hu.find((x) => x.includes(words))}`);
    }
    for (const words of exact) {
      assert.ok(en.includes(words), `English: ${words}`);
      assert.ok(!hu.includes(words), `Hungarian: ${words}`);
    }
  });
}

test("the score units of the result follow the language", () => {
  const units = () => [voyages, khan, classic, expedition].map((r) => r.scoreUnit);
  setLang("en");
  assert.deepEqual(units(), ["VP", "VP", "bezants in total", "gold"]);
  setLang("hu");
  assert.deepEqual(units(), ["GYP", "GYP", "bizánci arany összesen", "arany"]);
  setLang("en");
});
