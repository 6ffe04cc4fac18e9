"""A greedy Voyages bot: scores each option of its prompt from its own view and takes the best.

Owns: one move choice from the prompt plus the seat's view (`GAME.view(state, seat)`).
Must not: look at hidden state (it never sees the game state, only the view).
The heuristics: fulfil contracts at once; take contracts when short of them; buy the goods the active
contracts lack; buy a black die with camels the contracts do not need; travel towards the nearest city
without a post (Beijing and goal cities first) while coins last; use the highest dice where the lowest die
sets the yield and the lowest where it does not; end the turn instead of wasting dice or camels.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from server.games.base import Move, Rng

GOODS = ("pepper", "silk", "gold")
CHARACTER_PREFERENCE = ("kubilai", "wilhelm", "niccolo", "carpini", "matteo", "berke", "mercator", "raschid")
TRAVEL_MIN_COINS = 12
TRAVEL_BASE = 70
COINS_LOW = 14
MARKER_VALUE = {0: 5, 1: 4, 2: 4, 4: 4, 5: 6}
#: a black die bought with camels the contracts do not need (higher than ending the turn)
BLACK_DIE_SCORE = 15


class GreedyBot:
    """Scores every option with simple heuristics; ties are broken by its own seeded RNG."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, prompt: dict[str, Any], view: dict[str, Any] | None = None) -> Move:
        """The best-scoring option (a random one without a view)."""
        options: list[Move] = prompt["options"]
        if view is None or view.get("private") is None:
            return options[self.rng.below(len(options))]
        ctx = _Context(view)
        scored = [(ctx.score(o), i) for i, o in enumerate(options)]
        best = max(s for s, _ in scored)
        picks = [i for s, i in scored if s == best]
        return options[picks[self.rng.below(len(picks))]]


_GRAPH: list[Any] = [None, None]


def _graph(track: dict[str, Any]) -> tuple[dict[int, list[int]], dict[int, str]]:
    """Adjacency and node types of the track; the engine's views share one static track object, so the
    last one is kept (the search bot's playouts build a context for every move)."""
    if _GRAPH[0] is not track:
        adj: dict[int, list[int]] = {n["id"]: [] for n in track["nodes"]}
        for e in track["edges"]:
            adj[e["a"]].append(e["b"])
            adj[e["b"]].append(e["a"])
        _GRAPH[0], _GRAPH[1] = track, (adj, {n["id"]: n["type"] for n in track["nodes"]})
    graph: tuple[dict[int, list[int]], dict[int, str]] = _GRAPH[1]
    return graph


