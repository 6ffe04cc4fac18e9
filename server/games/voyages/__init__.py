"""The Voyages of Marco Polo (game id `voyages`)."""

from server.games import register
from server.games.voyages.engine import GAME, Voyages, VoyagesOptions

register(GAME)

__all__ = ["GAME", "Voyages", "VoyagesOptions"]
