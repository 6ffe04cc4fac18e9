// Unit tests of turn-based play's words and the turn signals' bookkeeping (clients/web/src/turns.js, signals.js),
// run by `node --test`: a turn's length and the room's rule in every language, deadlines as relative times,
// the timed-out room's sentence, the rows of `my_games` brought up to date by live views and sorted by urgency,
// and a signal raised once when a room's move becomes the player's, cleared by a move or by coming back; (v1.2) the
// time banks (the room's rule, what is left before and after the deadline) and the log lines the clock made.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, catalogues, setLang, t } from "../../../clients/web/src/i18n.js";
import { addClockMarks, bankLeft } from "../../../clients/web/src/clock.js";
import { BASE_TITLE, Signals, asksForMove, titleFor } from "../../../clients/web/src/signals.js";
import { BANK_CHOICES, DAY, ON_EXPIRY, TURN_DAYS, deadlineWords, dueAt, durationText, liveRows, relativeTime, timeoutSentence, turnRuleText } from "../../../clients/web/src/turns.js";

const NOW = 1_700_000_000_000;

test("a turn's length and the room's rule read as sentences, in every language", () => {
  setLang("en");
  assert.equal(durationText(3 * DAY), "3 days");
  assert.equal(durationText(DAY), "1 day");
  assert.equal(durationText(3600), "1 hour");
  assert.equal(durationText(36 * 3600), "36 hours");
  assert.equal(durationText(600), "10 minutes");
  assert.equal(durationText(10), "10 seconds");
  assert.equal(turnRuleText({ mode: "turn_based", turn_seconds: 3 * DAY, on_expiry: "wait" }), "Turn-based: 3 days a move; a late player is waited for.");
  assert.match(turnRuleText({ mode: "turn_based", turn_seconds: DAY, on_expiry: "bot" }), /^Turn-based: 1 day a move; .*bot/);
  assert.match(turnRuleText({ mode: "turn_based", turn_seconds: 7 * DAY, on_expiry: "end" }), /^Turn-based: 7 days a move; .*the game ends\.$/);
  assert.equal(turnRuleText({ mode: "live", turn_seconds: 60 }), null);
  assert.equal(turnRuleText(undefined), null);
  for (const { code } of LANGUAGES) {
    setLang(code);
    for (const rule of ON_EXPIRY) {
      for (const days of TURN_DAYS) {
        const text = turnRuleText({ mode: "turn_based", turn_seconds: days * DAY, on_expiry: rule });
        assert.ok(text.includes(String(days)), `${code} ${rule} ${days}: ${text}`);
        assert.doesNotMatch(text, /[{}]|turn\.|time\./, `${code}: ${text}`);
      }
    }
    for (const key of ["games.title", "games.yourTurn", "games.late", "signal.notifyEnable", "lobby.paceTurnBased"]) {
      assert.ok(catalogues[code][key], `${code}: ${key}`);
    }
    if (code !== "en") assert.notEqual(t("games.yourTurn"), catalogues.en["games.yourTurn"], code);
  }
  setLang("en");
});

test("a deadline is a relative time, and late once passed or marked", () => {
  setLang("en");
  assert.equal(relativeTime(NOW + 2 * DAY * 1000 + 3 * 3600 * 1000, NOW), "in 2 days");
  assert.equal(relativeTime(NOW + 5 * 3600 * 1000, NOW), "in 5 hours");
  assert.equal(relativeTime(NOW + 25 * 60 * 1000, NOW), "in 25 minutes");
  assert.equal(relativeTime(NOW + 20 * 1000, NOW), "in 20 seconds");
  assert.deepEqual(deadlineWords(NOW + 3 * DAY * 1000, false, NOW), { late: false, text: "in 3 days" });
  assert.deepEqual(deadlineWords(NOW - 1000, false, NOW), { late: true, text: "late" });
  assert.deepEqual(deadlineWords(null, true, NOW), { late: true, text: "late" });
  assert.equal(deadlineWords(null, false, NOW), null);
  setLang("hu");
  assert.equal(relativeTime(NOW + 2 * DAY * 1000, NOW), "2 nap múlva");
  setLang("es");
  assert.equal(relativeTime(NOW + 2 * DAY * 1000, NOW), "dentro de 2 días");
  setLang("en");
});

