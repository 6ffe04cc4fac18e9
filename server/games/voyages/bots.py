"""A greedy Voyages bot: scores each option of its prompt from its own view and takes the best.

Owns: one move choice from the prompt plus the seat's view (`GAME.view(state, seat)`).
Must not: look at hidden state (it never sees the game state, only the view).
The heuristics: fulfil contracts at once; take contracts when short of them; buy the goods the active
contracts lack; buy a black die with camels the contracts do not need; travel when the best movement the dice
and purse allow is worth it: every city without one's post is valued in VP (a small city's bonus for the rounds
left, a large city's outpost bonus and card, Beijing's space, the goal cards and goal-city sets, the 8th and 9th
post), a trip's end also by the progress it makes towards the next target, less the tier and route costs of its
steps; take 5 coins when they would pay for a better trip; use the highest dice where the lowest die sets the
yield and the lowest where it does not; end the turn instead of wasting dice or camels.
Character-aware (issue 33): Carpini's oasis links in the trip search, Wilhelm's posts in passing, Niccolò's
movement split between his figures, lower travel thresholds for the travelling characters, the fee of an
occupied space (Berke pays none), and what an opposing Mercator gets from a bazaar or Khan's favor action;
Raschid names a die against the fee of an occupied space, and the "other city bonus" marker is worth the best
other marker (round 2 of issue 33).
Goal cards (issue 33, 2026-12-05): a trip's end also counts what it gains on the goal plan (`goal_plan`: the
goal-card VP and goal-city sets still reachable from the figures, less the cheapest way through them), and the
last round prices a trip's coins at what coins left score then (first goal cities without the half card VP,
a lower travel threshold, little progress) and takes only contracts it can still fulfil.
"""

from __future__ import annotations

from collections import deque
from itertools import permutations
from typing import Any

from server.games.base import Move, Rng

