// The administrators' page (`#/admin[/TAB]`, linked from nowhere public): the moderators' HTTP API under /admin/
// (server/net/admin.py) called with `fetch` and `Authorization: Bearer TOKEN`. Reports with their context (the chat
// lines and the public log kept with them), bans, rooms, players and the audit log.
// Owns: the admin token (in sessionStorage only: it goes with the tab), the page's forms and lists.
// Must not: use the game's WebSocket, or put anything the server sends into markup (text nodes only).
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { creatableGames, gameTitle } from "./registry.js";

const TOKEN_KEY = "marcopolo.adminToken";
export const TABS = ["reports", "bans", "rooms", "players", "audit"];
/** The API's longest reason, resolution or ban reason (server.net.admin.TEXT_MAX). */
const TEXT_MAX = 500;
const AUDIT_PAGE = 50;

export class AdminError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function storedToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

function keepToken(token) {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    /* no storage: the token lasts as long as the page */
  }
}

/** Everything the page holds, kept across renders (lists are null until loaded). */
export const admin = {
  token: typeof sessionStorage === "undefined" ? "" : storedToken(),
  draft: "",
  refused: null, // why the token form is back (the server refused the token)
  note: null, // {kind: "ok" | "error", text}: the outcome of the last action
  loading: false,
  seq: 0,
  reports: { status: "open", list: null, notes: {}, deleted: new Set() },
  bans: { active: true, list: null, kind: "name", value: "", reason: "", minutes: "" },
  rooms: { game: "", status: "", player: "", list: null, reasons: {} },
  players: { by: "name", query: "", result: null, reason: "", minutes: "" },
  audit: { list: null, more: false },
};

/** `GET|POST|DELETE /admin/PATH?params` with the token; the answer's JSON, or AdminError (401: the token form again). */
export async function api(app, method, path, params = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") query.set(k, String(v));
  const qs = query.toString();
  let res;
  try {
    res = await fetch(`/admin/${path}${qs ? `?${qs}` : ""}`, {
      method,
      headers: { Authorization: `Bearer ${admin.token}` },
      cache: "no-store",
    });
  } catch {
    throw new AdminError(0, "network", t("admin.unreachable"));
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.status === 401) {
    forgetToken(t("admin.tokenRefused"));
    app.render();
    throw new AdminError(401, "unauthorized", t("admin.tokenRefused"));
  }
  if (!res.ok) {
    const said = body && typeof body.message === "string" ? body.message : `HTTP ${res.status}`;
    throw new AdminError(res.status, (body && body.error) || "error", said);
  }
  return body;
}

function forgetToken(why = null) {
  admin.token = "";
  admin.draft = "";
  admin.refused = why;
  keepToken("");
  for (const part of [admin.reports, admin.bans, admin.rooms, admin.audit]) part.list = null;
  admin.players.result = null;
}

function say(app, kind, text) {
  admin.note = { kind, text };
  app.render();
}

function failed(app, err) {
  if (err instanceof AdminError && err.status === 401) return; // the token form says it
  say(app, "error", err instanceof AdminError && err.status ? t("admin.serverSaid", { message: err.message }) : String(err.message || err));
}

/** Ask the server for what the tab shows (once a token is known). */
export async function loadAdmin(app, tab) {
  if (!admin.token) return;
  const seq = ++admin.seq;
  admin.loading = true;
  app.render();
  try {
    if (tab === "reports") {
      const list = await api(app, "GET", "reports", { status: admin.reports.status });
      if (seq === admin.seq) admin.reports.list = list;
    } else if (tab === "bans") {
      const list = await api(app, "GET", "bans", { active: admin.bans.active ? "true" : "false" });
      if (seq === admin.seq) admin.bans.list = list;
    } else if (tab === "rooms") {
      const r = admin.rooms;
      const list = await api(app, "GET", "rooms", { game: r.game, status: r.status, player: r.player.trim() });
      if (seq === admin.seq) r.list = list;
    } else if (tab === "audit") {
      const list = await api(app, "GET", "audit", { limit: AUDIT_PAGE });
      if (seq === admin.seq) {
        admin.audit.list = list;
        admin.audit.more = list.length === AUDIT_PAGE;
      }
    } else if (tab === "players" && admin.players.result) {
      await lookUp(app, admin.players.result.player, "player", { quiet: true });
    }
  } catch (err) {
    failed(app, err);
  } finally {
    if (seq === admin.seq) admin.loading = false;
    app.render();
  }
}

