"""A greedy Expedition bot: the search bot's playout policy and the server's "normal" level.

Owns: a move choice from the prompt plus the seat's view. Must not: look at hidden state.
With a view it scores every option of the prompt by the position it leaves (`GreedyBot.value`, issue 33):
the gold of a chest on the space entered, where the seat's figures stand (`place_value`: the gold their
space would score now, plus `STEP` per space of progress), what the hand still lacks to pay each figure's
next space (`missing`, `NEED` per card lacking), and `CARD` per card kept. It moves whenever it can pay
cards (holding them could stall the game: a seat that could move but passes restarts the stalemate count),
lightens the load (1 gold) only onto a scoring space (`lighten_pays`), and draws the face-up card that helps
that value most, or the deck's top card (worth `DECK`) when no face-up card helps more. The bot before took
the paid move with the best `move_score` and drew a face-up card at random, as the random bot does: it passed
with about six cards in hand that paid neither figure's next space (docs/games/expedition.md, "The normal
level against the easy one").
Without a view it plays as before (any paid move, lightening whenever it cannot pay, face-up cards).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, Rng
from server.games.expedition.data import COLOURS, DAIDU, GOODS, KANTSHOU, LEADER, colour_of, kind_of

#: `move_score` (the bot before issue 33's second change, kept for tests and comparisons): per gold of the chest
#: on the space entered, per space gained, per card paid
CHEST = 10.0
STEP_OLD = 1.0
CARD_OLD = 0.5

#: `GreedyBot.value`: per space of progress of a figure, per gold its space would score now (`place_value`),
#: per card the hand lacks to pay a figure's next space, per card held; what a blind draw from the deck is worth
#: (a face-up card must help more); the cost of lightening the load (its gold). Fitted on 400 seeded 2-seat
#: games against the random bot (step 0.5 / 1 / 1.5, need 2 / 1 / 0.5 / 0.25, deck 0 / 0.5 / 1).
STEP = 1.5
ZONE = 1.0
NEED = 0.5
CARD = 0.3
DECK = 0.5
LIGHTEN = 1.0
#: a paid move is always taken over stopping (a bot that hoards cards can stall the game for ever); picking
#: card by card comes after every listed move
STOP = -100.0
PICK = -50.0


def missing(req: dict[str, Any], hand: list[str]) -> int:
    """How many more cards `hand` needs to pay a space's requirement (0: it can pay)."""
    kind = req["kind"]
    if kind == "goods":
        return max(0, int(req["n"]) - max(sum(1 for c in hand if kind_of(c) == g) for g in GOODS))
    if kind == "leaders":
        return max(0, int(req["n"]) - sum(1 for c in hand if kind_of(c) == LEADER))
    if kind == "colour":
        return max(0, int(req["n"]) - max(sum(1 for c in hand if colour_of(c) == col) for col in COLOURS))
    if kind == "four_goods":
        return len(GOODS) - len({kind_of(c) for c in hand} & set(GOODS))
    return len(COLOURS) - len({colour_of(c) for c in hand})


def next_free(pos: int, taken: set[int], scored: bool) -> int:
    """The space a figure on `pos` enters next (as the engine's `next_free`: occupied spaces are skipped)."""
    q = pos + 1
    while q < DAIDU and q in taken and not (scored and q == KANTSHOU):
        q += 1
    return q


def place_value(pos: int, kantshou: str) -> float:
    """A figure's worth on `pos`: the gold its space would score if the scoring came now, plus its progress."""
    if kantshou != "scored":
        score = pos - 10 if 11 <= pos <= KANTSHOU else 0
    else:
        score = pos - 22 if pos >= 23 else 0
    return ZONE * score + STEP * pos


