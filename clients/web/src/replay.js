// Finished games (`history`) and their replays (`replay`): the list, and a viewer that steps a game's public
// view from version 0 to the last (first, back, forward, last and a slider).
// Owns: the history and replay pages. Must not: rebuild a game itself; every view shown is the server's
// spectator view of that version (no seat's private data).
import { addClockMarks, clockMark } from "./clock.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { guestTag, playerLink, recordPlayers, seatId } from "./people.js";
import { creatableGames, gameTitle, rendererFor } from "./registry.js";
import { logLinesOf } from "./shared/log.js";
import { scrubIds } from "./shared/names.js";

function when(at) {
  try {
    return new Date(at).toLocaleString();
  } catch {
    return "";
  }
}

function winnersOf(rec) {
  const res = rec.result;
  if (!res || !Array.isArray(res.winners)) return "";
  return res.winners.map((s) => rec.players[s] ?? t("room.seat", { n: s + 1 })).join(" & ");
}

/**
 * One finished game as a row (the history page, a player's page): game, room, when, the players (guests
 * marked, names linked to their pages where the id is known), the winners, `extra` (a player page's rating
 * after the game) and the replay link.
 */
export function historyRow(app, rec, keyPrefix, extra = null) {
  return h(
    "li",
    { class: "room-row", "data-room": rec.room },
    h(
      "div",
      { class: "room-info" },
      h("strong", null, gameTitle(rec.game)),
      " ",
      h("code", { class: "room-id" }, rec.room),
      " ",
      h("span", { class: "hint" }, when(rec.finished_at)),
      h("div", { class: "players" }, recordPlayers(app, rec, keyPrefix)),
      winnersOf(rec) ? h("div", { class: "players" }, t("result.wins", { name: winnersOf(rec) })) : null,
      extra,
    ),
    h(
      "div",
      { class: "actions" },
      h("a", { class: "button", href: `#/replay/${encodeURIComponent(rec.room)}`, "data-key": `replay-${rec.room}` }, t("history.replay")),
    ),
  );
}

/** The history page: finished games, newest first, with a filter by game and "mine only". */
export function renderHistory(app) {
  const hist = app.history;
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  const games = creatableGames();
  const filter = h(
    "div",
    { class: "row filters" },
    h("label", { for: "history-game" }, t("lobby.game")),
    h(
      "select",
      {
        id: "history-game",
        "data-key": "history-game",
        onChange: (ev) => app.loadHistory({ game: ev.target.value || null, mine: hist.mine }),
      },
      h("option", { value: "", selected: !hist.game }, t("history.allGames")),
      games.map((g) => h("option", { value: g.id, selected: g.id === hist.game }, g.title)),
    ),
    h(
      "label",
      { class: "check", for: "history-mine" },
      h("input", {
        type: "checkbox",
        id: "history-mine",
        "data-key": "history-mine",
        checked: hist.mine,
        onChange: (ev) => app.loadHistory({ game: hist.game, mine: ev.target.checked }),
      }),
      ` ${t("history.mine")}`,
    ),
  );
  let body;
  if (hist.loading && !hist.games) body = h("p", { class: "hint" }, t("history.loading"));
  else if (!hist.games?.length) body = h("p", { class: "hint history-empty" }, t("history.none"));
  else body = h("ul", { class: "history-list" }, hist.games.map((rec) => historyRow(app, rec, "hist")));
  return h(
    "section",
    { class: "lobby history-page" },
    back,
    h("section", { class: "card-panel", "aria-labelledby": "history-title" }, h("h1", { id: "history-title" }, t("history.title")), filter, body),
  );
}

/**
 * The log up to the version shown: every event seen while stepping (by its running number `n`, put in words
 * with the view it was first seen in) up to the newest event of this version's view, which keeps only the
 * last few itself.
 */
function logOf(rep, view, renderer) {
  if (!renderer.logLines) return [];
  let lines;
  try {
    lines = logLinesOf(renderer, view)
      .map((l) => (typeof l === "string" ? { n: null, text: l } : l))
      .filter((l) => l?.text);
  } catch {
    return [];
  }
  if (!rep.marks) rep.marks = new Map();
  addClockMarks(rep.marks, view); // v1.2: the moves the turn clock made, marked as the clock's
  if (lines.some((l) => typeof l.n !== "number")) return lines;
  if (!rep.words) rep.words = new Map();
  for (const l of lines) if (!rep.words.has(l.n)) rep.words.set(l.n, l.text);
  const newest = lines.length ? Math.max(...lines.map((l) => l.n)) : -1;
  return [...rep.words.entries()]
    .filter(([n]) => n <= newest)
    .sort((a, b) => a[0] - b[0])
    .map(([n, text]) => ({ n, text }));
}

/** The finished game's record (`history`, a player's page) of a room, when the page has one. */
function recordOf(app, room) {
  const found = app.history.games?.find((r) => r.room === room);
  if (found) return found;
  for (const entry of app.playerPages.values()) {
    const rec = entry.data?.games?.find((r) => r.room === room);
    if (rec) return rec;
  }
  return null;
}

