// One room: seats and presence, the prompt bar, the game's renderer, the result, the whole log, the rules;
// the keyboard's way through it (the focus on a new question's first option, arrow keys on the board), the
// spectator's "You are watching";
// for public lobbies the invite link, "Take a seat", the host's controls, the countdown, the chat, Rematch.
// Owns: the parts every game shares. Must not: know a game; the renderer from registry.js draws the board.
// The prompt bar stays in view: a sticky column beside the board on a wide screen, a bottom sheet on a
// narrow one. The log is the whole game's: events are gathered from every view (the server's view keeps
// the last few only) and kept in localStorage per room, so a reload keeps them too; (v1.2) the lines a move of the
// turn clock added (`clock_moves`) read "(the clock played for NAME)".
import { chatPanel } from "./chat.js";
import { addClockMarks, clockMark, clockPanel, fillCountdown } from "./clock.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { optionBoxes } from "./lobby.js";
import { guestTag, provisionalTag } from "./people.js";
import { botRating, namedRating, ownRating } from "./ratings.js";
import { rendererFor } from "./registry.js";
import { rulesFor } from "./rules.js";
import { logLinesOf } from "./shared/log.js";
import { scrubIds } from "./shared/names.js";
import { timeoutSentence, turnRuleText } from "./turns.js";
import { undoRow } from "./undo.js";

/** Below this width the prompt bar is a bottom sheet; from it on, a sticky column beside the board. */
export const WIDE = 1100;
const LOG_CAP = 4000;

function seatLabel(view, i) {
  return view.seats[i]?.name || t("room.seat", { n: i + 1 });
}

/** Server bots are called "Bot N" (people may not use the word), so a seat of that name is a server bot. */
const BOT_NAME = /^Bot \d+$/;

/**
 * The rating shown beside a seat: the view's `rating` of the seat (every player's, bots' too); from a server
 * without it, your own (by player id) and the server bots' from the leaderboard. A rating of fewer than 5 rated
 * games is marked "provisional" when the leaderboard rows this page holds say so (your own, the bots', or an
 * account's by its name: accounts' names are unique); a seat's view carries no such flag.
 */
function seatRating(app, view, i, s) {
  if (!s.taken) return null;
  const bot = BOT_NAME.test(s.name || "");
  const known = i === view.you ? ownRating(app, view.game) : bot ? botRating(app, view.game) : null;
  const row = known || (bot ? null : namedRating(app, view.game, s.name));
  let rating = s.rating;
  if (rating === undefined) rating = known ? known.rating : null;
  if (typeof rating !== "number") return null;
  return [
    h("span", { class: "rating-badge", title: t("ratings.of", { name: s.name }) }, t("ratings.badge", { rating })),
    row?.rating === rating ? provisionalTag(row) : null,
  ];
}

/** "guest" beside a person's seat taken without an account (v1.2 `guest: true`): words, not a colour alone. */
function seatGuestTag(s) {
  return s?.taken ? guestTag(s.guest) : null;
}

/** "muted" beside a seat whose chat the room's host muted (v1.2 `muted: true`): in words, for every viewer. */
function mutedTag(s) {
  return s.taken && s.muted ? h("span", { class: "tag muted-tag", "data-testid": "muted-tag", title: t("room.mutedTitle") }, t("room.mutedTag")) : null;
}

/** "Closed by a moderator: MESSAGE" (or without a message, when none was given or the page opened later). */
export function closedByModerator(message) {
  return message ? t("closed.moderator", { message }) : t("closed.moderatorPlain");
}

/** Why the room ended early, in words: a moderator's close, a turn-based clock's `end`, or the server's timers. */
function closedSentence(app, room, view) {
  const message = app.closedBy.get(room) || view.closed_message || "";
  if (view.closed === "moderator") return closedByModerator(message);
  if (view.closed === "timeout") return timeoutSentence(message);
  return t(`closed.${view.closed}`);
}

/** A turn-based room's rule in words (v1.2 `turn`): "Turn-based: 3 days a move; a late player is waited for." */
function turnLine(view) {
  const text = turnRuleText(view.turn);
  if (!text || view.status === "finished") return null;
  return h("p", { class: "turn-info hint", "data-testid": "turn-info" }, h("span", { class: "tag turn-tag-based" }, t("games.turnBased")), " ", text);
}

