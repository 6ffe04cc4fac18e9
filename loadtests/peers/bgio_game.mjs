// The peers' game for boardgame.io 0.50 (shared by bgio_server.mjs and the driver's clients).
//
// G holds the deck and every hand; `playerView` gives each seat its own hand and only the sizes of the
// others (and of the deck). The move runs on the server only (`client: false`): the client cannot know
// the card it draws. One move per turn (`maxMoves: 1` ends the turn).
import { DECK, HAND, rank, shuffled } from "./game.mjs";

export function makeGame({ deltaState = false } = {}) {
  return {
    name: "hand",
    minPlayers: 2,
    maxPlayers: 6,
    deltaState,
    setup: ({ ctx, random }) => {
      const deck = shuffled(() => random.Number());
      const hands = {};
      for (let p = 0; p < ctx.numPlayers; p++) hands[p] = deck.splice(0, HAND);
      return { deck, hands, scores: Array(ctx.numPlayers).fill(0), top: -1, turn: 0 };
    },
    moves: {
      play: {
        client: false,
        move: ({ G, playerID }, index) => {
          const hand = G.hands[playerID];
          if (!Number.isInteger(index) || index < 0 || index >= hand.length) return "INVALID_MOVE";
          const [card] = hand.splice(index, 1);
          G.scores[+playerID] += rank(card);
          G.top = card;
          if (G.deck.length) hand.push(G.deck.shift());
          G.turn += 1;
        },
      },
    },
    turn: { minMoves: 1, maxMoves: 1 },
    endIf: ({ G }) => (G.turn >= DECK ? { scores: G.scores } : undefined),
    playerView: ({ G, playerID }) => {
      const handSizes = Object.values(G.hands).map((h) => h.length);
      const hand = playerID !== null && playerID !== undefined ? G.hands[playerID] : undefined;
      return { hand, handSizes, deckSize: G.deck.length, scores: G.scores, top: G.top, turn: G.turn };
    },
  };
}
