"""Seats around the table: the drawn start player, clockwise order and the character draft order.

Seat numbers are the order players joined in and never change; who starts is drawn from the room's seed,
and everything the rules count "clockwise from the start player" counts from the drawn seat.
"""

from __future__ import annotations

from server.games.base import Rng


def draw_start(rng: Rng, seats: int) -> int:
    """The start player of round 1, drawn from the game's RNG (never a fixed seat)."""
    return rng.below(seats)


def clockwise(start: int, seat: int, seats: int) -> int:
    """How many places `seat` sits clockwise after `start` (0 for `start` itself)."""
    return (seat - start) % seats


def turn_order(start: int, seats: int) -> list[int]:
    """Every seat, clockwise from `start`."""
    return [(start + i) % seats for i in range(seats)]


def draft_order(start: int, seats: int) -> list[int]:
    """The character draft: the player to the start player's right picks first, then counter-clockwise."""
    return [(start - 1 - i) % seats for i in range(seats)]
