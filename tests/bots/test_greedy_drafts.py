"""The greedy bots of the two dice games draft every character sometimes (issue 33): a fixed preference always
left the same character in the offer (Gantulga Od in Marco Polo II, Raschid in the Voyages)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from server.games import get_game
from server.games.khan.bots import GreedyBot as KhanBot
from server.games.khan.data import CHARACTERS as KHAN_CHARACTERS
from server.games.voyages.bots import GreedyBot as VoyagesBot
from server.games.voyages.data import CHARACTERS as VOYAGES_CHARACTERS

CASES = [
    ("khan", KhanBot, {}, KHAN_CHARACTERS),
    ("voyages", VoyagesBot, {"character_draft": True}, VOYAGES_CHARACTERS),
]


def drafted(game_id: str, bot: Any, options: dict[str, Any], seats: int, games: int) -> Counter[str]:
    """How often each character was picked in the drafts of `games` seeded set-ups, all seats greedy."""
    game = get_game(game_id)
    picks = Counter[str]()
    for seed in range(games):
        state = game.setup(seats, options, seed)
        bots = [bot(seed * 31 + s) for s in range(seats)]
        while state["phase"] == "draft":
            seat = game.active_seats(state)[0]
            prompt = game.prompt(state, seat)
            assert prompt is not None
            move = bots[seat].choose(prompt, game.view(state, seat))
            picks[move["character"]] += 1
            state = game.apply(state, seat, move)
    return picks


@pytest.mark.parametrize(("game_id", "bot", "options", "characters"), CASES, ids=[c[0] for c in CASES])
def test_four_greedy_bots_draft_every_character_sometimes(
    game_id: str, bot: Any, options: dict[str, Any], characters: dict[str, Any]
) -> None:
    picks = drafted(game_id, bot, options, 4, 60)
    assert set(picks) == set(characters), picks


def test_the_draft_is_seeded_so_a_replay_drafts_the_same() -> None:
    assert drafted("khan", KhanBot, {}, 4, 5) == drafted("khan", KhanBot, {}, 4, 5)
