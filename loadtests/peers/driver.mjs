// Load driver for the peer servers, with each framework's own client library (python -m loadtests.peers).
//
//   node driver.mjs --kind colyseus|bgio --url http://127.0.0.1:PORT --rooms 250 --seats 4 --seconds 20 \
//       --server-pid PID --clk-tck 100 [--audit]
//
// Closed loop, like loadtests/bench.py: N rooms x S seats, every seat its own connection; in each room one move
// in flight: the seat to move plays a random card of its hand once every seat holds the update of the previous
// move. A finished game is followed by a new one (Colyseus: leave, create, join by id: a new room and
// connection per seat, as its client does; boardgame.io: `updateMatchID` to a new match on the same socket).
// Connections and every room's first game are set up before the window opens.
//
// Figures (one JSON line on stdout at the end): moves whose update reached every seat within the window;
// server CPU (utime + stime of --server-pid from /proc) over the window; bytes every seat's TCP socket read
// over the window (WebSocket frames with their headers, socket.io / engine.io framing, HTTP of the matchmaking,
// pings), per move; latency from sending a move to the mover's own update and to the last seat's update.
//
// `--audit`: one room, a few moves, and what each seat received of the other seats' secrets (their hands, the
// deck's order, the random generator's state), read from the messages as the client library got them.
import net from "node:net";
import fs from "node:fs";
import { createRequire } from "node:module";

// every TCP socket the clients open, to read its byte counts (ws, socket.io-client and undici call net.connect)
const sockets = new Set();
for (const name of ["connect", "createConnection"]) {
  const original = net[name];
  net[name] = function tracked(...args) {
    const socket = original.apply(this, args);
    sockets.add(socket);
    return socket;
  };
}
const bytesRead = () => {
  let n = 0;
  for (const s of sockets) n += s.bytesRead;
  return n;
};

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const arg = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const KIND = arg("kind", "colyseus");
const URL_ = arg("url", "http://127.0.0.1:2567");
const ROOMS = Number(arg("rooms", 10));
const SEATS = Number(arg("seats", 4));
const SECONDS = Number(arg("seconds", 10));
const SERVER_PID = Number(arg("server-pid", 0));
const CLK_TCK = Number(arg("clk-tck", 100));
const AUDIT = argv.includes("--audit");
const STALL_MS = 15000;

function serverCpuSeconds() {
  if (!SERVER_PID) return NaN;
  const fields = fs.readFileSync(`/proc/${SERVER_PID}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime
}

function serverRssKiB() {
  if (!SERVER_PID) return NaN;
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${SERVER_PID}/status`, "utf8"));
  return m ? Number(m[1]) : NaN;
}

function percentile(values, q) {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.min(sorted.length, Math.ceil((q * sorted.length) / 100)));
  return sorted[rank - 1];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const stats = { moves: 0, own: [], last: [], errors: {}, games: 0, measuring: false };
const countError = (code) => {
  if (stats.measuring) stats.errors[code] = (stats.errors[code] ?? 0) + 1;
};

/** One room's seats; `seen[i]` is the turn counter seat i holds, `wake` resolves waiters. */
class Table {
  constructor(index) {
    this.index = index;
    this.generation = 0;
    this.seen = Array(SEATS).fill(-1);
    this.arrived = Array(SEATS).fill(0);
    this.waiters = [];
  }

  update(seat, turn) {
    this.seen[seat] = turn;
    this.arrived[seat] = performance.now();
    this.last = this.arrived[seat];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  async until(cond, stopAt) {
    let since = performance.now();
    while (!cond()) {
      const now = performance.now();
      if (now >= stopAt) return false;
      if (now - since > STALL_MS) throw new Error("stalled");
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(stopAt - now, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          since = performance.now();
          resolve();
        });
      });
    }
    return performance.now() < stopAt;
  }

  settledAt(turn) {
    return this.seen.every((t) => t >= turn);
  }
}

// ---- Colyseus ---------------------------------------------------------------------------------------------

class ColyseusTable extends Table {
  constructor(index, client) {
    super(index);
    this.client = client;
    this.rooms = [];
  }

  async newGame() {
    await Promise.all(this.rooms.map((room) => room.leave().catch(() => {})));
    this.generation += 1;
    this.seen.fill(-1);
    const generation = this.generation;
    // each seat listens as soon as it is in: the start's patch may come before the last seat's join resolves
    const attach = (room, seat) => {
      const seen = (state) => {
        // ("" before the start)
        if (this.generation === generation && (state.current || state.over)) this.update(seat, state.turn);
      };
      room.onStateChange(seen);
      room.onError((code) => countError(`error_${code}`));
      if (room.state) seen(room.state);
      return room;
    };
    const first = attach(await this.client.create("hand", { seats: SEATS }), 0);
    const others = Array.from({ length: SEATS - 1 }, (_, i) =>
      this.client.joinById(first.roomId).then((room) => attach(room, i + 1)),
    );
    this.rooms = [first, ...(await Promise.all(others))];
    await this.until(() => this.seen.every((t) => t === 0), performance.now() + STALL_MS);
  }

