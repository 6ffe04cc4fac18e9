// Languages of the browser client: one message catalogue per language (src/i18n/<lang>.json), `t(key, params)`
// to look a message up, the chosen language in localStorage.
// The shell's messages are in src/i18n/<lang>.json; the games' words (keys `w.*`) in clients/words/<lang>.json,
// the same files the terminal client reads.
// Owns: the catalogues, the chosen language, `{name}` placeholders, plural forms (`key.one`/`key.other`).
// Must not: translate what the server sends (names of players and rooms) or anything the rules decide.
import en from "./i18n/en.json" with { type: "json" };
import es from "./i18n/es.json" with { type: "json" };
import fi from "./i18n/fi.json" with { type: "json" };
import hu from "./i18n/hu.json" with { type: "json" };
import it from "./i18n/it.json" with { type: "json" };
// the games' words (names, options, prompts, board texts), shared with the terminal client (clients/words/)
import wen from "../../words/en.json" with { type: "json" };
import wes from "../../words/es.json" with { type: "json" };
import wfi from "../../words/fi.json" with { type: "json" };
import whu from "../../words/hu.json" with { type: "json" };
import wit from "../../words/it.json" with { type: "json" };

/** The languages offered, each named in itself (the rule texts of the project came in these). */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "hu", name: "Magyar" },
  { code: "fi", name: "Suomi" },
  { code: "it", name: "Italiano" },
  { code: "es", name: "Español" },
];
const CATALOGUES = {
  en: { ...en, ...wen },
  hu: { ...hu, ...whu },
  fi: { ...fi, ...wfi },
  it: { ...it, ...wit },
  es: { ...es, ...wes },
};
const KEY = "marcopolo.lang";

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function initial() {
  const saved = stored();
  if (saved && CATALOGUES[saved]) return saved;
  const nav = (typeof navigator !== "undefined" && navigator.language) || "en";
  const code = nav.slice(0, 2).toLowerCase();
  return CATALOGUES[code] ? code : "en";
}

let current = initial();

export function lang() {
  return current;
}

/** Choose a language (kept in localStorage); the caller re-renders. */
export function setLang(code) {
  if (!CATALOGUES[code]) return;
  current = code;
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* private mode: the choice lasts as long as the tab */
  }
  if (typeof document !== "undefined") document.documentElement.lang = code;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && params[k] !== undefined ? String(params[k]) : m));
}

/**
 * The message `key` in the current language (English when the catalogue lacks it, the key itself when
 * English does too). With `params.n` a number, `key.one` or `key.other` is chosen first.
 */
export function t(key, params) {
  const cats = [CATALOGUES[current], en];
  let k = key;
  if (params && typeof params.n === "number") {
    const form = new Intl.PluralRules(current).select(params.n) === "one" ? "one" : "other";
    if (cats.some((c) => c[`${key}.${form}`] !== undefined)) k = `${key}.${form}`;
  }
  for (const c of cats) if (c[k] !== undefined) return fill(c[k], params);
  return key;
}

/** The message `key` when the catalogue has it, else `fallback` (data the server names and we may not know). */
export function tOr(key, fallback, params) {
  const out = t(key, params);
  return out === key ? fallback : out;
}

/** Whether `key` is a message of the English catalogue (for codes that may or may not have one). */
export function has(key) {
  return en[key] !== undefined || wen[key] !== undefined;
}

/** The catalogues, for the tests and the console. */
export const catalogues = CATALOGUES;
