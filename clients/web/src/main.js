// The app shell: connection + store + routing, and what survives a reload (name, token, account).
// Owns: the hello/welcome sequence (and sign-in, sign-up, sign-out of accounts, v1.2), re-joining held rooms,
// lobby watching, sending requests, notices.
// Must not: decide any rule. Moves are options of the view's prompt, sent back exactly as listed.
import { PASSWORD_MIN, authErrorKey, bannedSentence, clearForms, deviceLabel, drawAccountControl, forms, renderAccount, roughlySame } from "./account.js";
import { scrollChats } from "./chat.js";
import { tickClocks } from "./clock.js";
import { Connection, ServerError } from "./connection.js";
import { h, replaceKeepingFocus } from "./dom.js";
import { LANGUAGES, has, lang, setLang, t } from "./i18n.js";
import { loadAdmin, renderAdmin } from "./admin.js";
import { drawGamesLink, renderMyGames } from "./games.js";
import { renderLobby } from "./lobby.js";
import { PAGE_SIZE, noteIds } from "./people.js";
import { renderPlayer } from "./player.js";
import { renderRatings } from "./ratings.js";
import { creatableGames, gameTitle } from "./registry.js";
import { renderHistory, renderReplay } from "./replay.js";
import { closedByModerator, focusPrompt, forgetLog, gatherLog, mergeLog, renderRoom } from "./room.js";
import { PasskeyError, addPasskey, signInWithPasskey } from "./passkey.js";
import { session } from "./session.js";
import { drawSettingsLink, forgetSettings, loadSettings, renderSettings } from "./settings.js";
import { Signals } from "./signals.js";
import { Store } from "./store.js";
import { timeoutSentence } from "./turns.js";
import { isUndoKey } from "./undo.js";

const MAX_NOTICES = 4;
const CHAT_KEPT = 200; // lines shown per room (the server keeps as many)
const INVITES_KEY = "marcopolo.invites";
const INVITES_KEPT = 100;
const HOSTED_KEY = "marcopolo.hosted";
/** The seconds per move of a room made by "Play now": strangers cannot hold a game up for long. */
export const QUICK_TURN_SECONDS = 120;
/** How often "My games" asks the server again while it is shown (ms). */
const MY_GAMES_EVERY = 60000;

/**
 * The page in the address: `#/` the lobby, `#/room/ID[?invite=SECRET]` a room, `#/history`,
 * `#/replay/ID`, `#/ratings[/GAME][?page=N]`, `#/player/ID`, `#/account`, `#/games` (My games, v1.2),
 * `#/settings` (the turn signals: e-mail, webhook, web push, this browser's);
 * `#/admin[/TAB]` the administrators' page (linked from nowhere).
 */
export function parseRoute(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
  const params = new URLSearchParams(query);
  if (parts[0] === "room" && parts[1]) return { page: "room", id: parts[1], invite: params.get("invite") };
  if (parts[0] === "replay" && parts[1]) return { page: "replay", id: parts[1] };
  if (parts[0] === "history") return { page: "history" };
  if (parts[0] === "ratings") {
    const n = Number.parseInt(params.get("page") || "1", 10);
    return { page: "ratings", id: parts[1] || null, n: Number.isFinite(n) && n > 0 ? n : 1 };
  }
  if (parts[0] === "player" && parts[1]) return { page: "player", id: parts[1] };
  if (parts[0] === "account") return { page: "account" };
  if (parts[0] === "games") return { page: "games" };
  if (parts[0] === "settings") return { page: "settings" };
  if (parts[0] === "admin") return { page: "admin", tab: parts[1] || "reports" };
  return { page: "lobby" };
}

function loadHosted() {
  try {
    const saved = JSON.parse(localStorage.getItem(HOSTED_KEY) || "[]");
    return new Set(Array.isArray(saved) ? saved.filter((r) => typeof r === "string") : []);
  } catch {
    return new Set();
  }
}

function loadInvites() {
  try {
    const saved = JSON.parse(localStorage.getItem(INVITES_KEY) || "{}");
    return new Map(Object.entries(saved).filter(([, v]) => typeof v === "string"));
  } catch {
    return new Map();
  }
}

/** An error code of the server as a sentence for players (docs/protocol.md, "Errors"). */
export function errorSentence(code, message) {
  if (code === "banned") return bannedSentence(message);
  // (v1.2) a seat refused because the player holds seats in too many turn-based games
  const most = code === "rate_limited" ? /turn-based games \(at most (\d+)\)/.exec(message || "") : null;
  if (most) return t("error.turnBasedLimit", { n: Number(most[1]) });
  if (has(`error.${code}`)) return t(`error.${code}`);
  return message ? t("error.other", { message }) : t("error.unknown");
}

/** An account request's error as a sentence for its form (`kind`: sign_in, sign_up, change_password, delete_account). */
export function authText(err, kind) {
  if (!(err instanceof ServerError)) return String(err);
  const detail = err.message.replace(/^[a-z_]+: /, "");
  const key = authErrorKey(err.code, detail, kind);
  if (!key) return errorSentence(err.code, detail);
  return t(key, { n: Number(/(\d+)/.exec(detail)?.[1]) || PASSWORD_MIN }); // the server's minimum, when it says one
}

/** A failed passkey ceremony as a sentence for its form (`kind`: "sign_in" or "add"). */
export function passkeyText(err, kind) {
  const code = err instanceof PasskeyError ? err.code : "failed";
  if (code === "cancelled") return t("passkey.cancelled");
  if (code === "unsupported") return t("passkey.unsupported");
  if (code === "network" || code === "unavailable") return t("passkey.unreachable");
  if (code === "rate_limited") return t("auth.tooManyTries");
  if (code === "exists") return t("passkey.exists");
  if (code === "forbidden") return t("passkey.signInFirst");
  if (code === "bad_credentials") {
    if (kind === "add") return /registered already/.test(err.message) ? t("passkey.exists") : t("passkey.notAdded");
    return t("passkey.notAccepted");
  }
  return kind === "add" ? t("passkey.notAdded") : t("passkey.failed");
}

