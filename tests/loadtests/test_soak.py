"""The soak: its verdict on synthetic series (flat passes, growth fails, noise does not), its /metrics parsing,
and one tiny run of the whole command against a real server process (samples printed, JSON written)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from loadtests.soak import SERIES, judge, judged_series, parse_metrics, slope

ROOT = Path(__file__).resolve().parents[2]


def _samples(minutes: int, **series: Any) -> list[dict[str, Any]]:
    """One sample a minute; each series is a function of the minute."""
    return [{"t_min": float(t), **{k: f(t) for k, f in series.items()}} for t in range(minutes + 1)]


def _flat(**over: Any) -> dict[str, Any]:
    base = {
        "rss_mib": lambda t: 80.0,
        "fds": lambda t: 60,
        "threads": lambda t: 1,
        "rooms": lambda t: 40,
        "connections": lambda t: 50,
    }
    base.update(over)
    return base


def _grows(verdicts: list[Any]) -> dict[str, bool]:
    return {v.series: v.grows for v in verdicts}


def test_slope_is_the_least_squares_fit() -> None:
    assert slope([0, 1, 2, 3], [1, 3, 5, 7]) == 2.0
    assert slope([0, 1, 2], [5, 5, 5]) == 0.0
    assert slope([1], [4]) == 0.0
    assert slope([2, 2], [1, 9]) == 0.0  # no spread in x


def test_flat_series_pass() -> None:
    verdicts = judge(_samples(60, **_flat()), 10)
    assert [v.series for v in verdicts] == list(SERIES)
    assert not any(v.grows for v in verdicts)
    assert all(v.samples == 51 for v in verdicts)


def test_rss_that_climbs_fails_and_a_small_or_warmup_climb_does_not() -> None:
    climbing = judge(_samples(60, **_flat(rss_mib=lambda t: 80.0 + 0.5 * t)), 10)
    assert _grows(climbing)["rss_mib"]
    # under the slope limit (0.1 MiB/min) though over 5%: passes
    assert not _grows(judge(_samples(60, **_flat(rss_mib=lambda t: 50.0 + 0.1 * t)), 10))["rss_mib"]
    # over the slope limit but under 5% of a large RSS: passes
    assert not _grows(judge(_samples(60, **_flat(rss_mib=lambda t: 2000.0 + 0.5 * t)), 10))["rss_mib"]
    # growth during the warm-up only, flat after it: passes
    warm = judge(_samples(60, **_flat(rss_mib=lambda t: 40.0 + 4 * min(t, 10))), 10)
    assert not _grows(warm)["rss_mib"]
    # the limits are arguments
    assert _grows(judge(_samples(60, **_flat(rss_mib=lambda t: 50.0 + 0.1 * t)), 10, rss_slope=0.05))["rss_mib"]


def test_counts_that_grow_at_all_fail() -> None:
    leak = judge(_samples(60, **_flat(fds=lambda t: 60 + t // 10, threads=lambda t: 1 + t // 20)), 10)
    assert _grows(leak) == {"rss_mib": False, "fds": True, "threads": True, "rooms": False, "connections": False}
    rooms = judge(_samples(60, **_flat(rooms=lambda t: 40 + t // 5)), 10)
    assert _grows(rooms)["rooms"]


def test_noisy_counts_that_do_not_trend_pass() -> None:
    rng = random.Random(7)
    noise = {t: rng.randint(-3, 3) for t in range(61)}
    verdicts = judge(_samples(60, **_flat(connections=lambda t: 50 + noise[t], rooms=lambda t: 40 + noise[t] % 2)), 10)
    assert not any(v.grows for v in verdicts)
    # a count that went down and came back is no growth; one spike at the end is none either
    assert not any(v.grows for v in judge(_samples(60, **_flat(fds=lambda t: 60 - (20 < t < 40) * 5)), 10))
    assert not any(v.grows for v in judge(_samples(60, **_flat(fds=lambda t: 60 + (t == 60) * 9)), 10))


def test_too_few_samples_are_not_judged() -> None:
    verdicts = judge(_samples(4, **_flat(fds=lambda t: 60 + t, rss_mib=lambda t: 80.0 + 10 * t)), 1)
    by = {v.series: v for v in verdicts}
    assert by["rss_mib"].grows  # 4 samples judge RSS
    assert not by["fds"].grows and by["fds"].why == "too few samples to judge"  # a count needs 6
    assert judge([], 10)[0].samples == 0


def test_metrics_gauges_are_read() -> None:
    text = (
        "# HELP mp_connections Open WebSocket connections\n# TYPE mp_connections gauge\nmp_connections 12.0\n"
        'mp_rooms{game="khan",status="playing"} 3.0\nmp_rooms{game="classic",status="playing"} 2.0\n'
        'mp_rooms{game="classic",status="finished"} 1.0\n'
    )
    text += 'mp_asyncio_tasks 31.0\nmp_node_table_entries{table="rooms"} 4.0\n'
    text += 'mp_node_table_entries{table="relayed"} 0.0\n'
    assert parse_metrics(text) == {
        "mp_connections": 12,
        "mp_rooms": {"playing": 5, "finished": 1},
        "tasks": 31,
        "table:rooms": 4,
        "table:relayed": 0,
    }
    assert parse_metrics("") == {"mp_connections": None, "mp_rooms": {}, "tasks": None}


def test_tasks_and_tables_are_judged_like_counts() -> None:
    samples = _samples(60, **_flat(tasks=lambda t: 30, **{"table:viewers": lambda t: 10 + t // 6}))
    series = judged_series(samples)
    assert "tasks" in series and "table:viewers" in series
    grows = _grows(judge(samples, 10, series=series))
    assert grows["table:viewers"] and not grows["tasks"]


def test_a_tiny_soak_runs_samples_and_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    # a run this short says nothing about the server's memory (it checks the tool): RSS is given a wide limit,
    # and with four samples after the warm-up the counts are reported, not judged
    cmd = [sys.executable, "-m", "loadtests.soak", "--minutes", "0.4", "--warmup", "0.2", "--sample", "4"]
    cmd += ["--rooms", "4", "--bot-delay", "0", "--think", "0", "--rss-growth", "0.5", "--json", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("t=")]
    assert len(lines) >= 6 and "rss" in lines[0] and "fds" in lines[0]
    assert "PASS" in proc.stdout
    data = json.loads(out.read_text())
    assert data["ok"] is True and data["failures"] == []
    assert len(data["samples"]) == len(lines)
    for s in data["samples"]:
        assert {"t_min", *SERIES, "mp_rooms", "mp_connections", "load"} <= set(s)
        assert s["rss_mib"] > 0 and s["fds"] > 0 and s["threads"] >= 1
    # the node's own counts were read: rooms in play and sockets open (the players hang up between games and
    # reconnect mid-game, so on a loaded machine any one sample may catch only some of them)
    assert data["samples"][-1]["rooms"] >= 1 and max(s["connections"] for s in data["samples"]) >= 1
    judged = [v["series"] for v in data["verdicts"]]
    assert judged[: len(SERIES) + 1] == [*SERIES, "tasks"] and "table:rooms" in judged and "table:relayed" in judged
    assert all(s["tasks"] > 0 and s["table:rooms"] >= 1 for s in data["samples"][1:])
    assert data["load"]["games_finished"] >= 1 and data["load"]["moves"] > 0
    # the server process is gone
    pid = data["server"]["pid"]
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
