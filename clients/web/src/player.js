// A player's page (`#/player/ID`, the `player` request of v1.2): the name (or "unknown player": a guest's id,
// or an account since deleted), whether it is an account, a guest or a server bot, its rating and place in each
// game (provisional ones marked in words), and its recent finished games with the rating after each.
// Owns: the player page. Must not: compute ratings or places (the server's `rank` and `provisional` are shown).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { isBotId, pageOfRank, provisionalTag, ratingsHref } from "./people.js";
import { gameTitle } from "./registry.js";
import { historyRow } from "./replay.js";

/** What kind of player the page shows, in words (and the name to show, for one's own page of a guest). */
function kindOf(app, id, data) {
  if (isBotId(id)) return { name: data.name, kind: "bot", text: t("player.bot") };
  if (data.account) return { name: data.name, kind: "account", text: t("player.account") };
  if (id === app.player) return { name: data.name || app.name, kind: "guest", text: t("player.guest") };
  if (data.name) return { name: data.name, kind: "guest", text: t("player.guest") };
  return { name: null, kind: "unknown", text: t("player.unknownAbout") };
}

function ratingsTable(data) {
  if (!data.ratings.length) return h("p", { class: "hint", "data-testid": "player-no-ratings" }, t("player.noRatings"));
  return h(
    "table",
    { class: "leaderboard player-ratings", "data-testid": "player-ratings" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col" }, t("player.game")),
        h("th", { scope: "col", class: "num" }, t("ratings.place")),
        h("th", { scope: "col", class: "num" }, t("ratings.rating")),
        h("th", { scope: "col", class: "num" }, t("ratings.games")),
      ),
    ),
    h(
      "tbody",
      null,
      data.ratings.map((r) =>
        h(
          "tr",
          { "data-game": r.game },
          h("td", null, gameTitle(r.game)),
          h(
            "td",
            { class: "num" },
            h("a", { href: ratingsHref(r.game, pageOfRank(r.rank)), title: t("player.showOnBoard"), "data-key": `place-${r.game}` }, `#${r.rank}`),
          ),
          h("td", { class: "num" }, String(r.rating), provisionalTag(r)),
          h("td", { class: "num" }, String(r.games)),
        ),
      ),
    ),
  );
}

/** The player page of one player id. */
export function renderPlayer(app, id) {
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  const entry = app.playerPages.get(id);
  const data = entry?.data;
  if (!data) {
    return h("section", { class: "lobby player-page loading" }, back, h("p", { class: "hint" }, entry?.error || t("player.loading")));
  }
  const who = kindOf(app, id, data);
  const games = data.games || [];
  return h(
    "section",
    { class: "lobby player-page", "data-testid": "player-page", "data-player": id, "data-kind": who.kind },
    back,
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "player-title" },
      h(
        "h1",
        { id: "player-title" },
        h("span", { "data-testid": "player-name" }, who.name || t("player.unknown")),
        id === app.player ? h("span", { class: "you" }, ` ${t("room.you")}`) : null,
      ),
      h("p", { class: `hint player-kind kind-${who.kind}`, "data-testid": "player-kind" }, who.text),
      h("h2", null, t("player.ratings")),
      ratingsTable(data),
    ),
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "player-games-title" },
      h("h2", { id: "player-games-title" }, t("player.games"), " ", h("span", { class: "count" }, `(${games.length})`)),
      games.length
        ? h(
            "ul",
            { class: "history-list", "data-testid": "player-games" },
            games.map((rec) =>
              historyRow(
                app,
                rec,
                "pg",
                typeof rec.rating === "number" ? h("div", { class: "players rating-after" }, t("player.ratingAfter", { rating: rec.rating })) : null,
              ),
            ),
          )
        : h("p", { class: "hint", "data-testid": "player-no-games" }, t("player.noGames")),
    ),
  );
}
