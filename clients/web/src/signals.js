// Turn signals, for every room (live or turn-based): when it becomes this player's move, the tab's title gets a
// prefix ("● Your move — Marco Polo"), the favicon a badge (drawn on a canvas into a data: URL), a short beep
// (WebAudio; off until switched on, the choice in localStorage) and, while the tab is hidden, a system
// notification (the Notification API; the browser's permission is asked only after the "Enable notifications"
// button is pressed, the choice in localStorage). All of them clear when the player moves in that room or comes
// back to the tab (it is shown again, or gets the focus after losing it). The title and badge can be switched off
// (on by default, the choice in localStorage); the settings page (`#/settings`) holds the three choices.
// Owns: the title, the favicon's link, the beep, the notifications and the three choices.
// Must not: decide whose turn it is beyond the view's `prompt` (the server's).
import { t } from "./i18n.js";

export const BASE_TITLE = "Marco Polo";
export const SOUND_KEY = "marcopolo.sound";
export const NOTIFY_KEY = "marcopolo.notify";
export const MARKS_KEY = "marcopolo.marks";
const ICON = "favicon.svg";

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function keep(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: the choice lasts as long as the tab */
  }
}

/** Whether a room's view asks this player for a move now (its own prompt, in a game not over or closed). */
export function asksForMove(view) {
  if (!view || view.you === null || view.you === undefined) return false;
  if (view.result || view.closed || view.status !== "playing") return false;
  return Boolean(view.prompt && (!Array.isArray(view.prompt.options) || view.prompt.options.length));
}

/** The tab's title for `n` rooms waiting for this player's move (0: the plain title). */
export function titleFor(n) {
  if (!n) return BASE_TITLE;
  return n === 1 ? t("signal.title", { title: BASE_TITLE }) : t("signal.titleMany", { n, title: BASE_TITLE });
}

