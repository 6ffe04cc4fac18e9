"""Marco Polo Expedition (game id `expedition`)."""

from server.games import register
from server.games.expedition.engine import GAME, Expedition, ExpeditionOptions

register(GAME)

__all__ = ["GAME", "Expedition", "ExpeditionOptions"]
