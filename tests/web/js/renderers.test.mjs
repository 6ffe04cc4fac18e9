// Unit tests of the browser renderers' words, run by `node --test` (make test): every option of every
// sampled view (fixtures/, views of greedy-bot games made by make_fixtures.py) and every log event is
// described in words, with no id of the game data in them; the shared naming and the catalogues behave.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import classic, { hazardWords } from "../../../clients/web/src/games/classic.js";
import expedition from "../../../clients/web/src/games/expedition.js";
import khan from "../../../clients/web/src/games/khan.js";
import voyages from "../../../clients/web/src/games/voyages.js";
import { LANGUAGES, catalogues, setLang, t } from "../../../clients/web/src/i18n.js";
import { rulesFor } from "../../../clients/web/src/rules.js";
import { ID_PATTERN, contractName, scrubIds } from "../../../clients/web/src/shared/names.js";

const here = dirname(fileURLToPath(import.meta.url));
const RENDERERS = { expedition, classic, voyages, khan };
const IDS = /\b(?:contract-\d+|starter-\d+|offer-\d|city-card-\d+|goal-\d+|outpost-\d+|marker-\d+|route-\d+)/;

function fixtures(game) {
  return JSON.parse(readFileSync(join(here, "fixtures", `${game}.json`), "utf-8"));
}

for (const [game, renderer] of Object.entries(RENDERERS)) {
  test(`every ${game} option is described in words without an id`, () => {
    let n = 0;
    for (const view of fixtures(game)) {
      for (const move of view.prompt?.options || []) {
        const words = renderer.describe(move, view);
        assert.equal(typeof words, "string");
        assert.ok(words.trim().length > 2, JSON.stringify(move));
        assert.ok(!words.startsWith("{"), `no words for ${JSON.stringify(move)}: ${words}`);
        assert.doesNotMatch(words, IDS, `${JSON.stringify(move)} → ${words}`);
        n += 1;
      }
    }
    assert.ok(n > 20, `only ${n} options sampled`);
  });

  test(`every ${game} log event reads as a sentence without an id`, () => {
    let n = 0;
    for (const view of fixtures(game)) {
      for (const line of renderer.logLines(view)) {
        assert.equal(typeof line.n, "number");
        assert.ok(line.text.includes(" "), `an event without words: ${line.text}`);
        assert.doesNotMatch(line.text, IDS, line.text);
        n += 1;
      }
    }
    assert.ok(n > 10, `only ${n} events sampled`);
  });

  test(`the ${game} rules panel has sections with terms and what they do`, () => {
    const sections = rulesFor(fixtures(game)[0], renderer);
    assert.ok(sections.length >= 2);
    for (const sec of sections) {
      assert.ok(sec.title);
      for (const [term, what] of sec.items || []) assert.ok(term && what, sec.title);
    }
  });
}

test("the characters of the rules panel come from the view's own data", () => {
  const view = fixtures("khan")[0];
  const names = Object.values(view.public.board.characters).map((c) => c.name);
  const terms = rulesFor(view, khan).flatMap((s) => (s.items || []).map(([term]) => term));
  for (const name of names) assert.ok(terms.includes(name), name);
});

test("a house-components note is given exactly for the reconstructed games", () => {
  assert.ok(expedition.house && classic.house && khan.house);
  assert.equal(voyages.house, undefined);
});

test("ids left in a text become the words of their kind", () => {
  assert.equal(scrubIds("Ann took contract-34 and offer-1-5."), "Ann took a contract and an offer tile.");
  assert.equal(scrubIds("city-card-2 and starter-0"), "a city card and a starting contract");
  assert.equal(scrubIds("Take 5 coins"), "Take 5 coins");
  assert.equal(contractName("contract-3", "pay 1 silk, get 2 VP"), "the contract (pay 1 silk, get 2 VP)");
  assert.equal(contractName("starter-1", null), "a starting contract");
  assert.ok(ID_PATTERN.global);
});

test("messages fill their placeholders, choose plural forms and fall back to English", () => {
  setLang("en");
  assert.equal(t("lobby.hello", { name: "Ann" }), "Hello, Ann");
  assert.equal(t("room.waitingFor", { n: 1 }), "Waiting for 1 more player. Others join from the lobby.");
  assert.equal(t("room.waitingFor", { n: 2 }), "Waiting for 2 more players. Others join from the lobby.");
  setLang("fi");
  assert.equal(t("lobby.openRooms"), "Avoimet huoneet");
  assert.equal(t("no.such.key"), "no.such.key");
  setLang("xx"); // unknown: the language stays
  assert.equal(t("lobby.openRooms"), "Avoimet huoneet");
  setLang("en");
  assert.deepEqual(LANGUAGES.map((l) => l.code), ["en", "hu", "fi", "it", "es"]);
  for (const code of Object.keys(catalogues)) assert.deepEqual(Object.keys(catalogues[code]).sort(), Object.keys(catalogues.en).sort(), code);
});