class App {
  constructor() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${proto}//${location.host}/ws`;
    /** The name shown: the account's while signed in to one, else the guest's. */
    this.name = session.account || session.name;
    /** Signed in to an account (v1.2); false: a guest (or nobody yet). */
    this.account = Boolean(session.account);
    /** The account's devices (`devices`), while its page is open; null: not loaded. */
    this.devices = null;
    /** A `sign_in`/`sign_up` waiting for a socket to be its first message: {kind, fields, resolve}. */
    this.auth = null;
    /** Why the welcome card is back (signed out, deleted), said in the card itself (a notice would cover it). */
    this.farewell = null;
    /** Just signed up: the lobby offers to add a passkey (until added or declined). */
    this.offerPasskey = false;
    /** What is typed in the name form so far (a redraw must not lose it). */
    this.nameDraft = "";
    /** Why the server refused the name last entered (shown by the name form until the next one). */
    this.nameError = null;
    this.player = null;
    /** The socket: "idle" (none: no name yet), "connecting", "open", "closed" (reconnecting), "replaced", "signedout". */
    this.net = this.name ? "connecting" : "idle";
    this.lobby = [];
    this.held = new Map(); // room -> {game, seat}: rooms where this player holds a seat
    this.pending = new Set(); // rooms with a move in flight
    this.joined = new Set(); // rooms joined (or being joined) on this connection
    this.invites = loadInvites(); // room -> invite secret of a private room (created, opened by link, rematch)
    this.chats = new Map(); // room id ("" for the lobby) -> chat lines, oldest first
    this.chatDrafts = new Map(); // room id ("" for the lobby) -> the line being typed
    this.ratings = new Map(); // game -> {players, me} from `ratings` (its first page: the badges of the lobby and the room)
    /** The leaderboard page shown: {game, page, offset, players, more, me, loading, error, seq}. */
    this.board = null;
    this.ratingsOf = null; // the player id the leaderboards in `ratings` and `board` answered for
    this.playerPages = new Map(); // player id -> {data, loading, error}: `player` answers (v1.2)
    this.ids = new Map(); // name -> player id, from the rated rows seen (links of accounts' names to their pages)
    this.history = { games: null, game: null, mine: false, loading: false };
    this.replays = new Map(); // room -> {v, last, seed, state, want, seq, error}
    this.rematches = new Map(); // finished room -> {new, invite}: a rematch another player opened
    this.matching = new Set(); // games with a quick match in flight
    this.quickOpened = new Set(); // rooms a quick match seated this player at seat 0 of (host or not: see onChange)
    this.hosted = loadHosted(); // rooms this player opened (created, a rematch, a quick match that made the room)
    this.ui = new Map(); // room -> a renderer's own UI state (selections), kept across renders
    this.notices = [];
    /** Players this player blocks (`blocks`, v1.2): [{player, name}], newest first; null until loaded. */
    this.blocks = null;
    /** The chat line whose Block/Report menu is open: {where, key, player, name, report, reason, error, busy}. */
    this.chatMenu = null;
    this.chatErrors = new Map(); // room id ("" for the lobby) -> why the last line was not sent
    this.closedBy = new Map(); // room -> the moderator's message (from the `closed` push)
    /** Why the server refuses this browser (a ban, v1.2): the sentence shown instead of the page; null: not banned. */
    this.banned = null;
    this.stale = 0; // moves answered `stale` (the room had moved on): shown in tests and the console
    this.noticeId = 0;
    this.dirty = false;
    /** "My games" (`my_games`, v1.2): {rooms, loading, error}; rooms null until the first answer. */
    this.myGames = { rooms: null, loading: false, error: null };
    this.myGamesSeq = 0;
    /** Open "My games" after the next welcome when a turn-based game waits for this player (page load, sign-in). */
    this.openGamesOnHello = true;
    /** The turn signals: the title's prefix, the favicon's badge, the beep, system notifications. */
    this.signals = new Signals({ open: (room) => this.go(room) });
    this.store = new Store({
      resync: (room) => this.resync(room),
      onChange: (room) => {
        // every version's log events are kept, also when several versions come before the next render
        const entry = this.store.get(room);
        if (entry) gatherLog(this, room, entry.view);
        if (entry) this.signals.update(room, entry.view, gameTitle(entry.view.game));
        const you = entry?.view.you;
        if (entry && (you === null || you === undefined) && this.held.has(room)) this.held.delete(room); // removed by the host
        if (entry && this.quickOpened.delete(room)) {
          // seat 0 of a room where nobody else sits: the match opened this room, and its opener is its host
          if (entry.view.seats.every((st, i) => i === 0 || !st.taken)) this.keepHosted(room);
        }
        this.render();
      },
    });
    // the room shown (a reload or a reconnection on its page) names the socket's room: a proxy routing by room
    // (deploy/haproxy/haproxy.cfg) then sends it to the node that runs the room, so its frames skip the relay
    this.conn = new Connection(() => (this.route ? `${this.url}?room=${encodeURIComponent(this.route)}` : this.url), {
      onOpen: () => this.hello(),
      onMessage: (msg) => this.onMessage(msg),
      onState: (state, detail) => this.onNet(state, detail),
    });
    window.addEventListener("hashchange", () => this.onRoute());
    // a click on a web push notification (sw.js) asks an open tab to show its room (no worker is registered here)
    navigator.serviceWorker?.addEventListener("message", (ev) => {
      if (ev.data?.t === "open_room" && typeof ev.data.room === "string" && ev.data.room) this.go(ev.data.room);
    });
    // who plays by keyboard: a new question's first option is then scrolled into view (a mouse's page stays put)
    this.keyboard = false;
    window.addEventListener(
      "keydown",
      () => {
        this.keyboard = true;
      },
      true,
    );
    window.addEventListener(
      "pointerdown",
      () => {
        this.keyboard = false;
      },
      true,
    );
    window.addEventListener("keydown", (ev) => {
      // `u` or Ctrl+Z on a room page whose prompt offers it: take back this turn (the Undo button's keys)
      const room = this.route;
      if (!room || !isUndoKey(ev) || !this.store.get(room)?.view.prompt?.undo) return;
      ev.preventDefault();
      this.undo(room);
    });
    let resizeTimer = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => this.render(), 150);
    });
  }

  start() {
    if (this.page.page === "admin") loadAdmin(this, this.page.tab);
    // without a name there is nothing to say: the socket opens once the name is entered (an unnamed one
    // would only be closed by the server's hello deadline, and every reconnection redrew the name form)
    if (this.name) this.conn.connect();
    this.render();
    setInterval(() => tickClocks(), 250);
    // "My games" stays fresh while shown: every minute, and when the tab is shown again
    setInterval(() => {
      if (this.page.page === "games" && document.visibilityState !== "hidden") this.loadMyGames({ quiet: true });
    }, MY_GAMES_EVERY);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.page.page === "games") this.loadMyGames({ quiet: true });
    });
  }

  // ---- routing ------------------------------------------------------------------------------

  /** The room in the address (`#/room/ID`), or null on any other page. */
  get route() {
    const r = parseRoute(location.hash);
    return r.page === "room" ? r.id : null;
  }

  get page() {
    return parseRoute(location.hash);
  }

  go(room) {
    const hash = room ? `#/room/${encodeURIComponent(room)}` : "#/";
    if (location.hash !== hash) location.hash = hash;
    else this.onRoute();
  }

  onRoute() {
    this.loadPage();
    this.render();
    document.getElementById("main").focus({ preventScroll: true });
  }

  /** Ask the server for what the page in the address shows (once signed in). */
  loadPage() {
    const r = this.page;
    if (r.page === "admin") return loadAdmin(this, r.tab); // over HTTP, whoever this browser plays as
    if (r.page === "room" && r.invite) this.keepInvite(r.id, r.invite);
    if (!this.player) return;
    if (r.page === "room" && !this.joined.has(r.id)) this.join(r.id, { spectate: true }, { quiet: true });
    else if (r.page === "history") this.loadHistory({ game: this.history.game, mine: this.history.mine });
    else if (r.page === "replay" && !this.replays.get(r.id)?.state) this.loadReplay(r.id, 0);
    else if (r.page === "ratings") this.loadBoard(r.id || this.defaultGame(), r.n);
    else if (r.page === "player") this.loadPlayer(r.id);
    else if (r.page === "lobby") this.loadAllRatings();
    else if (r.page === "games") this.loadMyGames();
    else if (r.page === "settings") loadSettings(this);
    else if (r.page === "account") {
      if (this.account) this.loadDevices();
      this.loadBlocks();
    }
  }

  defaultGame() {
    return creatableGames()[0]?.id ?? null;
  }

  /** Remember a room this player is the host of (the server checks; this only decides what is offered). */
  keepHosted(room) {
    this.hosted.add(room);
    while (this.hosted.size > INVITES_KEPT) this.hosted.delete(this.hosted.values().next().value);
    try {
      localStorage.setItem(HOSTED_KEY, JSON.stringify([...this.hosted]));
    } catch {
      /* private mode: kept as long as the tab */
    }
  }

  /** A host control before the start: `kick`, `add_bot`, `remove_bot` (with `seat`), `options` or `start`. */
  async host(room, action, seat = null, options = null) {
    try {
      /** @type {Record<string, any>} */
      const fields = { room, action };
      if (seat !== null) fields.seat = seat;
      if (options !== null) fields.options = options;
      await this.conn.request("host", fields);
    } catch (err) {
      this.fail(err, t("fail.host"));
    }
  }

  keepInvite(room, invite) {
    this.invites.set(room, invite);
    while (this.invites.size > INVITES_KEPT) this.invites.delete(this.invites.keys().next().value);
    try {
      localStorage.setItem(INVITES_KEY, JSON.stringify(Object.fromEntries(this.invites)));
    } catch {
      /* private mode: the invite lasts as long as the tab */
    }
  }

  // ---- connection ---------------------------------------------------------------------------

  onNet(state, detail) {
    this.net = state;
    if (state !== "open") {
      this.player = null;
      this.joined.clear();
    }
    if (state === "replaced") this.notify(this.account ? t("net.replacedAccount") : t("net.replacedNotice"), "error", true);
    if (state === "banned") {
      // an administrator's ban closed the connection (4003): say why, and do not knock again by itself
      this.banned = bannedSentence(detail);
      this.notices = []; // what they said no longer holds, and on a phone they would cover the ban's words
      this.render();
      return;
    }
    if (state === "signedout") {
      // the server closed the connection after a sign-out or a deletion whose answer never arrived (4002)
      this.leaveAccount("auth.signedOut");
      return;
    }
    this.render();
  }

  async hello() {
    if (this.auth) {
      // the first message of this socket is a sign-in or sign-up (nobody to say hello as yet)
      const { kind, fields, resolve } = this.auth;
      this.auth = null;
      const refused = await this.sendAuth(kind, fields);
      resolve(refused);
      // refused, on a socket opened for it: the guest this browser is (if any) says hello as before
      if (refused !== null && this.name && this.conn.open && !this.player) this.hello();
      return;
    }
    const name = session.account || this.name; // (another tab may have signed in or out meanwhile)
    if (!name) {
      this.conn.stop(); // the lobby asks for a name first; `setName` connects again
      return this.render();
    }
    let welcome;
    try {
      const fields = { name };
      if (session.token) fields.token = session.token;
      welcome = await this.conn.request("hello", fields);
    } catch (err) {
      if (session.account && (err.code === "name_taken" || err.code === "bad_message")) {
        // the account's token resumes nobody now (signed out on another device, a new password, deleted):
        // hello became a guest's, with the account's name
        this.leaveAccount("auth.signedOutElsewhere");
        return;
      }
      if (err.code === "banned") {
        // a ban on this player or address: show the server's words; knocking again would be refused again
        this.banned = bannedSentence(err.message.replace(/^[a-z_]+: /, ""));
        this.notices = [];
        this.conn.stop();
        this.net = "banned";
        return this.render();
      }
      if (err.code === "bad_message" || err.code === "name_taken") {
        // the server refused the name (length, characters, an account's): ask again, saying why by the form
        this.nameError = err.code === "name_taken" ? t("auth.guestNameTaken") : t("auth.nameRefused");
        this.nameDraft = this.name || "";
        this.name = null;
        session.name = null;
        this.conn.stop(); // nobody to be on this socket: the next name (or a sign-in) opens a new one
      } else this.fail(err);
      return this.render();
    }
    await this.welcomed(welcome);
  }

  /** After `welcome` (to hello, sign_in or sign_up): who this is now, then the lobby, chat and held seats again. */
  async welcomed(welcome) {
    session.token = welcome.token;
    if (welcome.account) {
      this.account = true;
      this.name = welcome.name || this.name;
      session.account = this.name;
    } else {
      if (session.account) this.notify(t("auth.signedOutElsewhere"), "info"); // a token no longer an account's
      this.account = false;
      session.account = null;
      if (welcome.name) this.name = welcome.name;
    }
    if (this.ratingsOf !== welcome.player) {
      // another player than the one the leaderboards answered for: their `me` rows are not this one's
      this.ratings.clear();
      this.board = null;
      this.ratingsOf = welcome.player;
    }
    this.player = welcome.player;
    if (this.account && this.name) this.ids.set(this.name, this.player);
    this.banned = null;
    this.held = new Map(welcome.rooms.map((r) => [r.room, { game: r.game, seat: r.seat }]));
    this.render();
    this.conn.request("watch_lobby").catch((err) => this.fail(err));
    this.loadChat("");
    this.loadBlocks();
    // back into every seat this player holds: a reload or a reconnection keeps the seat
    const again = welcome.rooms.filter((r) => !this.joined.has(r.room)).map((r) => this.join(r.room, { seat: r.seat }, { quiet: true }));
    await Promise.all(again);
    this.loadPage();
    this.afterWelcome();
  }

  /**
   * After a welcome: the player's games (`my_games`); on the page's first welcome, and after a sign-in, the
   * lobby gives way to "My games" when a turn-based game waits for this player's move.
   */
  async afterWelcome() {
    const open = this.openGamesOnHello;
    this.openGamesOnHello = false;
    if (this.page.page === "games") return; // loadPage asked already
    const rows = await this.loadMyGames({ quiet: true });
    if (!open || !rows) return;
    const atLobby = ["", "#", "#/"].includes(location.hash);
    if (atLobby && rows.some((r) => r.your_turn && r.mode === "turn_based")) location.hash = "#/games";
  }

  /** Ask for "My games" (`my_games`); resolves to its rooms, or null when refused. */
  async loadMyGames({ quiet = false } = {}) {
    if (!this.player) return null;
    const seq = ++this.myGamesSeq;
    this.myGames = { ...this.myGames, loading: true };
    try {
      const answer = await this.conn.request("my_games");
      const rooms = Array.isArray(answer.rooms) ? answer.rooms : [];
      if (seq === this.myGamesSeq) this.myGames = { rooms, loading: false, error: null };
      return rooms;
    } catch (err) {
      if (seq !== this.myGamesSeq) return null;
      const sentence = err instanceof ServerError ? errorSentence(err.code, err.message.replace(/^[a-z_]+: /, "")) : String(err);
      this.myGames = { ...this.myGames, loading: false, error: quiet && this.myGames.rooms ? this.myGames.error : sentence };
      return null;
    } finally {
      this.render();
    }
  }

  // ---- accounts (v1.2) ----------------------------------------------------------------------

  /**
   * Sign in (`sign_in`) or make an account (`sign_up`) with a name and password; resolves to null when signed
   * in, else the sentence to show in the form. On a guest's connection a sign-up keeps its seats and games.
   */
  authenticate(kind, { name, password }) {
    const fields = { name, password, device: deviceLabel() };
    if (this.conn.open) return this.sendAuth(kind, fields);
    // no socket yet (no name was entered, or signed out): one whose first message is this request
    return new Promise((resolve) => {
      this.auth = { kind, fields, resolve };
      if (!this.conn.connecting) this.conn.connect();
    });
  }

  async sendAuth(kind, fields) {
    const before = this.player;
    let welcome;
    try {
      welcome = await this.conn.request(kind, fields);
    } catch (err) {
      // a refused first message leaves the socket nobody's: close it (the server's hello deadline would)
      if (!this.player && !this.name) this.conn.stop();
      return authText(err, kind);
    }
    if (before && before !== welcome.player) {
      // a sign-in leaves the guest this connection was: its views are detached
      this.joined.clear();
      this.store.rooms.clear();
      this.ui.clear();
      this.signals.reset();
    forgetSettings();
      this.myGames = { rooms: null, loading: false, error: null };
    }
    this.openGamesOnHello = true;
    this.devices = null;
    this.farewell = null;
    clearForms();
    forms.mode = "guest";
    this.offerPasskey = kind === "sign_up";
    this.notify(t(kind === "sign_up" ? "auth.welcomeNew" : "auth.welcomeBack", { name: welcome.name || fields.name }), "info");
    if (this.page.page === "account") location.hash = "#/";
    await this.welcomed(welcome);
    return null;
  }

  /**
   * Sign in with a passkey of this device (the HTTP routes, then `hello` with the account's token on a socket
   * of its own); resolves to null when signed in, else the sentence for the form.
   */
  async passkeySignIn() {
    let who;
    try {
      who = await signInWithPasskey(deviceLabel());
    } catch (err) {
      return passkeyText(err, "sign_in");
    }
    // the guest this connection was (if any) is left: its views are detached
    this.joined.clear();
    this.store.rooms.clear();
    this.ui.clear();
    this.signals.reset();
    forgetSettings();
    this.myGames = { rooms: null, loading: false, error: null };
    this.openGamesOnHello = true;
    session.token = who.token;
    session.account = who.name;
    this.name = who.name;
    this.account = true;
    this.player = null;
    this.auth = null;
    this.devices = null;
    this.farewell = null;
    clearForms();
    forms.mode = "guest";
    this.notify(t("auth.welcomeBack", { name: who.name }), "info");
    if (this.page.page === "account") location.hash = "#/";
    this.conn.connect(); // (closes a guest's socket first); its hello resumes the account
    return null;
  }

  /** Add a passkey to this account (the browser asks for it); resolves to null when added, else the sentence. */
  async addPasskey() {
    if (!this.account || !session.token) return t("passkey.signInFirst");
    try {
      await addPasskey(session.token);
    } catch (err) {
      return passkeyText(err, "add");
    }
    return null;
  }

  /** The lobby's offer after a sign-up: add a passkey there (its outcome said in a notice), or not now. */
  async acceptPasskeyOffer() {
    if (forms.pkAddBusy) return;
    forms.pkAddBusy = true;
    this.render();
    const error = await this.addPasskey();
    forms.pkAddBusy = false;
    if (error) this.notify(error, "error");
    else {
      this.offerPasskey = false;
      this.notify(t("passkey.addedHere"), "info");
    }
  }

  declinePasskeyOffer() {
    this.offerPasskey = false;
    this.render();
  }

  /** Sign this device out (or every device of the account): the server answers, then closes with 4002. */
  async signOut(everywhere = false) {
    try {
      await this.conn.request("sign_out", everywhere ? { everywhere: true } : {});
    } catch (err) {
      this.fail(err, t("fail.signOut"));
      return;
    }
    this.leaveAccount(everywhere ? "auth.signedOutEverywhere" : "auth.signedOut");
  }

  async signOutDevice(id) {
    try {
      await this.conn.request("sign_out", { device: id });
      this.notify(t("account.deviceSignedOut"), "info");
    } catch (err) {
      if (err.code === "not_found") this.notify(t("account.deviceGone"), "info");
      else this.fail(err, t("fail.signOut"));
    }
    await this.loadDevices();
  }

  async loadDevices() {
    try {
      const answer = await this.conn.request("devices");
      this.devices = answer.devices;
    } catch (err) {
      if (err.code !== "closed") this.fail(err, t("fail.devices"));
    }
    this.render();
  }

  /** A new password; resolves to null when changed, else the sentence for the form. */
  async changePassword(password, next) {
    try {
      await this.conn.request("change_password", { password, new_password: next });
    } catch (err) {
      return authText(err, "change_password");
    }
    this.notify(t("account.passwordChanged"), "info");
    this.loadDevices();
    return null;
  }

  /** Delete the account (its password confirms it); resolves to the sentence for the form when refused. */
  async deleteAccount(password) {
    try {
      await this.conn.request("delete_account", { password });
    } catch (err) {
      return authText(err, "delete_account");
    }
    this.leaveAccount("auth.deleted");
    return null;
  }

  /**
   * The account's token is dead (signed out, deleted, or signed out from elsewhere): forget it and go back to
   * being a guest, by the guest name this browser used before (a fresh hello) or, without one, the name form.
   */
  leaveAccount(noticeKey) {
    const was = session.account || (this.account ? this.name : null);
    session.token = null;
    session.account = null;
    this.account = false;
    this.player = null;
    this.devices = null;
    this.blocks = null;
    this.chatMenu = null;
    this.auth = null;
    this.offerPasskey = false;
    this.held = new Map();
    this.joined.clear();
    this.store.rooms.clear();
    this.ui.clear();
    this.signals.reset();
    forgetSettings();
    this.myGames = { rooms: null, loading: false, error: null };
    this.rematches.clear();
    this.history = { games: null, game: null, mine: false, loading: false };
    this.ratings.clear(); // (their `me` rows were the account's)
    this.board = null;
    this.playerPages.clear();
    clearForms();
    forms.mode = "guest";
    const guest = session.name;
    this.name = guest && !roughlySame(guest, was) ? guest : null;
    if (!this.name) session.name = null; // the account's own name: a guest may not use it
    // back in the lobby as a guest: a notice; back to the welcome card: a line in the card
    const said = t(noticeKey, { name: was || "" });
    this.farewell = this.name ? null : said;
    if (this.name) this.notify(said, "info");
    if (this.page.page !== "lobby") location.hash = "#/";
    if (this.name) this.conn.connect(); // a fresh guest hello, without a token
    else this.conn.stop();
    this.render();
  }

  setName(name) {
    this.nameError = null;
    this.farewell = null;
    this.name = name;
    session.name = name;
    this.account = false;
    if (this.conn.open && this.player) this.conn.connect(); // (closes the named socket first)
    else if (this.conn.open) this.hello();
    else if (!this.conn.connecting) this.conn.connect(); // (an opening socket says hello once it opens)
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
      case "chat":
        if (msg.re === undefined || msg.re === null) this.addChat(msg.room ?? "", [msg]);
        break;
      case "rematch":
        if (msg.re === undefined || msg.re === null) {
          if (msg.invite) this.keepInvite(msg.new, msg.invite);
          this.rematches.set(msg.room, { new: msg.new, invite: msg.invite || null });
          this.notify(t("rematch.offered"), "info");
        }
        break;
      case "closed":
        if (msg.reason === "moderator" || msg.reason === "timeout") {
          this.closedBy.set(msg.room, msg.message || "");
          // the room's page says it in its status and its note; elsewhere a notice does
          const said = msg.reason === "moderator" ? closedByModerator(msg.message) : timeoutSentence(msg.message);
          if (this.route !== msg.room) this.notify(said, "info");
        } else this.notify(t(`closed.${msg.reason}`), "info");
        this.held.delete(msg.room);
        this.render();
        break;
      case "chat_deleted":
        this.dropChatLine(msg.room ?? "", msg.line);
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
        this.render();
      }
      this.loadChat(room);
      this.loadGameLog(room);
      const known = game || this.store.get(room)?.view.game || this.lobby.find((r) => r.room === room)?.game;
      if (known) this.loadRatings(known, { quiet: true });
      return true;
    } catch (err) {
      this.joined.delete(room);
      if (!(quiet && err.code === "closed")) this.fail(err, t("fail.join", { room }));
      if (this.route === room && !this.store.get(room)) this.go(null);
      return false;
    }
  }

  async create({ game, seats, bots = 0, options, isPublic, extra = {} }) {
    try {
      /** @type {Record<string, any>} */
      const request = { game, seats, options, public: isPublic, ...extra };
      if (bots > 0) request.bots = bots; // the server seats its bots in the last seats
      const created = await this.conn.request("create", request);
      if (created.invite) this.keepInvite(created.room, created.invite); // a private room: join needs it
      this.keepHosted(created.room);
      if (await this.join(created.room, {}, { game })) this.go(created.room);
    } catch (err) {
      this.fail(err, t("fail.create"));
    }
  }

  /** "Play now": a seat in the fullest waiting public room of that game and seat count, or a new room. */
  async quickMatch(game, seats) {
    if (this.matching.has(game)) return;
    this.matching.add(game);
    this.render();
    try {
      const joined = await this.conn.request("quick_match", { game, seats, turn_seconds: QUICK_TURN_SECONDS });
      this.joined.add(joined.room);
      if (joined.seat === 0) this.quickOpened.add(joined.room); // decided at its first snapshot
      this.held.set(joined.room, { game, seat: joined.seat });
      this.loadChat(joined.room);
      this.loadRatings(game, { quiet: true });
      this.go(joined.room);
    } catch (err) {
      this.fail(err, t("fail.quick"));
    } finally {
      this.matching.delete(game);
      this.render();
    }
  }

  /** Open the rematch of a finished room (or the one another player opened already) and sit down in it. */
  /** Hand this seat to the server's bot of `level` ("hard": the search bot), or take it back (null). */
  async autoplay(room, level) {
    try {
      await this.conn.request("autoplay", { room, level });
    } catch (err) {
      this.fail(err, t("fail.autoplay"));
    }
  }

  async rematch(room) {
    try {
      const answer = await this.conn.request("rematch", { room });
      if (!this.rematches.has(room)) this.keepHosted(answer.new); // the first to ask opened it: its host
      await this.openRematch({ new: answer.new, invite: answer.invite || null });
    } catch (err) {
      this.fail(err, t("fail.rematch"));
    }
  }

  async openRematch(offer) {
    if (offer.invite) this.keepInvite(offer.new, offer.invite);
    if (await this.join(offer.new, {})) this.go(offer.new);
  }

  // ---- chat, history, replays, ratings ------------------------------------------------------

  addChat(where, lines) {
    const known = this.chats.get(where) || [];
    const seen = new Set(known.map((l) => `${l.at}|${l.from}|${l.text}`));
    const fresh = lines.filter((l) => !seen.has(`${l.at}|${l.from}|${l.text}`));
    if (!fresh.length && this.chats.has(where)) return;
    const all = [...known, ...fresh].sort((a, b) => a.at - b.at).slice(-CHAT_KEPT);
    this.chats.set(where, all);
    this.render();
  }

  async loadChat(where) {
    try {
      const answer = await this.conn.request("chat_log", where ? { room: where } : {});
      this.addChat(where, answer.messages || []);
    } catch {
      /* no chat kept for it (or not allowed yet): the panel starts empty */
    }
  }

  /** The game's whole public log (a view keeps only the last events): for a room joined mid-game or again. */
  async loadGameLog(room) {
    try {
      const answer = await this.conn.request("game_log", { room });
      const entry = this.store.get(room);
      if (entry && answer.events.length) {
        mergeLog(this, room, entry.view.game, answer.events);
        this.render();
      }
    } catch {
      /* an older server, or the room went away: the log gathers from the views as before */
    }
  }

  async chat(where, text) {
    try {
      await this.conn.request("chat", where ? { room: where, text } : { text });
      this.chatDrafts.set(where, "");
      this.chatErrors.delete(where);
      this.render();
    } catch (err) {
      // said by the chat's own form (muted, a word the server refuses, too fast…); the line stays typed
      const why = err instanceof ServerError ? errorSentence(err.code, err.message.replace(/^[a-z_]+: /, "")) : String(err);
      this.chatErrors.set(where, `${t("fail.chat")} ${why}`);
      this.render();
    }
  }

  /** A moderator deleted a kept chat line (`chat_deleted`, v1.2): it goes from the panel at once. */
  dropChatLine(where, line) {
    const known = this.chats.get(where);
    if (!known || !line) return;
    const left = known.filter((l) => l.line !== line);
    if (left.length === known.length) return;
    this.chats.set(where, left);
    if (this.chatMenu && this.chatMenu.where === where && this.chatMenu.key === line) this.chatMenu = null;
    this.render();
  }

  // ---- blocks and reports (v1.2 moderation) -------------------------------------------------

  /** The ids of the players this player blocks (their lines are never shown). */
  get blockedIds() {
    return new Set((this.blocks || []).map((b) => b.player));
  }

  async loadBlocks() {
    try {
      const answer = await this.conn.request("blocks");
      this.blocks = answer.players || [];
      this.render();
    } catch {
      /* an older server (no blocks), or the connection went: nothing blocked is shown as before */
    }
  }

  /** Block a player: its lines go from every panel at once (the server sends none from now on). */
  async block(player, name) {
    try {
      /** @type {Record<string, any>} */
      const fields = { player };
      if (name) fields.name = name;
      await this.conn.request("block", fields);
    } catch (err) {
      this.fail(err, t("fail.block"));
      return;
    }
    this.blocks = [{ player, name: name || null }, ...(this.blocks || []).filter((b) => b.player !== player)];
    this.chatMenu = null;
    this.notify(t("block.done", { name: name || t("block.someone") }), "info");
  }

  async unblock(player) {
    const was = (this.blocks || []).find((b) => b.player === player);
    try {
      await this.conn.request("unblock", { player });
    } catch (err) {
      this.fail(err, t("fail.unblock"));
      return;
    }
    this.blocks = (this.blocks || []).filter((b) => b.player !== player);
    this.notify(t("block.undone", { name: was?.name || t("block.someone") }), "info");
    // the lines said while blocked were never sent here: the kept ones come with the chat logs again
    this.loadChat("");
    for (const room of this.joined) this.loadChat(room);
  }

  /** Report a player to the moderators, with the room's context (`where` "": the lobby); resolves to success. */
  async report(player, where, reason) {
    try {
      /** @type {Record<string, any>} */
      const fields = { player, reason };
      if (where) fields.room = where;
      await this.conn.request("report", fields);
      return null;
    } catch (err) {
      return err instanceof ServerError ? errorSentence(err.code, err.message.replace(/^[a-z_]+: /, "")) : String(err);
    }
  }

  async loadHistory({ game = null, mine = false } = {}) {
    const seq = (this.history.seq || 0) + 1;
    this.history = { ...this.history, game, mine, loading: true, seq };
    this.render();
    try {
      const fields = {};
      if (game) fields.game = game;
      if (mine && this.player) fields.player = this.player;
      const answer = await this.conn.request("history", fields);
      if (this.history.seq === seq) this.history = { ...this.history, games: answer.games, loading: false };
    } catch (err) {
      this.history = { ...this.history, loading: false };
      this.fail(err, t("fail.history"));
    }
    this.render();
  }

  /**
   * Show version `v` of a finished room's replay. One request per room is in flight: a slider dragged
   * across many versions asks for the one it rests on once the answer before it is in, not for every step.
   */
  async loadReplay(room, v) {
    const rep = this.replays.get(room) || { v: 0, last: 0, seed: 0, state: null, want: null, busy: false };
    this.replays.set(room, rep);
    rep.want = v;
    this.render();
    if (rep.busy) return;
    rep.busy = true;
    try {
      while (rep.want !== null && (rep.want !== rep.v || !rep.state)) {
        const asked = rep.want;
        const answer = await this.conn.request("replay", { room, v: asked });
        Object.assign(rep, { v: answer.v, last: answer.last, seed: answer.seed, state: answer.state, error: null });
        if (rep.want === asked) rep.want = null;
        this.render();
      }
      rep.want = null;
    } catch (err) {
      rep.want = null;
      if (!rep.state) rep.error = err instanceof ServerError ? errorSentence(err.code, err.message) : String(err);
      else this.fail(err, t("fail.replay"));
    } finally {
      rep.busy = false;
    }
    this.render();
  }

  async loadRatings(game, { quiet = false } = {}) {
    if (!game) return;
    try {
      const answer = await this.conn.request("ratings", { game });
      this.ratings.set(game, { players: answer.players, me: answer.me || null });
      noteIds(this, answer.players);
      this.render();
    } catch (err) {
      if (!quiet) this.fail(err, t("fail.ratings"));
    }
  }

  /** One page (from 1) of a game's leaderboard: PAGE_SIZE rows, and one more to know whether a next page exists. */
  async loadBoard(game, page = 1) {
    if (!game) return;
    const seq = (this.board?.seq || 0) + 1;
    const same = this.board && this.board.game === game && this.board.page === page;
    this.board = same ? { ...this.board, loading: true, seq } : { game, page, players: null, loading: true, seq };
    this.render();
    const offset = (page - 1) * PAGE_SIZE;
    try {
      const answer = await this.conn.request("ratings", { game, offset, limit: PAGE_SIZE + 1 });
      if (this.board?.seq !== seq) return;
      const rows = answer.players || [];
      noteIds(this, rows);
      this.board = {
        game,
        page,
        seq,
        offset: answer.offset ?? offset,
        players: rows.slice(0, PAGE_SIZE),
        more: rows.length > PAGE_SIZE,
        me: answer.me || null,
        loading: false,
        error: null,
      };
      const known = this.ratings.get(game);
      if (known) known.me = answer.me || null; // the badges show the newest own row too
    } catch (err) {
      if (this.board?.seq !== seq) return;
      this.board = { ...this.board, loading: false, error: err instanceof ServerError ? errorSentence(err.code, err.message) : String(err) };
    }
    this.render();
  }

  /** A player's page (`player`, v1.2): name, ratings with places, recent games. */
  async loadPlayer(id) {
    const known = this.playerPages.get(id);
    this.playerPages.set(id, { ...(known || { data: null }), loading: true, error: null });
    this.render();
    try {
      const answer = await this.conn.request("player", { player: id });
      this.playerPages.delete(id); // (kept newest last: the oldest pages go first)
      this.playerPages.set(id, { data: answer, loading: false, error: null });
      if (answer.name && answer.account) this.ids.set(answer.name, id);
      while (this.playerPages.size > 20) this.playerPages.delete(this.playerPages.keys().next().value);
    } catch (err) {
      const sentence = err instanceof ServerError ? errorSentence(err.code, err.message) : String(err);
      this.playerPages.set(id, { data: known?.data || null, loading: false, error: sentence });
      if (known?.data) this.fail(err, t("fail.player"));
    }
    this.render();
  }

  loadAllRatings() {
    for (const g of creatableGames()) this.loadRatings(g.id, { quiet: true });
  }

  async leave(room) {
    try {
      await this.conn.request("leave", { room });
      this.signals.moved(room);
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
    this.signals.moved(room); // the move is being made: the title, the badge and a notification go
    this.render();
    try {
      const entry = this.store.get(room);
      const fields = { room, move };
      if (entry) fields.v = entry.v;
      await this.conn.request("move", fields);
    } catch (err) {
      if (err.code === "stale") this.staleAnswer(room);
      else this.fail(err, t("fail.move"));
    } finally {
      this.pending.delete(room);
      this.render();
    }
  }

  /**
   * Take back the decisions of this turn (v1.2 `undo`, while the prompt offers it), with `v` like a move; the
   * patch of the turn's start comes before the answer. Shares the room's one request in flight with `move`.
   */
  async undo(room) {
    const entry = this.store.get(room);
    if (this.pending.has(room) || !entry?.view.prompt?.undo) return;
    this.pending.add(room);
    this.render();
    try {
      await this.conn.request("undo", { room, v: entry.v });
    } catch (err) {
      if (err.code === "stale") this.staleAnswer(room);
      else this.fail(err, t("fail.undo"));
    } finally {
      this.pending.delete(room);
      this.render();
    }
  }

  /** A move or undo answered `stale` (the room moved on since): ask for a snapshot and show the fresh view. */
  staleAnswer(room) {
    this.stale += 1;
    const entry = this.store.get(room);
    if (entry) entry.syncing = true; // the snapshot replaces the view; patches until then are skipped
    this.resync(room);
    this.notify(t("notice.stale"), "info");
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
    net.hidden = this.net === "idle"; // no socket before a name: nothing to report
    drawAccountControl(this, document.getElementById("who"));
    drawGamesLink(this, document.getElementById("games-nav"));
    drawSettingsLink(this, document.getElementById("settings-nav"));
    this.signals.show(); // (the title in the language chosen now)
    const route = this.page;
    const page = route.page === "admin" ? route : this.banned ? { page: "banned" } : this.name && this.player ? route : { page: "lobby" };
    const main = document.getElementById("main");
    main.dataset.view = page.page;
    let node;
    if (page.page === "admin") node = renderAdmin(this, page.tab);
    else if (page.page === "banned") node = this.bannedCard();
    else if (page.page === "room") node = renderRoom(this, page.id);
    else if (page.page === "history") node = renderHistory(this);
    else if (page.page === "replay") node = renderReplay(this, page.id);
    else if (page.page === "ratings") node = renderRatings(this, page.id, page.n);
    else if (page.page === "player") node = renderPlayer(this, page.id);
    else if (page.page === "account") node = renderAccount(this);
    else if (page.page === "games") node = renderMyGames(this);
    else if (page.page === "settings") node = renderSettings(this);
    else node = renderLobby(this);
    replaceKeepingFocus(main, node);
    if (page.page === "room") focusPrompt(this, page.id, main); // a new question: the keyboard on its first option
    scrollChats(main);
    tickClocks(main);
    // one persistent live region: screen readers hear the status when it changes, not every render
    const status = main.querySelector(".status")?.textContent || "";
    const announce = document.getElementById("announce");
    if (announce.textContent !== status) announce.textContent = status;
    this.drawNotices();
    this.drawLanguage();
  }

  /** What a banned browser shows instead of any page: the ban in words, and a way to knock again (once lifted). */
  bannedCard() {
    return h(
      "div",
      { class: "lobby" },
      h(
        "section",
        { class: "card-panel banned-card", "aria-labelledby": "banned-title", "data-testid": "banned" },
        h("h1", { id: "banned-title" }, t("banned.title")),
        h("p", { class: "form-error", role: "alert", "data-testid": "banned-message" }, this.banned),
        h("p", { class: "hint" }, t("banned.about")),
        h(
          "button",
          {
            type: "button",
            "data-key": "banned-retry",
            "data-testid": "banned-retry",
            onClick: () => {
              this.banned = null;
              if (this.name || session.account) this.conn.connect();
              this.render();
            },
          },
          t("banned.retry"),
        ),
      ),
    );
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