// ---- small pieces ----------------------------------------------------------------------------

function when(seconds) {
  if (typeof seconds !== "number") return "—";
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch {
    return new Date(seconds * 1000).toLocaleString();
  }
}

/** A value of the server's as one line of text (objects as compact JSON). */
function plain(v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** An audit entry's detail as one line; a ban's end as a date ("permanent" without one). */
function detailText(detail) {
  return Object.entries(detail)
    .map(([k, v]) => `${k}: ${k === "until" ? (typeof v === "number" ? when(v) : t("admin.permanent")) : plain(v)}`)
    .join(", ");
}

/** A public log event as one line: its fields in order, `n` first. */
function eventText(ev) {
  if (!ev || typeof ev !== "object") return plain(ev);
  const fields = Object.entries(ev)
    .filter(([k]) => k !== "n")
    .map(([k, v]) => `${k}: ${plain(v)}`);
  return fields.join(", ");
}

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function textInput(id, obj, key, extra = {}) {
  return h("input", {
    id,
    value: obj[key],
    "data-key": id,
    autocomplete: "off",
    onInput: (ev) => {
      obj[key] = ev.target.value;
    },
    ...extra,
  });
}

function select(id, obj, key, options, { onChange = null } = {}) {
  return h(
    "select",
    {
      id,
      "data-key": id,
      onChange: (ev) => {
        obj[key] = ev.target.value;
        if (onChange) onChange();
      },
    },
    options.map(([value, label]) => h("option", { value, selected: obj[key] === value }, label)),
  );
}

function toggleGroup(label, choices, current, choose) {
  return h(
    "div",
    { class: "admin-toggle", role: "group", "aria-label": label },
    choices.map(([value, text]) =>
      h("button", { type: "button", "aria-pressed": value === current ? "true" : "false", "data-key": `toggle-${value}`, onClick: () => choose(value) }, text),
    ),
  );
}

/** The name a report's context gives a player id (its seat or its chat lines), else the id. */
function nameIn(report, player) {
  const ctx = report.context || {};
  const seat = (ctx.players || []).find((p) => p.player === player && p.name);
  if (seat) return seat.name;
  const line = (ctx.chat || []).find((l) => l.from === player && l.name);
  return line ? line.name : null;
}

function who(name, player) {
  return name ? [h("strong", null, name), " ", h("code", { class: "admin-id" }, player)] : h("code", { class: "admin-id" }, player);
}

// ---- the token -----------------------------------------------------------------------------------

function tokenForm(app, tab) {
  const submit = (ev) => {
    ev.preventDefault();
    const token = admin.draft.trim();
    if (!token) return;
    admin.token = token;
    admin.draft = "";
    admin.refused = null;
    admin.note = null;
    keepToken(token);
    loadAdmin(app, tab);
  };
  return h(
    "form",
    { class: "card-panel auth-form admin-token", "data-testid": "admin-token-form", onSubmit: submit, novalidate: true },
    h("h2", null, t("admin.tokenTitle")),
    // the flag in code, kept on one line
    h("p", { class: "hint" }, t("admin.tokenAbout").split("{flag}").flatMap((part, i) => (i ? [h("code", { class: "nowrap" }, "--admin-token"), part] : [part]))),
    admin.refused ? h("p", { class: "form-error", role: "alert", "data-testid": "admin-refused" }, admin.refused) : null,
    // for password managers: what this secret belongs to
    h("input", { type: "text", name: "username", autocomplete: "username", value: "admin", hidden: true, readonly: true, tabindex: "-1" }),
    field(
      "admin-token",
      t("admin.token"),
      h("input", {
        id: "admin-token",
        type: "password",
        required: true,
        autocomplete: "current-password",
        value: admin.draft,
        "data-key": "admin-token",
        onInput: (ev) => {
          admin.draft = ev.target.value;
        },
      }),
    ),
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", "data-key": "admin-open", "data-testid": "admin-open" }, t("admin.open"))),
  );
}

// ---- reports -------------------------------------------------------------------------------------

async function deleteLine(app, room, line) {
  try {
    await api(app, "DELETE", `chat/${encodeURIComponent(room || "lobby")}/${encodeURIComponent(line)}`);
    admin.reports.deleted.add(line);
    say(app, "ok", t("admin.lineDeleted"));
  } catch (err) {
    failed(app, err);
  }
}

async function resolve(app, report) {
  const note = (admin.reports.notes[report.id] || "").trim();
  if (!note) return say(app, "error", t("admin.needNote"));
  try {
    await api(app, "POST", `reports/${report.id}/resolve`, { resolution: note });
    delete admin.reports.notes[report.id];
    say(app, "ok", t("admin.resolved", { id: report.id }));
    await loadAdmin(app, "reports");
  } catch (err) {
    failed(app, err);
  }
}

function chatContext(app, report) {
  const lines = (report.context && report.context.chat) || [];
  if (!lines.length) return h("p", { class: "hint" }, t("admin.noChat"));
  return h(
    "ol",
    { class: "admin-chat", "aria-label": t("admin.chatContext"), "data-testid": "report-chat" },
    lines.map((l) => {
      const gone = l.line && admin.reports.deleted.has(l.line);
      return h(
        "li",
        { class: `${l.from === report.player ? "reported" : ""}${gone ? " deleted" : ""}`, "data-line": l.line || "" },
        h("span", { class: "chat-at" }, typeof l.at === "number" ? when(Math.floor(l.at / 1000)) : ""),
        " ",
        h("strong", null, l.name || l.from),
        ": ",
        h("span", { class: "chat-text" }, l.text),
        gone ? h("span", { class: "tag" }, t("admin.deletedTag")) : null,
        l.line && !gone
          ? [
              " ",
              h(
                "button",
                {
                  type: "button",
                  class: "link",
                  "data-key": `delete-line-${report.id}-${l.line}`,
                  "data-testid": "delete-line",
                  "aria-label": t("admin.deleteLineOf", { name: l.name || l.from }),
                  onClick: () => deleteLine(app, report.room, l.line),
                },
                t("admin.deleteLine"),
              ),
            ]
          : null,
      );
    }),
  );
}

function reportCard(app, report) {
  const ctx = report.context || {};
  const reported = nameIn(report, report.player);
  const reporter = nameIn(report, report.reporter);
  const log = Array.isArray(ctx.log) ? ctx.log : [];
  const open = report.resolved_at === null || report.resolved_at === undefined;
  const noteId = `resolve-${report.id}`;
  return h(
    "li",
    { class: `card-panel admin-item report${open ? " open" : ""}`, "data-report": report.id, "data-testid": "report" },
    h(
      "h3",
      null,
      t("admin.reportN", { id: report.id }),
      " ",
      h("span", { class: `badge ${open ? "waiting" : "playing"}` }, open ? t("admin.openTag") : t("admin.resolvedTag")),
    ),
    h(
      "dl",
      { class: "admin-facts" },
      h("dt", null, t("admin.reported")),
      h("dd", { "data-testid": "report-player" }, who(reported, report.player)),
      h("dt", null, t("admin.reporter")),
      h("dd", null, who(reporter, report.reporter)),
      h("dt", null, t("admin.where")),
      h("dd", null, report.room ? [gameTitle(ctx.game || ""), " ", h("code", { class: "admin-id" }, report.room)] : t("admin.lobbyChat")),
      h("dt", null, t("admin.when")),
      h("dd", null, when(report.created_at)),
      h("dt", null, t("admin.reason")),
      h("dd", { class: "admin-reason", "data-testid": "report-reason" }, report.reason),
      open ? null : [h("dt", null, t("admin.resolution")), h("dd", null, `${report.resolution || ""} (${when(report.resolved_at)})`)],
    ),
    h("h4", null, t("admin.chatContext")),
    chatContext(app, report),
    Array.isArray(ctx.log) && !log.length ? h("p", { class: "hint" }, t("admin.noLog")) : null,
    log.length
      ? h(
          "details",
          { class: "admin-log" },
          h("summary", { "data-key": `log-${report.id}` }, t("admin.publicLog", { n: log.length })),
          h(
            "ol",
            null,
            log.map((ev) => h("li", { value: typeof ev?.n === "number" ? ev.n : null }, eventText(ev))),
          ),
        )
      : null,
    h(
      "div",
      { class: "row admin-actions" },
      h(
        "button",
        {
          type: "button",
          "data-key": `report-look-${report.id}`,
          onClick: () => {
            location.hash = "#/admin/players";
            lookUp(app, report.player, "player");
          },
        },
        t("admin.lookUpPlayer"),
      ),
    ),
    open
      ? h(
          "form",
          {
            class: "row admin-resolve",
            onSubmit: (ev) => {
              ev.preventDefault();
              resolve(app, report);
            },
          },
          h("label", { for: noteId, class: "sr" }, t("admin.resolutionLabel")),
          h("input", {
            id: noteId,
            maxlength: TEXT_MAX,
            placeholder: t("admin.resolutionLabel"),
            value: admin.reports.notes[report.id] || "",
            "data-key": noteId,
            "data-testid": "resolve-note",
            onInput: (ev) => {
              admin.reports.notes[report.id] = ev.target.value;
            },
          }),
          h("button", { type: "submit", class: "primary", "data-key": `${noteId}-go`, "data-testid": "resolve" }, t("admin.resolve")),
        )
      : null,
  );
}

function reportsTab(app) {
  const r = admin.reports;
  const choose = (status) => {
    r.status = status;
    loadAdmin(app, "reports");
  };
  return [
    toggleGroup(t("admin.show"), [["open", t("admin.openReports")], ["all", t("admin.allReports")]], r.status, choose),
    r.list === null
      ? h("p", { class: "hint" }, t("admin.loading"))
      : r.list.length
        ? h("ul", { class: "admin-list", "data-testid": "reports" }, r.list.map((rep) => reportCard(app, rep)))
        : h("p", { class: "hint", "data-testid": "reports-empty" }, r.status === "open" ? t("admin.noOpenReports") : t("admin.noReports")),
  ];
}

// ---- bans ----------------------------------------------------------------------------------------

async function addBan(app, kind, value, reason, minutes) {
  const fields = { kind, value: value.trim(), reason: reason.trim() };
  if (!fields.value || !fields.reason) {
    say(app, "error", t("admin.needBan"));
    return false;
  }
  const n = String(minutes || "").trim();
  if (n) fields.minutes = n;
  try {
    const ban = await api(app, "POST", "bans", fields);
    say(app, "ok", ban.until ? t("admin.bannedUntil", { id: ban.id, until: when(ban.until) }) : t("admin.bannedForever", { id: ban.id }));
    return true;
  } catch (err) {
    failed(app, err);
    return false;
  }
}

async function liftBan(app, id, after) {
  try {
    await api(app, "DELETE", `bans/${id}`);
    say(app, "ok", t("admin.lifted", { id }));
    await after();
  } catch (err) {
    failed(app, err);
  }
}

function banRow(app, ban, after) {
  const now = Date.now() / 1000;
  const active = !ban.lifted_at && (!ban.until || ban.until > now);
  let state = t("admin.activeTag");
  if (ban.lifted_at) state = t("admin.liftedAt", { when: when(ban.lifted_at) });
  else if (!active) state = t("admin.expiredTag");
  return h(
    "li",
    { class: `card-panel admin-item ban${active ? " active" : ""}`, "data-ban": ban.id, "data-testid": "ban" },
    h("h3", null, t("admin.banN", { id: ban.id }), " ", h("span", { class: `badge ${active ? "waiting" : ""}` }, state)),
    h(
      "dl",
      { class: "admin-facts" },
      h("dt", null, t(`admin.kind.${ban.kind}`)),
      h("dd", null, h("code", { class: "admin-id" }, ban.value)),
      h("dt", null, t("admin.reason")),
      h("dd", null, ban.reason),
      h("dt", null, t("admin.since")),
      h("dd", null, when(ban.created_at)),
      h("dt", null, t("admin.until")),
      h("dd", null, ban.until ? when(ban.until) : t("admin.permanent")),
      h("dt", null, t("admin.by")),
      h("dd", null, ban.by || "—"),
    ),
    active
      ? h(
          "div",
          { class: "row admin-actions" },
          h("button", { type: "button", "data-key": `lift-${ban.id}`, "data-testid": "lift", onClick: () => liftBan(app, ban.id, after) }, t("admin.lift")),
        )
      : null,
  );
}

function banForm(app) {
  const b = admin.bans;
  const submit = async (ev) => {
    ev.preventDefault();
    if (await addBan(app, b.kind, b.value, b.reason, b.minutes)) {
      Object.assign(b, { value: "", reason: "", minutes: "" });
      await loadAdmin(app, "bans");
    }
  };
  return h(
    "form",
    { class: "card-panel auth-form admin-form", "data-testid": "ban-form", onSubmit: submit, novalidate: true },
    h("h3", null, t("admin.addBan")),
    field(
      "ban-kind",
      t("admin.banKind"),
      select("ban-kind", b, "kind", [
        ["name", t("admin.kind.name")],
        ["player", t("admin.kind.player")],
        ["addr", t("admin.kind.addr")],
        ["net", t("admin.kind.net")],
      ]),
    ),
    field("ban-value", t("admin.banValue"), textInput("ban-value", b, "value", { maxlength: TEXT_MAX, spellcheck: "false", autocapitalize: "none" })),
    field("ban-reason", t("admin.reasonShown"), textInput("ban-reason", b, "reason", { maxlength: TEXT_MAX })),
    field("ban-minutes", t("admin.minutes"), textInput("ban-minutes", b, "minutes", { type: "number", min: 1, inputmode: "numeric", placeholder: t("admin.permanent") })),
    h("div", { class: "row" }, h("button", { type: "submit", class: "danger", "data-key": "ban-add", "data-testid": "ban-add" }, t("admin.ban"))),
  );
}

function bansTab(app) {
  const b = admin.bans;
  const choose = (value) => {
    b.active = value === "active";
    loadAdmin(app, "bans");
  };
  return [
    banForm(app),
    toggleGroup(t("admin.show"), [["active", t("admin.activeBans")], ["all", t("admin.allBans")]], b.active ? "active" : "all", choose),
    b.list === null
      ? h("p", { class: "hint" }, t("admin.loading"))
      : b.list.length
        ? h("ul", { class: "admin-list", "data-testid": "bans" }, b.list.map((ban) => banRow(app, ban, () => loadAdmin(app, "bans"))))
        : h("p", { class: "hint", "data-testid": "bans-empty" }, t("admin.noBans")),
  ];
}

// ---- rooms ---------------------------------------------------------------------------------------

async function closeRoom(app, room) {
  const reason = (admin.rooms.reasons[room] || "").trim();
  if (!reason) return say(app, "error", t("admin.needCloseReason"));
  try {
    await api(app, "POST", `rooms/${encodeURIComponent(room)}/close`, { reason });
    delete admin.rooms.reasons[room];
    say(app, "ok", t("admin.closed", { room }));
    await loadAdmin(app, "rooms");
  } catch (err) {
    failed(app, err);
  }
}

function roomRow(app, r) {
  const id = `close-${r.room}`;
  const names = (r.names || []).map((n, i) => (n ? n : t("lobby.seatFree", { n: i + 1 }))).join(", ");
  return h(
    "li",
    { class: "card-panel admin-item", "data-room": r.room, "data-testid": "admin-room" },
    h(
      "h3",
      null,
      gameTitle(r.game),
      " ",
      h("code", { class: "admin-id" }, r.room),
      " ",
      h("span", { class: `badge ${r.status}` }, t(`status.${r.status}`)),
      r.public ? null : h("span", { class: "tag" }, t("admin.unlisted")),
    ),
    h("p", { class: "admin-names" }, names),
    h("p", { class: "hint" }, t("admin.opened", { when: when(r.created) })),
    h(
      "form",
      {
        class: "row admin-resolve",
        onSubmit: (ev) => {
          ev.preventDefault();
          closeRoom(app, r.room);
        },
      },
      h("label", { for: id, class: "sr" }, t("admin.closeReason")),
      h("input", {
        id,
        maxlength: TEXT_MAX,
        placeholder: t("admin.closeReason"),
        value: admin.rooms.reasons[r.room] || "",
        "data-key": id,
        "data-testid": "close-reason",
        onInput: (ev) => {
          admin.rooms.reasons[r.room] = ev.target.value;
        },
      }),
      h("button", { type: "submit", class: "danger", "data-key": `${id}-go`, "data-testid": "close-room" }, t("admin.closeRoom")),
    ),
  );
}

function roomsTab(app) {
  const r = admin.rooms;
  const games = [["", t("admin.anyGame")], ...creatableGames().map((g) => [g.id, g.title])];
  const statuses = [
    ["", t("admin.anyStatus")],
    ["waiting", t("status.waiting")],
    ["playing", t("status.playing")],
  ];
  const submit = (ev) => {
    ev.preventDefault();
    loadAdmin(app, "rooms");
  };
  return [
    h(
      "form",
      { class: "card-panel admin-filters", "data-testid": "rooms-filter", onSubmit: submit },
      field("rooms-game", t("lobby.game"), select("rooms-game", r, "game", games)),
      field("rooms-status", t("admin.status"), select("rooms-status", r, "status", statuses)),
      field("rooms-player", t("admin.playerFilter"), textInput("rooms-player", r, "player", { maxlength: 64 })),
      h("button", { type: "submit", "data-key": "rooms-search", "data-testid": "rooms-search" }, t("admin.search")),
    ),
    r.list === null
      ? h("p", { class: "hint" }, t("admin.loading"))
      : r.list.length
        ? h("ul", { class: "admin-list", "data-testid": "rooms" }, r.list.map((room) => roomRow(app, room)))
        : h("p", { class: "hint", "data-testid": "rooms-empty" }, t("admin.noRooms")),
  ];
}

// ---- players -------------------------------------------------------------------------------------

async function lookUp(app, query, by, { quiet = false } = {}) {
  const p = admin.players;
  p.by = by;
  p.query = query;
  if (!quiet) {
    p.result = null;
    admin.note = null;
  }
  app.render();
  try {
    p.result = await api(app, "GET", "players", by === "name" ? { name: query.trim() } : { player: query.trim() });
  } catch (err) {
    if (!quiet) p.result = null;
    failed(app, err);
  }
  app.render();
}

function playerCard(app, p) {
  const pl = admin.players;
  const again = () => lookUp(app, p.player, "player", { quiet: true });
  const banSubmit = async (ev) => {
    ev.preventDefault();
    if (await addBan(app, "player", p.player, pl.reason, pl.minutes)) {
      Object.assign(pl, { reason: "", minutes: "" });
      await again();
    }
  };
  const list = (items, render, empty) => (items.length ? h("ul", { class: "admin-sub" }, items.map(render)) : h("p", { class: "hint" }, empty));
  return h(
    "section",
    { class: "card-panel admin-item", "data-testid": "player-card" },
    h(
      "h3",
      null,
      p.account ? p.account.name : t("admin.guest"),
      " ",
      p.banned ? h("span", { class: "tag banned-tag", "data-testid": "player-banned" }, t("admin.bannedTag")) : null,
      p.online ? h("span", { class: "tag this-device" }, t("admin.online")) : null,
    ),
    h(
      "dl",
      { class: "admin-facts" },
      h("dt", null, t("admin.kind.player")),
      h("dd", null, h("code", { class: "admin-id" }, p.player)),
      h("dt", null, t("admin.account")),
      h("dd", null, p.account ? t("admin.accountSince", { when: when(p.account.created_at) }) : t("admin.noAccount")),
    ),
    h("h4", null, t("admin.devices"), ` (${p.devices.length})`),
    list(p.devices, (d) => h("li", null, h("strong", null, d.device), " · ", t("admin.deviceTimes", { since: when(d.created_at), seen: when(d.last_seen) })), t("admin.none")),
    h("h4", null, t("admin.games"), ` (${p.games.length})`),
    list(
      p.games,
      (g) =>
        h(
          "li",
          null,
          h("strong", null, gameTitle(g.game)),
          " ",
          h("code", { class: "admin-id" }, g.room),
          " · ",
          (g.players || []).map((n) => n || "—").join(", "),
          " · ",
          when(typeof g.finished_at === "number" ? Math.floor(g.finished_at / 1000) : null),
        ),
      t("admin.none"),
    ),
    h("h4", null, t("admin.reportsAbout"), ` (${p.reports.length})`),
    list(
      p.reports,
      (r) =>
        h(
          "li",
          null,
          h("strong", null, t("admin.reportN", { id: r.id })),
          " · ",
          when(r.created_at),
          " · ",
          r.reason,
          r.resolved_at ? ` · ${t("admin.resolvedTag")}` : "",
        ),
      t("admin.none"),
    ),
    h("h4", null, t("admin.bansOf"), ` (${p.bans.length})`),
    p.bans.length ? h("ul", { class: "admin-list" }, p.bans.map((ban) => banRow(app, ban, again))) : h("p", { class: "hint" }, t("admin.none")),
    h(
      "form",
      { class: "auth-form admin-form", "data-testid": "player-ban-form", onSubmit: banSubmit, novalidate: true },
      h("h4", null, t("admin.banThis")),
      field("player-ban-reason", t("admin.reasonShown"), textInput("player-ban-reason", pl, "reason", { maxlength: TEXT_MAX })),
      field(
        "player-ban-minutes",
        t("admin.minutes"),
        textInput("player-ban-minutes", pl, "minutes", { type: "number", min: 1, inputmode: "numeric", placeholder: t("admin.permanent") }),
      ),
      h("div", { class: "row" }, h("button", { type: "submit", class: "danger", "data-key": "player-ban", "data-testid": "player-ban" }, t("admin.ban"))),
    ),
  );
}

function playersTab(app) {
  const p = admin.players;
  const submit = (ev) => {
    ev.preventDefault();
    if (p.query.trim()) lookUp(app, p.query, p.by);
  };
  return [
    h(
      "form",
      { class: "card-panel admin-filters", "data-testid": "players-form", onSubmit: submit },
      field("players-by", t("admin.lookUpBy"), select("players-by", p, "by", [["name", t("admin.byName")], ["player", t("admin.byId")]])),
      field("players-query", p.by === "name" ? t("admin.byName") : t("admin.byId"), textInput("players-query", p, "query", { maxlength: 64, spellcheck: "false", autocapitalize: "none" })),
      h("button", { type: "submit", "data-key": "players-go", "data-testid": "players-go" }, t("admin.lookUp")),
    ),
    p.result ? playerCard(app, p.result) : h("p", { class: "hint" }, t("admin.playersAbout")),
  ];
}

// ---- the audit log -------------------------------------------------------------------------------

async function olderAudit(app) {
  const a = admin.audit;
  const last = a.list?.[a.list.length - 1];
  if (!last) return;
  try {
    const more = await api(app, "GET", "audit", { limit: AUDIT_PAGE, before: last.id });
    a.list = [...a.list, ...more];
    a.more = more.length === AUDIT_PAGE;
  } catch (err) {
    failed(app, err);
  }
  app.render();
}

function auditTab(app) {
  const a = admin.audit;
  if (a.list === null) return h("p", { class: "hint" }, t("admin.loading"));
  if (!a.list.length) return h("p", { class: "hint", "data-testid": "audit-empty" }, t("admin.noAudit"));
  return [
    h(
      "ol",
      { class: "admin-audit card-panel", "data-testid": "audit" },
      a.list.map((e) =>
        h(
          "li",
          { "data-action": e.action },
          h("span", { class: "chat-at" }, when(e.at)),
          " ",
          h("strong", { class: "audit-action" }, e.action),
          " ",
          e.target ? h("code", { class: "admin-id" }, e.target) : null,
          " · ",
          e.actor,
          e.detail && Object.keys(e.detail).length ? h("div", { class: "hint audit-detail" }, detailText(e.detail)) : null,
        ),
      ),
    ),
    a.more ? h("button", { type: "button", "data-key": "audit-older", onClick: () => olderAudit(app) }, t("admin.older")) : null,
  ];
}

// ---- the page ------------------------------------------------------------------------------------

/** The admin page (`#/admin[/TAB]`): the token form, or the tabs. */
export function renderAdmin(app, tabName) {
  const tab = TABS.includes(tabName) ? tabName : "reports";
  const head = h("h1", null, t("admin.title"));
  if (!admin.token) return h("section", { class: "admin", "data-testid": "admin" }, head, tokenForm(app, tab));
  const body = { reports: reportsTab, bans: bansTab, rooms: roomsTab, players: playersTab, audit: auditTab }[tab](app);
  return h(
    "section",
    { class: "admin", "data-testid": "admin", "data-tab": tab, "aria-busy": admin.loading ? "true" : "false" },
    h(
      "div",
      { class: "admin-head" },
      head,
      h(
        "button",
        {
          type: "button",
          class: "link",
          "data-key": "admin-forget",
          "data-testid": "admin-forget",
          onClick: () => {
            forgetToken();
            admin.note = null;
            app.render();
          },
        },
        t("admin.forget"),
      ),
    ),
    h(
      "nav",
      { class: "admin-tabs", "aria-label": t("admin.sections") },
      TABS.map((name) =>
        h(
          "a",
          {
            href: `#/admin/${name}`,
            "aria-current": name === tab ? "page" : null,
            "data-key": `admin-tab-${name}`,
            "data-testid": `admin-tab-${name}`,
            onClick: () => {
              admin.note = null;
            },
          },
          t(`admin.tab.${name}`),
        ),
      ),
    ),
    admin.note
      ? h(
          "p",
          { class: admin.note.kind === "ok" ? "form-ok" : "form-error", role: admin.note.kind === "ok" ? "status" : "alert", "data-testid": "admin-note" },
          admin.note.text,
        )
      : null,
    h("div", { class: "admin-body" }, body),
  );
}