/** The host's Mute/Unmute beside another person's seat, while the room waits or plays (v1.2 host actions). */
function muteButton(app, room, view, s, i) {
  const host = app.hosted.has(room) && view.you !== null && view.you !== undefined;
  if (!host || !s.taken || i === view.you || BOT_NAME.test(s.name || "")) return null;
  if (view.status !== "waiting" && view.status !== "playing") return null;
  const action = s.muted ? "unmute" : "mute";
  return h(
    "button",
    {
      type: "button",
      class: "link seat-mute",
      "data-key": `host-${action}-${i}`,
      "data-testid": `host-${action}-${i}`,
      "aria-label": t(s.muted ? "host.unmuteOf" : "host.muteOf", { name: s.name }),
      onClick: () => app.host(room, action, i),
    },
    t(s.muted ? "host.unmute" : "host.mute"),
  );
}

function seatsList(app, room, view) {
  return h(
    "ol",
    { class: "seats", "aria-label": t("room.seats") },
    view.seats.map((s, i) =>
      h(
        "li",
        { class: `seat ${s.taken ? "taken" : "free"} ${s.connected ? "online" : "offline"}${s.muted ? " muted" : ""}`, "data-seat": i },
        h("span", { class: "dot", "aria-hidden": "true" }),
        h("span", { class: "seat-n" }, `${i + 1}. `),
        s.taken ? s.name : t("room.free"),
        seatGuestTag(s),
        i === view.you ? h("span", { class: "you" }, ` ${t("room.you")}`) : null,
        seatRating(app, view, i, s),
        s.autoplay ? h("span", { class: "autoplay-badge", "data-testid": `autoplay-${i}` }, t("room.autoplayBadge")) : null,
        mutedTag(s),
        h("span", { class: "sr" }, s.taken ? (s.connected ? `, ${t("room.connected")}` : `, ${t("room.disconnected")}`) : ""),
        muteButton(app, room, view, s, i),
      ),
    ),
  );
}

/**
 * The options the board offers no gesture for as buttons, and every option in a list. A renderer's
 * `choiceKind(move, view)` may sort them: "end" (ending the turn or a step of it: first, so that it is in view
 * however many choices there are) and "bonus" (side actions: folded under "Bonus actions (n)", the main question
 * first); any other kind, or none, is in between.
 */
function choices(ctx, renderer) {
  const { view, pending } = ctx;
  const prompt = view.prompt;
  if (!prompt) return null;
  const kindOf = (move) => (renderer.choiceKind ? renderer.choiceKind(move, view) : null);
  const button = (move, i, where) =>
    h(
      "button",
      {
        type: "button",
        class: where === "choice" && kindOf(move) === "end" ? "choice end-turn" : "choice",
        "data-move": JSON.stringify(move),
        "data-key": `${where}-${i}`,
        disabled: pending,
        onClick: () => ctx.send(move),
      },
      scrubIds(renderer.describe(move, view)),
    );
  const other = prompt.options.map((m, i) => [m, i]).filter(([m]) => !renderer.hasGesture(m, view));
  const ends = other.filter(([m]) => kindOf(m) === "end");
  const bonus = other.filter(([m]) => kindOf(m) === "bonus");
  const rest = other.filter(([m]) => kindOf(m) !== "end" && kindOf(m) !== "bonus");
  const main = [...ends, ...rest];
  const onBoard = prompt.options.length - other.length;
  const ui = ctx.ui;
  return [
    main.length ? h("div", { class: "choices", role: "group", "aria-label": t("room.choices") }, main.map(([m, i]) => button(m, i, "choice"))) : null,
    onBoard ? h("p", { class: "hint on-board" }, t("room.onBoard", { n: onBoard })) : null,
    bonus.length
      ? h(
          "details",
          {
            class: "bonus-choices",
            "data-testid": "bonus-choices",
            open: Boolean(ui.bonusOpen),
            onToggle: (ev) => {
              ui.bonusOpen = ev.target.open;
            },
          },
          h("summary", { "data-key": "bonus-choices" }, t("room.bonusChoices", { n: bonus.length })),
          h("div", { class: "choices", role: "group", "aria-label": t("room.bonusLabel") }, bonus.map(([m, i]) => button(m, i, "choice"))),
        )
      : null,
    h(
      "details",
      {
        class: "all-choices",
        open: Boolean(ui.listOpen),
        onToggle: (ev) => {
          ui.listOpen = ev.target.open;
        },
      },
      h("summary", { "data-key": "all-choices" }, t("room.allChoices", { n: prompt.options.length })),
      h("ol", null, prompt.options.map((m, i) => h("li", null, button(m, i, "list")))),
    ),
  ];
}

