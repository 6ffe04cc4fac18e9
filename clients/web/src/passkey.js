// Passkeys (WebAuthn, docs/protocol.md "Passkeys (HTTP routes on the node's port)"): the two ceremonies over the
// node's GET routes, inputs in headers. Sign-in: login options → navigator.credentials.get → {player, name,
// token} (the app then says `hello` with that token). Adding one: register options (the account's token) →
// navigator.credentials.create → {ok, id}.
// Owns: base64url, the options' decoding and the credential's JSON (as PublicKeyCredential.toJSON() makes it),
// where a browser lacks parseRequestOptionsFromJSON/parseCreationOptionsFromJSON/toJSON.
// Must not: keep a token (the app's session does) or talk to the socket.

const ROUTES = "/auth/passkey/";

/** A failed ceremony: `code` is the server's (`bad_credentials`, `forbidden`, `rate_limited`, `unavailable`), or
 * "cancelled" (the person closed the browser's prompt, or it timed out), "unsupported", "network". */
export class PasskeyError extends Error {
  constructor(code, message = code) {
    super(message);
    this.code = code;
  }
}

/** Passkeys can be offered here: the browser has WebAuthn (and the page a secure origin, as browsers require). */
export function passkeysAvailable() {
  return (
    typeof window !== "undefined" &&
    typeof window.PublicKeyCredential !== "undefined" &&
    typeof navigator !== "undefined" &&
    Boolean(navigator.credentials)
  );
}

/** Bytes (ArrayBuffer or a view) as base64url without padding. */
export function toBase64url(buf) {
  const bytes = buf instanceof Uint8Array ? buf : ArrayBuffer.isView(buf) ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url (padded or not) as an ArrayBuffer. */
export function fromBase64url(text) {
  const b64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

/** A string's UTF-8 bytes as base64url (the X-Credential header). */
export function textToBase64url(text) {
  return toBase64url(new TextEncoder().encode(text));
}

const descriptors = (list) => (list || []).map((d) => ({ ...d, id: fromBase64url(d.id) }));

/** PublicKeyCredentialRequestOptionsJSON → the options navigator.credentials.get takes. */
export function requestOptions(json) {
  const PKC = typeof window !== "undefined" ? /** @type {any} */ (window.PublicKeyCredential) : undefined;
  if (PKC && typeof PKC.parseRequestOptionsFromJSON === "function") return PKC.parseRequestOptionsFromJSON(json);
  const out = { ...json, challenge: fromBase64url(json.challenge) };
  if (json.allowCredentials) out.allowCredentials = descriptors(json.allowCredentials);
  return out;
}

/** PublicKeyCredentialCreationOptionsJSON → the options navigator.credentials.create takes. */
export function creationOptions(json) {
  const PKC = typeof window !== "undefined" ? /** @type {any} */ (window.PublicKeyCredential) : undefined;
  if (PKC && typeof PKC.parseCreationOptionsFromJSON === "function") return PKC.parseCreationOptionsFromJSON(json);
  const out = { ...json, challenge: fromBase64url(json.challenge), user: { ...json.user, id: fromBase64url(json.user.id) } };
  if (json.excludeCredentials) out.excludeCredentials = descriptors(json.excludeCredentials);
  return out;
}

/** A PublicKeyCredential as JSON, the way toJSON() writes it (built by hand where toJSON is missing). */
export function credentialJSON(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const b = (x) => (x ? toBase64url(x) : null);
  const response = { clientDataJSON: b(r.clientDataJSON) };
  if (r.attestationObject) {
    // a registration
    response.attestationObject = b(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
    if (typeof r.getAuthenticatorData === "function") response.authenticatorData = b(r.getAuthenticatorData());
    if (typeof r.getPublicKeyAlgorithm === "function") response.publicKeyAlgorithm = r.getPublicKeyAlgorithm();
    if (typeof r.getPublicKey === "function" && r.getPublicKey()) response.publicKey = b(r.getPublicKey());
  } else {
    response.authenticatorData = b(r.authenticatorData);
    response.signature = b(r.signature);
    response.userHandle = b(r.userHandle);
  }
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment ?? null,
    response,
    clientExtensionResults: typeof cred.getClientExtensionResults === "function" ? cred.getClientExtensionResults() : {},
  };
}

/** A GET on a passkey route with `headers`; the JSON answer, or a PasskeyError with the server's code. */
async function call(route, headers) {
  let res;
  try {
    res = await fetch(ROUTES + route, { method: "GET", headers, cache: "no-store", credentials: "omit" });
  } catch {
    throw new PasskeyError("network");
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON: said below */
  }
  if (!res.ok || !body || body.error) throw new PasskeyError(body?.error || (res.status === 404 ? "unsupported" : "network"), body?.message || `HTTP ${res.status}`);
  return body;
}

/** The browser's prompt, its refusals as PasskeyErrors (NotAllowedError: cancelled or timed out). */
async function ceremony(run) {
  let cred;
  try {
    cred = await run();
  } catch (err) {
    const name = err?.name || "";
    if (name === "NotAllowedError" || name === "AbortError") throw new PasskeyError("cancelled", String(err?.message || name));
    if (name === "InvalidStateError") throw new PasskeyError("exists", String(err?.message || name));
    if (name === "SecurityError" || name === "NotSupportedError") throw new PasskeyError("unsupported", String(err?.message || name));
    throw new PasskeyError("failed", String(err?.message || err));
  }
  if (!cred) throw new PasskeyError("cancelled");
  return textToBase64url(JSON.stringify(credentialJSON(cred)));
}

/** Sign in with a passkey of this device (a discoverable credential): resolves to {player, name, token}. */
export async function signInWithPasskey(device) {
  if (!passkeysAvailable()) throw new PasskeyError("unsupported");
  const { ceremony: id, options } = await call("login/options", {});
  const credential = await ceremony(() => navigator.credentials.get({ publicKey: requestOptions(options) }));
  const headers = { "X-Ceremony": id, "X-Credential": credential };
  if (device) headers["X-Device"] = device;
  return call("login", headers);
}

/** Add a passkey to the account whose token this is: resolves to {ok, id}. */
export async function addPasskey(token) {
  if (!passkeysAvailable()) throw new PasskeyError("unsupported");
  const auth = { Authorization: `Bearer ${token}` };
  const { ceremony: id, options } = await call("register/options", auth);
  const credential = await ceremony(() => navigator.credentials.create({ publicKey: creationOptions(options) }));
  return call("register", { ...auth, "X-Ceremony": id, "X-Credential": credential });
}
