"""The search bot: determinized Monte Carlo over the engine interface, the same code for every game.

Owns: choosing one move for one seat by sampling worlds the seat cannot tell from the real one
(`game.sample_state`) and playing each candidate move out in every sampled world with the game's greedy
policy (its `bots.GreedyBot`), to the end of the game or to a cut-off scored by the game's `bots.evaluate`
(`evaluate(state) -> [estimated final score per seat]`; `bots.HORIZON` may set the game's cut-off).
Must not: read the real state except through `sample_state` and the seat's own view and prompt, so the
choice depends only on what the seat can see (tests/bots prove it); know any game's rules.

The method is "perfect-information Monte Carlo" with a flat bandit at the root: every iteration draws one
world and plays all surviving candidates in it with the same playout seed (common random numbers, so
candidates are compared on equal luck); every few iterations the worse half is dropped (never the greedy
move). A candidate replaces the greedy move only when its paired gain over it is clearly positive. The reward of a
playout is the seat's score margin over the best other seat (final scores, or `evaluate` at the cut-off),
plus a win bonus (`bots.WIN_BONUS`, in score units) when the playout reached the end; a game whose
`bots.OWN_REWARD` is true scores the seat's own figure alone (a race, where the others' progress in a playout
is noise to this seat's choice).
Budgets: wall time (`budget_s`, checked between playouts) and/or a playout count (`playouts`), so arena
figures can be reproduced exactly with playouts alone. A game's `bots.SEARCH_PLAYOUTS` caps a search bounded
by time alone (the server's) at the count the arena measured best for that game.
"""

from __future__ import annotations

import importlib
import math
import statistics
import time
from dataclasses import dataclass, replace
from typing import Any

from server.games import get_game
from server.games.base import Game, Move, Rng, State, clone
from server.games.bots import RandomBot

#: candidates kept at the root: the greedy move plus others drawn at random from the prompt
CANDIDATES = 5
#: iterations between two halvings of the candidates
HALVE_EVERY = 3
#: standard errors by which a candidate must beat the greedy move (paired over the same worlds)
CONFIDENCE = 1.0
#: moves played in a playout before it is cut off and scored by `evaluate`
HORIZON = 400
#: move kinds (`a`) the search never tries unless the greedy bot chose them: moves that only undo a half-made
#: choice (Expedition's, Voyages' and Marco Polo II's `cancel`). Searched, they looked good on noise, the
#: same choice came again and was undone again: games of 350 moves by round 4 where greedy games take 200.
#: A game's `bots.SEARCH_SKIP` replaces the default.
SKIP = ("cancel",)


@dataclass
class Budget:
    """How long one decision may think: seconds (None: no time bound) and playouts (None: no count bound)."""

    seconds: float | None = 0.5
    playouts: int | None = None
    horizon: int | None = None  # None: the game's `bots.HORIZON`, else HORIZON
    candidates: int = CANDIDATES


def _bots_module(game_id: str) -> Any:
    try:
        return importlib.import_module(f"server.games.{game_id}.bots")
    except ImportError:
        return None


def greedy_for(game_id: str, seed: int) -> Any:
    """The game's greedy bot (`choose(prompt, view)`), else the random bot."""
    module = _bots_module(game_id)
    cls = getattr(module, "GreedyBot", None) if module is not None else None
    return cls(seed) if cls is not None else RandomBot(seed)


