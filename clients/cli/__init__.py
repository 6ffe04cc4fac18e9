"""The reference terminal client: `python -m clients.cli` (see `clients/cli/__main__.py`).

Modules: `session` (token file, reconnect, re-join), `render` (pure view -> rich renderables, a
renderer registry by game id), `games/` (one renderer per game), `interactive` (lobby and room
screens), `bot` (`--bot random`).
"""