/**
 * The result, first in the board's column at the end: who won, why (the winner's margin, the tie-break's note,
 * the ranking, and the renderer's `resultDetails(view, events)`: the final scoring per seat and what the end
 * revealed), for players and spectators alike.
 */
function resultPanel(app, room, view, renderer) {
  const res = view.result;
  if (!res) return null;
  const n = res.scores.length;
  const order = Array.isArray(res.ranking) ? res.ranking : [...Array(n).keys()].sort((a, b) => res.scores[b] - res.scores[a]);
  const unit = renderer.scoreUnit || "points";
  const winners = res.winners.map((s) => seatLabel(view, s));
  const note = renderer.resultNote ? renderer.resultNote(view) : null;
  const details = renderer.resultDetails ? renderer.resultDetails(view, gatherLog(app, room, view)) : null;
  return h(
    "section",
    { class: "result card-panel", "aria-labelledby": "result-title", "data-testid": "result" },
    h("h2", { id: "result-title" }, t("result.title")),
    h("p", { class: "winners" }, winners.length > 1 ? t("result.shared", { names: winners.join(" & ") }) : t("result.wins", { name: winners[0] })),
    marginLine(view, order, unit),
    note ? h("p", { class: "hint tiebreak" }, note) : null,
    h(
      "ol",
      { class: "ranking" },
      order.map((s) =>
        h(
          "li",
          { "data-seat": s, class: res.winners.includes(s) ? "winner" : "" },
          seatLabel(view, s),
          seatGuestTag(view.seats[s]),
          `${s === view.you ? ` ${t("room.you")}` : ""}: `,
          h("strong", { class: "score" }, String(res.scores[s])),
          ` ${unit}`,
        ),
      ),
    ),
    details,
  );
}

/** Under "Ann wins": "45 VP, 3 more than Bob." when one winner has the top score alone (a tie-break says the rest). */
function marginLine(view, order, unit) {
  const res = view.result;
  if (res.winners.length !== 1 || order.length < 2) return null;
  const [first, second] = [res.winners[0], order.find((s) => s !== res.winners[0])];
  const lead = res.scores[first] - res.scores[second];
  if (!(lead > 0) || res.scores.some((sc, i) => i !== first && sc >= res.scores[first])) return null;
  return h("p", { class: "why" }, t("result.margin", { score: res.scores[first], unit, lead, second: seatLabel(view, second) }));
}

// ---- the whole log ---------------------------------------------------------------------------------

function logKey(room) {
  return `marcopolo.log.${room}`;
}

/** Every log event seen in this room (by the server's running number `n`), oldest first. */
export function gatherLog(app, room, view) {
  const events = Array.isArray(view.public?.log) ? view.public.log : [];
  const all = mergeLog(app, room, view.game, events);
  // events without a number (a game that does not number them) are shown as the view has them
  return events.some((ev) => typeof ev?.n !== "number") ? events : all;
}

/** Add numbered log events (a view's last few, or the whole game's from `game_log`) to the room's; all of them. */
export function mergeLog(app, room, game, events) {
  if (!app.logs) app.logs = new Map();
  let known = app.logs.get(room);
  if (!known) {
    known = new Map();
    try {
      const saved = JSON.parse(localStorage.getItem(logKey(room)) || "null");
      if (saved && saved.game === game) for (const ev of saved.events) known.set(ev.n, ev);
    } catch {
      /* no storage, or a broken entry: start from this view */
    }
    app.logs.set(room, known);
  }
  let added = false;
  for (const ev of events) {
    if (ev && typeof ev.n === "number" && !known.has(ev.n)) {
      known.set(ev.n, ev);
      added = true;
    }
  }
  const all = [...known.values()].sort((a, b) => a.n - b.n);
  if (all.length > LOG_CAP) for (const ev of all.splice(0, all.length - LOG_CAP)) known.delete(ev.n);
  if (added) {
    try {
      localStorage.setItem(logKey(room), JSON.stringify({ game, events: all }));
    } catch {
      /* full or private mode: the log lasts as long as the tab */
    }
  }
  return all;
}

