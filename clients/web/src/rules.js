// The rules and player-aid panel of each game: what a turn is, what each action space does, each
// character's ability (from the view's own data), how the game ends and scores.
// Written from docs/games/<game>.md ("Rules as implemented"); the texts are in the message catalogues
// (`rules.*` in src/i18n/<lang>.json, the space and city names from the games' words); a character's name and
// ability come from the game data the server sends when the catalogue has no words for it.
// Owns: which texts make up each game's panel. Must not: decide a rule (the prompt alone says what is legal).
import { t, tOr } from "./i18n.js";

/** A term and what it does: the term is `term` (a catalogue key) or `<key>.term`, the text `<key>.what`. */
function item(key, term) {
  return [t(term || `${key}.term`), t(`${key}.what`)];
}

const AIDS = {
  expedition: () => [
    { title: t("rules.turn"), items: [item("rules.ex.move"), item("rules.ex.lighten"), item("rules.ex.pass")] },
    {
      title: t("rules.ex.scoring"),
      items: [item("rules.ex.chests"), item("rules.ex.kantshou", "w.ex.city.Kantshou"), item("rules.ex.daidu", "w.ex.city.Daidu")],
    },
  ],
  classic: () => [
    { title: t("rules.turn"), items: [item("rules.cl.spin"), item("rules.cl.raiders"), item("rules.cl.trade")] },
    {
      title: t("rules.cl.winning"),
      items: [item("rules.cl.khanbaliq", "w.cl.node.khanbaliq"), item("rules.cl.mission"), item("rules.cl.venice", "w.cl.node.venice")],
    },
  ],
  voyages: (view) => [
    {
      title: t("rules.turn"),
      text: t("rules.vo.turn"),
      items: [
        item("rules.vo.coins", "w.vo.space.coins"),
        item("rules.vo.bazaar"),
        item("rules.vo.khan", "w.vo.space.khan"),
        item("rules.vo.contracts", "w.vo.space.contracts"),
        item("rules.vo.travel", "w.vo.space.travel"),
        item("rules.vo.cards", "rules.cards.term"),
        item("rules.vo.bonus", "rules.bonus.term"),
      ],
    },
    characterSection("vo", view.public?.track?.characters),
    { title: t("rules.final"), text: t("rules.vo.final") },
  ],
  khan: (view) => [
    {
      title: t("rules.turn"),
      text: t("rules.kh.turn"),
      items: [
        item("rules.kh.books"),
        item("rules.kh.seals", "w.kh.space.seals"),
        item("rules.kh.travel"),
        item("rules.kh.contracts", "w.kh.space.contracts"),
        item("rules.kh.khan", "w.kh.space.khan"),
        item("rules.kh.special"),
        item("rules.kh.cards", "rules.cards.term"),
        item("rules.kh.bonus", "rules.bonus.term"),
      ],
    },
    characterSection("kh", view.public?.board?.characters),
    { title: t("rules.final"), text: t("rules.kh.final") },
  ],
};

/** The characters of the game data (id -> {name, ability}), in the catalogue's words where it has them. */
function characterSection(game, chars) {
  const items = Object.entries(chars || {})
    .filter(([, c]) => c && c.name)
    .map(([id, c]) => [tOr(`w.${game}.char.${id}`, c.name), tOr(`w.${game}.ability.${id}`, c.ability || "")]);
  return items.length ? { title: t("rules.characters"), items } : null;
}

/** The panel's sections for this view's game (none for a game without an aid). */
export function rulesFor(view, renderer) {
  if (renderer && typeof renderer.rules === "function") return renderer.rules(view).filter(Boolean);
  const aid = AIDS[view.game];
  return aid ? aid(view).filter(Boolean) : [];
}