class SearchBot:
    """Chooses by sampling hidden information and playing candidates out with the greedy policy."""

    name = "search"

    def __init__(self, game_id: str, seed: int = 0, budget: Budget | None = None) -> None:
        self.game: Game = get_game(game_id)
        self.rng = Rng(seed)
        module = _bots_module(game_id)
        self.budget = budget or Budget()
        cap = getattr(module, "SEARCH_PLAYOUTS", None)
        if cap is not None and self.budget.playouts is None:
            # a time-bounded search (the server's) stops at the game's measured best count too
            self.budget = replace(self.budget, playouts=int(cap))
        self._evaluate = getattr(module, "evaluate", None)
        self._win_bonus: float = float(getattr(module, "WIN_BONUS", 0.0))
        self._evaluate_end = bool(getattr(module, "EVALUATE_END", False)) and self._evaluate is not None
        self._own = bool(getattr(module, "OWN_REWARD", False))
        self.horizon = self.budget.horizon or int(getattr(module, "HORIZON", HORIZON))
        self.confidence = float(getattr(module, "SEARCH_CONFIDENCE", CONFIDENCE))
        self.skip = tuple(getattr(module, "SEARCH_SKIP", SKIP))
        self.last_playouts = 0
        #: the playout rewards of the last decision, per candidate (the greedy move first)
        self.last_rewards: list[list[float]] = []

    # ---- the decision ----------------------------------------------------------------

    def choose_state(self, state: State, seat: int) -> Move:
        """One legal move of `seat`; reads `state` only through `sample_state`, the view and the prompt."""
        game = self.game
        prompt = game.prompt(state, seat)
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to choose")
        options: list[Move] = prompt["options"]
        self.last_playouts = 0
        self.last_rewards = []
        if len(options) == 1:
            return options[0]
        view = game.view(state, seat)
        greedy_move = greedy_for(game.id, self.rng.next64()).choose(prompt, view)
        cands = self._candidates(options, greedy_move)
        if len(cands) == 1:
            return cands[0]
        rewards: list[list[float]] = [[] for _ in cands]
        alive = list(range(len(cands)))
        b = self.budget
        deadline = None if b.seconds is None else time.perf_counter() + b.seconds
        playouts = 0
        iteration = 0
        halve_at = HALVE_EVERY
        while True:
            world = game.sample_state(state, seat, Rng(self.rng.next64()))
            playout_seed = self.rng.next64()
            out_of_budget = False
            for i in alive:
                rewards[i].append(self._playout(world, seat, cands[i], playout_seed))
                playouts += 1
                if (b.playouts is not None and playouts >= b.playouts) or (
                    deadline is not None and time.perf_counter() >= deadline
                ):
                    out_of_budget = True
                    break
            iteration += 1
            if out_of_budget:
                break
            if iteration >= halve_at and len(alive) > 2:
                # the greedy move always stays: every other candidate is judged against it
                rest = sorted(alive[1:], key=lambda i: -statistics.fmean(rewards[i]))
                alive = [0, *rest[: max(1, len(rest) // 2)]]
                halve_at = iteration + HALVE_EVERY
        self.last_playouts = playouts
        self.last_rewards = rewards
        return cands[self._pick(rewards, alive, self.confidence)]

    @staticmethod
    def _pick(rewards: list[list[float]], alive: list[int], confidence: float) -> int:
        """The candidate whose paired gain over the greedy move is surely positive, else the greedy move.

        Candidates played the same worlds with the same playout seeds as the greedy move, so the per-world
        differences are compared: a candidate replaces the greedy move only if the mean difference minus
        `confidence` standard errors (CONFIDENCE, or the game's `bots.SEARCH_CONFIDENCE`) is above zero
        (noise alone rarely makes a bot worse than greedy).
        """
        base = rewards[0]
        best, best_bound = 0, 0.0
        for i in alive[1:]:
            n = min(len(rewards[i]), len(base))
            if n < 2:
                continue
            diffs = [rewards[i][t] - base[t] for t in range(n)]
            bound = statistics.fmean(diffs) - confidence * statistics.stdev(diffs) / math.sqrt(n)
            if bound > best_bound:
                best, best_bound = i, bound
        return best

    def _candidates(self, options: list[Move], greedy_move: Move) -> list[Move]:
        rest = [o for o in options if o != greedy_move and o.get("a") not in self.skip]
        k = self.budget.candidates - 1
        if len(rest) > k:
            picked: list[Move] = []
            for _ in range(k):
                picked.append(rest.pop(self.rng.below(len(rest))))
            rest = picked
        return [greedy_move, *rest]

    # ---- playouts --------------------------------------------------------------------

    def _playout(self, world: State, seat: int, move: Move, seed: int) -> float:
        game = self.game
        state = clone(world)
        game._apply(state, seat, move)
        rng = Rng(seed)
        bots = [greedy_for(game.id, rng.next64()) for _ in range(state["seats"])]
        for _ in range(self.horizon):
            if game.result(state) is not None:
                break
            active = game.active_seats(state)
            s = active[0] if len(active) == 1 else active[rng.below(len(active))]
            opts = game.legal_moves(state, s)
            if len(opts) == 1:
                m = opts[0]
            else:
                m = bots[s].choose({"text": "", "options": opts}, game.view(state, s))
            game._apply(state, s, m)
        return self._reward(state, seat)

    def _reward(self, state: State, seat: int) -> float:
        result = self.game.result(state)
        if self._evaluate_end and self._evaluate is not None:
            scores = [float(x) for x in self._evaluate(state)]
            bonus = self._win_bonus if result is not None and seat in result["winners"] else 0.0
        elif result is not None:
            scores = [float(x) for x in result["scores"]]
            bonus = self._win_bonus if seat in result["winners"] else 0.0
        elif self._evaluate is not None:
            scores = [float(x) for x in self._evaluate(state)]
            bonus = 0.0
        else:
            return 0.0
        if self._own:  # the game's `bots.OWN_REWARD`: the seat's own figure, not its margin
            return scores[seat] + bonus
        best_other = max(x for s, x in enumerate(scores) if s != seat)
        return scores[seat] - best_other + bonus


def decide(game_id: str, state: State, seat: int, seed: int, budget: Budget | None = None) -> tuple[Move, int]:
    """One search decision (the process-pool entry point): the move and how many playouts it took."""
    bot = SearchBot(game_id, seed, budget)
    move = bot.choose_state(state, seat)
    return move, bot.last_playouts
