// The rules and player-aid panel of each game: what a turn is, what each action space does, each
// character's ability (from the view's own data), how the game ends and scores.
// Written from docs/games/<game>.md ("Rules as implemented"); the characters' texts come from the game data
// the server sends. Owns: these texts. Must not: decide a rule (the prompt alone says what is legal).
import { t } from "./i18n.js";

const AIDS = {
  expedition: () => [
    {
      title: "A turn",
      items: [
        ["Move", "Move one of your figures (with two players: one of your two) to the next free space, paying the cards that space asks for. Occupied spaces are skipped. You may move several spaces, paying each one."],
        ["Lighten the load", "Once per turn: pay a 1-chest instead of a space's cards, onto a space another player's figure has already passed (never Daidu, never a space with a chest)."],
        ["Pass or stop", "Pass instead of moving, or stop after moving; then draw one card: a face-up one or the top of the deck."],
      ],
    },
    {
      title: "Chests and scoring",
      items: [
        ["Chests", "A chest on the track goes to the first figure that enters its space."],
        ["Kantshou", "The first figure there ends its player's turn; every figure on spaces 11 to 16 scores 1 to 6 gold and moves onto Kantshou."],
        ["Daidu", "The first figure there ends the game: figures on spaces 23 to 29 score 1 to 7. Most gold wins; a tie goes to the figure nearest Daidu."],
      ],
    },
  ],
  classic: () => [
    {
      title: "A turn",
      items: [
        ["Spin", "Choose land or sea (only at Venice or a port may you change), then spin that route's wheel and move exactly that many steps, or stop earlier at a trading post. Ports, Venice and your mission city always end a move."],
        ["Robbers and pirates", "A hazard sector means no move: both dice are rolled, and if the raiders' die is higher you pay 50 bezants or a goods card onto that wheel's ransom space; a tie or a win takes what lies there (or 30 from the bank)."],
        ["Trade", "Ending at a trading post: sell goods cards at face value, then buy up to 3 cards of the post's colour for 20 each, or force a sale from a player whose pawn was already there (30 bezants, a random card)."],
      ],
    },
    {
      title: "The mission and winning",
      items: [
        ["Khanbaliq", "With three 80-cards you must stop there: they go as gifts and you take a Golden Table (worth 240, it protects you against raiders during the mission)."],
        ["Mission", "Reach your Table's city: you reveal it and take a Secret of the East (240)."],
        ["Venice", "Arrive in Venice with the mission done, a total of at least 1000 / 800 / 600 (2 / 3 / 4 players) and one or two cards of each of turquoise, yellow and green: you win. A round limit ends long games by progress, then total."],
      ],
    },
  ],
  voyages: (view) => [
    {
      title: "A turn",
      text: "Each round everyone rolls 5 dice. On your turn take exactly one main action by placing the dice it asks for, and any bonus actions before or after it. An occupied blue space costs coins equal to the lowest die placed. The round ends when nobody has a die; the game after round 5.",
      items: [
        ["Take 5 coins", "1 die: 5 coins whatever its value."],
        ["Bazaar", "1, 1, 2 or 3 dice for camels, pepper, silk or gold; the lowest die picks the column (more of the good for higher dice)."],
        ["Khan's favor", "1 die, each at least the one before it: 2 camels and 1 good of your choice, no fee."],
        ["Contracts", "1 die: take 1 or 2 contracts from the slots numbered up to the die; at most 2 active contracts."],
        ["Travel", "2 dice: up to the lowest die steps, paying the travel cost and each route's extra cost; ending in a new city places a trading post."],
        ["City cards", "1 die, with a post in that city: the card's action, as many times as the die shows."],
        ["Bonus actions", "Fulfil a contract, the money bag (any die: 3 coins), reroll a die (1 camel), turn a die by 1 (2 camels), buy a black die (3 camels)."],
      ],
    },
    characterSection(view.public?.track?.characters),
    {
      title: "Final scoring",
      text: "Points from the game, goal cards (posts in both their cities), distinct goal cities with a post (1/3/6/10), 1 VP per 10 coins, the Beijing space, 1 VP per 2 goods with a Beijing post, 7 VP for the most completed contracts. Ties go to the most camels.",
    },
  ],
  khan: (view) => [
    {
      title: "A turn",
      text: "Each round everyone rolls 5 dice. On your turn take one main action by placing dice on an action space, and any bonus actions before or after it. An occupied blue space costs coins equal to the lowest die placed. The round ends when nobody has a die; the game after round 5.",
      items: [
        ["Books I, II, III", "One of the 4 offers of that book's tile (the bottom two cost jade). Book II needs a die of 3 or more, book III of 5 or more."],
        ["Guild seals", "2 dice: a guild seal the lowest die allows, with its jade."],
        ["Travel 1 / 3 / 6", "1 die: 1 location and 2 coins; 2 dice: up to 3; 3 dice: up to 6 and an extra trading post; never more than the lowest die. Routes cost coins, camels or jade; sea routes need the seal."],
        ["Contracts", "With a post in a contract city: take 1 or 2 of its contracts, then 3 coins. At most 2 active contracts."],
        ["Khan's favor", "1 die, each at least the one before it: 4 coins and 2 camels."],
        ["Special cities", "With a post there: the fixed reward, plus the matching improved seal's bonus once (die 1 to 3) or twice (4 to 6)."],
        ["City cards", "With a post in the card's city (the action-area cards need none): the card's action, by the die's value; once a round."],
        ["Bonus actions", "Complete a contract, improve a seal, the money bag (any die: 3 coins, 2 camels or 1 jade), reroll (1 camel), turn a die by 1 (2 camels), buy a black die (3 camels)."],
      ],
    },
    characterSection(view.public?.board?.characters),
    {
      title: "Final scoring",
      text: "Points from the game, improved seals shown on your goal card, the shield track (different shields of cities with your posts), 1 VP per 2 goods, 1 VP per 10 coins, 8 and 4 VP for the most completed contracts (not with 2 players). Ties go to the most camels.",
    },
  ],
};

function characterSection(chars) {
  const items = Object.values(chars || {})
    .filter((c) => c && c.name)
    .map((c) => [c.name, c.ability || ""]);
  return items.length ? { title: t("rules.characters"), items } : null;
}

/** The panel's sections for this view's game (none for a game without an aid). */
export function rulesFor(view, renderer) {
  if (renderer && typeof renderer.rules === "function") return renderer.rules(view).filter(Boolean);
  const aid = AIDS[view.game];
  return aid ? aid(view).filter(Boolean) : [];
}
