"""Registry of rule engines by game id. Engines register here; nothing else needs to change."""

from __future__ import annotations

from server.games.base import Game, IllegalMove, Rng

_REGISTRY: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add an engine to the registry (called once per game package)."""
    if game.id in _REGISTRY:
        raise ValueError(f"game {game.id!r} registered twice")
    _REGISTRY[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    """The engine for `game_id`; raises KeyError for an unknown id."""
    _load()
    return _REGISTRY[game_id]


def all_games() -> dict[str, Game]:
    """Every registered engine by id."""
    _load()
    return dict(_REGISTRY)


def _load() -> None:
    """Import every game package below this one; each registers itself on import.

    A flag, not a non-empty registry, says it is done: importing one game package directly (a test that
    imports an engine) registers that game alone, and the others must still be loaded.
    """
    global _loaded
    if _loaded:
        return
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


__all__ = ["Game", "IllegalMove", "Rng", "all_games", "get_game", "register"]
