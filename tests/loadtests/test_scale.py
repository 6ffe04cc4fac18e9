"""`python -m loadtests.scale` with tiny counts: it fills both prefixes, starts the nodes, reads lobby pages and
makes quick matches, and keeps its figures (no figure is checked against a time: only that each was measured)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from loadtests import scale

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")


async def test_the_scale_bench_measures_both_prefixes_with_tiny_counts(tmp_path: Path) -> None:
    argv = ["--finished", "300", "--live", "40", "--base-live", "10", "--pages", "5", "--matchers", "4",
            "--seconds", "1", "--skip-records", "--results", str(tmp_path)]  # fmt: skip
    assert await scale.main_async(scale.parse(argv), argv) == 0
    (kept,) = tmp_path.glob("scale-*.json")
    results = json.loads(kept.read_text())
    for side, live in (("base", 10), ("scale", 40)):
        figures = results[side]
        assert figures["rooms_run_by_other"] == live and figures["rooms_loaded"] == live
        assert figures["lobby_rooms"] > 0 and figures["matches"] > 0 and figures["match_errors"] == 0
        assert figures["start_joining_s"] > 0 and figures["lobby_cpu_ms"] >= 0
