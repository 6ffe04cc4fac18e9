"""Ratings per game: OpenSkill (Plackett-Luce), one rating per player id, bots included.

Owns: turning a finished game's result into new ratings (`rate_game`, pure) and the wire figure
(`shown`: the ordinal mu - 3 sigma times 100, rounded to an integer, since the wire carries no floats).
Must not: store anything (the caller saves the rows in `server.store.records`).

Who is rated (`rated_ids`, v1.2): only a game of a public room whose every person's seat is an account
(guests are never rated, and a game with one is not rated at all); in it, server bots by `bot` plus their
level when the id carries one (`bot:<level>:<n>`), so a bot's strength shows on the leaderboard like
anybody's, and each account whose own player chose at least half of its seat's moves (moves the turn
clock, its bot or autoplay made are not the player's). Several bot seats of one game with the same
identity are rated as separate seats and their new ratings averaged. The maths sees every seat; only the
rows of the rated ids change.

A player with fewer than `PROVISIONAL_GAMES` rated games is provisional: shown at 0 or above.
"""

from __future__ import annotations

from typing import Any, cast

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


def identity(player: str) -> str:
    """The rated id of a seat's player: people as they are, bots by kind (`bot`, `bot:<level>`)."""
    if player.startswith("bot:"):
        parts = player.split(":")
        return "bot" if len(parts) <= 2 else f"bot:{parts[1]}"
    return player


#: rated games before a rating is shown as it is (until then it is provisional, and never below 0)
PROVISIONAL_GAMES = 5


def provisional(row: dict[str, Any]) -> bool:
    return int(row.get("games", 0)) < PROVISIONAL_GAMES


def shown(row: dict[str, Any]) -> int:
    value = round((float(row["mu"]) - 3 * float(row["sigma"])) * 100)
    return max(0, value) if provisional(row) else value


def rated_ids(
    players: list[str], public: bool, decisions: list[list[int]] | None, accounts: set[str]
) -> set[str]:
    """The ids whose rows a finished game changes (see the module docstring)."""
    people = [p for p in players if not p.startswith("bot:")]
    if not public or not people or any(p not in accounts for p in people):
        return set()
    out = set()
    for seat, player in enumerate(players):
        if player.startswith("bot:"):
            out.add(identity(player))
            continue
        own, made = decisions[seat] if decisions and seat < len(decisions) else (0, 0)
        if made > 0 and 2 * own >= made:
            out.add(player)
    return out


def ranks(result: dict[str, Any], seats: int) -> list[int]:
    """1 for the best; winners first, then by score; equal (winner, score) share a rank."""
    scores = list(result.get("scores") or [0] * seats)
    winners = set(result.get("winners") or [])
    keys = [(i in winners, scores[i] if i < len(scores) else 0) for i in range(seats)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def rate_game(
    rows: dict[str, dict[str, Any]], players: list[str], names: list[str], result: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """New rows (`{mu, sigma, games, name}`) for every identity that played, from the old `rows`."""
    ids = [identity(p) for p in players]
    teams = []
    for pid in ids:
        old = rows.get(pid)
        rating = _MODEL.rating(mu=old["mu"], sigma=old["sigma"]) if old else _MODEL.rating()
        teams.append([rating])
    new = _MODEL.rate(teams, ranks=cast(list[float], ranks(result, len(players))))  # ints compare as floats
    merged: dict[str, list[tuple[float, float]]] = {}
    for pid, team in zip(ids, new, strict=True):
        merged.setdefault(pid, []).append((team[0].mu, team[0].sigma))
    out: dict[str, dict[str, Any]] = {}
    for i, pid in enumerate(ids):
        if pid in out:
            continue
        pairs = merged[pid]
        old = rows.get(pid) or {}
        out[pid] = {
            "mu": sum(mu for mu, _ in pairs) / len(pairs),
            "sigma": sum(s for _, s in pairs) / len(pairs),
            "games": int(old.get("games", 0)) + 1,
            "name": "Bot" + pid[3:].replace(":", " ") if pid.startswith("bot") else names[i],
        }
    return out
