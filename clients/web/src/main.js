// The app shell: connection + store + routing, and what survives a reload (name and token).
// Owns: the hello/welcome sequence, re-joining held rooms, lobby watching, sending requests, notices.
// Must not: decide any rule. Moves are options of the view's prompt, sent back exactly as listed.
import { Connection, ServerError } from "./connection.js";
import { h, replaceKeepingFocus } from "./dom.js";
import { LANGUAGES, has, lang, setLang, t } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { forgetLog, renderRoom } from "./room.js";
import { session } from "./session.js";
import { Store } from "./store.js";

const MAX_NOTICES = 4;

/** An error code of the server as a sentence for players (docs/protocol.md, "Errors"). */
export function errorSentence(code, message) {
  if (has(`error.${code}`)) return t(`error.${code}`);
  return message ? t("error.other", { message }) : t("error.unknown");
}

class App {
  constructor() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${proto}//${location.host}/ws`;
    this.name = session.name;
    this.player = null;
    this.net = "connecting";
    this.lobby = [];
    this.held = new Map(); // room -> {game, seat}: rooms where this player holds a seat
    this.pending = new Set(); // rooms with a move in flight
    this.joined = new Set(); // rooms joined (or being joined) on this connection
    this.invites = new Map(); // room -> invite secret of a private room this client created
    this.ui = new Map(); // room -> a renderer's own UI state (selections), kept across renders
    this.notices = [];
    this.stale = 0; // moves answered `stale` (the room had moved on): shown in tests and the console
    this.noticeId = 0;
    this.dirty = false;
    this.store = new Store({ resync: (room) => this.resync(room), onChange: () => this.render() });
    this.conn = new Connection(this.url, {
      onOpen: () => this.hello(),
      onMessage: (msg) => this.onMessage(msg),
      onState: (state) => this.onNet(state),
    });
    window.addEventListener("hashchange", () => this.onRoute());
    let resizeTimer = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => this.render(), 150);
    });
  }

  start() {
    this.conn.connect();
    this.render();
  }

  // ---- routing ------------------------------------------------------------------------------

  /** The room in the address (`#/room/ID`), or null for the lobby. */
  get route() {
    const m = /^#\/room\/([^/?#]+)/.exec(location.hash);
    return m ? decodeURIComponent(m[1]) : null;
  }

  go(room) {
    const hash = room ? `#/room/${encodeURIComponent(room)}` : "#/";
    if (location.hash !== hash) location.hash = hash;
    else this.onRoute();
  }

  onRoute() {
    const room = this.route;
    if (room && this.player && !this.joined.has(room)) this.join(room, { spectate: true }, { quiet: true });
    this.render();
    document.getElementById("main").focus({ preventScroll: true });
  }

  // ---- connection ---------------------------------------------------------------------------

  onNet(state) {
    this.net = state;
    if (state !== "open") {
      this.player = null;
      this.joined.clear();
    }
    if (state === "replaced") this.notify(t("net.replacedNotice"), "error", true);
    this.render();
  }

  async hello() {
    if (!this.name) return this.render(); // the lobby asks for a name first
    let welcome;
    try {
      const fields = { name: this.name };
      if (session.token) fields.token = session.token;
      welcome = await this.conn.request("hello", fields);
    } catch (err) {
      if (err.code === "bad_message") {
        // the server refused the name (length, characters): ask again
        this.fail(err, t("fail.name"));
        this.name = null;
        session.name = null;
      } else this.fail(err);
      return this.render();
    }
    session.token = welcome.token;
    this.player = welcome.player;
    this.held = new Map(welcome.rooms.map((r) => [r.room, { game: r.game, seat: r.seat }]));
    this.render();
    this.conn.request("watch_lobby").catch((err) => this.fail(err));
    // back into every seat this player holds: a reload or a reconnection keeps the seat
    const again = welcome.rooms.map((r) => this.join(r.room, { seat: r.seat }, { quiet: true }));
    await Promise.all(again);
    const room = this.route;
    if (room && !this.joined.has(room)) await this.join(room, { spectate: true }, { quiet: true });
  }

  setName(name) {
    this.name = name;
    session.name = name;
    if (this.conn.open && this.player) this.conn.reconnect();
    else if (this.conn.open) this.hello();
    else this.conn.connect();
  }

  onMessage(msg) {
    switch (msg.t) {
      case "snapshot":
        this.store.snapshot(msg);
        break;
      case "patch":
        this.store.patch(msg);
        break;
      case "lobby":
      case "rooms":
        this.lobby = msg.rooms;
        this.render();
        break;
      case "error":
        if (msg.re === undefined || msg.re === null) this.notify(errorSentence(msg.code, msg.message), "error");
        break;
      default:
        break;
    }
  }

  resync(room) {
    this.conn.request("sync", { room }).catch((err) => {
      const entry = this.store.get(room);
      if (entry) entry.syncing = false;
      this.fail(err);
    });
  }

  // ---- requests -----------------------------------------------------------------------------

  /** Join a room: `{seat}`, `{spectate: true}` or `{}` for the lowest free seat. Resolves to success. */
  async join(room, how = {}, { quiet = false, game = null } = {}) {
    this.joined.add(room);
    try {
      const invite = this.invites.get(room);
      const joined = await this.conn.request("join", invite ? { room, invite, ...how } : { room, ...how });
      if (joined.seat !== null && joined.seat !== undefined) {
        const known = game || this.store.get(room)?.view.game || this.lobby.find((r) => r.room === room)?.game;
        this.held.set(room, { game: known, seat: joined.seat });
      }
      return true;
    } catch (err) {
      this.joined.delete(room);
      if (!(quiet && err.code === "closed")) this.fail(err, t("fail.join", { room }));
      if (this.route === room && !this.store.get(room)) this.go(null);
      return false;
    }
  }

  async create({ game, seats, bots = 0, options, isPublic }) {
    try {
      const request = { game, seats, options, public: isPublic };
      if (bots > 0) request.bots = bots; // the server seats its bots in the last seats
      const created = await this.conn.request("create", request);
      if (created.invite) this.invites.set(created.room, created.invite); // a private room: join needs it
      if (await this.join(created.room, {}, { game })) this.go(created.room);
    } catch (err) {
      this.fail(err, t("fail.create"));
    }
  }

  async leave(room) {
    try {
      await this.conn.request("leave", { room });
      this.held.delete(room);
      this.joined.delete(room);
      this.store.forget(room);
      this.ui.delete(room);
      forgetLog(this, room);
      this.go(null);
    } catch (err) {
      this.fail(err, t("fail.leave"));
    }
  }

  /**
   * Send one prompt option as the move, with `v`, the room version it was chosen in; one move per room in
   * flight. A `stale` answer means the room moved on since: ask for a snapshot and show the fresh view.
   */
  async move(room, move) {
    if (this.pending.has(room)) return;
    this.pending.add(room);
    this.render();
    try {
      const entry = this.store.get(room);
      const fields = { room, move };
      if (entry) fields.v = entry.v;
      await this.conn.request("move", fields);
    } catch (err) {
      if (err.code === "stale") {
        this.stale += 1;
        const entry = this.store.get(room);
        if (entry) entry.syncing = true; // the snapshot replaces the view; patches until then are skipped
        this.resync(room);
        this.notify(t("notice.stale"), "info");
      } else this.fail(err, t("fail.move"));
    } finally {
      this.pending.delete(room);
      this.render();
    }
  }

  uiFor(room) {
    if (!this.ui.has(room)) this.ui.set(room, {});
    return this.ui.get(room);
  }

  // ---- notices ------------------------------------------------------------------------------

  fail(err, what) {
    const text = err instanceof ServerError ? errorSentence(err.code, err.message.replace(/^[a-z_]+: /, "")) : String(err);
    this.notify(what ? `${what} ${text}` : text, "error");
  }

  notify(text, kind = "info", sticky = false) {
    const id = ++this.noticeId;
    this.notices = [{ id, text, kind }, ...this.notices].slice(0, MAX_NOTICES);
    if (!sticky) setTimeout(() => this.dismiss(id), 10000);
    this.render();
  }

  dismiss(id) {
    this.notices = this.notices.filter((n) => n.id !== id);
    this.render();
  }

  // ---- rendering ----------------------------------------------------------------------------

  /** Render soon (several frames in one task give one render). */
  render() {
    if (this.dirty) return;
    this.dirty = true;
    setTimeout(() => {
      this.dirty = false;
      this.draw();
    }, 0);
  }

  draw() {
    const net = document.getElementById("net");
    const label = has(`net.${this.net}`) ? t(`net.${this.net}`) : this.net;
    if (net.textContent !== label) net.textContent = label; // a live region: only real changes are read out
    net.dataset.state = this.net;
    const who = this.player && this.name ? this.name : "";
    if (document.getElementById("who").textContent !== who) document.getElementById("who").textContent = who;
    const room = this.route;
    const main = document.getElementById("main");
    main.dataset.view = room ? "room" : "lobby";
    replaceKeepingFocus(main, room ? renderRoom(this, room) : renderLobby(this));
    // one persistent live region: screen readers hear the status when it changes, not every render
    const status = main.querySelector(".status")?.textContent || "";
    const announce = document.getElementById("announce");
    if (announce.textContent !== status) announce.textContent = status;
    this.drawNotices();
    this.drawLanguage();
  }

  /** The language picker in the header; choosing one re-renders the page in it. */
  drawLanguage() {
    const host = document.getElementById("lang");
    if (!host) return;
    document.documentElement.lang = lang();
    const select = host.querySelector("select");
    if (select && select.value === lang() && select.dataset.built === lang()) return;
    host.replaceChildren(
      h("label", { class: "sr", for: "lang-select" }, t("lang.label")),
      h(
        "select",
        {
          id: "lang-select",
          "data-built": lang(),
          "aria-label": t("lang.label"),
          onChange: (ev) => {
            setLang(ev.target.value);
            this.draw();
          },
        },
        LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === lang(), lang: l.code }, l.name)),
      ),
    );
  }

  drawNotices() {
    const host = document.getElementById("notices");
    host.replaceChildren(
      ...this.notices.map((n) => {
        const el = document.createElement("p");
        el.className = `notice ${n.kind}`;
        el.textContent = n.text;
        const close = document.createElement("button");
        close.type = "button";
        close.className = "link";
        close.textContent = t("notice.dismiss");
        close.addEventListener("click", () => this.dismiss(n.id));
        if (this.net === "replaced" && n.kind === "error") {
          const here = document.createElement("button");
          here.type = "button";
          here.className = "link";
          here.textContent = t("notice.useTab");
          here.addEventListener("click", () => {
            this.dismiss(n.id);
            this.conn.connect();
          });
          el.append(" ", here);
        }
        el.append(" ", close);
        return el;
      }),
    );
  }
}

const app = new App();
/** @type {any} */ (window).marcopolo = app; // for the console and for tests; nothing reads it back
app.start();
