// Unit tests of undo within a turn in the browser client (v1.2), run by `node --test`: the public log's `undo`
// event said as "NAME took back their move." in every language and in its place among every game's own events
// (clients/web/src/shared/log.js), the prompt bar's Undo button shown only while the prompt offers it and
// disabled while a request is in flight, and which key presses ask for it (clients/web/src/undo.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import classic from "../../../clients/web/src/games/classic.js";
import expedition from "../../../clients/web/src/games/expedition.js";
import khan from "../../../clients/web/src/games/khan.js";
import voyages from "../../../clients/web/src/games/voyages.js";
import generic from "../../../clients/web/src/generic.js";
import { LANGUAGES, setLang } from "../../../clients/web/src/i18n.js";
import { isSharedEvent, logLinesOf, sharedLogLine } from "../../../clients/web/src/shared/log.js";
import { isUndoKey, undoRow } from "../../../clients/web/src/undo.js";
import { installFakeDom, readable } from "./fake_dom.mjs";

installFakeDom();

const here = dirname(fileURLToPath(import.meta.url));
const RENDERERS = { expedition, classic, voyages, khan };

function fixtures(game) {
  return JSON.parse(readFileSync(join(here, "fixtures", `${game}.json`), "utf-8"));
}

/** A fixture view with a log of events, one `undo` by seat 1 put in the middle (its `n` between theirs). */
function withUndo(game) {
  const view = fixtures(game).find((v) => (v.public.log || []).length >= 2);
  const log = view.public.log.map((ev) => ({ ...ev, n: ev.n * 2 }));
  const at = Math.floor(log.length / 2);
  const undo = { ev: "undo", seat: 1, n: log[at].n - 1 };
  return { view: { ...view, public: { ...view.public, log: [...log.slice(0, at), undo, ...log.slice(at)] } }, undo, log };
}

test("an undo event reads 'NAME took back their move.' in English, a free seat's number without a name", () => {
  setLang("en");
  const view = { seats: [{ name: "Ann" }, { name: "Bea" }] };
  assert.equal(sharedLogLine({ ev: "undo", seat: 1, n: 4 }, view), "Bea took back their move.");
  assert.equal(sharedLogLine({ ev: "undo", seat: 0, n: 4 }, { seats: [{}] }), "Seat 1 took back their move.");
  assert.equal(sharedLogLine({ ev: "move", seat: 0, n: 5 }, view), null);
  assert.ok(isSharedEvent({ ev: "undo", seat: 0 }) && !isSharedEvent({ ev: "step" }) && !isSharedEvent(null));
});

test("the undo line is said in every language, with the name and no key left in it", () => {
  const said = new Set();
  for (const { code } of LANGUAGES) {
    setLang(code);
    const text = sharedLogLine({ ev: "undo", seat: 0, n: 1 }, { seats: [{ name: "Zoë" }] });
    assert.ok(text.includes("Zoë"), `${code}: ${text}`);
    assert.doesNotMatch(text, /\bw\.log|[{}]/, `${code}: ${text}`);
    said.add(text);
  }
  setLang("en");
  assert.equal(said.size, LANGUAGES.length);
});

for (const [game, renderer] of Object.entries(RENDERERS)) {
  test(`${game}: a log with an undo says it in its place and every other event as the game's renderer does`, () => {
    setLang("en");
    const { view, undo, log } = withUndo(game);
    const lines = logLinesOf(renderer, view);
    assert.deepEqual(
      lines.map((l) => l.n),
      view.public.log.map((ev) => ev.n),
    );
    const mine = lines.find((l) => l.n === undo.n);
    assert.equal(mine.text, `${view.seats[1].name} took back their move.`);
    // the game's own events: the words its renderer gives them without the undo
    const own = renderer.logLines({ ...view, public: { ...view.public, log } });
    assert.deepEqual(
      lines.filter((l) => l.n !== undo.n),
      own,
    );
    // a log without a shared event is the renderer's own answer
    assert.deepEqual(logLinesOf(renderer, { ...view, public: { ...view.public, log } }), own);
  });
}

test("the generic renderer (a game without its own) says the undo too", () => {
  setLang("en");
  const view = { game: "other", seats: [{ name: "Ann" }], public: { log: [{ ev: "x", n: 0 }, { ev: "undo", seat: 0, n: 1 }] } };
  assert.deepEqual(logLinesOf(generic, view), [{ n: 1, text: "Ann took back their move." }]);
});

test("the Undo button is shown only while the prompt offers it, to the seat, and disabled while a request is in flight", () => {
  setLang("en");
  const sent = [];
  const ctx = (prompt, extra = {}) => ({
    view: { you: 0, prompt, seats: [{ name: "Ann" }] },
    room: "r1",
    pending: false,
    app: { undo: (room) => sent.push(room) },
    ...extra,
  });
  assert.equal(undoRow(ctx(null)), null);
  assert.equal(undoRow(ctx({ text: "?", options: [{ a: "x" }] })), null);
  const offered = { text: "?", options: [{ a: "x" }], undo: true };
  assert.equal(undoRow({ ...ctx(offered), view: { you: null, prompt: offered } }), null);
  const row = undoRow(ctx(offered));
  const button = row.querySelector('[data-testid="undo"]');
  assert.equal(button.tagName, "button");
  assert.equal(button.hasAttribute("disabled"), false);
  assert.match(button.getAttribute("title"), /\bU\b.*Ctrl\+Z/);
  assert.match(button.getAttribute("aria-keyshortcuts"), /\bU\b.*Control\+Z/);
  assert.ok(readable(row).some((text) => text.includes("Undo")));
  for (const fn of button.listeners.click) fn({});
  assert.deepEqual(sent, ["r1"]);
  const busy = undoRow(ctx(offered, { pending: true })).querySelector('[data-testid="undo"]');
  assert.equal(busy.hasAttribute("disabled"), true);
  for (const { code } of LANGUAGES) {
    setLang(code);
    const words = readable(undoRow(ctx(offered)));
    assert.ok(words.length >= 3 && words.every((w) => !/\broom\.undo/.test(w)), `${code}: ${words}`);
  }
  setLang("en");
});

test("u and Ctrl+Z (or ⌘Z) ask for an undo, not while typing in a text field, not with other modifiers", () => {
  const key = (k, more = {}) => ({ key: k, target: { tagName: "BODY" }, ...more });
  assert.ok(isUndoKey(key("u")));
  assert.ok(isUndoKey(key("U", { target: { tagName: "BUTTON" } })));
  assert.ok(isUndoKey(key("z", { ctrlKey: true })));
  assert.ok(isUndoKey(key("z", { metaKey: true })));
  assert.ok(!isUndoKey(key("z")));
  assert.ok(!isUndoKey(key("z", { ctrlKey: true, shiftKey: true }))); // redo, elsewhere
  assert.ok(!isUndoKey(key("u", { ctrlKey: true })));
  assert.ok(!isUndoKey(key("u", { altKey: true })));
  assert.ok(!isUndoKey(key("u", { repeat: true })));
  assert.ok(!isUndoKey(key("u", { defaultPrevented: true })));
  assert.ok(!isUndoKey(key("u", { target: { tagName: "INPUT" } })));
  assert.ok(!isUndoKey(key("z", { ctrlKey: true, target: { tagName: "TEXTAREA" } })));
  assert.ok(!isUndoKey(key("u", { target: { tagName: "DIV", isContentEditable: true } })));
});
