"""A simple greedy Expedition bot, used by the simulation to compare with the random bot.

Owns: a move choice from the prompt plus the public view. Must not: look at hidden state.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, Rng


class GreedyBot:
    """Moves whenever it can (cards first, lightening when it has no cards to pay), never passes by choice."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, prompt: dict[str, Any], view: dict[str, Any] | None = None) -> Move:
        """Prefer paying a space, then lightening, then picking cards, then drawing from the display."""
        options: list[Move] = prompt["options"]
        for kinds in (("move",), ("lighten",), ("choose", "pick"), ("draw",)):
            picks = [o for o in options if o["a"] in kinds]
            if picks:
                if kinds == ("draw",):
                    shown = [o for o in picks if o.get("from") == "display"]
                    picks = shown or picks
                return picks[self.rng.below(len(picks))]
        return options[0]


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
