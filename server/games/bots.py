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

    def choose(self, prompt: dict[str, Any], view: dict[str, Any] | None = None) -> Move:
        """One of the prompt's options."""
        options: list[Move] = prompt["options"]
        return options[self.rng.below(len(options))]


def bot_for(game_id: str, seed: int) -> Any:
    """The best bot a game offers (its `bots.GreedyBot`), else the random bot; `choose(prompt, view)`."""
    import importlib

    try:
        module = importlib.import_module(f"server.games.{game_id}.bots")
    except ImportError:
        return RandomBot(seed)
    greedy = getattr(module, "GreedyBot", None)
    return greedy(seed) if greedy is not None else RandomBot(seed)