test("every option, prompt and log line reads in every language without a catalogue key left in it", () => {
  const KEY = /\bw\.[a-z]+\.[A-Za-z0-9_.]+/;
  try {
    for (const { code } of LANGUAGES) {
      setLang(code);
      for (const [game, renderer] of Object.entries(RENDERERS)) {
        for (const view of fixtures(game)) {
          const texts = (view.prompt?.options || []).map((m) => renderer.describe(m, view));
          if (renderer.promptText && view.prompt) texts.push(renderer.promptText(view));
          for (const line of renderer.logLines(view)) texts.push(line.text);
          for (const text of texts) assert.doesNotMatch(text, KEY, `${code} ${game}: ${text}`);
        }
      }
    }
    // the game words change with the language
    const view = fixtures("khan").find((v) => v.prompt?.options?.some((o) => o.a === "space"));
    const move = view.prompt.options.find((o) => o.a === "space" && o.space === "khan");
    const said = LANGUAGES.map(({ code }) => (setLang(code), khan.describe(move, view)));
    assert.equal(new Set(said).size, 5, said.join(" | "));
    setLang("es");
    assert.match(khan.describe(move, view), /^El favor del Khan/);
  } finally {
    setLang("en");
  }
});

test("the rules panel reads in the chosen language, every section and term, without a catalogue key left", () => {
  const KEY = /\b(?:rules|w)\.[a-z]+\.[A-Za-z0-9_.]+/;
  const panel = (game) => {
    const renderer = RENDERERS[game];
    return rulesFor(fixtures(game)[0], renderer).flatMap((s) => [s.title, s.text || "", ...(s.items || []).flat()]);
  };
  try {
    const said = {};
    for (const { code } of LANGUAGES) {
      setLang(code);
      for (const game of Object.keys(RENDERERS)) {
        const texts = panel(game);
        for (const text of texts) assert.doesNotMatch(text, KEY, `${code} ${game}: ${text}`);
        said[`${code} ${game}`] = texts;
      }
    }
    for (const game of Object.keys(RENDERERS)) {
      const en = said[`en ${game}`];
      for (const code of ["hu", "fi", "it", "es"]) {
        const other = said[`${code} ${game}`];
        assert.equal(other.length, en.length, `${code} ${game}`);
        // the long texts (what a space does, how a game scores) are all translated
        const same = other.filter((text, i) => text === en[i] && text.length > 24);
        assert.deepEqual(same, [], `${code} ${game}`);
      }
    }
    setLang("hu");
    assert.equal(panel("khan")[0], "Egy kör");
    assert.ok(panel("khan").includes("Céhpecsétek"));
    setLang("es");
    assert.ok(panel("classic").includes("Bandidos y piratas"));
  } finally {
    setLang("en");
  }
  assert.equal(panel("khan")[0], "A turn");
});

test("the classic hazard cards read in every language, in English as the game data says them", () => {
  const cards = JSON.parse(readFileSync(join(here, "../../../server/games/classic/cards.json"), "utf-8"));
  const events = Object.entries(cards.hazards).flatMap(([colour, list]) =>
    list.map((h, i) => ({ ev: "hazard", seat: 0, card: `${colour}-hazard-${i + 1}`, name: h.name, text: h.text, effect: h.effect })),
  );
  assert.equal(events.length, 20);
  try {
    setLang("en");
    for (const ev of events) assert.deepEqual(hazardWords(ev), { name: ev.name, text: ev.text });
    for (const code of ["hu", "fi", "it", "es"]) {
      setLang(code);
      for (const ev of events) {
        const { name, text } = hazardWords(ev);
        assert.notEqual(name, ev.name, `${code} ${ev.card}`);
        assert.notEqual(text, ev.text, `${code} ${ev.card}`);
        assert.doesNotMatch(`${name} ${text}`, /\bw\.|\{/, `${code} ${ev.card}`);
      }
    }
    setLang("it");
    assert.deepEqual(hazardWords(events[0]), { name: "Dogana alla porta della città", text: "Paga 30 bisanti alla banca." });
    // a card the catalogue does not know keeps the server's words
    assert.deepEqual(hazardWords({ card: "x", name: "N", text: "T", effect: { kind: "new" } }), { name: "N", text: "T" });
  } finally {
    setLang("en");
  }
});