class GreedyBot:
    """Scores each option by the position it leaves (figures, hand) and moves whenever it can pay cards."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, prompt: dict[str, Any], view: dict[str, Any] | None = None) -> Move:
        """With a view: the best-valued option (ties drawn at random); without one, the play of old."""
        options: list[Move] = prompt["options"]
        priv = view.get("private") if view else None
        if view is None or not priv or "hand" not in priv:
            return self._blind(options)
        scored = self.scores(options, view["public"], list(priv["hand"]))
        best = max(s for s, _ in scored)
        picks = [o for s, o in scored if s >= best - 1e-9]
        return picks[self.rng.below(len(picks))]

    def scores(self, options: list[Move], pub: dict[str, Any], hand: list[str]) -> list[tuple[float, Move]]:
        """Each option's worth (lightening onto a space that scores nothing is left out): a draw by the value of
        the hand it gives, a move by the chest it takes plus the change of `value`; stopping and picking card by
        card come last."""
        seat: int = pub["turn"]
        positions = [f["pos"] for f in pub["figures"]]
        scored: list[tuple[float, Move]] = []
        if options[0]["a"] == "draw":
            for o in options:
                if o["from"] == "display":
                    scored.append((self.value(pub, seat, positions, [*hand, pub["display"][o["slot"]]]), o))
                else:
                    scored.append((self.value(pub, seat, positions, hand) + DECK, o))
        else:
            base = self.value(pub, seat, positions, hand)
            for o in options:
                a = o["a"]
                if a in ("pass", "stop", "cancel"):
                    scored.append((STOP, o))
                elif a in ("choose", "pick"):
                    scored.append((PICK, o))
                elif a == "lighten" and not lighten_pays(pub, o):
                    continue
                else:
                    fig = o["fig"]
                    target = pub["figures"][fig]["next"]
                    moved = list(positions)
                    moved[fig] = target
                    rest = list(hand)
                    for c in o.get("pay", []):
                        rest.remove(c)
                    gain = CHEST * pub["chests"][target] + self.value(pub, seat, moved, rest) - base
                    scored.append((gain - (LIGHTEN if a == "lighten" else 0.0), o))
        return scored

    def value(self, pub: dict[str, Any], seat: int, positions: list[int], hand: list[str]) -> float:
        """The seat's position: its figures' places, less what the hand lacks for their next spaces, plus cards."""
        mine = [i for i, f in enumerate(pub["figures"]) if f["seat"] == seat]
        v = sum(place_value(positions[i], pub["kantshou"]) for i in mine)
        scored = pub["kantshou"] == "scored"
        for i in mine:
            if positions[i] < DAIDU:
                taken = {p for j, p in enumerate(positions) if j != i}
                target = next_free(positions[i], taken, scored)
                v -= NEED * missing(pub["track"][target]["req"], hand)
        return v + CARD * len(hand)

    def _blind(self, options: list[Move]) -> Move:
        """Without a view (`simulate.py` feeds only the prompt): pay a space, else lighten, else pick, else draw
        a face-up card."""
        for kinds in (("move",), ("lighten",), ("choose", "pick"), ("draw",)):
            picks = [o for o in options if o["a"] in kinds]
            if picks:
                if kinds == ("draw",):
                    shown = [o for o in picks if o.get("from") == "display"]
                    picks = shown or picks
                return picks[self.rng.below(len(picks))]
        return next((o for o in options if o["a"] in ("pass", "stop")), options[0])


def lighten_pays(pub: dict[str, Any], o: Move) -> bool:
    """Lightening is worth its gold only onto a scoring space (Kantshou's 1..6 or Daidu's 1..7)."""
    target = pub["figures"][o["fig"]]["next"]
    return target is not None and bool(pub["track"][target].get("score"))


def move_score(pub: dict[str, Any], o: Move) -> float:
    """The bot before: a paid move's worth, the chest on the space it enters, the spaces it gains, less the cards."""
    fig = pub["figures"][o["fig"]]
    target = fig["next"]
    if target is None:
        return 0.0
    return float(CHEST * pub["chests"][target] + STEP_OLD * (target - fig["pos"]) - CARD_OLD * len(o["pay"]))


# ---- the search bot's playout cut-off ----------------------------------------------------

#: a playout that reaches the end adds this to the winner's margin (gold)
WIN_BONUS = 5.0
#: moves after which a playout stops and `evaluate` scores it
HORIZON = 60


def evaluate(state: dict[str, Any]) -> list[float]:
    """Estimated final gold per seat: gold held, what the figures' spaces would score, cards in hand."""
    from server.games.expedition.data import SECTION1, SECTION2, TRACK

    out = []
    for s in range(state["seats"]):
        g = state["gold"][s]
        v = float(g[0] + 2 * g[1] + 3 * g[2])
        for f in state["figs"]:
            if f["seat"] != s:
                continue
            pos = f["pos"]
            if (pos in SECTION1 and state["kantshou"] != "scored") or pos in SECTION2:
                v += float(TRACK[pos].score or 0)
            v += 0.15 * pos
        v += 0.3 * len(state["hands"][s])
        out.append(v)
    return out
