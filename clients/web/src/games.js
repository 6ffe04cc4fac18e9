// "My games" (`#/games`, v1.2 `my_games`): every unfinished room where this player holds a seat, the rooms where
// it is their move first (in words and bold, not by colour alone), each with its game, players, the deadline as a
// relative time ("in 2 days", "late") and a link into the room; and this browser's turn signals (the tab's title and
// icon, sound, system notifications), with a link to the settings page (`#/settings`: e-mail, webhook, web push). The
// page asks the server again when it is opened and every minute while it is shown.
// Owns: the page's markup and the header's "My games" link. Must not: decide whose turn it is.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { gameTitle } from "./registry.js";
import { asksForMove } from "./signals.js";
import { deadlineWords, dueAt, liveRows } from "./turns.js";

/** The rows shown now: the last `my_games` answer brought up to date by the views this page holds. */
export function currentRows(app) {
  const rooms = app.myGames?.rooms;
  if (!rooms) return null;
  return liveRows(rooms, (room) => app.store.get(room)?.view || null);
}

/** How many rooms wait for this player's move (the views this page holds, and the last `my_games`). */
export function turnsWaiting(app) {
  const waiting = new Set((currentRows(app) || []).filter((r) => r.your_turn).map((r) => r.room));
  for (const [room, entry] of app.store.rooms) if (asksForMove(entry.view)) waiting.add(room);
  return waiting.size;
}

/** A "turn-based" tag (a room played over days), in words. */
export function turnBasedTag() {
  return h("span", { class: "tag turn-tag-based", "data-testid": "turn-based-tag", title: t("games.turnBasedTitle") }, t("games.turnBased"));
}

function playersLine(row) {
  const names = Array.isArray(row.players) ? row.players : [];
  const parts = [];
  names.forEach((name, i) => {
    if (parts.length) parts.push(", ");
    if (i === row.seat) parts.push(h("span", { class: "me-name" }, name || t("room.seat", { n: i + 1 }), ` ${t("room.you")}`));
    else parts.push(name || t("lobby.seatFree", { n: i + 1 }));
  });
  return parts.length ? h("p", { class: "my-game-players" }, t("games.players"), " ", parts) : null;
}

function stateLine(row) {
  const due = row.your_turn || row.late ? deadlineWords(dueAt(row), row.late) : null;
  let what;
  if (row.your_turn) what = h("strong", { class: "turn-flag", "data-testid": "your-turn" }, h("span", { "aria-hidden": "true" }, "▶ "), t("games.yourTurn"));
  else if (row.status === "waiting") what = h("span", { class: "their-turn" }, t("games.waitingPlayers"));
  else if (row.waitingFor?.length) what = h("span", { class: "their-turn" }, t("games.waitingFor", { names: row.waitingFor.join(", ") }));
  else what = h("span", { class: "their-turn" }, t("games.notYourTurn"));
  return h(
    "p",
    { class: "my-game-state" },
    what,
    due
      ? [
          " ",
          due.late
            ? h("span", { class: "tag late-tag", "data-testid": "late" }, due.text)
            : h("span", { class: "due", "data-testid": "due", "data-deadline-at": dueAt(row) }, t("games.due", { when: due.text })),
        ]
      : null,
  );
}

function gameRow(row) {
  const href = `#/room/${encodeURIComponent(row.room)}`;
  return h(
    "li",
    { class: `my-game${row.your_turn ? " your-turn" : ""}`, "data-room": row.room, "data-your-turn": row.your_turn ? "true" : "false" },
    h(
      "div",
      { class: "my-game-info" },
      h(
        "p",
        { class: "my-game-title" },
        h("a", { href, "data-key": `my-game-${row.room}` }, h("strong", null, gameTitle(row.game)), " ", h("code", { class: "room-id" }, row.room)),
        row.mode === "turn_based" ? turnBasedTag() : null,
      ),
      playersLine(row),
      stateLine(row),
    ),
    h("a", { class: `button${row.your_turn ? " primary" : ""}`, href, "data-key": `my-game-open-${row.room}` }, row.your_turn ? t("games.play") : t("games.open")),
  );
}

/**
 * This browser's turn signals: the tab's title and icon (on by default), a beep (off by default) and system
 * notifications (asked for on a click); `heading` replaces the panel's title (the settings page's words).
 */
