// The peers' game on Colyseus 0.18: @colyseus/schema state, hands filtered per client with StateView.
//
//   node colyseus_server.mjs --port 0 [--patch-rate 50 | --patch-rate now]
//
// Prints "listening PORT" once ready. `--patch-rate now` sends each move's patch at once (broadcastPatch in
// the message handler, as a turn-based game may); the default is Colyseus's own clock (50 ms).
import { Room, Server } from "@colyseus/core";
import { ArraySchema, MapSchema, StateView, schema, t } from "@colyseus/schema";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { DECK, HAND, rank, shuffled } from "./game.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const PATCH_NOW = args["patch-rate"] === "now";
const PATCH_RATE = PATCH_NOW ? null : Number(args["patch-rate"] ?? 50);

const Player = schema({
  seat: t.uint8(),
  score: t.uint16(),
  handSize: t.uint8(),
  hand: t.array("uint8").view(), // only in the StateView of the client that holds this seat
});

const State = schema({
  players: t.map(Player),
  turn: t.uint16(), // moves made so far
  current: t.string(), // the sessionId of the seat to move ("" before the start)
  deckSize: t.uint8(),
  top: t.int16(), // the pile's top card, -1 for none
  over: t.boolean(),
});

class HandRoom extends Room {
  maxClients = 4;

  onCreate(options) {
    this.seats = Math.max(2, Math.min(6, Number(options?.seats ?? 4)));
    this.maxClients = this.seats;
    this.patchRate = PATCH_RATE;
    this.state = new State();
    Object.assign(this.state, { turn: 0, current: "", deckSize: 0, top: -1, over: false });
    this.order = [];
    this.deck = [];
    this.onMessage("play", (client, index) => this.play(client, index));
  }

  onJoin(client) {
    const p = new Player();
    Object.assign(p, { seat: this.order.length, score: 0, handSize: 0, hand: new ArraySchema() });
    this.state.players.set(client.sessionId, p);
    this.order.push(client.sessionId);
    client.view = new StateView();
    client.view.add(p);
    if (this.order.length === this.seats) this.start();
  }

  start() {
    this.lock();
    this.deck = shuffled(Math.random);
    for (const id of this.order) {
      const p = this.state.players.get(id);
      p.hand.push(...this.deck.splice(0, HAND));
      p.handSize = p.hand.length;
    }
    this.state.deckSize = this.deck.length;
    this.state.current = this.order[0];
    if (PATCH_NOW) this.broadcastPatch();
  }

  play(client, index) {
    const s = this.state;
    if (s.over || client.sessionId !== s.current) return; // not this seat's turn: ignored
    const p = s.players.get(client.sessionId);
    if (!Number.isInteger(index) || index < 0 || index >= p.hand.length) return;
    const card = p.hand[index];
    p.hand.splice(index, 1);
    p.score += rank(card);
    s.top = card;
    if (this.deck.length) p.hand.push(this.deck.shift());
    p.handSize = p.hand.length;
    s.deckSize = this.deck.length;
    s.turn += 1;
    if (s.turn >= DECK) {
      s.over = true;
      s.current = "";
    } else {
      s.current = this.order[(p.seat + 1) % this.seats];
    }
    if (PATCH_NOW) this.broadcastPatch();
  }

  onLeave(client) {
    if (!this.state.over && this.state.current) this.disconnect(); // a seat gone mid-game ends the room
  }
}

// Colyseus's defaults: no permessage-deflate, a ping every 3 s, its own SIGINT / SIGTERM handling
const server = new Server({ transport: new WebSocketTransport(), greet: false });
server.define("hand", HandRoom);
await server.listen(Number(args.port ?? 0), "127.0.0.1");
const address = server.transport.server?.address?.() ?? server.transport.wss?.address?.();
console.log(`listening ${address?.port ?? args.port}`);