export class Signals {
  /** @param {{open?: (room: string) => void}} [hooks] `open(room)`: a notification was clicked */
  constructor(hooks = {}) {
    this.open = hooks.open || (() => {});
    /** room -> whether its last view asked for this player's move */
    this.asked = new Map();
    /** rooms whose move became this player's and that were not looked at since (the title and badge say so) */
    this.attention = new Set();
    /** the tab was hidden or lost the focus since the signals were last cleared */
    this.away = typeof document !== "undefined" && document.visibilityState === "hidden";
    /** room -> its open system notification */
    this.shown = new Map();
    /** counters for the console and the tests */
    this.beeps = 0;
    this.notified = 0;
    this.badge = null; // the favicon with its badge, as a data: URL (drawn once)
    this.audio = null;
    if (typeof document === "undefined") return;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.away = true;
      else this.back();
    });
    window.addEventListener("blur", () => {
      this.away = true;
    });
    window.addEventListener("focus", () => this.back());
  }

  // ---- the choices ----------------------------------------------------------------------------

  get sound() {
    return stored(SOUND_KEY) === "on";
  }

  /** Whether the tab's title and icon say that it is this player's move (on unless switched off). */
  get marks() {
    return stored(MARKS_KEY) !== "off";
  }

  /** Switch the title's prefix and the icon's badge on or off (the page shows the choice at once). */
  setMarks(on) {
    keep(MARKS_KEY, on ? null : "off");
    this.show();
  }

  /** Switch the beep on or off (a click: the audio may start now, and a beep says what it sounds like). */
  setSound(on) {
    keep(SOUND_KEY, on ? "on" : null);
    if (on) this.beep();
  }

  /** "unsupported", "denied" (by the browser), "on", or "off". */
  get notifications() {
    if (typeof Notification === "undefined") return "unsupported";
    if (Notification.permission === "denied") return "denied";
    return Notification.permission === "granted" && stored(NOTIFY_KEY) === "on" ? "on" : "off";
  }

  /** After a click on "Enable notifications": ask the browser's permission; resolves to the new state. */
  async enableNotifications() {
    if (typeof Notification === "undefined") return "unsupported";
    let permission = Notification.permission;
    if (permission !== "granted") {
      try {
        permission = await Notification.requestPermission();
      } catch {
        permission = Notification.permission;
      }
    }
    if (permission === "granted") keep(NOTIFY_KEY, "on");
    return this.notifications;
  }

  disableNotifications() {
    keep(NOTIFY_KEY, null);
    this.closeAll();
  }

  // ---- the rooms ------------------------------------------------------------------------------

  /**
   * A room's view changed (or came): signal when it now asks for this player's move and did not before.
   * `title`: the game's name, for the notification.
   */
  update(room, view, title = null) {
    const now = asksForMove(view);
    const before = this.asked.get(room) || false;
    this.asked.set(room, now);
    if (now && !before) this.raise(room, title || view.game);
    else if (!now && before) this.clear(room);
  }

  /** The player moved in `room` (or left it): its signals go, the move being made. */
  moved(room) {
    this.clear(room);
  }

  /** Forget every room (another player signed in on this page). */
  reset() {
    this.asked.clear();
    this.attention.clear();
    this.closeAll();
    this.show();
  }

  raise(room, title) {
    this.attention.add(room);
    this.show();
    if (this.sound) this.beep();
    if (typeof document !== "undefined" && document.visibilityState === "hidden") this.notify(room, title);
  }

  clear(room) {
    const had = this.attention.delete(room);
    const note = this.shown.get(room);
    if (note) {
      this.shown.delete(room);
      note.close?.();
    }
    if (had) this.show();
  }

  /** Back on the tab: whatever was signalled has been seen. */
  back() {
    if (!this.away) return;
    this.away = false;
    this.attention.clear();
    this.closeAll();
    this.show();
  }

  closeAll() {
    for (const note of this.shown.values()) note.close?.();
    this.shown.clear();
  }

  // ---- what the player sees and hears ---------------------------------------------------------

  /** The title and the favicon for the rooms waiting now (also after a language change). */
  show() {
    if (typeof document === "undefined") return;
    const n = this.marks ? this.attention.size : 0;
    const title = titleFor(n);
    if (document.title !== title) document.title = title;
    this.drawIcon(n > 0);
  }

  iconLink() {
    let link = document.querySelector("link[rel~='icon']");
    if (!link) {
      link = document.createElement("link");
      link.setAttribute("rel", "icon");
      document.head.append(link);
    }
    return link;
  }

  drawIcon(badged) {
    const link = this.iconLink();
    if (!badged) {
      if (link.getAttribute("href") !== ICON) {
        link.setAttribute("type", "image/svg+xml");
        link.setAttribute("href", ICON);
      }
      return;
    }
    const put = (url) => {
      if (!this.attention.size || !this.marks) return; // cleared (or switched off) while it was drawn
      link.setAttribute("type", "image/png");
      if (link.getAttribute("href") !== url) link.setAttribute("href", url);
    };
    if (this.badge) return put(this.badge);
    const img = new Image();
    img.onload = () => put((this.badge = badgedIcon(img)));
    img.onerror = () => put((this.badge = badgedIcon(null)));
    img.src = ICON;
  }

  /** A short two-note beep (WebAudio); nothing where the browser has no audio or refuses it. */
  beep() {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    try {
      this.audio ||= new Ctx();
      const ctx = this.audio;
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const at = ctx.currentTime + 0.01;
      [660, 880].forEach((freq, i) => {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const start = at + i * 0.14;
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
        osc.connect(gain).connect(ctx.destination);
        osc.start(start);
        osc.stop(start + 0.13);
      });
      this.beeps += 1;
    } catch {
      /* no audio here */
    }
  }

  /** A system notification for `room` (only while the tab is hidden and notifications are switched on). */
  notify(room, title) {
    if (this.notifications !== "on") return;
    try {
      const note = new Notification(t("signal.notifyTitle"), {
        body: t("signal.notifyBody", { game: title || "" }),
        tag: `marcopolo-${room}`,
        icon: ICON,
      });
      note.onclick = () => {
        window.focus();
        this.open(room);
        note.close();
      };
      this.shown.get(room)?.close?.();
      this.shown.set(room, note);
      this.notified += 1;
    } catch {
      /* a browser that makes notifications only from a service worker (Android): the title and badge remain */
    }
  }
}

/** The favicon (`img`, or a plain disc without it) with a red badge at its top right, as a PNG data: URL. */
function badgedIcon(img) {
  const size = 64;
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext("2d");
  if (!ctx) return ICON;
  if (img) ctx.drawImage(img, 0, 0, size, size);
  else {
    ctx.fillStyle = "#3d2b1c";
    ctx.fillRect(0, 0, size, size);
  }
  ctx.beginPath();
  ctx.arc(46, 18, 16, 0, Math.PI * 2);
  ctx.fillStyle = "#ffffff";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(46, 18, 12.5, 0, Math.PI * 2);
  ctx.fillStyle = "#d1241a";
  ctx.fill();
  try {
    return canvas.toDataURL("image/png");
  } catch {
    return ICON;
  }
}
