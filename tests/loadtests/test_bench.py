"""The bench: its load against both servers in every mode, its command line in a short smoke run per mode,
its /proc accounting (children included) and its lean patch applier."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from loadtests.baseline import Baseline
from loadtests.bench import (
    LoadSpec,
    Runner,
    Seat,
    apply_in_place,
    median_of,
    percentile,
    process_tree,
    tree_cpu_s,
)
from protocol.patch import make_patch
from server.config import Settings
from server.net.app import App

ROOT = Path(__file__).resolve().parents[2]


async def _real() -> tuple[App, str]:
    app = App(Settings(port=0, store="memory", allow_client_seed=True, rate=1000, burst=2000, max_conns_per_addr=0))
    await app.start()
    return app, f"ws://127.0.0.1:{app.port}/ws"


async def _play(url: str, **spec: Any) -> Runner:
    seconds = spec.pop("seconds", 2.0)
    runner = Runner(LoadSpec(url=url, **spec))
    try:
        await runner.setup()
        await runner.play(time.perf_counter() + seconds)
    finally:
        await runner.close()
    return runner


def _check_closed(runner: Runner) -> None:
    s = runner.stats
    assert s.errors == {}, s.errors
    assert s.moves > 0 and len(s.ack) == s.moves
    # one move in flight per room: every acknowledged move was seen by every seat before the next was sent,
    # except, per room, a move acknowledged just before the window closed
    assert s.moves - len(runner.tables) <= len(s.fanout) <= s.moves
    assert s.fanout_missing == 0
    assert percentile(s.ack, 50) <= percentile(s.fanout, 99.9)
    assert sum(s.patch_sizes.values()) >= len(s.fanout) * runner.seats - len(runner.tables) * runner.seats


@pytest.mark.parametrize("game", ["expedition", "khan"])
async def test_closed_loop_against_the_real_server(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    late: list[float] = []  # moves sent after the window closed
    request = Seat.request

    async def counting(self: Seat, t: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
        if t == "move" and time.perf_counter() > self.runner.stop_at:
            late.append(time.perf_counter())
        return await request(self, t, timeout, **fields)

    monkeypatch.setattr(Seat, "request", counting)
    app, url = await _real()
    try:
        runner = await _play(url, mode="closed", game=game, seats=3, tables=(0, 1), sync_after=(1, 3))
    finally:
        await app.stop()
    _check_closed(runner)
    assert late == []  # the load stops with the window, also in the middle of a game
    s = runner.stats
    assert s.snapshot_sizes, "in-game snapshots were sampled"
    assert median_of(s.patch_sizes) < median_of(s.snapshot_sizes)


async def test_bytes_per_move_are_counted_on_the_socket_and_in_the_messages_with_and_without_deflate() -> None:
    app, url = await _real()  # (the server's default: permessage-deflate for clients that offer it)
    try:
        plain = await _play(url, mode="closed", seats=3, tables=(0,), seconds=1.0, sync_after=(10**9, 10**9))
        squeezed = await _play(
            url, mode="closed", seats=3, tables=(1,), seconds=1.0, sync_after=(10**9, 10**9), compression="deflate"
        )
    finally:
        await app.stop()
    for runner in (plain, squeezed):
        _check_closed(runner)
        assert not runner.stats.snapshot_sizes  # no in-game sync
    p, q = plain.stats, squeezed.stats
    # without compression the socket reads the messages plus 2-4 bytes of frame header each
    assert p.payload_bytes < p.wire_bytes < p.payload_bytes * 1.05
    # with it, the socket reads several times less than the messages hold
    assert q.wire_bytes * 3 < q.payload_bytes
    assert q.wire_bytes / q.moves * 3 < p.wire_bytes / p.moves


async def test_closed_loop_against_the_baseline_finishes_games() -> None:
    base = Baseline()
    await base.start()
    try:
        runner = await _play(f"ws://127.0.0.1:{base.port}/ws", mode="closed", seats=2, tables=(0, 1, 2), seconds=3.0)
    finally:
        await base.stop()
    _check_closed(runner)
    s = runner.stats
    assert s.rooms_finished >= 1 and s.rooms_started >= 1  # a 2-seat race is ~100 moves: games end and restart


async def test_open_loop_waits_its_think_time() -> None:
    base = Baseline()
    await base.start()
    try:
        runner = await _play(
            f"ws://127.0.0.1:{base.port}/ws", mode="open", think=0.25, seats=2, tables=(0, 1), seconds=2.5
        )
    finally:
        await base.stop()
    s = runner.stats
    assert s.errors == {}, s.errors
    # one seat to move per room, each after 0.25 s: at most 2.5 / 0.25 = 10 moves per room
    assert 2 <= s.moves <= 2 * 10
    assert s.fanout and max(s.fanout) < 2.0


async def test_idle_connections_are_counted() -> None:
    app, url = await _real()
    try:
        runner = Runner(LoadSpec(url=url, mode="idle", connections=30))
        await runner.setup()
        assert runner.setup_stats.connections == 30 and not runner.setup_stats.errors
        assert len(app.hub.conns) == 30
        await runner.play(time.perf_counter() + 0.2)
        await runner.close()
        for _ in range(100):
            if not app.hub.conns:
                break
            await asyncio.sleep(0.02)
        assert not app.hub.conns
    finally:
        await app.stop()


def _bench(*args: str, timeout: float = 120) -> tuple[str, dict[str, Any]]:
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-{os.getpid()}-{random.randrange(10**9)}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "loadtests.bench", *args, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(out.read_text())
    out.unlink()
    print(proc.stdout)
    return proc.stdout, data


def test_command_closed_loop_runs_both_servers_and_prints_ratios() -> None:
    text, data = _bench("--mode", "closed", "--rooms", "3", "--seats", "3", "--seconds", "2")
    assert [r["label"] for r in data["reports"]] == ["baseline", "real"]
    for r in data["reports"]:
        assert r["moves"] > 0 and r["errors"] == {}
        assert r["server_cpu_us_per_move"] > 0 and r["rss_end_mib"] > 0
        assert r["server_processes"] >= 1
    assert data["ratios"]["cpu_per_move"] > 0
    assert "== real / baseline ==" in text and "us per move" in text
    assert data["command"].startswith("python -m loadtests.bench --mode closed")


def test_command_open_loop_in_two_load_processes() -> None:
    text, data = _bench(
        "--mode", "open", "--think", "0.2", "--rooms", "4", "--seats", "2", "--seconds", "2", "--clients", "2"
    )
    for r in data["reports"]:
        assert r["client_processes"] == 2
        assert r["moves"] > 0 and r["errors"] == {}
        assert r["fanout_samples"] > 0
    assert "move->last patch" in text


def test_command_idle_measures_memory_per_connection() -> None:
    text, data = _bench("--mode", "idle", "--connections", "100", "--seconds", "0.5")
    for r in data["reports"]:
        assert r["connections"] == 100
        assert r["rss_per_connection_kib"] > 0
        assert r["setup_cpu_us_per_connection"] > 0
    assert "KiB per idle connection" in text and "rss_per_connection" in data["ratios"]


def test_tree_cpu_counts_every_process_below_the_server() -> None:
    burn = "import time\nt=time.process_time()\nwhile time.process_time()-t<0.4: pass\ntime.sleep(30)"
    spawn = f"import subprocess,sys,time\np=subprocess.Popen([sys.executable,'-c',{burn!r}])\ntime.sleep(30)"
    parent = subprocess.Popen([sys.executable, "-c", spawn])
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if len(process_tree(parent.pid)) == 2 and tree_cpu_s(parent.pid) >= 0.4:
                break
            time.sleep(0.1)
        tree = process_tree(parent.pid)
        assert len(tree) == 2 and tree[0] == parent.pid
        assert tree_cpu_s(parent.pid) >= 0.4  # the child's CPU is the server's too
    finally:
        for pid in reversed(process_tree(parent.pid)):
            os.kill(pid, 9)
        parent.wait()


def test_percentiles_and_medians() -> None:
    values = [float(i) for i in range(1, 1001)]
    assert percentile(values, 50) == 500 and percentile(values, 99) == 990 and percentile(values, 99.9) == 999
    assert percentile([], 50) != percentile([], 50)  # NaN
    from collections import Counter

    assert median_of(Counter({10: 3, 200: 2})) == 10
    assert median_of(Counter({10: 2, 200: 3})) == 200


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


async def test_a_server_that_goes_away_is_noticed_and_counted() -> None:
    base = Baseline()
    await base.start()
    runner = Runner(LoadSpec(url=f"ws://127.0.0.1:{base.port}/ws", mode="idle", connections=5))
    try:
        await runner.setup()
        assert runner.setup_stats.connections == 5
        await base.stop()  # closes every connection
        for _ in range(100):
            if all(s.closed for s in runner.idle):
                break
            await asyncio.sleep(0.02)
        assert all(s.closed for s in runner.idle)
        with pytest.raises(ConnectionError):
            await runner.idle[0].request("ping")
        stats = await runner.play(time.perf_counter() + 0.1)
        assert stats.errors == {"idle_connection_closed": 5}
    finally:
        await runner.close()