/** The replay page of one finished room. */
export function renderReplay(app, room) {
  const back = h("a", { class: "back", href: "#/history", "data-key": "back" }, t("history.title"));
  const rep = app.replays.get(room);
  if (!rep || !rep.state) {
    const text = rep?.error ? rep.error : t("replay.loading");
    return h("section", { class: "replay loading" }, back, h("p", { class: "hint" }, text));
  }
  const view = rep.state;
  const renderer = rendererFor(view.game);
  const ui = app.uiFor(`replay:${room}`);
  const ctx = {
    app,
    room,
    view,
    you: null,
    ui,
    pending: false,
    narrow: window.innerWidth < 700,
    sheet: window.innerWidth < 1100,
    send: () => {},
    rerender: () => app.draw(),
    seatName: (i) => view.seats?.[i]?.name || t("room.seat", { n: i + 1 }),
  };
  const step = (v) => app.loadReplay(room, Math.max(0, Math.min(rep.last, v)));
  const at = rep.want ?? rep.v;
  const nav = h(
    "div",
    { class: "replay-nav", role: "group", "aria-label": t("replay.steps") },
    h("button", { type: "button", "data-key": "replay-first", "data-testid": "replay-first", disabled: at <= 0, onClick: () => step(0) }, `|◀ ${t("replay.first")}`),
    h("button", { type: "button", "data-key": "replay-back", "data-testid": "replay-back", disabled: at <= 0, onClick: () => step(at - 1) }, `◀ ${t("replay.back")}`),
    h(
      "button",
      { type: "button", "data-key": "replay-forward", "data-testid": "replay-forward", disabled: at >= rep.last, onClick: () => step(at + 1) },
      `${t("replay.forward")} ▶`,
    ),
    h("button", { type: "button", "data-key": "replay-last", "data-testid": "replay-last", disabled: at >= rep.last, onClick: () => step(rep.last) }, `${t("replay.last")} ▶|`),
    h("label", { class: "sr", for: "replay-slider" }, t("replay.slider")),
    h("input", {
      type: "range",
      id: "replay-slider",
      class: "replay-slider",
      "data-key": "replay-slider",
      min: 0,
      max: rep.last,
      step: 1,
      value: at,
      onInput: (ev) => step(Number(ev.target.value)),
    }),
    h("span", { class: "replay-at", "data-testid": "replay-at" }, t("replay.at", { v: rep.v, last: rep.last })),
  );
  const lines = logOf(rep, view, renderer);
  const rec = recordOf(app, room);
  const seats = h(
    "ol",
    { class: "seats", "aria-label": t("room.seats") },
    (view.seats || []).map((s, i) => {
      const id = rec && rec.players[i] === s.name ? seatId(app, rec, i) : null;
      // the record's marks (as the people stood at the end), else the seat's own (as it was taken)
      const guest = rec?.guests ? rec.guests[i] : s.taken ? s.guest : null;
      return h(
        "li",
        { class: `seat ${s.taken ? "taken" : "free"}`, "data-seat": i },
        h("span", { class: "seat-n" }, `${i + 1}. `),
        s.name ? (id ? playerLink(id, s.name, `replay-seat-${i}`) : s.name) : t("room.free"),
        s.name ? guestTag(guest) : null,
      );
    }),
  );
  let board = null;
  if (view.status !== "waiting") {
    try {
      board = renderer.render(ctx);
    } catch (err) {
      board = h("p", { class: "hint" }, String(err));
    }
  }
  const result = view.result
    ? h(
        "p",
        { class: "winners", "data-testid": "replay-result" },
        t("result.wins", { name: (view.result.winners || []).map((s) => ctx.seatName(s)).join(" & ") }),
        " · ",
        view.result.scores.map((sc, i) => `${ctx.seatName(i)} ${sc}`).join(", "),
      )
    : null;
  return h(
    "section",
    {
      class: `replay game-${view.game}`,
      "data-room": room,
      "data-v": rep.v,
      "data-last": rep.last,
      "data-status": view.status,
    },
    h(
      "div",
      { class: "room-head" },
      back,
      h("h1", null, t("replay.title", { game: renderer.title || view.game }), " ", h("code", { class: "room-id" }, room)),
    ),
    h("div", { class: "card-panel replay-bar" }, nav, h("p", { class: "hint replay-seed" }, t("replay.seed", { seed: rep.seed }))),
    seats,
    result,
    view.status === "waiting" ? h("p", { class: "hint" }, t("replay.beforeStart")) : null,
    board,
    lines.length
      ? h(
          "section",
          { class: "log card-panel", "aria-labelledby": "replay-log-title" },
          h("h2", { id: "replay-log-title" }, t("log.title"), " ", h("span", { class: "count" }, `(${lines.length})`)),
          h(
            "ol",
            { class: "events", reversed: true, tabindex: "0", "aria-label": t("log.newest") },
            [...lines]
              .reverse()
              .map((l) =>
                h("li", typeof l.n === "number" ? { value: l.n } : null, scrubIds(l.text), clockMark(rep.marks, l.n, (i) => view.seats?.[i]?.name || t("room.seat", { n: i + 1 }))),
              ),
          ),
        )
      : null,
  );
}
