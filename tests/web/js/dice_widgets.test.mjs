// Unit tests of the widgets the Voyages and Marco Polo II renderers share (clients/web/src/shared/board.js),
// run by `node --test`: what each game passes in (its own card words, options, events, gesture rules, the
// stop kinds, the draft line) is used, and what both games have comes out the same for either.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../../clients/web/src/i18n.js";
import {
  DiceBoard,
  byGesture,
  camelsTieNote,
  describeMove,
  dicePromptText,
  diceStatus,
  logSentence,
  makeWords,
  myPending,
  myPlayer,
  placementsText,
  promptUi,
  tieNote,
} from "../../../clients/web/src/shared/board.js";

setLang("en");

class TestBoard extends DiceBoard {
  constructor(pub) {
    super(pub, pub.board, "kh");
  }

  name(id) {
    return this.nodes.get(id)?.name || String(id);
  }

  space(space) {
    return `space ${space}`;
  }
}

const BOARD = {
  nodes: [
    { id: "a", name: "Alpha" },
    { id: "b", name: "Beta" },
  ],
  edges: [{ a: "a", b: "b", coins: 2 }],
  characters: { x: { name: "Xena", ability: "does x" } },
};

function view(extra = {}, pub = {}) {
  return {
    you: 0,
    seats: [{ name: "ann" }, { name: "bob" }],
    prompt: null,
    public: { board: BOARD, players: [{ seat: 0, figures: ["a"], character: "x" }, { seat: 1, figures: ["b"] }], pending: [], ...pub },
    ...extra,
  };
}

function game(extra = {}) {
  return {
    ...makeWords(),
    board: (pub) => new TestBoard(pub),
    own: () => undefined,
    named: (_q, id) => `contract ${id}`,
    routeWords: (e) => (e?.coins ? `${e.coins} coins` : ""),
    stopKinds: ["travel"],
    ...extra,
  };
}

test("card words: the kinds both games have, a game's own kinds, and unknown ones as data", () => {
  const { cardWords } = makeWords({}, (card) => (card.kind === "mine" ? "my own card" : null));
  assert.equal(cardWords({ kind: "per_pip", reward: { coins: 2 } }), "2 coins per pip of the die");
  assert.equal(cardWords({ kind: "either", ways: [{ cost: { coins: 1 }, reward: { vp: 1 } }, { cost: {}, reward: {} }] }), "1 coin for 1 VP or nothing for nothing (one way), up to the die value times");
  assert.equal(cardWords({ kind: "mine" }), "my own card");
  assert.equal(cardWords({ kind: "odd", n: 1 }), '{"kind":"odd","n":1}');
  assert.equal(cardWords(null), "—");
  // without own card words every unknown kind is data
  assert.equal(makeWords().cardWords({ kind: "mine" }), '{"kind":"mine"}');
});

test("the prompt sorted by gesture follows the game's rules: lists, maps, lists by key and one option", () => {
  const options = [
    { a: "space", space: "s1" },
    { a: "die", kind: "own", value: 3 },
    { a: "step", fig: 0, to: "b" },
    { a: "step", fig: 1, to: "b" },
    { a: "black" },
    { a: "unknown" },
  ];
  const A = byGesture(view({ prompt: { options } }), { spaces: new Map(), dice: [], to: new Map(), black: null }, {
    space: ["spaces", "space"],
    die: ["dice"],
    step: ["to", (o) => `to-${o.to}`, true],
    black: ["black", null],
  });
  assert.deepEqual([...A.spaces.keys()], ["s1"]);
  assert.deepEqual(A.dice, [options[1]]);
  assert.deepEqual(A.to.get("to-b"), [options[2], options[3]]);
  assert.equal(A.black, options[4]);
  // no prompt: nothing sorted
  assert.equal(byGesture(view(), { dice: [] }, { die: ["dice"] }).dice.length, 0);
});

test("options both games have read alike; the game's own options, die and stop kinds come first", () => {
  const v = view({}, { pending: [{ seat: 0, kind: "travel" }] });
  const g = game();
  assert.equal(describeMove({ a: "step", fig: 0, to: "b" }, v, g), "Move from Alpha to Beta (route: 2 coins)");
  assert.equal(describeMove({ a: "stop" }, v, g), "Stop moving here");
  assert.equal(describeMove({ a: "stop" }, v, game({ stopKinds: [] })), "Stop");
  assert.equal(describeMove({ a: "fulfil", contract: "c1" }, v, g), "Fulfil contract c1");
  assert.equal(describeMove({ a: "character", character: "x" }, v, g), "Play Xena");
  const own = game({ own: (m, q) => (m.a === "die" ? `own ${q.die}` : undefined), ownDie: () => "any die" });
  assert.equal(describeMove({ a: "die", kind: "own", value: 4 }, v, own), "own your 4 die");
  assert.equal(describeMove({ a: "die", kind: "own", value: 4 }, v, game({ ownDie: () => "any die" })), "Place any die");
  assert.equal(describeMove({ a: "nothing" }, v, g), '{"a":"nothing"}');
});

