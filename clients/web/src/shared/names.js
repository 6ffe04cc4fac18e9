// Human names for what the game data knows by id (contracts, tiles, cards, goal cards), shared by the
// renderers. The game data gives these things no printed names, so a thing is named by what it is and
// does; an id never reaches the screen.
// Owns: the id → words rules and the last-line scrub of id-like words. Must not: know a game's rules.
import { t } from "../i18n.js";

/** The id patterns that must never be shown to a player (the tests look for the same). */
export const ID_PATTERN = /\b(?:contract|starter|offer|city-card|goal|outpost|marker|route|slot)-\d+(?:-\d+)*\b/g;

const KINDS = new Set(["contract", "starter", "offer", "city-card", "goal", "outpost", "marker", "route", "slot"]);

/** What kind of thing an id names, in words ("a contract"), for when nothing more is known. */
export function kindOf(id) {
  const m = /^([a-z-]+?)-\d/.exec(String(id));
  return m && KINDS.has(m[1]) ? t(`w.kind.${m[1]}`) : t("w.kind.one");
}

/** A contract in words: "the contract (pay …, get …)" or, unknown, "a (starting) contract". */
export function contractName(id, words) {
  const starter = String(id).startsWith("starter");
  if (!words) return kindOf(id);
  return t(starter ? "w.contract.starter" : "w.contract.the", { words });
}

/** The last safety net: any id-like word left in a text becomes the words for its kind. */
export function scrubIds(text) {
  if (typeof text !== "string") return text;
  return text.replace(ID_PATTERN, (id) => kindOf(id));
}
