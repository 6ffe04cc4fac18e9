// The ratings leaderboard (`ratings`, per game): OpenSkill ordinals as the server gives them, best first.
// Owns: the leaderboard page and the small rating badges of the lobby and the room. Must not: compute ratings.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { creatableGames, gameTitle } from "./registry.js";

/** The leaderboard row of this player (by player id) in a game, if the server has rated it. */
export function ownRating(app, game) {
  return app.ratings.get(game)?.players.find((p) => p.player === app.player) || null;
}

/** The server bots' row of a game (rated under `bot`, or `bot:<level>`), if any. */
export function botRating(app, game) {
  const rows = app.ratings.get(game)?.players || [];
  return rows.find((p) => p.player === "bot") || rows.find((p) => p.player.startsWith("bot")) || null;
}

/** The leaderboard page for one game (`#/ratings/GAME`). */
export function renderRatings(app, game) {
  const games = creatableGames();
  const chosen = game || games[0]?.id;
  const board = app.ratings.get(chosen);
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  const picker = h(
    "div",
    { class: "row filters" },
    h("label", { for: "ratings-game" }, t("lobby.game")),
    h(
      "select",
      {
        id: "ratings-game",
        "data-key": "ratings-game",
        onChange: (ev) => {
          location.hash = `#/ratings/${encodeURIComponent(ev.target.value)}`;
        },
      },
      games.map((g) => h("option", { value: g.id, selected: g.id === chosen }, g.title)),
    ),
  );
  let body;
  if (!board) body = h("p", { class: "hint" }, t("ratings.loading"));
  else if (!board.players.length) body = h("p", { class: "hint ratings-empty" }, t("ratings.none"));
  else
    body = h(
      "table",
      { class: "leaderboard", "data-testid": "leaderboard" },
      h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("ratings.player")), h("th", null, t("ratings.rating")), h("th", null, t("ratings.games")))),
      h(
        "tbody",
        null,
        board.players.map((p, i) =>
          h(
            "tr",
            { class: p.player === app.player ? "mine" : "", "data-player": p.player },
            h("td", null, String(i + 1)),
            h("td", null, p.name, p.player.startsWith("bot") ? h("span", { class: "hint" }, ` ${t("ratings.bot")}`) : null, p.player === app.player ? ` ${t("room.you")}` : ""),
            h("td", { class: "num" }, String(p.rating)),
            h("td", { class: "num" }, String(p.games)),
          ),
        ),
      ),
    );
  return h(
    "section",
    { class: "lobby ratings-page" },
    back,
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "ratings-title" },
      h("h1", { id: "ratings-title" }, t("ratings.title", { game: gameTitle(chosen) })),
      picker,
      h("p", { class: "hint" }, t("ratings.about")),
      body,
    ),
  );
}
