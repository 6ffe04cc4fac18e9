// The web push service worker (v1.2; built into dist/sw.js): registered by the settings page only when the player
// turns web push on (a click), as `sw.js?lang=LANG`. When the server pushes a turn (the webhook's JSON, decrypted by
// the browser: `{event, id, game, room, seat, name, deadline, url, at}`), it shows one notification in that
// language, tagged by room (a newer turn of the room replaces it); a click focuses an open tab of this client and
// asks it to open the room (or opens a new tab at the room).
// Owns: the notification's words and the click. Must not: cache pages or requests (there is no fetch handler: the
// client works as it does without it), or show anything the push did not say.
import { games, words } from "sw:words";

const sw = /** @type {any} */ (self);
const LANG = new URL(sw.location.href).searchParams.get("lang") || "en";

function fill(text, params) {
  return String(text || "").replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** The notification for a pushed turn: its title, body, tag (one per room) and the room to open on a click. */
function notificationFor(data, lang) {
  const w = words[lang] || words.en;
  const room = typeof data.room === "string" ? data.room : "";
  const game = games[data.game] || (typeof data.game === "string" ? data.game : "");
  return {
    title: w.title,
    options: {
      body: fill(w.body, { game }),
      tag: room ? `marcopolo-${room}` : "marcopolo",
      icon: "favicon.svg",
      data: { room },
    },
  };
}

sw.addEventListener("install", () => sw.skipWaiting());
sw.addEventListener("activate", (ev) => ev.waitUntil(sw.clients.claim()));

sw.addEventListener("push", (ev) => {
  let data = {};
  try {
    data = ev.data ? ev.data.json() || {} : {};
  } catch {
    data = {};
  }
  const { title, options } = notificationFor(data, LANG);
  ev.waitUntil(sw.registration.showNotification(title, options));
});

sw.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const room = ev.notification.data?.room || "";
  const url = new URL(room ? `./#/room/${encodeURIComponent(room)}` : "./", sw.registration.scope).href;
  ev.waitUntil(
    (async () => {
      const tabs = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      const tab = tabs.find((c) => c.url === url) || tabs.find((c) => new URL(c.url).origin === new URL(url).origin);
      if (!tab) return sw.clients.openWindow(url);
      tab.postMessage({ t: "open_room", room });
      return tab.focus();
    })(),
  );
});
