// Unit tests of the leaderboard's page arithmetic and the player links (clients/web/src/people.js), run by
// `node --test`: the page that holds a place, the addresses of leaderboard pages and player pages, which ids are
// the server bots', and that a finished game's seat is linked by name only where it was an account's.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PAGE_SIZE, isBotId, pageOfRank, playerHref, ratingsHref, seatId } from "../../../clients/web/src/people.js";

test("a place is on the page that holds it, PAGE_SIZE places a page", () => {
  assert.equal(PAGE_SIZE, 25);
  assert.equal(pageOfRank(1), 1);
  assert.equal(pageOfRank(25), 1);
  assert.equal(pageOfRank(26), 2);
  assert.equal(pageOfRank(62), 3);
  assert.equal(pageOfRank(0), 1); // never before the first page
});

test("leaderboard and player addresses", () => {
  assert.equal(ratingsHref("expedition"), "#/ratings/expedition");
  assert.equal(ratingsHref("expedition", 1), "#/ratings/expedition");
  assert.equal(ratingsHref("expedition", 3), "#/ratings/expedition?page=3");
  assert.equal(playerHref("p/1 2"), "#/player/p%2F1%202");
});

test("the server bots' rated ids are told from people's", () => {
  assert.ok(isBotId("bot") && isBotId("bot:hard"));
  assert.ok(!isBotId("p0123abcd") && !isBotId("bottle") && !isBotId(null));
});

test("a finished game's seat is linked only when it was an account's and its id is known", () => {
  const app = { account: true, name: "Ann", player: "pann", ids: new Map([["Bob", "pbob"], ["Gus", "pgus"]]) };
  const rec = { room: "r1", players: ["Ann", "Bob", "Gus", null], guests: [false, false, true, null] };
  assert.deepEqual(
    rec.players.map((_, i) => seatId(app, rec, i)),
    ["pann", "pbob", null, null],
  );
  // a record archived before v1.2 has no `guests`: no name is trusted to be an account's
  assert.deepEqual(
    [0, 1].map((i) => seatId(app, { room: "r0", players: ["Ann", "Bob"] }, i)),
    [null, null],
  );
});
