// Web push in this browser (v1.2): whether it can receive it, its subscription, turning it on (after a click: the
// browser's permission, then the service worker `sw.js` is registered and subscribed with the server's VAPID key)
// and off (unsubscribed). What the server keeps goes through `notify` (`push`, `push_remove`), sent by the caller.
// Owns: the service worker's registration and the browser's PushSubscription. Must not: register anything before the
// player asks for web push, or talk to the server itself.

/** Why web push cannot work in this browser: "insecure" (not https nor localhost), "unsupported", or null. */
export function pushBlocker() {
  if (typeof window === "undefined") return "unsupported";
  if (!window.isSecureContext) return "insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || typeof Notification === "undefined") return "unsupported";
  return null;
}

/** A base64url text (the server's VAPID key) as bytes (`applicationServerKey`). */
export function keyBytes(text) {
  const b64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(buffer, text) {
  if (!buffer) return false;
  const a = new Uint8Array(buffer);
  const b = keyBytes(text);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** This browser's current subscription (null: none, or no service worker was ever registered here). */
export async function currentSubscription() {
  if (pushBlocker()) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration();
    return reg ? await reg.pushManager.getSubscription() : null;
  } catch {
    return null;
  }
}

/** What `notify` takes of a PushSubscription: `{endpoint, keys: {p256dh, auth}}`. */
export function subscriptionFields(sub) {
  const json = sub.toJSON();
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

export class PushFailed extends Error {
  /** @param {string} code "insecure", "unsupported", "denied" or "failed" @param {string} [detail] */
  constructor(code, detail = "") {
    super(detail || code);
    this.code = code;
    this.detail = detail;
  }
}

/**
 * After a click on "Turn on web push": the browser's permission, then the service worker (`sw.js?lang=LANG`) and a
 * subscription with the server's key (a subscription made with another key is replaced). Resolves to the
 * subscription; rejects with PushFailed.
 */
export async function subscribe(serverKey, lang) {
  const blocker = pushBlocker();
  if (blocker) throw new PushFailed(blocker);
  let permission = Notification.permission;
  if (permission !== "granted") {
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = Notification.permission;
    }
  }
  if (permission !== "granted") throw new PushFailed("denied");
  try {
    const reg = await navigator.serviceWorker.register(`sw.js?lang=${encodeURIComponent(lang)}`);
    await navigator.serviceWorker.ready;
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameKey(sub.options?.applicationServerKey, serverKey)) {
      await sub.unsubscribe();
      sub = null;
    }
    return sub || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(serverKey) }));
  } catch (err) {
    throw new PushFailed("failed", err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
}

/** Unsubscribe this browser; resolves to the endpoint it had (null: none). */
export async function unsubscribe() {
  const sub = await currentSubscription();
  if (!sub) return null;
  try {
    await sub.unsubscribe();
  } catch {
    /* the push service forgets it anyway once the server drops it */
  }
  return sub.endpoint;
}