test("a room ended by a late player says who, translated when the server's words are the usual ones", () => {
  setLang("en");
  assert.equal(timeoutSentence("time ran out for Cy"), "The game ended: time ran out for Cy.");
  assert.equal(timeoutSentence("something else"), "The game ended: something else");
  assert.equal(timeoutSentence(""), "The game ended: a player's time ran out.");
  setLang("fi");
  assert.match(timeoutSentence("time ran out for Cy"), /Cy/);
  assert.doesNotMatch(timeoutSentence("time ran out for Cy"), /time ran out/);
  setLang("en");
});

const view = (over) => ({
  game: "expedition",
  status: "playing",
  you: 1,
  seats: [
    { taken: true, name: "Cy" },
    { taken: true, name: "Ann" },
  ],
  prompt: null,
  ...over,
});

test("my games: live views decide whose turn it is, and the player's turns come first, then the nearest deadline", () => {
  setLang("en");
  const rows = [
    { room: "r1", game: "expedition", status: "playing", seat: 0, your_turn: false, deadline: null, mode: "turn_based", players: ["Ann", "Bob"] },
    { room: "r2", game: "expedition", status: "playing", seat: 1, your_turn: false, deadline: null, mode: "turn_based", players: ["Cy", "Ann"] },
    { room: "r3", game: "classic", status: "waiting", seat: 0, your_turn: false, deadline: null, mode: "live", players: ["Ann", null] },
    { room: "r4", game: "expedition", status: "playing", seat: 0, your_turn: true, deadline: NOW + 9e6, mode: "turn_based", players: ["Ann", "Dee"] },
    { room: "r5", game: "expedition", status: "playing", seat: 1, your_turn: true, deadline: null, mode: "live", players: ["Eve", "Ann"] },
  ];
  const views = {
    // a move came since the answer: it is Ann's now, with a clock running for her
    r2: view({ prompt: { text: "Move", options: [{ act: "pass" }] }, clock: { seats: [1], deadline: NOW + 1e6 } }),
    // finished since: it goes
    r5: view({ status: "finished", result: { scores: [1, 2], winners: [1] } }),
    // it is Bob's move, with his clock
    r1: view({ you: 0, seats: [{ taken: true, name: "Ann" }, { taken: true, name: "Bob" }], clock: { seats: [1], deadline: NOW + 5e5 } }),
  };
  const out = liveRows(rows, (room) => views[room] || null);
  assert.deepEqual(
    out.map((r) => r.room),
    ["r2", "r4", "r1", "r3"],
  );
  assert.equal(out[0].your_turn, true);
  assert.equal(out[0].deadline, NOW + 1e6);
  assert.deepEqual(out[2].waitingFor, ["Bob"]);
  assert.equal(out[2].deadline, null); // Bob's clock is not Ann's deadline
  const late = liveRows([rows[1]], () => view({ prompt: { options: [{ act: "pass" }] }, clock: { seats: [1], deadline: NOW - 1, late: [1] } }));
  assert.equal(late[0].late, true);
});

test("my games: a seat runs out at its deadline plus its bank, and the one out first comes first", () => {
  const rows = [
    { room: "a", game: "voyages", status: "playing", seat: 0, your_turn: true, deadline: NOW + 1e6, out_at: NOW + 9e6, mode: "turn_based", players: ["Ann", "Bob"] },
    { room: "b", game: "voyages", status: "playing", seat: 0, your_turn: true, deadline: NOW + 2e6, out_at: NOW + 2e6, mode: "turn_based", players: ["Ann", "Cy"] },
    { room: "c", game: "voyages", status: "playing", seat: 1, your_turn: false, deadline: null, mode: "turn_based", players: ["Dee", "Ann"] },
  ];
  const views = {
    // a held view: her deadline has passed, her bank keeps her in time for 5e6 more ms
    c: view({ you: 1, prompt: { options: [{ act: "pass" }] }, clock: { seats: [1], deadline: NOW - 1e6, bank: [null, 5e6] } }),
  };
  const out = liveRows(rows, (room) => views[room] || null);
  assert.deepEqual(out.map((r) => r.room), ["b", "c", "a"]);
  assert.equal(out[1].out_at, NOW + 4e6);
  assert.equal(dueAt(out[1]), NOW + 4e6);
  assert.equal(deadlineWords(dueAt(out[1]), out[1].late, NOW).late, false); // past the deadline, not late: the bank runs
  assert.equal(dueAt({ deadline: NOW }), NOW); // an older server without out_at
  assert.equal(dueAt({ deadline: null }), null);
});