export function signalsPanel(app, heading = null) {
  const sig = app.signals;
  const state = sig.notifications;
  let notes;
  if (state === "unsupported") notes = h("p", { class: "hint" }, t("signal.notifyUnsupported"));
  else if (state === "denied") notes = h("p", { class: "hint", "data-testid": "notify-denied" }, t("signal.notifyDenied"));
  else if (state === "on")
    notes = h(
      "p",
      { class: "notify-row" },
      h("span", { "data-testid": "notify-on" }, t("signal.notifyOn")),
      " ",
      h(
        "button",
        {
          type: "button",
          class: "link",
          "data-key": "notify-off",
          "data-testid": "notify-off",
          onClick: () => {
            sig.disableNotifications();
            app.render();
          },
        },
        t("signal.notifyOff"),
      ),
    );
  else
    notes = h(
      "div",
      { class: "notify-row" },
      h(
        "button",
        {
          type: "button",
          "data-key": "notify-enable",
          "data-testid": "notify-enable",
          onClick: async () => {
            const now = await sig.enableNotifications();
            if (now === "denied") app.notify(t("signal.notifyDenied"), "info");
            app.render();
          },
        },
        t("signal.notifyEnable"),
      ),
      h("p", { class: "hint" }, t("signal.notifyAbout")),
    );
  return h(
    "section",
    { class: "card-panel signals-panel", "aria-labelledby": "signals-title", "data-testid": "signals" },
    h("h2", { id: "signals-title" }, heading || t("signal.settings")),
    h(
      "label",
      { class: "check", for: "signal-marks" },
      h("input", {
        type: "checkbox",
        id: "signal-marks",
        "data-key": "signal-marks",
        checked: sig.marks,
        onChange: (ev) => {
          sig.setMarks(ev.target.checked);
          app.render();
        },
      }),
      " ",
      t("signal.marks"),
    ),
    h(
      "label",
      { class: "check", for: "signal-sound" },
      h("input", {
        type: "checkbox",
        id: "signal-sound",
        "data-key": "signal-sound",
        checked: sig.sound,
        onChange: (ev) => {
          sig.setSound(ev.target.checked);
          app.render();
        },
      }),
      " ",
      t("signal.sound"),
    ),
    notes,
    heading ? null : h("p", { class: "hint" }, h("a", { href: "#/settings", "data-key": "games-settings", "data-testid": "games-settings" }, t("settings.signalsLink"))),
  );
}

/** The whole "My games" page. */
export function renderMyGames(app) {
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  const data = app.myGames || { rooms: null, loading: true, error: null };
  const rows = currentRows(app);
  const yours = rows ? rows.filter((r) => r.your_turn).length : 0;
  let body;
  if (!rows) body = h("p", { class: "hint" }, data.error || t("games.loading"));
  else if (!rows.length)
    body = h("p", { class: "hint", "data-testid": "my-games-empty" }, t("games.none"), " ", h("a", { href: "#/", "data-key": "games-to-lobby" }, t("games.toLobby")));
  else body = h("ul", { class: "my-games", "data-testid": "my-games" }, rows.map((row) => gameRow(row)));
  return h(
    "div",
    { class: "lobby games-page" },
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "games-title" },
      back,
      h("h1", { id: "games-title" }, t("games.title")),
      rows
        ? h("p", { class: `games-summary${yours ? " waiting" : ""}`, "data-testid": "games-summary" }, yours ? t("games.yourTurns", { n: yours }) : t("games.noTurn"))
        : null,
      data.error && rows ? h("p", { class: "form-error" }, data.error) : null,
      body,
    ),
    signalsPanel(app),
  );
}

/** The header's icon of "My games" (a list of tables): on a phone the link shows it instead of the words. */
const LIST_ICON =
  '<svg class="games-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><rect x="1" y="2" width="3" height="3" rx="0.6"/><rect x="6" y="2.5" width="9" height="2" rx="1"/><rect x="1" y="6.5" width="3" height="3" rx="0.6"/><rect x="6" y="7" width="9" height="2" rx="1"/><rect x="1" y="11" width="3" height="3" rx="0.6"/><rect x="6" y="11.5" width="9" height="2" rx="1"/></svg>';

/** The header's "My games" link, with the number of rooms waiting for this player's move. */
export function drawGamesLink(app, host) {
  if (!host) return;
  const n = app.player ? turnsWaiting(app) : 0;
  const here = app.page.page === "games";
  const signature = `${t("games.title")}|${app.player ? "p" : "-"}|${n}|${here}`;
  if (host.dataset.sig === signature) return;
  host.dataset.sig = signature;
  if (!app.player) return host.replaceChildren();
  const label = n ? `${t("games.title")} (${t("games.yourTurns", { n })})` : t("games.title");
  // named by what it shows ("My games", the count), then in words for a screen reader (a phone shows the icon only)
  const link = h(
    "a",
    {
      class: `head-button games-link${n ? " waiting" : ""}`,
      href: "#/games",
      "data-testid": "games-link",
      title: label,
      "aria-current": here ? "page" : null,
    },
    h("span", { class: "games-label" }, t("games.title")),
    n ? h("span", { class: "turn-count" }, String(n)) : null,
    n ? h("span", { class: "sr" }, ` (${t("games.yourTurns", { n })})`) : null,
  );
  link.insertAdjacentHTML("afterbegin", LIST_ICON);
  host.replaceChildren(link);
}