GOODS = ("pepper", "silk", "gold")
#: the draft: the bot's old fixed preference (3 points between neighbours) plus a seeded draw of 0..DRAFT_NOISE,
#: so every character is drafted sometimes (the fixed order never drafted Raschid). Not by strength: Mercator
#: wins about 95% of the bot's 4-seat games, and a strength-first draft gave him to the first picker, who then
#: won 86.5% of draft games (docs/games/voyages.md, "Bots and simulation")
DRAFT_SCORE: dict[str, float] = {
    "kubilai": 21.0,
    "wilhelm": 18.0,
    "niccolo": 15.0,
    "carpini": 12.0,
    "matteo": 9.0,
    "berke": 6.0,
    "mercator": 3.0,
    "raschid": 0.0,
}
DRAFT_NOISE = 10
COINS_LOW = 14
ROUNDS = 5
#: what a unit of a reward is worth in VP, roughly (an action of these bots yields about 2-3 VP)
VP_WORTH: dict[str, float] = {
    "vp": 1.0,
    "coins": 0.45,
    "camels": 0.5,
    "pepper": 0.8,
    "silk": 1.0,
    "gold": 1.3,
    "any_good": 1.0,
    "two_goods": 2.0,
    "other_city_bonus": 2.0,
    "move": 1.5,
    "contract": 2.5,
    "black_die": 2.0,
}
#: a city card in a large city with one's post: VP per round still to come. 0: counted at 0.5 or 1 VP a round,
#: it sent the bot on short trips to the large cities next to Venezia that cost it VP (200 games against the
#: old bot, docs/games/voyages.md "Bots and simulation")
CITY_CARD_ROUND_VP = 0.0
#: VP of the 8th and 9th post; a post beyond the last one moves an old one
POST_BONUS_VP = {8: 5, 9: 10}
RELOCATE_VP = -3.0
#: a step of Niccolò's other figure while the lead one still gains by going on (`_lead_figure`)
LEAD_PENALTY = 50.0
#: a trip's end counts this share of the best target one more trip could reach from there (progress)
PROGRESS = 0.5
#: a bazaar or Khan's favor action that feeds an opposing Mercator costs this (space-score units, 8 a VP)
MERCATOR_FEED = 25.0
#: the die Raschid is counted to name on an occupied space (a low one where the yield matters little)
RASCHID_FEE_DIE = 3
#: space-score units per VP (the Travel space's scale)
UNITS_PER_VP = 8.0
#: the Travel space's score: TRAVEL_OFFSET + TRAVEL_SCALE * the best trip's net VP (when above TRAVEL_MIN_VP);
#: the other spaces score 6-60 (contracts 60 while short of them, the bazaar up to 56, a city card 35)
TRAVEL_OFFSET = 20.0
TRAVEL_SCALE = 8.0
TRAVEL_MIN_VP = 6.0
#: the travel characters' own thresholds (their abilities make a trip worth more than the posts the bot counts)
TRAVEL_MIN_BY_CHARACTER = {"wilhelm": 1.0, "niccolo": 2.0, "carpini": 4.0}
TAKE_COINS = 5
#: goal cards (2026-12-05): the goal-city sets' VP by distinct goal cities with a post (the rules' 1/3/6/10)
GOAL_SETS = (0, 1, 3, 6, 10)
#: the share of a goal card's VP a first post in one of its cities counts at once (not in the last round, when
#: the second city can no longer follow)
GOAL_FIRST = 0.5
#: the goal plan prices a step at this (VP: a step's tier coins and its share of a Travel action's dice) plus
#: its route's extra coins and camels at their worth (`_apsp`)
GOAL_STEP_VP = 1.5
#: the share of the goal plan's gain (goal-card VP and goal-city sets still reachable, less the steps) that a
#: movement's end counts when the bot chooses where a trip goes; never in the Travel space's score (counted
#: there, the bot travelled more and scored less)
GOAL_WEIGHT = 1.0
#: the steps a goal plan may still take: this many a round, the present one included
GOAL_STEPS_PER_ROUND = 5
#: a coin spent on a trip's steps, in VP, by round: in the last round the coins left score 1 VP per 10
TRIP_COIN_VP = (0.45, 0.45, 0.45, 0.45, 0.15)
#: the Travel space's threshold in the last round (net VP)
LAST_ROUND_TRAVEL_MIN = 3.0
#: the share of PROGRESS a trip's end keeps in the last round (no round is left for the next trip)
LAST_ROUND_PROGRESS = 0.25
#: the Contracts space in the last round: worth taking only with a display contract missing at most this many units
LAST_ROUND_MISSING = 1
#: the 5-coin space's score per VP the coins would add to the best trip
COINS_FOR_TRAVEL = 3.0
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
        if options[0]["a"] == "character":
            return self.draft(options)
        ctx = _Context(view)
        scored = [(ctx.score(o), i) for i, o in enumerate(options)]
        best = max(s for s, _ in scored)
        picks = [i for s, i in scored if s == best]
        return options[picks[self.rng.below(len(picks))]]

    def draft(self, options: list[Move]) -> Move:
        """The character with the highest draft score plus a seeded draw of up to DRAFT_NOISE."""
        scored = [
            (DRAFT_SCORE.get(o["character"], 20.0) + self.rng.below(DRAFT_NOISE + 1), i) for i, o in enumerate(options)
        ]
        return options[max(scored)[1]]


_GRAPH: list[Any] = [None, None]


Graph = tuple[dict[int, list[int]], dict[int, str], dict[int, list[tuple[int, int, int]]]]


