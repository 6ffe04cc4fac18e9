// The ratings leaderboard (`ratings`, per game): OpenSkill ordinals as the server gives them, best first, a page
// of PAGE_SIZE rows at a time (`offset`/`limit`, v1.2) with the places (`rank`) the server counts, the viewer's
// own place (`me`) above the table wherever it is, and provisional ratings marked in words.
// Owns: the leaderboard page and the small rating badges of the lobby and the room. Must not: compute ratings.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { PAGE_SIZE, isBotId, pageOfRank, playerLink, provisionalTag, ratingsHref } from "./people.js";
import { creatableGames, gameTitle } from "./registry.js";

/** This player's own leaderboard row in a game (the answer's `me`, wherever it stands), if the server rated it. */
export function ownRating(app, game) {
  const board = app.ratings.get(game);
  return board?.me || board?.players.find((p) => p.player === app.player) || null;
}

/** An account's row of a game by its name (names of accounts are unique), among the rows this page loaded. */
export function namedRating(app, game, name) {
  if (!name) return null;
  const board = app.ratings.get(game);
  return board?.players.find((p) => p.name === name && !isBotId(p.player)) || null;
}

/** The server bots' row of a game (rated under `bot`, or `bot:<level>`), if any. */
export function botRating(app, game) {
  const rows = app.ratings.get(game)?.players || [];
  return rows.find((p) => p.player === "bot") || rows.find((p) => p.player.startsWith("bot")) || null;
}

/** "Your place": the viewer's own row (rank, rating, games), and the way to its page when it is on another. */
function myPlace(app, board, game) {
  const me = board.me;
  let body;
  if (me) {
    const page = pageOfRank(me.rank);
    body = [
      h("p", null, h("span", { "data-testid": "my-place" }, t("ratings.me", { n: me.games, rank: me.rank, rating: me.rating })), provisionalTag(me)),
      h(
        "p",
        { class: "my-place-links" },
        page === board.page
          ? h("span", { class: "hint" }, t("ratings.meHere"))
          : h("a", { href: ratingsHref(game, page), "data-key": "my-place-link", "data-testid": "my-place-link" }, t("ratings.meShow", { page })),
        " · ",
        playerLink(me.player, t("ratings.myPage"), "my-page-link"),
      ),
    ];
  } else if (!app.account) body = h("p", { class: "hint", "data-testid": "my-place-none" }, t("ratings.guestNone"), " ", h("a", { href: "#/account", "data-key": "ratings-sign-up" }, t("lobby.makeAccount")));
  else body = h("p", { class: "hint", "data-testid": "my-place-none" }, t("ratings.meNone"));
  return h("section", { class: "my-place", "aria-labelledby": "my-place-title" }, h("h2", { id: "my-place-title" }, t("ratings.yourPlace")), body);
}

/** Previous and Next, with the places the page shows. */
function pager(board, game, where) {
  const go = (page) => {
    location.hash = ratingsHref(game, page);
  };
  const first = board.offset + 1;
  const last = board.offset + board.players.length;
  return h(
    "nav",
    { class: "pager", "aria-label": where ? t("ratings.pagesBottom") : t("ratings.pages") },
    h(
      "button",
      { type: "button", "data-key": `ratings-prev${where}`, "data-testid": `ratings-prev${where}`, disabled: board.page <= 1, onClick: () => go(board.page - 1) },
      `◀ ${t("ratings.prev")}`,
    ),
    h("span", { class: "pager-at", "data-testid": `ratings-places${where}` }, board.players.length ? t("ratings.places", { from: first, to: last }) : t("ratings.pageN", { page: board.page })),
    h("button", { type: "button", "data-key": `ratings-next${where}`, "data-testid": `ratings-next${where}`, disabled: !board.more, onClick: () => go(board.page + 1) }, `${t("ratings.next")} ▶`),
  );
}

function table(app, board) {
  return h(
    "table",
    { class: "leaderboard", "data-testid": "leaderboard" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col", class: "num" }, h("span", { "aria-hidden": "true" }, "#"), h("span", { class: "sr" }, t("ratings.place"))),
        h("th", { scope: "col" }, t("ratings.player")),
        h("th", { scope: "col", class: "num" }, t("ratings.rating")),
        h("th", { scope: "col", class: "num" }, t("ratings.games")),
      ),
    ),
    h(
      "tbody",
      null,
      board.players.map((p, i) =>
        h(
          "tr",
          { class: p.player === app.player ? "mine" : "", "data-player": p.player, "data-rank": p.rank ?? board.offset + i + 1 },
          h("td", { class: "num place" }, String(p.rank ?? board.offset + i + 1)),
          h(
            "td",
            { class: "lb-name" },
            playerLink(p.player, p.name, `lb-${p.player}`),
            isBotId(p.player) ? h("span", { class: "hint" }, ` ${t("ratings.bot")}`) : null,
            p.player === app.player ? ` ${t("room.you")}` : "",
          ),
          h("td", { class: "num" }, String(p.rating), provisionalTag(p)),
          h("td", { class: "num" }, String(p.games)),
        ),
      ),
    ),
  );
}

/** The leaderboard page for one game (`#/ratings/GAME[?page=N]`). */
export function renderRatings(app, game, page = 1) {
  const games = creatableGames();
  const chosen = game || games[0]?.id;
  const board = app.board && app.board.game === chosen && app.board.page === page ? app.board : null;
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
          location.hash = ratingsHref(ev.target.value);
        },
      },
      games.map((g) => h("option", { value: g.id, selected: g.id === chosen }, g.title)),
    ),
  );
  let body;
  if (!board || !board.players) body = h("p", { class: "hint" }, board?.error || t("ratings.loading"));
  else if (!board.players.length && page <= 1) body = [myPlace(app, board, chosen), h("p", { class: "hint ratings-empty" }, t("ratings.none"))];
  else
    body = [
      myPlace(app, board, chosen),
      pager(board, chosen, ""),
      board.players.length ? table(app, board) : h("p", { class: "hint ratings-page-empty" }, t("ratings.pageEmpty")),
      board.players.length > PAGE_SIZE / 2 ? pager(board, chosen, "-bottom") : null,
    ];
  return h(
    "section",
    { class: "lobby ratings-page", "data-page": page },
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
