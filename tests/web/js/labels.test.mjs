// Options that differ in one field only read differently in the browser, in every language: Marco Polo II's
// jade splits (the same paying move with jade paying some of its coins or camels) and the Voyages' `post_choice`
// (which city of a split city-card move gets the trading post). fixtures/labels.json: made by
// `python -m tests.web.js.make_fixtures` (real views; the post choice pushed onto a real mid-game state).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import khan from "../../../clients/web/src/games/khan.js";
import voyages from "../../../clients/web/src/games/voyages.js";
import { LANGUAGES, setLang, t } from "../../../clients/web/src/i18n.js";

const here = dirname(fileURLToPath(import.meta.url));
const VIEWS = JSON.parse(readFileSync(join(here, "fixtures", "labels.json"), "utf-8"));
const RENDERERS = { khan, voyages };

function twins(labels) {
  const seen = new Map();
  for (const l of labels) seen.set(l, (seen.get(l) || 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([l]) => l);
}

test("the fixtures hold jade splits of every paying kind and a post choice", () => {
  const kinds = new Set(VIEWS.khan.flatMap((v) => v.prompt.options.filter((o) => typeof o.jade === "object").map((o) => o.a)));
  for (const k of ["reroll", "adjust", "black", "die", "step", "fulfil"]) assert.ok(kinds.has(k), k);
  const [post] = VIEWS.voyages;
  assert.ok(post.prompt.options.length >= 2);
  assert.ok(post.prompt.options.every((o) => o.a === "post"));
});

for (const lang of LANGUAGES.map((l) => (typeof l === "string" ? l : l.code))) {
  test(`no two jade splits or post cities share a label (${lang})`, () => {
    setLang(lang);
    try {
      for (const [game, views] of Object.entries(VIEWS)) {
        for (const view of views) {
          const labels = view.prompt.options.map((o) => RENDERERS[game].describe(o, view));
          assert.deepEqual(twins(labels), [], `${game} ${lang}`);
          for (const l of labels) assert.ok(!l.startsWith("{"), `${game} ${lang}: ${l}`);
        }
      }
      const [post] = VIEWS.voyages;
      const prefix = t("w.vo.opt.post", { city: "\u0000" }).split("\u0000")[0];
      for (const o of post.prompt.options) assert.ok(voyages.describe(o, post).startsWith(prefix), lang);
      // the prompt's question is the game's own words too
      assert.equal(voyages.promptText(post), t("w.vo.prompt.post_choice"));
    } finally {
      setLang("en");
    }
  });
}

test("a jade split says what the jade pays", () => {
  setLang("en");
  for (const view of VIEWS.khan) {
    for (const o of view.prompt.options) {
      if (typeof o.jade !== "object") continue;
      const words = khan.describe(o, view);
      assert.match(words, /, with jade for /, words);
      const { jade, ...plain } = o;
      assert.ok(words.startsWith(khan.describe(plain, view)), words);
    }
  }
});

test("no sampled Marco Polo II or Voyages view has two options alike", () => {
  setLang("en");
  for (const [game, renderer] of Object.entries(RENDERERS)) {
    const views = JSON.parse(readFileSync(join(here, "fixtures", `${game}.json`), "utf-8"));
    for (const view of views) {
      const labels = (view.prompt?.options || []).map((o) => renderer.describe(o, view));
      assert.deepEqual(twins(labels), [], game);
    }
  }
});

test("two face-up Expedition cards of one kind read differently, by their place in the row", async () => {
  const { drawFaceLabel } = await import("../../../clients/web/src/games/expedition.js");
  for (const lang of LANGUAGES.map((l) => (typeof l === "string" ? l : l.code))) {
    setLang(lang);
    const display = ["green-leader-1", "green-leader-1", "purple-oil-2", null];
    const labels = [0, 1, 2].map((slot) => drawFaceLabel(display, slot));
    assert.deepEqual(twins(labels), [], lang);
    // a card without a twin keeps the plain label, wherever it lies
    assert.equal(labels[2], drawFaceLabel(["purple-oil-2"], 0), lang);
    assert.notEqual(labels[0], drawFaceLabel(["green-leader-1"], 0), lang);
  }
  setLang("en");
});