/**
 * The log events the turn clock made in this room (v1.2 `clock_moves`, event number -> seat), gathered from every
 * view like the log itself and kept with it in localStorage.
 * @returns {Map<number, number>}
 */
export function gatherClockMarks(app, room, view) {
  if (!app.clockMarks) app.clockMarks = new Map();
  let marks = app.clockMarks.get(room);
  if (!marks) {
    marks = new Map();
    try {
      const saved = JSON.parse(localStorage.getItem(`${logKey(room)}.clock`) || "null");
      if (saved && saved.game === view.game) for (const [n, seat] of saved.marks) marks.set(n, seat);
    } catch {
      /* no storage, or a broken entry: start from this view */
    }
    app.clockMarks.set(room, marks);
  }
  if (addClockMarks(marks, view)) {
    const kept = [...marks.entries()].sort((a, b) => a[0] - b[0]).slice(-LOG_CAP);
    try {
      localStorage.setItem(`${logKey(room)}.clock`, JSON.stringify({ game: view.game, marks: kept }));
    } catch {
      /* full or private mode: the marks last as long as the tab */
    }
  }
  return marks;
}

/** Forget a room's gathered log (leaving the room). */
export function forgetLog(app, room) {
  app.logs?.delete(room);
  app.logWords?.delete(room);
  app.clockMarks?.delete(room);
  try {
    localStorage.removeItem(logKey(room));
    localStorage.removeItem(`${logKey(room)}.clock`);
  } catch {
    /* nothing kept */
  }
}

/**
 * The log's lines, each event put in words once (when first seen, with the view of that moment, which still
 * shows what the event names); a long game does not re-describe hundreds of events on every render.
 */
function logText(app, room, view, renderer, events) {
  if (!app.logWords) app.logWords = new Map();
  let words = app.logWords.get(room);
  if (!words || words.game !== view.game) {
    words = { game: view.game, byN: new Map() };
    app.logWords.set(room, words);
  }
  const fresh = events.filter((ev) => typeof ev?.n !== "number" || !words.byN.has(ev.n));
  if (fresh.length) {
    for (const line of logLinesOf(renderer, { ...view, public: { ...view.public, log: fresh } })) {
      if (typeof line !== "string") words.byN.set(line.n, line.text);
    }
  }
  return events.map((ev) => (typeof ev?.n === "number" ? { n: ev.n, text: words.byN.get(ev.n) ?? "" } : null)).filter((l) => l && l.text);
}

function logPanel(app, room, view, renderer) {
  const events = gatherLog(app, room, view);
  const lines = logText(app, room, view, renderer, events);
  if (!lines.length) return null;
  const marks = gatherClockMarks(app, room, view);
  const seatName = (i) => seatLabel(view, i);
  return h(
    "section",
    { class: "log card-panel", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("log.title"), " ", h("span", { class: "count" }, `(${lines.length})`)),
    h(
      "ol",
      { class: "events", reversed: true, tabindex: "0", "aria-label": t("log.newest") },
      [...lines]
        .reverse()
        .map((line) =>
          typeof line === "string"
            ? h("li", null, scrubIds(line))
            : h("li", { value: line.n, class: marks.has(line.n) ? "by-clock" : null }, scrubIds(line.text), clockMark(marks, line.n, seatName)),
        ),
    ),
  );
}

// ---- rules, house components -----------------------------------------------------------------------

function houseBadge(ctx, renderer) {
  const note = renderer.house;
  if (!note) return null;
  const ui = ctx.ui;
  return h(
    "span",
    { class: "house" },
    h(
      "button",
      {
        type: "button",
        class: "badge house-badge",
        "aria-expanded": ui.houseOpen ? "true" : "false",
        "data-key": "house",
        onClick: () => {
          ui.houseOpen = !ui.houseOpen;
          ctx.rerender();
        },
      },
      t("house.badge"),
    ),
    ui.houseOpen ? h("span", { class: "house-note", role: "note" }, `${t("house.note")} ${note}`) : null,
  );
}

