// Human names for what the game data knows by id (contracts, tiles, cards, goal cards), shared by the
// renderers. The game data gives these things no printed names, so a thing is named by what it is and
// does; an id never reaches the screen.
// Owns: the id → words rules and the last-line scrub of id-like words. Must not: know a game's rules.

/** The id patterns that must never be shown to a player (the tests look for the same). */
export const ID_PATTERN = /\b(?:contract|starter|offer|city-card|goal|outpost|marker|route|slot)-\d+(?:-\d+)*\b/g;

const KIND_WORDS = {
  contract: "a contract",
  starter: "a starting contract",
  offer: "an offer tile",
  "city-card": "a city card",
  goal: "a goal card",
  outpost: "an outpost tile",
  marker: "a bonus marker",
  route: "a caravan route",
  slot: "a city card space",
};

/** What kind of thing an id names, in words ("a contract"), for when nothing more is known. */
export function kindOf(id) {
  const m = /^([a-z-]+?)-\d/.exec(String(id));
  return (m && KIND_WORDS[m[1]]) || "one";
}

/** A contract in words: "the contract (pay …, get …)" or, unknown, "a (starting) contract". */
export function contractName(id, words) {
  const starter = String(id).startsWith("starter");
  if (!words) return kindOf(id);
  return `the ${starter ? "starting contract" : "contract"} (${words})`;
}

/** The last safety net: any id-like word left in a text becomes the words for its kind. */
export function scrubIds(text) {
  if (typeof text !== "string") return text;
  return text.replace(ID_PATTERN, (id) => kindOf(id));
}