test("a signal is raised once when the move becomes the player's, and cleared by a move or a return", () => {
  setLang("en");
  assert.equal(titleFor(0), BASE_TITLE);
  assert.equal(titleFor(1), "● Your move — Marco Polo");
  assert.equal(titleFor(2), "● Your move (2) — Marco Polo");
  assert.equal(asksForMove(view({ prompt: { options: [{ act: "pass" }] } })), true);
  assert.equal(asksForMove(view({ prompt: { options: [{ act: "pass" }] }, closed: "timeout" })), false);
  assert.equal(asksForMove(view({ prompt: { options: [] } })), false);
  assert.equal(asksForMove(view({ you: null, prompt: { options: [{ act: "pass" }] } })), false);
  const sig = new Signals();
  const raised = [];
  sig.raise = (room) => {
    raised.push(room);
    sig.attention.add(room);
  };
  const mine = view({ prompt: { options: [{ act: "pass" }] } });
  sig.update("a", view());
  sig.update("a", mine);
  sig.update("a", { ...mine, prompt: { options: [{ act: "stop" }] } }); // still the player's turn: no new signal
  assert.deepEqual(raised, ["a"]);
  sig.moved("a");
  assert.equal(sig.attention.size, 0);
  sig.update("a", mine); // the move went on within the same turn: nothing new
  assert.deepEqual(raised, ["a"]);
  sig.update("a", view());
  sig.update("a", mine);
  sig.update("b", mine);
  assert.deepEqual(raised, ["a", "a", "b"]);
  sig.away = true;
  sig.back();
  assert.equal(sig.attention.size, 0);
  sig.update("b", view()); // the other player's move: nothing left to clear
  assert.equal(sig.attention.size, 0);
});

test("a time bank: the room's rule says it in every language; it is all left before the deadline, then runs down", () => {
  setLang("en");
  assert.equal(
    turnRuleText({ mode: "turn_based", turn_seconds: 3 * DAY, on_expiry: "wait", time_bank_seconds: DAY }),
    "Turn-based: 3 days a move; a late player is waited for. Each player also has a time bank of 1 day.",
  );
  assert.equal(turnRuleText({ mode: "turn_based", turn_seconds: DAY, on_expiry: "wait", time_bank_seconds: 0 }), "Turn-based: 1 day a move; a late player is waited for.");
  for (const { code } of LANGUAGES) {
    setLang(code);
    for (const bank of BANK_CHOICES.filter((b) => b > 0)) {
      const text = turnRuleText({ mode: "turn_based", turn_seconds: DAY, on_expiry: "bot", time_bank_seconds: bank });
      assert.doesNotMatch(text, /[{}]|turn\.|time\./, `${code}: ${text}`);
    }
    for (const key of ["clock.bankYours", "clock.bankOf", "log.byClock", "lobby.timeBank", "lobby.noBank"]) assert.ok(catalogues[code][key], `${code}: ${key}`);
    assert.ok(t("log.byClock", { name: "Ann" }).includes("Ann"), code);
  }
  setLang("en");
  const deadline = NOW + 10_000;
  assert.equal(bankLeft(deadline, 60_000, true, NOW), 60); // before the deadline: the whole bank
  assert.equal(bankLeft(deadline, 60_000, true, deadline + 15_500), 45); // 15.5 s past it
  assert.equal(bankLeft(deadline, 60_000, true, deadline + 61_000), 0);
  assert.equal(bankLeft(deadline, 60_000, false, deadline + 15_500), 60); // a seat not to move: as stored
});

test("the log lines a clock's move added are marked with the seat it played for", () => {
  const marks = new Map();
  const view = { clock_moves: [{ seat: 1, by: "expired", v: 7, n_from: 12, n_to: 14 }, { seat: 0, by: "auto", v: 9 }] };
  assert.equal(addClockMarks(marks, view), true);
  assert.deepEqual([...marks.entries()], [[12, 1], [13, 1], [14, 1]]); // a move that added no line marks none
  assert.equal(addClockMarks(marks, view), false); // already known
  assert.equal(addClockMarks(marks, {}), false);
  assert.equal(addClockMarks(marks, { clock_moves: [{ seat: 0, by: "expired", v: 11, n_from: 20, n_to: 20 }] }), true);
  assert.equal(marks.get(20), 0);
});