function rulesPanel(ctx, renderer) {
  const sections = rulesFor(ctx.view, renderer);
  if (!sections.length) return null;
  const ui = ctx.ui;
  return h(
    "details",
    {
      class: "rules card-panel",
      "data-testid": "rules",
      open: Boolean(ui.rulesOpen),
      onToggle: (ev) => {
        ui.rulesOpen = ev.target.open;
      },
    },
    h("summary", { "data-key": "rules" }, t("rules.title")),
    renderer.house ? h("p", { class: "house-note" }, `${t("house.note")} ${renderer.house}`) : null,
    sections.map((sec) =>
      h(
        "section",
        { class: "rules-section" },
        h("h3", null, sec.title),
        sec.text ? h("p", null, sec.text) : null,
        sec.items?.length ? h("dl", null, sec.items.map(([term, what]) => [h("dt", null, term), h("dd", null, what)])) : null,
      ),
    ),
  );
}

// ---- the prompt bar --------------------------------------------------------------------------------

function promptBar(ctx, renderer, status) {
  const { view } = ctx;
  const ui = ctx.ui;
  const sheet = ctx.sheet;
  const collapsed = sheet && ui.sheetClosed && view.prompt;
  return h(
    "aside",
    {
      class: `prompt-bar ${sheet ? "sheet" : "side"} ${view.prompt ? "mine" : ""} ${collapsed ? "collapsed" : ""}`,
      "aria-label": t("room.promptBar"),
      "data-testid": "prompt-bar",
    },
    h(
      "div",
      { class: "bar-head" },
      h("p", { class: `status ${view.prompt ? "mine" : ""}` }, status),
      clockPanel(view, ctx.seatName), // in the bar, so the countdown stays in view with the status
      sheet && view.prompt
        ? h(
            "button",
            {
              type: "button",
              class: "link sheet-toggle",
              "data-key": "sheet-toggle",
              "aria-expanded": collapsed ? "false" : "true",
              onClick: () => {
                ui.sheetClosed = !ui.sheetClosed;
                ctx.rerender();
              },
            },
            collapsed ? t("room.showChoices") : t("room.hideChoices"),
          )
        : null,
    ),
    collapsed ? null : h("div", { class: "bar-body" }, ctx.pending ? h("p", { class: "hint" }, t("room.sending")) : null, undoRow(ctx), choices(ctx, renderer)),
  );
}

// ---- the keyboard: the new question's first option, arrow keys on the board ---------------------------

