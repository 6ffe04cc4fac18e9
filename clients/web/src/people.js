// How people are shown by name (wire contract v1.2): the "guest" tag of a person without an account, the
// "provisional" tag of a rating from fewer than 5 rated games, and links to a player's page (`#/player/ID`)
// where the page knows the player's id. Marks are words (with a title), never a colour alone; a hidden comma
// before a tag makes a screen reader say "Ann, guest".
// Owns: these marks and links, the leaderboard's page arithmetic. Must not: guess an id from a name alone.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Rows per leaderboard page (the server answers at most 100 per `ratings` request). */
export const PAGE_SIZE = 25;

/** The leaderboard page (from 1) that holds the place `rank`. */
export function pageOfRank(rank) {
  return Math.max(1, Math.floor((Number(rank) - 1) / PAGE_SIZE) + 1);
}

/** The address of a game's leaderboard page (`page` from 1; the first page needs no `?page=`). */
export function ratingsHref(game, page = 1) {
  const base = `#/ratings/${encodeURIComponent(game)}`;
  return page > 1 ? `${base}?page=${page}` : base;
}

export function playerHref(player) {
  return `#/player/${encodeURIComponent(player)}`;
}

/** The server bots' rated identities (`bot`, `bot:<level>`): no person's id starts so. */
export function isBotId(player) {
  return typeof player === "string" && (player === "bot" || player.startsWith("bot:"));
}

/** "guest" beside a name when `isGuest` is true (false: an account; null/undefined: a bot, a free seat, or not known). */
export function guestTag(isGuest) {
  if (isGuest !== true) return null;
  return [
    h("span", { class: "sr" }, ", "),
    h("span", { class: "tag guest-tag", "data-testid": "guest-tag", title: t("room.guestTitle") }, t("room.guestTag")),
  ];
}

/** "provisional" beside a rating of fewer than 5 rated games (`provisional: true` in `ratings` and `player`). */
export function provisionalTag(row) {
  if (!row || row.provisional !== true) return null;
  return [
    h("span", { class: "sr" }, ", "),
    h("span", { class: "tag provisional-tag", "data-testid": "provisional-tag", title: t("ratings.provisionalTitle") }, t("ratings.provisional")),
  ];
}

/** A player's name as a link to its page. */
export function playerLink(player, name, key = null) {
  return h("a", { class: "player-link", href: playerHref(player), "data-key": key, "data-player": player }, name);
}

/**
 * Remember the ids of rated rows by name (the leaderboard and the player pages hold ids; a finished game's
 * record holds names only). Only an account's name is unique, so only an account's seat is linked by it.
 */
export function noteIds(app, rows) {
  for (const r of rows || []) if (r && r.player && r.name && !isBotId(r.player)) app.ids.set(r.name, r.player);
}

/** The id of the person at seat `i` of a finished game's record, when the page knows it (accounts only). */
export function seatId(app, rec, i) {
  const name = rec.players[i];
  if (!name || rec.guests?.[i] !== false) return null;
  if (app.account && name === app.name) return app.player;
  return app.ids.get(name) || null;
}

/** The people of a finished game's record: each name (a link where its id is known), its guest tag. */
export function recordPlayers(app, rec, keyPrefix) {
  const parts = [];
  rec.players.forEach((p, i) => {
    if (i > 0) parts.push(", ");
    if (p === null || p === undefined) {
      parts.push(t("lobby.seatFree", { n: i + 1 }));
      return;
    }
    const id = seatId(app, rec, i);
    parts.push(h("span", { class: "seat-person", "data-seat": i }, id ? playerLink(id, p, `${keyPrefix}-${rec.room}-${i}`) : p, guestTag(rec.guests?.[i])));
  });
  return parts;
}