  over() {
    return this.rooms[0].state.over;
  }

  mover() {
    const current = this.rooms[0].state.current;
    const seat = this.rooms.findIndex((r) => r.sessionId === current);
    const hand = this.rooms[seat].state.players.get(current).hand;
    return [seat, hand.length];
  }

  send(seat, index) {
    this.rooms[seat].send("play", index);
  }

  async close() {
    await Promise.all(this.rooms.map((room) => room.leave().catch(() => {})));
    this.rooms = [];
  }

  /** What seat `seat` holds of the others' hands (decoded by the client library from what it received). */
  audit() {
    const out = [];
    this.rooms.forEach((room, seat) => {
      room.state.players.forEach((p, id) => {
        const hand = p.hand ? Array.from(p.hand) : undefined;
        if (id !== room.sessionId && hand && hand.length) out.push(`seat ${seat} holds seat ${p.seat}'s hand`);
        if (id === room.sessionId && !(hand && hand.length)) out.push(`seat ${seat} lacks its own hand`);
      });
    });
    return out;
  }
}

// ---- boardgame.io -----------------------------------------------------------------------------------------

class BgioTable extends Table {
  constructor(index, lib, game) {
    super(index);
    this.lib = lib;
    this.game = game;
    this.clients = [];
    this.received = Array.from({ length: SEATS }, () => []);
  }

  matchID() {
    return `t${this.index}g${this.generation}-${process.pid}`;
  }

  async newGame() {
    this.generation += 1;
    this.seen.fill(-1);
    const matchID = this.matchID();
    if (!this.clients.length) {
      const { Client } = this.lib.client;
      const { SocketIO } = this.lib.multiplayer;
      for (let seat = 0; seat < SEATS; seat++) {
        const client = Client({
          game: this.game,
          numPlayers: SEATS,
          matchID,
          playerID: String(seat),
          debug: false,
          // one connection per seat (socket.io-client shares one Manager per URL unless told not to)
          multiplayer: SocketIO({ server: URL_, socketOpts: { transports: ["websocket"], forceNew: true } }),
        });
        client.subscribe((state) => {
          if (state && state.G && client.matchID === this.matchID()) this.update(seat, state.G.turn);
        });
        client.start();
        if (AUDIT) client.transport.socket.onAny((event, ...args) => this.received[seat].push([event, args]));
        this.clients.push(client);
      }
    } else {
      for (const client of this.clients) client.updateMatchID(matchID);
    }
    await this.until(() => this.seen.every((t) => t === 0), performance.now() + STALL_MS);
  }

  over() {
    return Boolean(this.clients[0].getState()?.ctx.gameover);
  }

  mover() {
    const seat = Number(this.clients[0].getState().ctx.currentPlayer);
    return [seat, this.clients[seat].getState().G.hand.length];
  }

  send(seat, index) {
    this.clients[seat].moves.play(index);
  }

  async close() {
    for (const client of this.clients) client.stop();
    this.clients = [];
  }

  /** Secrets of other seats found in what each seat received (socket.io events as the client got them). */
  audit() {
    const found = new Map(); // finding -> the seats that received it
    this.received.forEach((messages, seat) => {
      const out = { add: (what) => found.set(what, [...(found.get(what) ?? []), seat]) };
      for (const [event, args] of messages) {
        const walk = (node, path) => {
          if (!node || typeof node !== "object") return;
          if (Array.isArray(node)) {
            node.forEach((value, i) => walk(value, `${path}[${i}]`));
            return;
          }
          for (const [key, value] of Object.entries(node)) {
            const here = `${path}.${key}`;
            if (key === "hands" && value && typeof value === "object") {
              for (const [p, hand] of Object.entries(value)) {
                if (+p !== seat && Array.isArray(hand) && hand.length)
                  out.add(`'${event}' ${here} holds the other seats' hands`);
              }
            } else if (key === "deck" && Array.isArray(value) && value.length) {
              out.add(`'${event}' ${here} holds the deck in its order (${value.length} cards)`);
            } else if (key === "random" && value && typeof value === "object" && value.data) {
              out.add(`'${event}' ${here}.data holds the random generator's seed and state`);
            } else walk(value, here);
          }
        };
        walk(args, "args");
      }
    });
    return [...found].map(([what, seats]) => `${what}: received by seat(s) ${[...new Set(seats)].join(", ")}`);
  }
}

