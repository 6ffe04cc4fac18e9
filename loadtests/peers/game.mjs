// The peers' game, the same rules on every server: a hidden-hand card game.
//
// 4 seats (2..6 work). A deck of DECK cards (ids 0..DECK-1) is shuffled; every seat is dealt HAND cards.
// Seats take turns in order: the seat to move plays one card of its hand (by its index in the hand) onto the
// pile, scores that card's rank (id % 13 + 1) and draws the deck's top card while the deck lasts. The game
// ends when every hand is empty (DECK moves). Public: whose turn, the turn counter, the deck's size, the
// pile's top card, the scores and every hand's size. Private: one's own hand. Nobody sees the deck's order.
export const DECK = 120;
export const HAND = 3;

export function rank(card) {
  return (card % 13) + 1;
}

/** A fresh deck in a random order (Fisher-Yates with `random`, a function returning [0, 1)). */
export function shuffled(random) {
  const deck = Array.from({ length: DECK }, (_, i) => i);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}
