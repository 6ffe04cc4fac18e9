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
