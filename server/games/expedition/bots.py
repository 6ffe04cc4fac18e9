"""A greedy Expedition bot: the search bot's playout policy and the server's "normal" level.

Owns: a move choice from the prompt plus the seat's view. Must not: look at hidden state.
It moves whenever it can pay cards, and draws face-up cards. With a view (issue 33) it takes the best paid move
by `move_score` (a chest on the space entered first, then the spaces gained, occupied spaces being skipped for
free, then the fewest cards) and lightens the load (1 gold) only onto a scoring space (`lighten_pays`); it used
to lighten whenever no card paid, about 8 of its 20 gold a 2-seat game. Without a view it plays as before (any
paid move, lightening whenever it cannot pay).
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, Rng

#: what a move is worth: per gold of the chest on the space entered, per space gained, per card paid
CHEST = 10.0
STEP = 1.0
CARD = 0.5


class GreedyBot:
    """Moves whenever it can pay cards; lightens when it has no cards to pay (with a view: onto scoring spaces)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, prompt: dict[str, Any], view: dict[str, Any] | None = None) -> Move:
        """Prefer paying a space, then lightening, then picking cards, then drawing from the display."""
        options: list[Move] = prompt["options"]
        pub = view.get("public") if view else None
        for kinds in (("move",), ("lighten",), ("choose", "pick"), ("draw",)):
            picks = [o for o in options if o["a"] in kinds]
            if picks:
                if kinds == ("draw",):
                    shown = [o for o in picks if o.get("from") == "display"]
                    picks = shown or picks
                elif kinds == ("lighten",) and pub is not None:
                    picks = [o for o in picks if lighten_pays(pub, o)]
                    if not picks:
                        continue
                elif kinds == ("move",) and pub is not None:
                    scored = [move_score(pub, o) for o in picks]
                    best = max(scored)
                    picks = [o for o, s in zip(picks, scored, strict=True) if s == best]
                return picks[self.rng.below(len(picks))]
        return next((o for o in options if o["a"] in ("pass", "stop")), options[0])


def lighten_pays(pub: dict[str, Any], o: Move) -> bool:
    """Lightening is worth its gold only onto a scoring space (Kantshou's 1..6 or Daidu's 1..7)."""
    target = pub["figures"][o["fig"]]["next"]
    return target is not None and bool(pub["track"][target].get("score"))


def move_score(pub: dict[str, Any], o: Move) -> float:
    """A paid move's worth: the chest on the space it enters, the spaces it gains, less the cards it costs."""
    fig = pub["figures"][o["fig"]]
    target = fig["next"]
    if target is None:
        return 0.0
    return float(CHEST * pub["chests"][target] + STEP * (target - fig["pos"]) - CARD * len(o["pay"]))


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
