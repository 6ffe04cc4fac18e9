"""Bots that play any game from its prompt alone.

Owns: choosing one option of a prompt. Must not: know any game's rules beyond the prompt.
The bot's randomness is its own seeded RNG, never the game's.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Move, Rng


class RandomBot:
    """Picks a uniformly random option of the prompt."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, prompt: dict[str, Any]) -> Move:
        """One of the prompt's options."""
        options: list[Move] = prompt["options"]
        return options[self.rng.below(len(options))]