test("log events both games have read alike; the game's own events and dice words come first", () => {
  const v = view();
  const B = new TestBoard(v.public);
  const die = (k, v2) => (k === "own" ? `${v2}` : `${k} ${v2}`);
  const say = (ev, own = () => undefined) => logSentence(ev, v, B, own, { named: (id) => `contract ${id}`, die });
  assert.equal(say({ ev: "place", seat: 1, dice: [["own", 2], ["black", 5]], space: "s" }), "bob placed 2, black 5 on space s.");
  assert.equal(say({ ev: "step", seat: 0, from: "a", to: "b" }), "ann moved from Alpha to Beta.");
  assert.equal(say({ ev: "take_contract", seat: 0, contract: "c9" }), "ann took contract c9.");
  assert.equal(say({ ev: "final_scoring", scores: [3, 4] }), "Final scoring: ann 3, bob 4.");
  assert.equal(say({ ev: "step", seat: 0 }, (who) => `${who} did it the game's way`), "ann did it the game's way");
  assert.equal(say({ ev: "strange" }), "strange");
});

test("the prompt question, the status line and the tie note", () => {
  assert.equal(dicePromptText(view({}, { phase: "draft" }), "kh"), "Choose your character.");
  assert.equal(dicePromptText(view({}, { phase: "play", main_done: true }), "kh"), "Bonus actions, or end your turn.");
  assert.equal(dicePromptText(view({}, { phase: "play", pending: [{ seat: 0, kind: "offer" }] }), "kh"), "Choose one offer of the book.");
  // another player's pending item is not the viewer's question
  assert.equal(myPending(view({}, { pending: [{ seat: 1, kind: "offer" }] })), null);
  assert.equal(myPlayer(view({ you: null })), null);
  const ctx = { seatName: (i) => ["ann", "bob"][i] };
  const draft = view({}, { phase: "draft", round: 1, draft: { order: [1] }, pending: [{ seat: 0 }] });
  assert.equal(diceStatus(draft, ctx, { draft: true }), "Character draft: bob is choosing.");
  assert.equal(diceStatus(draft, ctx), "Round 1 of 5: waiting for ann.");
  assert.equal(diceStatus(view({}, { phase: "play", turn: 1, round: 2 }), ctx), "Round 2 of 5: bob is playing.");
  assert.equal(camelsTieNote({ result: { scores: [5, 5, 2], winners: [0] } }), "Tied on points: the player with the most camels wins.");
  assert.equal(camelsTieNote({ result: { scores: [5, 5, 2], winners: [0, 1] } }), "Tied on points and on camels: a shared win.");
  assert.equal(camelsTieNote({ result: { scores: [6, 5], winners: [0] } }), null);
  // another game's words for the same tie (Expedition: the figure nearest Daidu breaks it)
  assert.equal(tieNote({ result: { scores: [5, 5], winners: [1] } }, "w.ex.tie", "w.ex.tieShared"), "Tied on gold: the tie goes to the player whose figure is nearest Daidu.");
});

test("the room's selections are the game's own and are reset when the prompt changes", () => {
  const ctx = { ui: {}, view: view({ prompt: { options: [{ a: "end" }] } }) };
  const ui = promptUi(ctx, () => ({ goods: [] }));
  ui.goods.push("silk");
  ui.choose = { title: "x", options: [] };
  assert.deepEqual(promptUi(ctx, () => ({ goods: [] })).goods, ["silk"]);
  ctx.view = view({ prompt: { options: [{ a: "cancel" }] } });
  const fresh = promptUi(ctx, () => ({ goods: [] }));
  assert.deepEqual(fresh.goods, []);
  assert.equal(fresh.choose, null);
});

test("a placement names its placer and each die's kind once: a neutral placement's dice are not 'neutral' again", () => {
  const view = { seats: [{ name: "ann" }, { name: "bob" }] };
  const placed = [
    { seat: 0, dice: [["own", 3], ["black", 5]] },
    { seat: null, dice: [["neutral", 1]] },
  ];
  assert.equal(placementsText(view, placed), "ann 3, black 5; neutral 1");
});
