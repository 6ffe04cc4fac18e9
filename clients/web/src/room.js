// One room: seats and presence, the prompt, the game's renderer, other choices, the result and the log.
// Owns: the parts every game shares. Must not: know a game; the renderer from registry.js draws the board.
import { h } from "./dom.js";
import { rendererFor } from "./registry.js";

function seatLabel(view, i) {
  return view.seats[i]?.name || `Seat ${i + 1}`;
}

function seatsList(view) {
  return h(
    "ol",
    { class: "seats", "aria-label": "Seats" },
    view.seats.map((s, i) =>
      h(
        "li",
        { class: `seat ${s.taken ? "taken" : "free"} ${s.connected ? "online" : "offline"}`, "data-seat": i },
        h("span", { class: "dot", "aria-hidden": "true" }),
        s.taken ? s.name : "free",
        i === view.you ? h("span", { class: "you" }, " (you)") : null,
        h("span", { class: "sr" }, s.taken ? (s.connected ? ", connected" : ", disconnected") : ""),
      ),
    ),
  );
}

/** Buttons for the prompt options the board offers no gesture for, plus the full list as a fallback. */
function choices(ctx, renderer) {
  const { view, pending } = ctx;
  const prompt = view.prompt;
  if (!prompt) return null;
  const button = (move, i, where) =>
    h(
      "button",
      {
        type: "button",
        class: "choice",
        "data-move": JSON.stringify(move),
        "data-key": `${where}-${i}`,
        disabled: pending,
        onClick: () => ctx.send(move),
      },
      renderer.describe(move, view),
    );
  const other = prompt.options.map((m, i) => [m, i]).filter(([m]) => !renderer.hasGesture(m, view));
  const ui = ctx.ui;
  return [
    other.length ? h("div", { class: "choices", role: "group", "aria-label": "Choices" }, other.map(([m, i]) => button(m, i, "choice"))) : null,
    h(
      "details",
      {
        class: "all-choices",
        open: Boolean(ui.listOpen),
        onToggle: (ev) => {
          ui.listOpen = ev.target.open;
        },
      },
      h("summary", { "data-key": "all-choices" }, `All ${prompt.options.length} choices as a list`),
      h("ol", null, prompt.options.map((m, i) => h("li", null, button(m, i, "list")))),
    ),
  ];
}

function resultPanel(view, renderer) {
  const res = view.result;
  if (!res) return null;
  const n = res.scores.length;
  const order = Array.isArray(res.ranking) ? res.ranking : [...Array(n).keys()].sort((a, b) => res.scores[b] - res.scores[a]);
  const unit = renderer.scoreUnit || "points";
  const winners = res.winners.map((s) => seatLabel(view, s));
  const note = renderer.resultNote ? renderer.resultNote(view) : null;
  return h(
    "section",
    { class: "result card-panel", "aria-labelledby": "result-title", "data-testid": "result" },
    h("h2", { id: "result-title" }, "Final scoring"),
    h("p", { class: "winners" }, winners.length > 1 ? `Shared win: ${winners.join(" and ")}` : `${winners[0]} wins`),
    note ? h("p", { class: "hint tiebreak" }, note) : null,
    h(
      "ol",
      { class: "ranking" },
      order.map((s) =>
        h(
          "li",
          { "data-seat": s, class: res.winners.includes(s) ? "winner" : "" },
          `${seatLabel(view, s)}${s === view.you ? " (you)" : ""}: `,
          h("strong", { class: "score" }, String(res.scores[s])),
          ` ${unit}`,
        ),
      ),
    ),
  );
}

function logPanel(view, renderer) {
  const lines = renderer.logLines(view);
  if (!lines.length) return null;
  return h(
    "section",
    { class: "log card-panel", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, "What happened"),
    h(
      "ol",
      { class: "events", reversed: true },
      [...lines].reverse().map((line) => (typeof line === "string" ? h("li", null, line) : h("li", { value: line.n }, line.text))),
    ),
  );
}

/** The whole room page. */
export function renderRoom(app, room) {
  const entry = app.store.get(room);
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, "Lobby");
  if (!entry) return h("section", { class: "room loading" }, back, h("p", { class: "hint" }, `Opening room ${room}…`));
  const view = entry.view;
  const renderer = rendererFor(view.game);
  const ctx = {
    app,
    room,
    view,
    you: view.you,
    ui: app.uiFor(room),
    pending: app.pending.has(room),
    narrow: window.innerWidth < 700,
    send: (move) => app.move(room, move),
    rerender: () => app.draw(), // at once: a click shows its effect before the next one
    seatName: (i) => seatLabel(view, i),
  };
  const waiting = view.status === "waiting";
  const free = view.seats.filter((s) => !s.taken).length;
  let status;
  if (waiting) status = `Waiting for ${free} more player${free === 1 ? "" : "s"}. Others join from the lobby.`;
  else if (view.result) status = "The game is over.";
  else if (view.prompt) status = `Your move: ${view.prompt.text}`;
  else status = renderer.status ? renderer.status(view, ctx) : "Waiting for the other players.";
  const canLeave = waiting && view.you !== null && view.you !== undefined;
  return h(
    "section",
    {
      class: `room game-${view.game}`,
      "data-room": room,
      "data-v": entry.v,
      "data-you": view.you ?? "",
      "data-status": view.status,
      "data-myturn": view.prompt ? "true" : "false",
      "data-pending": ctx.pending ? "true" : "false",
    },
    h(
      "div",
      { class: "room-head" },
      back,
      h("h1", null, renderer.title || view.game, " ", h("code", { class: "room-id" }, room)),
      canLeave ? h("button", { type: "button", class: "link", "data-key": "leave", onClick: () => app.leave(room) }, "leave seat") : null,
    ),
    seatsList(view),
    h("p", { class: `status ${view.prompt ? "mine" : ""}` }, status),
    resultPanel(view, renderer),
    waiting ? null : renderer.render(ctx),
    choices(ctx, renderer),
    logPanel(view, renderer),
  );
}