def _graph(track: dict[str, Any]) -> Graph:
    """Adjacency, node types and routes with their extra costs (node, coins, camels) of the track; the engine's
    views share one static track object, so the last one is kept (the search bot's playouts build a context
    for every move)."""
    if _GRAPH[0] is not track:
        adj: dict[int, list[int]] = {n["id"]: [] for n in track["nodes"]}
        routes: dict[int, list[tuple[int, int, int]]] = {n["id"]: [] for n in track["nodes"]}
        for e in track["edges"]:
            adj[e["a"]].append(e["b"])
            adj[e["b"]].append(e["a"])
            routes[e["a"]].append((e["b"], e["coins"], e["camels"]))
            routes[e["b"]].append((e["a"], e["coins"], e["camels"]))
        _GRAPH[0], _GRAPH[1] = track, (adj, {n["id"]: n["type"] for n in track["nodes"]}, routes)
    graph: Graph = _GRAPH[1]
    return graph


def _carpini_routes(routes: dict[int, list[tuple[int, int, int]]], types: dict[int, str]) -> Any:
    """The routes with Carpini's oasis links: any oasis to any other as one step without route cost."""
    oases = [n for n, t in types.items() if t == "oasis"]
    out = {n: list(r) for n, r in routes.items()}
    for a in oases:
        have = {b for b, _c, _k in out[a]}
        out[a] += [(b, 0, 0) for b in oases if b != a and b not in have]
    return out


_CARPINI: list[Any] = [None, None]
#: the all-pairs plan distances (VP) and steps of a routes table, kept per table (plain and Carpini's; a few at most)
_APSP: dict[int, Any] = {}
#: goal plans already valued: (Carpini's routes or not, goals, starts, goal cities with a post, step cap) -> value
_PLANS: dict[Any, float] = {}


def _apsp(
    routes: dict[int, list[tuple[int, int, int]]],
) -> tuple[dict[int, dict[int, float]], dict[int, dict[int, int]]]:
    """Floyd-Warshall over the routes: the cheapest plan cost between two nodes in VP (GOAL_STEP_VP a step plus
    the route's extra coins and camels at their worth) and the steps of that way."""
    key = id(routes)
    hit = _APSP.get(key)
    if hit is not None and hit[0] is routes:
        return hit[1], hit[2]
    nodes = list(routes)
    inf = float("inf")
    dist = {a: {b: (0.0 if a == b else inf) for b in nodes} for a in nodes}
    steps = {a: {b: 0 for b in nodes} for a in nodes}
    for a, rs in routes.items():
        for b, c, k in rs:
            w = GOAL_STEP_VP + VP_WORTH["coins"] * c + VP_WORTH["camels"] * k
            if w < dist[a][b]:
                dist[a][b], steps[a][b] = w, 1
    for m in nodes:
        dm, sm = dist[m], steps[m]
        for a in nodes:
            da, sa = dist[a], steps[a]
            am = da[m]
            if am == inf:
                continue
            for b in nodes:
                w = am + dm[b]
                if w < da[b]:
                    da[b], sa[b] = w, sa[m] + sm[b]
    if len(_APSP) >= 4:  # a client's bot decodes a new track from every frame: keep only the latest tables
        _APSP.clear()
    _APSP[key] = (routes, dist, steps)
    return dist, steps