/** Whether the keyboard is in a text field (the chat's line, a form's field): a new question leaves it there. */
function typing(el) {
  return el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

const shown = (el) => el.getClientRects().length > 0;

/** The board's controls the keys reach (its targets, cards and buttons; not a tab bar), in the page's order. */
function boardControls(board) {
  return [...board.querySelectorAll("button:not(:disabled), [role='button'][tabindex]")].filter((el) => shown(el) && !el.closest("[role='tablist']"));
}

/** The control of the question's first option: on the board (its first target) or in the prompt bar. */
function firstOption(main, view, renderer) {
  const bar = main.querySelector(".prompt-bar");
  const board = main.querySelector("[data-board]");
  const first = view.prompt.options.find((o) => !renderer.choiceKind || renderer.choiceKind(o, view) !== "bonus");
  if (first && board && renderer.hasGesture(first, view)) {
    const targets = [...board.querySelectorAll(".target[tabindex], button.target:not(:disabled), button.usable:not(:disabled)")].filter(shown);
    const el = targets[0] || boardControls(board)[0];
    if (el) return el;
  }
  const button = first ? bar?.querySelector(`.choices [data-move="${CSS.escape(JSON.stringify(first))}"]`) : null;
  return button || bar?.querySelector(".choices button:not(:disabled), summary") || null;
}

/**
 * After a version that asks a new question, put the keyboard on its first option (the board's first target, or
 * the bar's first button): a keyboard player answers without tabbing through the page, and sees it (scrolled
 * wholly into view, clear of the phone's sheet); a page played with a mouse or a finger is not scrolled. Not
 * while a text field has the focus (the chat's line being typed) nor while the move is on its way.
 */
export function focusPrompt(app, room, main) {
  const entry = app.store.get(room);
  const ui = app.uiFor(room);
  if (!entry || ui.focusedSeq === ui.promptSeq || app.pending.has(room)) return;
  ui.focusedSeq = ui.promptSeq;
  const view = entry.view;
  if (!view.prompt || typing(document.activeElement)) return;
  const el = /** @type {HTMLElement | SVGElement | null} */ (firstOption(main, view, rendererFor(view.game)));
  if (!el) return;
  el.focus({ preventScroll: true });
  if (app.keyboard) el.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** Arrow keys move the focus among the board's controls: to the nearest one that way (else the next in order). */
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

function arrowKeys(ev) {
  const step = ARROWS[ev.key];
  const from = document.activeElement;
  if (!step || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || !from || typing(from)) return;
  const all = boardControls(ev.currentTarget);
  const at = all.indexOf(from);
  if (at < 0) return;
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const [x0, y0] = centre(from);
  let best = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const el of all) {
    const [x, y] = centre(el);
    const along = (x - x0) * step[0] + (y - y0) * step[1];
    const across = Math.abs((x - x0) * step[1]) + Math.abs((y - y0) * step[0]);
    if (el === from || along < 2) continue;
    if (along + 2 * across < bestScore) {
      bestScore = along + 2 * across;
      best = el;
    }
  }
  if (!best && step[1] === 0) best = all[at + step[0]] || null; // the end of a row: on to the next in order
  if (!best) return;
  ev.preventDefault();
  best.focus();
}

// ---- invites, seats for newcomers, rematch ---------------------------------------------------------

/** The room's shareable link: opening it shows the room (with "Take a seat" while one is free). */
export function inviteLink(app, room) {
  const invite = app.invites.get(room);
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/room/${encodeURIComponent(room)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
}

function invitePanel(app, room, view) {
  if (view.status === "finished") return null;
  const link = inviteLink(app, room);
  const privateRoom = app.invites.has(room);
  const ui = app.uiFor(room);
  const copy = async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(link);
      ok = true;
    } catch {
      // no clipboard permission (plain http, an old browser): select the text so Ctrl+C copies it
      const field = document.querySelector(".invite-link");
      if (field instanceof HTMLInputElement) {
        field.select();
        ok = document.execCommand?.("copy") ?? false;
      }
    }
    ui.copied = ok ? "yes" : "no";
    app.render();
    setTimeout(() => {
      ui.copied = null;
      app.render();
    }, 3000);
  };
  return h(
    "div",
    { class: "invite card-panel", "data-testid": "invite" },
    h("label", { for: "invite-link" }, privateRoom ? t("invite.private") : t("invite.label")),
    h(
      "div",
      { class: "row" },
      h("input", { id: "invite-link", class: "invite-link", readonly: true, value: link, "data-key": "invite-link", onFocus: (ev) => ev.target.select() }),
      h("button", { type: "button", "data-key": "invite-copy", "data-testid": "invite-copy", onClick: copy }, t("invite.copy")),
      ui.copied ? h("span", { class: "hint copied", role: "status" }, ui.copied === "yes" ? t("invite.copied") : t("invite.copyByHand")) : null,
    ),
  );
}

/** The room's on/off options in words: every viewer of a waiting room sees what will be played. */
function optionsLine(view, renderer) {
  const choices = renderer.options || [];
  if (view.status !== "waiting" || !choices.length || !view.options) return null;
  const on = choices.filter((o) => view.options[o.key]).map((o) => o.label);
  return h(
    "p",
    { class: "room-options hint", "data-testid": "room-options" },
    on.length ? t("room.options", { list: on.join(", ") }) : t("room.noOptions"),
  );
}

/** The host's form for the room's options (the create form's checkboxes), sent as the `options` control. */
function hostOptions(app, room, view, renderer) {
  const choices = renderer.options || [];
  if (!choices.length || !view.options) return null;
  const ui = app.uiFor(room);
  const base = JSON.stringify(view.options);
  if (ui.hostOptionsBase !== base) {
    ui.hostOptionsBase = base; // the options changed (by this form or in another tab): start from them again
    ui.hostOptions = { ...view.options };
  }
  const apply = (ev) => {
    ev.preventDefault();
    app.host(room, "options", null, { ...view.options, ...ui.hostOptions });
  };
  return h(
    "form",
    { class: "host-options", "data-testid": "host-options", onSubmit: apply },
    h("h3", null, t("host.options")),
    optionBoxes(renderer, ui.hostOptions, "host-opt"),
    h("button", { type: "submit", "data-key": "host-options-apply", "data-testid": "host-options-apply" }, t("host.apply")),
  );
}

