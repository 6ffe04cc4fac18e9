// The peers' game on boardgame.io 0.50: its Server (Koa + socket.io), the in-memory store, playerView.
//
//   NODE_ENV=production node bgio_server.mjs --port 0 [--delta]
//
// `--delta` sets the game's `deltaState` (the server sends RFC 6902 patches of each player's view instead of
// the whole view). Prints "listening PORT" once ready.
import { createRequire } from "node:module";
import { makeGame } from "./bgio_game.mjs";

const { Server } = createRequire(import.meta.url)("boardgame.io/server"); // a CommonJS package

const args = process.argv.slice(2);
const arg = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const game = makeGame({ deltaState: args.includes("--delta") });
const server = Server({ games: [game], origins: [/.*/] });
const { appServer } = await server.run(Number(arg("--port", 0)));
console.log(`listening ${appServer.address().port}`);
const stop = () => {
  server.kill({ appServer });
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
