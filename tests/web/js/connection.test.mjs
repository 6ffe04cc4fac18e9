// Unit tests of the browser's one socket (clients/web/src/connection.js), run by `node --test` against a
// fake WebSocket: a socket replaced while it opens never says hello and never reports, a request waiting
// on a replaced socket fails at once, and a stopped connection does not reconnect.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pack, unpack } from "../../../clients/web/src/codec.js";
import { Connection } from "../../../clients/web/src/connection.js";

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static all = [];

  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.closedWith = null;
    FakeSocket.all.push(this);
  }

  send(data) {
    assert.equal(this.readyState, FakeSocket.OPEN, "sent on a socket that is not open");
    this.sent.push(unpack(data));
  }

  close(code) {
    this.closedWith = code;
    this.readyState = FakeSocket.CLOSED;
    queueMicrotask(() => this.onclose?.({ code }));
  }

  // what the network does
  opened() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  answer(msg) {
    const bytes = pack(msg);
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }
}

globalThis.WebSocket = FakeSocket;

function make() {
  FakeSocket.all = [];
  const seen = { opens: 0, states: [], messages: [] };
  const conn = new Connection("ws://test/ws", {
    onOpen: () => {
      seen.opens += 1;
      conn.request("hello", { name: "Zoe" }).catch(() => {});
    },
    onMessage: (msg) => seen.messages.push(msg),
    onState: (state) => seen.states.push(state),
  });
  return { conn, seen };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a second connect while the first socket opens closes the first: one socket says hello, once", async () => {
  const { conn, seen } = make();
  conn.connect();
  assert.equal(conn.connecting, true);
  conn.connect();
  const [first, second] = FakeSocket.all;
  assert.equal(FakeSocket.all.length, 2);
  assert.equal(first.closedWith, 1000, "the replaced socket is closed, not left open");
  first.opened(); // (a socket closed while opening may still report its open: it must be ignored)
  second.opened();
  await tick();
  assert.equal(seen.opens, 1);
  assert.deepEqual(first.sent, []);
  assert.deepEqual(
    second.sent.map((m) => m.t),
    ["hello"],
  );
  assert.equal(conn.open, true);
  assert.equal(seen.states.filter((s) => s === "closed").length, 0, "the replaced socket's close is not reported");
  conn.stop();
});

test("a request waiting on a replaced socket fails at once; answers on the new socket are matched", async () => {
  const { conn } = make();
  conn.connect();
  FakeSocket.all[0].opened();
  const waiting = conn.request("list_rooms");
  conn.connect();
  await assert.rejects(waiting, (err) => err.code === "closed");
  const next = FakeSocket.all[1];
  next.opened();
  const asked = conn.request("list_rooms");
  const sent = next.sent.find((m) => m.t === "list_rooms");
  next.answer({ t: "rooms", re: sent.id, rooms: [] });
  assert.deepEqual((await asked).rooms, []);
  conn.stop();
});

test("a stopped connection reports idle and does not reconnect", async () => {
  const { conn, seen } = make();
  conn.connect();
  FakeSocket.all[0].opened();
  conn.stop();
  assert.equal(conn.open, false);
  assert.equal(seen.states.at(-1), "idle");
  await new Promise((resolve) => setTimeout(resolve, 600)); // past the first backoff (at most 375 ms)
  assert.equal(FakeSocket.all.length, 1);
});

test("a socket the server closes is replaced after a backoff", async () => {
  const { conn, seen } = make();
  conn.connect();
  FakeSocket.all[0].opened();
  FakeSocket.all[0].close(1011);
  await tick();
  assert.equal(seen.states.at(-1), "closed");
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.equal(FakeSocket.all.length, 2);
  assert.equal(conn.connecting, true);
  conn.stop();
});
