// Game renderers by game id. Every module in src/games/ is one renderer (collected at build time by the
// "games:all" virtual module of build.mjs); a game without one is shown by the generic renderer.
import all from "games:all";
import generic from "./generic.js";

const byId = new Map();
for (const r of all) {
  if (!r || typeof r.id !== "string" || typeof r.render !== "function") {
    throw new Error("a module in src/games/ must default-export a renderer with `id` and `render`");
  }
  byId.set(r.id, r);
}

/** The renderer for a game id; the generic one when no module handles it. */
export function rendererFor(game) {
  return byId.get(game) || generic;
}

/** Renderers that can start a room from the lobby (they know their seat range). */
export function creatableGames() {
  return [...byId.values()].filter((r) => r.minSeats && r.maxSeats);
}

/** A game's display title, or its id. */
export function gameTitle(game) {
  return byId.get(game)?.title || game;
}
