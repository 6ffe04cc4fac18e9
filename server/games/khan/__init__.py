"""Marco Polo II: In the Service of the Khan (game id `khan`)."""

from server.games import register
from server.games.khan.engine import GAME, Khan, KhanOptions

register(GAME)

__all__ = ["GAME", "Khan", "KhanOptions"]
