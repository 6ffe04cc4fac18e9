// Unit tests of the browser's moderation pieces (v1.2), run by `node --test`: a ban's words from the server become
// a sentence in every language (until when, why), a socket the server closes with 4003 (banned) reports "banned"
// with the server's reason and is not reopened by the backoff, and every word the moderation and the admin page
// show is in every catalogue.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { bannedSentence } from "../../../clients/web/src/account.js";
import { BANNED, Connection } from "../../../clients/web/src/connection.js";
import { LANGUAGES, catalogues, setLang } from "../../../clients/web/src/i18n.js";

const here = dirname(fileURLToPath(import.meta.url));
const SRC = join(here, "../../../clients/web/src");

test("a ban's words from the server read as a sentence with its end and its reason, in every language", () => {
  setLang("en");
  assert.equal(bannedSentence("banned until 2030-01-02 03:04 UTC: spamming"), "You are banned until 2030-01-02 03:04 UTC. Reason: spamming");
  assert.equal(bannedSentence("banned permanently: cheating: twice"), "You are banned permanently. Reason: cheating: twice");
  assert.equal(bannedSentence("banned: banned permanently: x"), "You are banned permanently. Reason: x"); // a ServerError's text
  assert.equal(bannedSentence("the server is closed to you"), "The server refuses you: the server is closed to you");
  assert.equal(bannedSentence(""), "The server refuses you: you are banned.");
  for (const { code } of LANGUAGES) {
    setLang(code);
    const until = bannedSentence("banned until 2030-01-02 03:04 UTC: spamming");
    assert.ok(until.includes("2030-01-02 03:04 UTC") && until.includes("spamming") && !until.includes("{"), `${code}: ${until}`);
    const ever = bannedSentence("banned permanently: spamming");
    assert.ok(ever.includes("spamming") && !ever.includes("{"), `${code}: ${ever}`);
  }
  setLang("en");
});

class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    FakeSocket.all.push(this);
  }
  send() {}
  close(code, reason = "") {
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code, reason }));
  }
}
FakeSocket.OPEN = 1;
FakeSocket.CONNECTING = 0;

test("a close with 4003 (banned) reports banned with the server's reason and does not reconnect", async () => {
  globalThis.WebSocket = FakeSocket;
  FakeSocket.all = [];
  const states = [];
  const conn = new Connection("ws://test/ws", { onOpen: () => {}, onMessage: () => {}, onState: (s, detail) => states.push([s, detail]) });
  conn.connect();
  const ws = FakeSocket.all[0];
  ws.readyState = 1;
  ws.onopen();
  ws.close(BANNED, "banned until 2030-01-02 03:04 UTC: spamming");
  await new Promise((resolve) => setTimeout(resolve, 600)); // past the first backoff (at most 375 ms)
  assert.deepEqual(states.at(-1), ["banned", "banned until 2030-01-02 03:04 UTC: spamming"]);
  assert.equal(FakeSocket.all.length, 1, "no knocking again while banned");
});

test("every word of moderation and of the admin page is in every catalogue", () => {
  const keys = new Set();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith(".js"))) {
    const text = readFileSync(join(SRC, file), "utf8");
    for (const m of text.matchAll(/\bt\(\s*"((?:admin|block|report|banned|chat|closed|host|room)\.[A-Za-z.]+)"/g)) keys.add(m[1]);
  }
  for (const kind of ["reports", "bans", "rooms", "players", "audit"]) keys.add(`admin.tab.${kind}`);
  for (const kind of ["name", "player", "addr", "net"]) keys.add(`admin.kind.${kind}`);
  for (const key of ["error.muted", "error.filtered", "net.banned", "host.muteOf", "host.unmuteOf"]) {
    keys.add(key);
  }
  assert.ok(keys.has("admin.tokenAbout") && keys.has("chat.block") && keys.has("report.sent"), "the sources were read");
  for (const [code, cat] of Object.entries(catalogues)) {
    for (const key of keys) {
      const word = cat[key] ?? cat[`${key}.other`]; // a message with plural forms is looked up by one of them
      assert.ok(typeof word === "string" && word.trim(), `${code}: ${key}`);
    }
  }
  // translated, not copied: the page's own sentences differ from the English ones in every other language
  for (const key of ["admin.tokenAbout", "block.about", "report.about", "banned.about", "closed.moderator"]) {
    for (const { code } of LANGUAGES.filter((l) => l.code !== "en")) assert.notEqual(catalogues[code][key], catalogues.en[key], `${code}: ${key}`);
  }
});