class _Context:
    def __init__(self, view: dict[str, Any]) -> None:
        self.pub: dict[str, Any] = view["public"]
        self.priv: dict[str, Any] = view["private"]
        self.seat: int = self.priv["seat"]
        self.me: dict[str, Any] = self.pub["players"][self.seat]
        self.need = {r: 0 for r in ("camels", *GOODS)}
        for c in self.me["contracts"]:
            for k, n in c["cost"].items():
                self.need[k] += n
        for k in self.need:
            self.need[k] = max(0, self.need[k] - self.me[k])
        self.pending = next((p for p in self.pub["pending"] if p["seat"] == self.seat), None)
        self.adj, self.types = _graph(self.pub["track"])
        goal_cities = {c for g in self.priv["goals"] for c in g["cities"]}
        self.targets: dict[int, int] = {}
        for node, kind in self.types.items():
            if node in self.me["posts"] or kind in ("start", "oasis"):
                continue
            value = 3
            if kind == "beijing" and len(self.pub["beijing"]) < 4:
                value = 8
            if node in goal_cities:
                value += 4
            if kind == "large" and self.pub["outposts"].get(str(node)):
                value += 2
            self.targets[node] = value
        self._dist: dict[int, float] = {}

    def target_value(self, node: int) -> float:
        """How attractive it is to head for `node`: the best target discounted by distance."""
        if node in self._dist:
            return self._dist[node]
        best = 0.0
        seen = {node: 0}
        queue = deque([node])
        while queue:
            x = queue.popleft()
            if x in self.targets:
                best = max(best, self.targets[x] / (1 + seen[x]))
            for y in self.adj[x]:
                if y not in seen:
                    seen[y] = seen[x] + 1
                    queue.append(y)
        self._dist[node] = best
        return best

    def score(self, o: Move) -> float:
        a = o["a"]
        me = self.me
        if a == "fulfil":
            return 100
        if a == "space":
            return self.space_score(o["space"])
        if a == "black":
            # a black die is one more placement this round for 3 camels: worth it with camels to spare
            spare = me["camels"] - self.need.get("camels", 0) - 3
            return BLACK_DIE_SCORE if spare >= 0 else -20
        if a in ("bag", "reroll", "adjust"):
            return -20
        if a == "end":
            return 0
        if a == "die":
            space = self.pending["space"] if self.pending else ""
            bonus = 0.5 if o["kind"] != "own" else 0
            if space in ("coins", "khan"):
                return float(-o["value"] + bonus)
            return float(o["value"] + bonus)
        if a == "cancel":
            return -100
        if a in ("column", "times"):
            return float(o["n"])
        if a == "take":
            c = next((x for x in self.pub["display"] if x["id"] == o["contract"]), None)
            if c is None:
                return 1
            missing = sum(max(0, n - me.get(k, 0)) for k, n in c["cost"].items())
            return float(
                20
                + c["reward"].get("vp", 0)
                - missing
                - (8 if "discard" in o else 0)
                + (0.5 if o.get("bonus") == "camels" else 0)
            )
        if a == "done":
            return 10
        if a == "step":
            here = me["figures"][o["fig"]]
            return 5 + 3 * self.target_value(o["to"]) - 2 * self.target_value(here) * (here in self.targets)
        if a == "stop":
            return 12 if any(f in self.targets for f in me["figures"]) else -5
        if a == "good":
            return self.need.get(o["good"], 0) + (0.5 if o["good"] == "gold" else 0)
        if a == "goods":
            return sum(self.need.get(g, 0) + 0.1 for g in o["goods"])
        if a == "bonus":
            return MARKER_VALUE.get(o["marker"], 3)
        if a == "keep":
            return 2
        if a == "decline":
            return 1
        if a == "relocate":
            return float(-self.targets.get(o["from"], 0))
        if a == "comp":
            amount = self.pending["amount"] if self.pending else 0
            return -abs(float(o["coins"]) - 0.6 * amount)
        if a == "trade":
            return 3 if "get" in o else -1
        if a == "city":
            return 5
        if a == "goals":
            return self.goal_pair_score(o["keep"])
        if a == "character":
            return -CHARACTER_PREFERENCE.index(o["character"])
        return 0

    def space_score(self, space: str) -> float:
        me = self.me
        rnd = self.pub["round"]
        if space == "contracts":
            return 60 if len(me["contracts"]) < 2 else 3
        if space in ("pepper", "silk", "gold", "camels"):
            need = self.need.get(space, 0)
            return 20 + 12 * min(need, 3) if need else 6
        if space == "travel":
            if me["coins"] < TRAVEL_MIN_COINS:
                return 2
            return TRAVEL_BASE + (10 if rnd <= 3 else 0) + max(self.target_value(f) for f in me["figures"])
        if space == "khan":
            return 22 + 4 * sum(1 for g in GOODS if self.need[g])
        if space == "coins":
            return 12 + (20 if me["coins"] < COINS_LOW else 0)
        if space.startswith("card"):
            return 35
        return 0

    def goal_pair_score(self, keep: list[str]) -> float:
        goals = [g for g in self.priv["goal_offer"] if g["id"] in keep]
        cities = {c for g in goals for c in g["cities"]}
        return float(sum(g["vp"] for g in goals) + 10 - 2 * len(cities))


# ---- the search bot's playout cut-off ----------------------------------------------------

#: a playout that reaches the end adds this to the winner's margin (VP)
WIN_BONUS = 5.0
#: moves after which a playout stops and `evaluate` scores it
HORIZON = 40


def evaluate(state: dict[str, Any]) -> list[float]:
    """Estimated final VP per seat: the final scoring as if the game ended now, plus what is in hand."""
    from server.games.voyages.engine import GAME

    return GAME.estimated_vp(state)
