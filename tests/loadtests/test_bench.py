"""The bench's core against an in-process server (memory store), and its lean patch applier."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest

from loadtests.bench import apply_in_place, percentile, run_load
from protocol.patch import make_patch
from server.app import App
from server.config import Settings


async def test_bench_core_plays_and_measures() -> None:
    app = App(Settings(port=0, store="memory", allow_client_seed=True, rate=1000, burst=2000))
    await app.start()
    try:
        report = await run_load(
            f"ws://127.0.0.1:{app.port}/ws", rooms=2, seats=3, seconds=3.0, seed=7, sync_after=(1, 5)
        )
        for _ in range(100):  # the server notices the closes a moment later
            if not app.hub.conns:
                break
            await asyncio.sleep(0.02)
        assert app.hub.conns == set()  # every bot connection was closed
    finally:
        await app.stop()
    s = report.stats
    assert s.moves > 0 and report.moves_per_s > 0
    assert len(s.move_patch) == s.moves and s.missing_patch == 0  # every ok came after the mover's patch
    assert s.rooms_started >= 2
    assert s.patch_frames > 0 and s.snapshot_frames > 0 and s.join_snapshot_frames > 0
    assert "patch_did_not_apply" not in s.errors and "stalled" not in s.errors
    assert percentile(s.move_patch, 50) <= percentile(s.move_ok, 50)
    assert "moves/s" in report.summary()
    # a patch weighs less than a snapshot of the view in play (the reason patches exist)
    assert report.mean_patch_bytes < report.mean_snapshot_bytes


def _random_doc(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(-3, 4)
    if kind == 1:
        return rng.choice(["a", "b", "x/y", "t~0", ""])
    if kind == 2:
        return rng.choice([None, True, False])
    if kind == 3:
        return [_random_doc(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(["k", "l", "a/b", "m~n", "log"]) + str(i): _random_doc(rng, depth + 1) for i in range(4)}


def _mutate(rng: random.Random, doc: Any) -> Any:
    if isinstance(doc, dict) and doc and rng.random() < 0.8:
        out = dict(doc)
        key = rng.choice(sorted(out))
        if rng.random() < 0.2:
            del out[key]
        else:
            out[key] = _mutate(rng, out[key])
        if rng.random() < 0.2:
            out["new"] = _random_doc(rng, 2)
        return out
    if isinstance(doc, list) and rng.random() < 0.8:
        out = list(doc)
        roll = rng.random()
        if roll < 0.3 and out:
            del out[0]  # a sliding window, like a game log
            out.append(_random_doc(rng, 2))
        elif roll < 0.5 and out:
            out.pop()
        elif roll < 0.7:
            out.append(_random_doc(rng, 2))
        elif out:
            i = rng.randrange(len(out))
            out[i] = _mutate(rng, out[i])
        return out
    return _random_doc(rng, 1)


def test_apply_in_place_matches_the_diff() -> None:
    rng = random.Random(3)
    for _ in range(500):
        old = {"view": _random_doc(rng), "log": [{"n": i} for i in range(rng.randrange(6))]}
        new = _mutate(rng, copy.deepcopy(old))
        ops = make_patch(old, new)
        assert apply_in_place(copy.deepcopy(old), copy.deepcopy(ops)) == new


def test_apply_in_place_refuses_a_patch_that_does_not_fit() -> None:
    for ops in (
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "remove", "path": "/list/5"}],
        [{"op": "move", "path": "/a", "from": "/b"}],
    ):
        with pytest.raises((KeyError, IndexError, ValueError)):
            apply_in_place({"list": [1], "a": 1}, ops)
