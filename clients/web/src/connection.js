// One WebSocket to the server: frames in and out, request ids and their answers, reconnecting.
// Owns: the socket, `id`/`re` matching, backoff. Must not: interpret rooms or views (the store does).
import { pack, unpack } from "./codec.js";

const TIMEOUT_MS = 15000;
/** Close code of a connection replaced by a newer one of the same player (another tab). */
export const REPLACED = 4001;
/** Close code after `sign_out` or `delete_account` (v1.2): this token resumes nobody any more. */
export const SIGNED_OUT = 4002;
/** Close code of a connection an administrator's ban closed (v1.2); its reason says until when and why. */
export const BANNED = 4003;

export class ServerError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

export class Connection {
  /**
   * `onOpen()` runs on every (re)connection and must say hello; `onMessage(msg)` gets every frame;
   * `onState(state, detail)` reports "connecting" | "open" | "closed" | "replaced" | "signedout" | "banned" (with the
   * server's reason as `detail`) | "idle" (stopped).
   */
  /**
   * `url`: the socket's address, or a function giving it at each (re)connection (the app adds the room it shows:
   * `/ws?room=ID`, so a proxy routing by room sends the socket to that room's node).
   * @param {string | (() => string)} url
   */
  constructor(url, { onOpen, onMessage, onState }) {
    this.url = url;
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map();
    this.retry = 0;
    this.timer = null;
    this.stopped = false;
  }

  /** Open a socket, closing the current one first (a new name: `hello` is once per connection). */
  connect() {
    clearTimeout(this.timer);
    this.stopped = false;
    const old = this.ws;
    if (old) {
      // never two sockets: the older one would say hello too. Its handlers check `this.ws`, so once
      // replaced it reports nothing more; what waited for an answer on it fails now.
      this.ws = null;
      old.close(1000, "reconnecting");
      this.failWaiting();
    }
    this.onState("connecting");
    const ws = new WebSocket(typeof this.url === "function" ? this.url() : this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.retry = 0;
      this.onState("open");
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      if (typeof ev.data === "string") return; // the server only sends binary frames
      /** @type {any} */
      let msg;
      try {
        msg = unpack(ev.data);
      } catch (err) {
        console.warn("undecodable frame", err);
        return;
      }
      this.onMessage(msg);
      if (msg.re !== undefined && msg.re !== null && this.waiting.has(msg.re)) {
        const { resolve, reject, timer } = this.waiting.get(msg.re);
        this.waiting.delete(msg.re);
        clearTimeout(timer);
        if (msg.t === "error") reject(new ServerError(msg.code, msg.message));
        else resolve(msg);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failWaiting();
      if (ev.code === REPLACED) {
        this.onState("replaced");
        return; // another tab has this player now: fighting over the seat would never end
      }
      if (ev.code === SIGNED_OUT) {
        this.stopped = true; // the token is dead: the app decides what to say next (a guest hello, or a name first)
        this.onState("signedout");
        return;
      }
      if (ev.code === BANNED) {
        this.stopped = true; // a ban: reconnecting would only be refused again, over and over
        this.onState("banned", ev.reason || "");
        return;
      }
      this.onState("closed");
      if (!this.stopped) {
        const delay = Math.min(10000, 300 * 2 ** this.retry++) * (0.75 + Math.random() / 2);
        this.timer = setTimeout(() => this.connect(), delay);
      }
    };
  }

  /** Close for good (until the next `connect`): no reconnection. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "bye");
    this.failWaiting();
    this.onState("idle");
  }

  failWaiting() {
    for (const { reject, timer } of this.waiting.values()) {
      clearTimeout(timer);
      reject(new ServerError("closed", "connection closed"));
    }
    this.waiting.clear();
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** A socket is being opened (its `onOpen` will run). */
  get connecting() {
    return this.ws !== null && this.ws.readyState === WebSocket.CONNECTING;
  }

  /** Send a message without waiting for an answer. */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(pack(msg));
    return true;
  }

  /** Send `{t, id, ...fields}`; resolves with the answer carrying `re`, rejects with ServerError. */
  request(t, fields = {}) {
    if (!this.open) return Promise.reject(new ServerError("closed", "not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new ServerError("timeout", `no answer to ${t}`));
      }, TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      this.ws.send(pack({ t, id, ...fields }));
    });
  }
}
