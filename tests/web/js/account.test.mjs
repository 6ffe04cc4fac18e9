// Unit tests of the browser's account pieces (clients/web/src/account.js, connection.js), run by `node --test`:
// the device label a sign-in sends fits the contract (1..32 printable characters, no space at either end), every
// error code of the account requests has its own sentence in every catalogue, and a socket the server closes
// with 4002 (signed out) reports "signedout" and is not reopened by the backoff.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PASSWORD_MIN, authErrorKey, deviceLabel, roughlySame } from "../../../clients/web/src/account.js";
import { Connection, SIGNED_OUT } from "../../../clients/web/src/connection.js";
import { catalogues } from "../../../clients/web/src/i18n.js";

const AGENTS = {
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36":
    "Chrome · Linux",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0": "Firefox · Windows",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1":
    "Safari · iPhone",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36":
    "Chrome · Android",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0":
    "Edge · macOS",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0 Mobile Safari/537.36":
    "Samsung Internet · Android",
  "": "browser",
  "\u0000\u0007 weird agent \u001b": "browser",
};
// the contract's name pattern (protocol/messages.py): no control characters, no space at either end
const LABEL = /^[^\s\p{Cc}]([^\p{Cc}]*[^\s\p{Cc}])?$/u;

test("the device label names the browser and the system, within the contract's 32 printable characters", () => {
  for (const [ua, want] of Object.entries(AGENTS)) {
    const label = deviceLabel(ua);
    assert.equal(label, want, ua);
    assert.ok(label.length >= 1 && label.length <= 32, label);
    assert.match(label, LABEL);
  }
  assert.match(deviceLabel("x".repeat(5000)), LABEL);
});

test("every refusal of an account request has its own sentence, in every language", () => {
  const keys = new Set();
  for (const kind of ["sign_in", "sign_up", "change_password", "delete_account"]) {
    for (const [code, message] of [
      ["name_taken", "an account holds that name"],
      ["bad_credentials", "no account has that name and password"],
      ["rate_limited", "too many failed sign-ins"],
      ["bad_message", `password: at least ${PASSWORD_MIN} characters`],
      ["bad_message", "name: holds a reserved word"],
    ]) {
      const key = authErrorKey(code, message, kind);
      assert.ok(key, `${kind} ${code}`);
      keys.add(key);
    }
    assert.equal(authErrorKey("unavailable", "the store is unavailable", kind), null); // the app's general sentence
  }
  assert.equal(authErrorKey("bad_credentials", "", "sign_in"), "auth.badCredentials");
  assert.equal(authErrorKey("bad_credentials", "", "delete_account"), "auth.wrongPassword");
  assert.equal(authErrorKey("bad_message", "password: at least 8 characters", "sign_up"), "auth.passwordShort");
  assert.equal(authErrorKey("bad_message", "name: too long", "sign_up"), "auth.nameRefused");
  for (const [code, cat] of Object.entries(catalogues)) for (const key of keys) assert.ok(cat[key], `${code}: ${key}`);
});

test("names are compared roughly as the server folds them (a guest name that is the account's is not reused)", () => {
  assert.ok(roughlySame("Alice", "ALICE"));
  assert.ok(roughlySame("A l i c e", "alice"));
  assert.ok(roughlySame("Ａｌｉｃｅ", "alice")); // full width
  assert.ok(!roughlySame("Alice", "Alicia"));
  assert.ok(!roughlySame("", ""));
  assert.ok(!roughlySame(null, "x"));
});

class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    FakeSocket.all.push(this);
  }
  send() {}
  close(code) {
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code }));
  }
}
FakeSocket.OPEN = 1;
FakeSocket.CONNECTING = 0;

test("a close with 4002 (signed out) reports signedout and does not reconnect", async () => {
  globalThis.WebSocket = FakeSocket;
  FakeSocket.all = [];
  const states = [];
  const conn = new Connection("ws://test/ws", { onOpen: () => {}, onMessage: () => {}, onState: (s) => states.push(s) });
  conn.connect();
  const ws = FakeSocket.all[0];
  ws.readyState = 1;
  ws.onopen();
  ws.close(SIGNED_OUT);
  await new Promise((resolve) => setTimeout(resolve, 600)); // past the first backoff (at most 375 ms)
  assert.equal(states.at(-1), "signedout");
  assert.equal(FakeSocket.all.length, 1, "no reconnection with a dead token");
});