def worth(reward: dict[str, Any]) -> float:
    """A reward in VP, roughly."""
    return float(sum(VP_WORTH.get(k, 1.0) * n for k, n in reward.items()))


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
        self.adj, self.types, self.routes = _graph(self.pub["track"])
        self.char: str = self.me.get("character") or ""
        if self.char == "carpini":
            if _CARPINI[0] is not self.routes:
                _CARPINI[0], _CARPINI[1] = self.routes, _carpini_routes(self.routes, self.types)
            self.routes = _CARPINI[1]
        self.others = {p.get("character") for s, p in enumerate(self.pub["players"]) if s != self.seat}
        self.posts = set(self.me["posts"])
        self._plan_now: float | None = None
        self._plan_end: dict[int, float] = {}
        self.use_plan = True
        self.progress = PROGRESS * (LAST_ROUND_PROGRESS if self.pub["round"] >= ROUNDS else 1.0)
        self.coin_vp = TRIP_COIN_VP[min(len(TRIP_COIN_VP), max(1, int(self.pub["round"]))) - 1]
        self.targets: dict[int, float] = {}
        for node in self.types:
            v = self.post_value(node)
            if v > 0:
                self.targets[node] = v
        self._dist: dict[int, float] = {}
        self.last_end = -1

    def post_value(self, node: int) -> float:
        """What a post in `node` brings, in VP: a small city's bonus now and at every later round start, a large
        city's outpost bonus and city card, Beijing's space, the goal cards and goal-city sets, the 8th and 9th
        post's VP; 0 where no post goes (Venezia, oases, a city with one's post)."""
        kind = self.types[node]
        me = self.me
        if node in me["posts"] or kind in ("start", "oasis"):
            return 0.0
        left = max(0, ROUNDS - self.pub["round"])
        v = 0.0
        if kind == "small":
            v += self.marker_worth(self.pub["city_bonus"].get(str(node))) * (1 + left)
        elif kind == "large":
            tile = self.pub["outposts"].get(str(node))
            if tile:
                v += worth(tile["reward"])
            v += CITY_CARD_ROUND_VP * left
        elif kind == "beijing":
            taken = len(self.pub["beijing"])
            spaces = self.pub["track"]["beijing_vp"]
            v += spaces[taken] if taken < len(spaces) else 0
            v += 0.5 * sum(me[g] for g in GOODS) / 2 + 2  # goods count at the end only with a Beijing post
        if node in self.goal_cities:
            # what the post scores at the end now (a goal card completed, the next goal-city set); the way to
            # the rest of the goal cards is the goal plan's (`end_value`)
            v += self.goal_vp(self.posts | {node}) - self.goal_vp(self.posts)
            for g in self.goals:
                if node in g["cities"] and not all(c in self.posts for c in g["cities"] if c != node) and left:
                    v += GOAL_FIRST * g["vp"]
        if me["posts_left"] <= 0:
            v += RELOCATE_VP
        else:
            v += POST_BONUS_VP.get(len(me["posts"]) + 1, 0)
        return max(0.0, v)

    def marker_worth(self, marker: Any) -> float:
        """A city-bonus marker's reward in VP; the "other city bonus" is worth the best other marker (the bot
        takes the 3 VP one every round). At its flat 2 VP the bot undervalued Xian, the city next to Beijing that
        carries it in the beginner layout, which Kubilai takes at once (15 VP a game)."""
        markers = self.pub["track"]["city_bonus_markers"]
        reward = markers.get(str(marker), {})
        if "other_city_bonus" in reward:
            return max((worth(r) for r in markers.values() if "other_city_bonus" not in r), default=0.0)
        return worth(reward)

    def end_value(self, node: int) -> float:
        """A movement ending on `node`: its post, progress towards the next target, and what the goal plan gains
        from there."""
        return self.targets.get(node, 0.0) + self.progress * self.beyond(node) + self.plan_gain(node)

    @property
    def goals(self) -> list[dict[str, Any]]:
        """The bot's own goal cards (its private view)."""
        goals: list[dict[str, Any]] = self.priv.get("goals") or []
        return goals

    @property
    def goal_cities(self) -> set[int]:
        return {c for g in self.goals for c in g["cities"]}

    def goal_vp(self, posts: set[int]) -> float:
        """The goal cards' end-of-game VP with posts in `posts`: each card with both cities, and the goal-city set."""
        vp = sum(g["vp"] for g in self.goals if all(c in posts for c in g["cities"]))
        n = sum(1 for c in self.goal_cities if c in posts)
        return float(vp + GOAL_SETS[min(n, len(GOAL_SETS) - 1)])

    def plan_gain(self, node: int) -> float:
        """GOAL_WEIGHT times the goal plan's gain when a figure ends on `node` (and posts there); 0 when the
        Travel space is scored (`use_plan`)."""
        if not self.goals or GOAL_WEIGHT == 0 or not self.use_plan:
            return 0.0
        if node not in self._plan_end:
            if self._plan_now is None:
                self._plan_now = self.goal_plan(set(self.me["figures"]), self.posts)
            # the figure that moves there leaves its place (Niccolò: counted as the one nearer to `node`)
            figs = list(self.me["figures"])
            if len(figs) > 1:
                dist, _steps = _apsp(self.routes)
                figs.remove(min(figs, key=lambda a: dist[a][node]))
            else:
                figs = []
            kind = self.types[node]
            posts = self.posts | {node} if kind in ("small", "large", "beijing") else self.posts
            # only gains count: a trip elsewhere loses no goal VP (the plan stays for later), and counting the
            # loss kept the bot from its other trips (fewer trips, fewer goal cards)
            self._plan_end[node] = max(0.0, GOAL_WEIGHT * (self.goal_plan({node, *figs}, posts) - self._plan_now))
        return self._plan_end[node]

    def goal_plan(self, starts: set[int], posts: set[int]) -> float:
        """The best value of going on to some of the goal cities still without a post: the goal VP they add, less
        the cheapest way from the nearest start through them (`_apsp`), within the steps the rounds left allow."""
        missing = sorted(c for c in self.goal_cities if c not in posts)
        if not missing:
            return 0.0
        cap = GOAL_STEPS_PER_ROUND * max(1, ROUNDS - self.pub["round"] + 1)
        key = (
            self.char == "carpini",  # his oasis links make other ways
            tuple(sorted(g["id"] for g in self.goals)),
            tuple(sorted(starts)),
            tuple(sorted(c for c in self.goal_cities if c in posts)),
            cap,
        )
        hit = _PLANS.get(key)
        if hit is not None:
            return hit
        dist, steps = _apsp(self.routes)
        base = self.goal_vp(posts)
        best = 0.0
        n = len(missing)
        for mask in range(1, 1 << n):
            sub = [missing[i] for i in range(n) if mask >> i & 1]
            gain = self.goal_vp(posts | set(sub)) - base
            if gain <= best:
                continue
            cost = min(
                (self._tour(order, starts, dist, steps, cap) for order in permutations(sub)), default=float("inf")
            )
            best = max(best, gain - cost)
        if len(_PLANS) > 50000:
            _PLANS.clear()
        _PLANS[key] = best
        return best

    @staticmethod
    def _tour(order: tuple[int, ...], starts: set[int], dist: Any, steps: Any, cap: int) -> float:
        """The plan cost of visiting `order` from the nearest start (inf beyond `cap` steps)."""
        first = order[0]
        s0 = min(starts, key=lambda a: dist[a][first])
        cost, n = dist[s0][first], steps[s0][first]
        for a, b in zip(order, order[1:], strict=False):
            cost += dist[a][b]
            n += steps[a][b]
        return cost if n <= cap else float("inf")

    def beyond(self, node: int) -> float:
        """The best target other than `node` itself, discounted by distance (what a later trip may reach)."""
        if node in self._dist:
            return self._dist[node]
        best = 0.0
        seen = {node: 0}
        queue = deque([node])
        while queue:
            x = queue.popleft()
            if x != node and x in self.targets:
                best = max(best, self.targets[x] / (1 + seen[x]))
            for y in self.adj[x]:
                if y not in seen:
                    seen[y] = seen[x] + 1
                    queue.append(y)
        self._dist[node] = best
        return best

    def step_cost(self, mode: str, done: int, coins: int, camels: int) -> tuple[int, int]:
        """Coins and camels one more step costs after `done` steps of a movement of `mode` on a route with these
        extra costs."""
        tiers = self.pub["track"]["travel_tier_cost"]
        tier = tiers[done + 1] - tiers[done] if mode == "action" and done + 1 < len(tiers) else 0
        return tier + coins, camels + (2 if mode == "camels" else 0)

    def best_trip(
        self, start: int, steps: int, mode: str, done: int, coins: int, camels: int, exclude: int = -1
    ) -> float:
        """The best net VP of ending a movement within `steps` more steps from `start` (at least 1), paying
        every step from `coins` and `camels`: the end's value less what the steps cost (Wilhelm also counts the
        posts he places in the cities he passes). Never ending on `exclude`; the end is kept in `last_end`."""
        best = -1e9
        self.last_end = -1
        wilhelm = self.char == "wilhelm"
        # node: (cost in VP, coins, camels, the node before: Wilhelm's passes never turn straight back)
        frontier: dict[int, tuple[float, int, int, int]] = {start: (0.0, 0, 0, -1)}
        for k in range(steps):
            nxt: dict[int, tuple[float, int, int, int]] = {}
            for node, (cost, c_used, k_used, prev) in frontier.items():
                passed = self.targets.get(node, 0.0) if wilhelm and k > 0 else 0.0
                for dest, c, kk in self.routes[node]:
                    if wilhelm and dest == prev:
                        continue
                    dc, dk = self.step_cost(mode, done + k, c, kk)
                    c2, k2 = c_used + dc, k_used + dk
                    if c2 > coins or k2 > camels:
                        continue
                    total = cost + self.coin_vp * dc + VP_WORTH["camels"] * dk - passed
                    if dest not in nxt or total < nxt[dest][0]:
                        nxt[dest] = (total, c2, k2, node)
            for node, (cost, _c, _k, _p) in nxt.items():
                if node != exclude and self.end_value(node) - cost > best:
                    best, self.last_end = self.end_value(node) - cost, node
            frontier = nxt
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
            if self.char == "raschid" and o["kind"] == "own" and self.pub["spaces"].get(space):
                return self.raschid_die_score(space, o["value"]) + bonus
            return float(o["value"] + bonus)
        if a == "cancel":
            return -100
        if a in ("column", "times"):
            return float(o["n"])
        if a == "take":
            c = next((x for x in self.pub["display"] if x["id"] == o["contract"]), None)
            if c is None:
                return 1
            return self.take_score(c) - (8 if "discard" in o else 0) + (0.5 if o.get("bonus") == "camels" else 0)
        if a == "done":
            return 10
        if a == "step":
            return self.step_score(o)
        if a == "stop":
            return self.stop_score()
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
            return DRAFT_SCORE.get(o["character"], 20.0)
        return 0

    def raschid_die_score(self, space: str, value: int) -> float:
        """Raschid names his die on an occupied blue space: the yield of the action with this value (the lowest
        die placed sets it) less the fee, which is that lowest die, in VP. Without it he named 6 everywhere and
        paid 6 coins for a contract or one good (38 coins a game in 4-seat beginner games)."""
        picked = [int(v) for _k, v in (self.pending or {}).get("picked", [])]
        low = min([value, *picked])
        fee = low  # what an occupied space costs him (Berke, who pays none, names no dice)
        if space in ("camels", "pepper", "silk", "gold"):
            # every unit at its full worth: counting those beyond the contracts' need at 0.6 of it cost Raschid
            # 0.8 VP a 2-seat beginner game (the goods feed later contracts)
            gain = worth(self.pub["track"]["bazaar"][space]["by_die"][low - 1])
        elif space == "contracts":
            # the two best contracts within reach, on the `take` score's scale (20 + VP - goods missing)
            takes = sorted((self.take_score(c) for c in self.pub["display"][:low]), reverse=True)
            gain = float(sum(takes[:2]))
        elif space == "travel":
            coins = self.me["coins"] - fee
            gain = max(
                (self.best_trip(f, low, "action", 0, coins, self.me["camels"]) for f in self.me["figures"]),
                default=0.0,
            )
            gain = max(0.0, gain)
        else:
            return float(value)
        # a higher value that costs no more (another die sets the fee) is kept for the column choice
        return gain - VP_WORTH["coins"] * fee + 0.01 * value

    def take_score(self, c: dict[str, Any]) -> float:
        """A display contract's worth to the bot (the `take` option's score without discard or bonus)."""
        missing = sum(max(0, n - self.me.get(k, 0)) for k, n in c["cost"].items())
        return float(20 + c["reward"].get("vp", 0) - missing)

    def space_score(self, space: str) -> float:
        return self.base_space_score(space) - self.space_cost(space)

    def space_cost(self, space: str) -> float:
        """What a space costs beyond its dice, in space-score units: the fee of an occupied blue space (Berke
        pays none) and what an opposing Mercator gets from it."""
        cost = 0.0
        taken = self.pub["spaces"].get(space)
        if taken and self.char != "berke" and space not in ("travel",):
            # Raschid names his dice: counted at RASCHID_FEE_DIE, the value he may name where the yield matters little
            values = sorted(
                (RASCHID_FEE_DIE if (k == "own" and self.char == "raschid") else v) for k, v in self.me["dice"]
            )
            need = {"pepper": 1, "silk": 2, "gold": 3, "camels": 1}.get(space, 1)
            if len(values) >= need:
                fee = values[0] if space == "coins" else values[-need]
                cost += UNITS_PER_VP * VP_WORTH["coins"] * fee
        if "mercator" in self.others:
            seats = len(self.pub["players"])
            if space in ("camels", "pepper", "silk", "gold"):
                cost += MERCATOR_FEED
            elif space == "khan" and seats <= 3:
                cost += MERCATOR_FEED / 2
            elif space == "coins" and seats == 2:
                cost += MERCATOR_FEED
        return cost

    def base_space_score(self, space: str) -> float:
        me = self.me
        if space == "contracts":
            if len(me["contracts"]) >= 2:
                return 3
            if self.pub["round"] >= ROUNDS:
                # the last round: only a contract that can still be fulfilled (at most LAST_ROUND_MISSING goods or
                # camels missing, a die left to buy them); the bot before took 2 contracts a player in the last
                # round and ended with 1.5-1.7 unfulfilled, dice its goal trips lacked
                missing = [sum(max(0, n - me.get(k, 0)) for k, n in c["cost"].items()) for c in self.pub["display"]]
                if not missing or min(missing) > min(LAST_ROUND_MISSING, len(me["dice"]) - 1):
                    return 8
            return 60
        if space in ("pepper", "silk", "gold", "camels"):
            need = self.need.get(space, 0)
            return 20 + 12 * min(need, 3) if need else 6
        if space == "travel":
            self.use_plan = False  # the goal plan chooses where a trip goes, not whether to travel
            best = self.travel_value()
            self.use_plan = True
            low = TRAVEL_MIN_BY_CHARACTER.get(self.char, TRAVEL_MIN_VP)
            if self.pub["round"] >= ROUNDS:
                low = min(low, LAST_ROUND_TRAVEL_MIN)
            return TRAVEL_OFFSET + TRAVEL_SCALE * best if best > low else 2
        if space == "khan":
            return 22 + 4 * sum(1 for g in GOODS if self.need[g])
        if space == "coins":
            # 5 coins now: more when they would pay for a better trip next
            funded = self.travel_value(TAKE_COINS) - self.travel_value()
            return 12 + (20 if me["coins"] < COINS_LOW else 0) + COINS_FOR_TRAVEL * max(0.0, funded)
        if space.startswith("card"):
            return 35
        return 0

    def travel_value(self, extra_coins: int = 0) -> float:
        """The net VP of the best movement the Travel space allows now: 2 of the highest dice (the lowest of them
        sets the steps; Raschid names 6), the fee of an occupied space, then the steps and routes paid."""
        me = self.me
        values = sorted((6 if (k == "own" and self.char == "raschid") else v for k, v in me["dice"]), reverse=True)
        if len(values) < 2:
            return 0.0
        low = values[1]
        fee = low if self.pub["spaces"]["travel"] and self.char != "berke" else 0
        coins = me["coins"] + extra_coins - fee
        if coins < 0:
            return 0.0
        best = max(self.best_trip(f, low, "action", 0, coins, me["camels"]) for f in me["figures"])
        if len(me["figures"]) > 1:
            best = max(best, self.split_trip(low, coins, me["camels"]))
        return max(0.0, best - VP_WORTH["coins"] * fee)

    def split_trip(self, steps: int, coins: int, camels: int) -> float:
        """Niccolò's best movement split between his figures: k steps of one figure to the end of its best
        k-step trip, the rest (tier costs going on from k) by the other to another city; both ends post."""
        figs = self.me["figures"]
        tiers = self.pub["track"]["travel_tier_cost"]
        best = -1e9
        for f in range(len(figs)):
            g = 1 - f
            for k in range(1, steps):
                first = self.best_trip(figs[f], k, "action", 0, coins, camels)
                end = self.last_end
                if end < 0:
                    continue
                rest = self.best_trip(figs[g], steps - k, "action", k, coins - tiers[k], camels, exclude=end)
                best = max(best, first + max(0.0, rest))
        return best

    def _moved_value(self) -> float:
        """What stopping now is worth: the end value of every figure this movement has moved."""
        p = self.pending or {}
        figs = self.me["figures"]
        return sum(self.end_value(figs[f]) for f in set(p.get("moved", [])))

    def step_score(self, o: Move) -> float:
        """A step scored on the scale of `stop_score`: the best way the movement can go on from its destination,
        instead of what the moving figure's present place would give if it stopped there."""
        p = self.pending or {}
        mode = p.get("mode", "action")
        done = p.get("steps", 0)
        left = p.get("max", 1) - done - 1
        fig = o["fig"]
        here = self.me["figures"][fig]
        dest = o["to"]
        c, k = next(((c, k) for n, c, k in self.routes[here] if n == dest), (0, 0))
        dc, dk = self.step_cost(mode, done, c, k)
        coins, camels = self.me["coins"] - dc, self.me["camels"] - dk
        cost = self.coin_vp * dc + VP_WORTH["camels"] * dk + sum(VP_WORTH.get(g, 1) for g in o.get("goods", []))
        go_on = self.best_trip(dest, left, mode, done + 1, coins, camels) if left > 0 else -1e9
        moved = set(p.get("moved", []))
        arrive = max(self.end_value(dest) + self._other_go(fig, left, mode, done + 1, coins, camels, moved), go_on)
        before = self._moved_value() - (self.end_value(here) if fig in moved else 0.0)
        lead = self._lead_figure(mode, done, left + 1, moved)
        off_lead = LEAD_PENALTY if lead is not None and fig != lead else 0.0
        return 5 + before + arrive - cost - off_lead

    def _other_go(self, fig: int, left: int, mode: str, done: int, coins: int, camels: int, moved: set[int]) -> float:
        """Niccolò: what the other figure gains with the steps left after this one stops (0 with one figure)."""
        figs = self.me["figures"]
        if len(figs) < 2 or left <= 0:
            return 0.0
        g = 1 - fig
        go = self.best_trip(figs[g], left, mode, done, coins, camels)
        return max(0.0, go - (self.end_value(figs[g]) if g in moved else 0.0))

    def _lead_figure(self, mode: str, done: int, left: int, moved: set[int]) -> int | None:
        """Niccolò's figure the movement should go on with: the one whose best continuation gains most over its
        stopping where it is (a moved figure posts there, one not moved gains nothing); None with one figure or
        when no continuation gains. Without it the bot stepped one figure back to Venezia on the way to moving
        the other."""
        figs = self.me["figures"]
        if len(figs) < 2 or left <= 0:
            return None
        best, lead = 0.0, None
        for f, pos in enumerate(figs):
            go = self.best_trip(pos, left, mode, done, self.me["coins"], self.me["camels"])
            gain = go - (self.end_value(pos) if f in moved else 0.0)
            if gain > best:
                best, lead = gain, f
        return lead

    def stop_score(self) -> float:
        p = self.pending or {}
        if p.get("kind") != "travel":
            return 1
        return 5 + self._moved_value()

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
