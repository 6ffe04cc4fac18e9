"""Marco Polo II: In the Service of the Khan (game id `khan`)."""

from server.games.khan.engine import GAME, Khan, KhanOptions

__all__ = ["GAME", "Khan", "KhanOptions"]