/** The host's controls of a waiting room: remove a player, add or remove a bot, change options, start now. */
function hostPanel(app, room, view) {
  if (view.status !== "waiting" || !app.hosted.has(room) || view.you === null || view.you === undefined) return null;
  const rows = view.seats.map((st, i) => {
    let action = null;
    if (!st.taken) action = ["add_bot", t("host.addBot")];
    else if (BOT_NAME.test(st.name || "")) action = ["remove_bot", t("host.removeBot")];
    else if (i !== view.you) action = ["kick", t("host.kick")];
    return h(
      "li",
      { "data-seat": i },
      `${i + 1}. ${st.taken ? st.name : t("room.free")} `,
      seatGuestTag(st),
      " ",
      action
        ? h("button", { type: "button", class: "link", "data-key": `host-${action[0]}-${i}`, onClick: () => app.host(room, action[0], i) }, action[1])
        : null,
    );
  });
  return h(
    "section",
    { class: "host card-panel", "data-testid": "host", "aria-labelledby": "host-title" },
    h("h2", { id: "host-title" }, t("host.title")),
    h("ul", { class: "host-seats" }, rows),
    hostOptions(app, room, view, rendererFor(view.game)),
    fillCountdown(view) ? null : hostStart(app, room, "host.start"), // with a countdown, the button is beside it
  );
}

/** The host's "start now": bots take the empty seats at once (the v1.2 host action `start`). */
function hostStart(app, room, label) {
  return h("button", { type: "button", class: "primary", "data-key": "host-start", "data-testid": "host-start", onClick: () => app.host(room, "start") }, t(label));
}

/**
 * A waiting room whose empty seats bots fill at `fill_at` (every quick match's room, `fill_bots_after`): the
 * time left in words, ticking every second (clock.js), and for its host the button that starts at once.
 */
function fillPanel(app, room, view) {
  const countdown = fillCountdown(view);
  if (!countdown) return null;
  const host = app.hosted.has(room) && view.you !== null && view.you !== undefined;
  return h(
    "section",
    { class: "fill card-panel", "data-testid": "fill", "aria-label": t("fill.title") },
    h("p", { class: "fill-line", role: "timer" }, countdown),
    h("p", { class: "hint" }, t("fill.hint")),
    host ? hostStart(app, room, "fill.start") : null,
  );
}

function takeSeat(app, room, view) {
  const spectator = view.you === null || view.you === undefined;
  if (!spectator || view.status !== "waiting" || !view.seats.some((s) => !s.taken)) return null;
  return h(
    "p",
    { class: "take-seat" },
    h(
      "button",
      { type: "button", class: "primary", "data-key": "take-seat", "data-testid": "take-seat", onClick: () => app.join(room) },
      t("room.takeSeat"),
    ),
    " ",
    h("span", { class: "hint" }, t("room.watching")),
  );
}

/** "You are watching": a spectator of a game under way or over (a waiting room's free seat says it beside "Take a seat"). */
function watchingBanner(view) {
  const spectator = view.you === null || view.you === undefined;
  if (!spectator || view.status === "waiting") return null;
  return h(
    "p",
    { class: "watching-banner", role: "note", "data-testid": "watching" },
    h("strong", null, t("room.watchingTitle")),
    " ",
    view.status === "finished" ? t("room.watchingOver") : t("room.watchingNow"),
  );
}

/** A seated player's hand-over to the server's bot during the game (`autoplay`), and taking the seat back. */
function autoplayPanel(app, room, view) {
  const seated = view.you !== null && view.you !== undefined;
  if (!seated || view.status !== "playing" || view.result) return null;
  const on = Boolean(view.seats[view.you] && view.seats[view.you].autoplay);
  const button = on
    ? h("button", { type: "button", class: "link", "data-key": "autoplay-stop", "data-testid": "autoplay-stop", onClick: () => app.autoplay(room, null) }, t("room.autoplayStop"))
    : h("button", { type: "button", class: "link", "data-key": "autoplay-start", "data-testid": "autoplay-start", onClick: () => app.autoplay(room, "hard") }, t("room.autoplayStart"));
  return h("p", { class: "autoplay" }, on ? h("span", { class: "hint" }, t("room.autoplayOn"), " ") : null, button);
}

