"""Marco Polo, the classic roll-and-move trading game (game id `classic`)."""

from server.games import register
from server.games.classic.engine import GAME, Classic, ClassicOptions

register(GAME)

__all__ = ["GAME", "Classic", "ClassicOptions"]