// ---- the loop ---------------------------------------------------------------------------------------------

async function playGame(table, stopAt, maxMoves = Infinity) {
  for (let moves = 0; moves < maxMoves; moves++) {
    if (performance.now() >= stopAt) return false;
    if (table.over()) return true;
    const turn = Math.max(...table.seen);
    const [seat, handSize] = table.mover();
    if (!handSize) throw new Error("empty hand");
    const t0 = performance.now();
    table.send(seat, Math.floor(Math.random() * handSize));
    let own = null;
    const done = await table.until(() => {
      if (own === null && table.seen[seat] > turn) own = table.arrived[seat] - t0;
      return table.settledAt(turn + 1);
    }, stopAt);
    if (!done) return false;
    if (stats.measuring) {
      stats.moves += 1;
      stats.own.push(own ?? table.arrived[seat] - t0);
      stats.last.push(Math.max(...table.arrived) - t0);
    }
  }
  return false;
}

async function runTable(table, stopAt) {
  while (performance.now() < stopAt) {
    try {
      if (await playGame(table, stopAt)) {
        if (stats.measuring) stats.games += 1;
        await table.newGame();
      }
    } catch (err) {
      countError(String(err?.message ?? err).slice(0, 40));
      await sleep(200);
      try {
        await table.newGame();
      } catch {}
    }
  }
}

async function main() {
  let makeTable;
  if (KIND === "colyseus") {
    const { Client } = await import("@colyseus/sdk");
    const client = new Client(URL_);
    makeTable = (i) => new ColyseusTable(i, client);
  } else {
    const lib = { client: require("boardgame.io/client"), multiplayer: require("boardgame.io/multiplayer") };
    const { makeGame } = await import("./bgio_game.mjs");
    const game = makeGame();
    makeTable = (i) => new BgioTable(i, lib, game);
  }
  const rooms = AUDIT ? 1 : ROOMS;
  const tables = Array.from({ length: rooms }, (_, i) => makeTable(i));
  const setupErrors = {};
  for (let i = 0; i < tables.length; i += 25) {
    await Promise.all(
      tables.slice(i, i + 25).map((t) =>
        t.newGame().catch((err) => {
          const code = `setup: ${String(err?.message ?? err).slice(0, 60)}`;
          setupErrors[code] = (setupErrors[code] ?? 0) + 1;
        }),
      ),
    );
  }
  if (AUDIT) {
    // a dozen moves: mid-game, every hand full, every kind of message seen (sync, updates or patches)
    await playGame(tables[0], performance.now() + 10000, 12).catch(() => {});
    const found = tables[0].audit();
    process.stdout.write(`${JSON.stringify({ kind: KIND, audit: found })}\n`);
    await tables[0].close();
    process.exit(0);
  }
  const seconds = SECONDS;
  const cpu0 = serverCpuSeconds();
  const bytes0 = bytesRead();
  const driverCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const stopAt = t0 + seconds * 1000;
  stats.measuring = true;
  const rssPeak = { v: serverRssKiB() };
  const sampler = setInterval(() => {
    rssPeak.v = Math.max(rssPeak.v, serverRssKiB());
  }, 1000);
  await Promise.all(tables.map((t) => runTable(t, stopAt)));
  stats.measuring = false;
  clearInterval(sampler);
  const wall = (performance.now() - t0) / 1000;
  const cpu = serverCpuSeconds() - cpu0;
  const bytes = bytesRead() - bytes0;
  const driverCpu = process.cpuUsage(driverCpu0);
  const ms = (xs) => Object.fromEntries([50, 99, 99.9].map((q) => [String(q), percentile(xs, q)]));
  const out = {
    kind: KIND,
    rooms,
    seats: SEATS,
    seconds,
    moves: stats.moves,
    moves_per_s: stats.moves / seconds,
    games_finished: stats.games,
    server_cpu: cpu / seconds,
    server_cpu_us_per_move: stats.moves ? (cpu * 1e6) / stats.moves : null,
    wire_bytes: bytes,
    wire_bytes_per_move: stats.moves ? bytes / stats.moves : null,
    own_ms: ms(stats.own),
    last_ms: ms(stats.last),
    errors: { ...setupErrors, ...stats.errors },
    server_rss_mib: serverRssKiB() / 1024,
    server_rss_peak_mib: rssPeak.v / 1024,
    driver_cpu: (driverCpu.user + driverCpu.system) / 1e6 / wall,
    connections: sockets.size,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await Promise.race([Promise.all(tables.map((t) => t.close().catch(() => {}))), sleep(5000)]);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