function endActions(app, room, view) {
  if (view.status !== "finished") return null;
  const seated = view.you !== null && view.you !== undefined;
  const offered = app.rematches.get(room);
  const parts = [];
  if (offered) {
    parts.push(
      h(
        "button",
        { type: "button", class: "primary", "data-key": "rematch-join", "data-testid": "rematch-join", onClick: () => app.openRematch(offered) },
        t("rematch.join"),
      ),
    );
  } else if (seated && view.result) {
    parts.push(h("button", { type: "button", class: "primary", "data-key": "rematch", "data-testid": "rematch", onClick: () => app.rematch(room) }, t("rematch.button")));
  }
  if (view.result) parts.push(h("a", { class: "button", href: `#/replay/${encodeURIComponent(room)}`, "data-key": "to-replay" }, t("history.replay")));
  if (view.closed === "moderator" || view.closed === "timeout") {
    parts.push(h("p", { class: "closed-note", role: "status", "data-testid": "closed-note" }, closedSentence(app, room, view)));
  } else if (view.closed) parts.push(h("span", { class: "hint" }, t(`closed.${view.closed}`)));
  return parts.length ? h("div", { class: "end-actions card-panel", "data-testid": "end-actions" }, parts) : null;
}

/** The whole room page. */
export function renderRoom(app, room) {
  const entry = app.store.get(room);
  const back = h("a", { class: "back", href: "#/", "data-key": "back" }, t("room.lobby"));
  if (!entry) return h("section", { class: "room loading" }, back, h("p", { class: "hint" }, t("room.opening", { room })));
  const view = entry.view;
  const renderer = rendererFor(view.game);
  const ui = app.uiFor(room);
  const width = window.innerWidth;
  const ctx = {
    app,
    room,
    view,
    you: view.you,
    ui,
    pending: app.pending.has(room),
    narrow: width < 700,
    sheet: width < WIDE,
    send: (move) => app.move(room, move),
    rerender: () => app.draw(), // at once: a click shows its effect before the next one
    seatName: (i) => seatLabel(view, i),
  };
  const promptKey = view.prompt ? JSON.stringify(view.prompt.options) : "";
  if (ui.shellPrompt !== promptKey) {
    ui.shellPrompt = promptKey;
    ui.promptSeq = (ui.promptSeq || 0) + 1; // focusPrompt moves the keyboard to the new question once
    ui.sheetClosed = false; // a new question opens the sheet again
  }
  const waiting = view.status === "waiting";
  const free = view.seats.filter((s) => !s.taken).length;
  let status;
  // a room closed before its start (nobody joined, a moderator) has no game to draw: only the seats' view
  const unstarted = waiting || view.public?.status === "waiting";
  if (waiting) status = t("room.waitingForLink", { n: free });
  else if (view.result) status = t("room.over");
  else if (view.closed) status = closedSentence(app, room, view);
  else if (unstarted) status = t("room.over");
  else if (view.prompt) status = t("room.yourMove", { text: (renderer.promptText && renderer.promptText(view)) || view.prompt.text });
  else status = renderer.status ? renderer.status(view, ctx) : t("room.waitingOthers");
  if (view.result && !ui.ratedAtEnd) {
    ui.ratedAtEnd = true; // the game just ended (or the page opened on a finished game): fresh ratings
    setTimeout(() => app.loadRatings(view.game, { quiet: true }), 1000);
  }
  const canLeave = waiting && view.you !== null && view.you !== undefined;
  const board = unstarted ? null : renderer.render(ctx);
  if (board instanceof Element) {
    board.setAttribute("data-board", "");
    board.addEventListener("keydown", arrowKeys);
  }
  return h(
    "section",
    {
      class: `room game-${view.game} ${ctx.sheet ? "with-sheet" : "with-side"}`,
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
      houseBadge(ctx, renderer),
      canLeave ? h("button", { type: "button", class: "link", "data-key": "leave", onClick: () => app.leave(room) }, t("room.leave")) : null,
    ),
    watchingBanner(view),
    seatsList(app, room, view),
    turnLine(view),
    optionsLine(view, renderer),
    fillPanel(app, room, view),
    waiting ? invitePanel(app, room, view) : null,
    hostPanel(app, room, view),
    takeSeat(app, room, view),
    autoplayPanel(app, room, view),
    h(
      "div",
      { class: "play-area" },
      promptBar(ctx, renderer, status), // first in the page's order (Tab, screen readers), beside the board on screen
      h(
        "div",
        { class: "board-col" },
        resultPanel(app, room, view, renderer),
        endActions(app, room, view),
        board,
        waiting ? null : invitePanel(app, room, view),
        chatPanel(app, room),
        rulesPanel(ctx, renderer),
        logPanel(app, room, view, renderer),
      ),
    ),
  );
}
