"""`make peers` (`python -m loadtests.peers`): the peer servers start, their drivers measure, the audit reads what
each seat received, the section lands between its markers, and nothing is left running. Skipped without Node 20+
(or when its npm packages cannot be installed); a couple of seconds of load per peer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loadtests import peers
from loadtests.bench import process_tree
from loadtests.peers import BEGIN, END, PEERS, main, node_missing, plan_project, write_doc


@pytest.fixture(scope="module")
def node() -> None:
    why = node_missing()
    if why:
        pytest.skip(why)
    try:
        peers.ensure_packages(quiet=True)
    except Exception as err:  # noqa: BLE001 (no registry here: nothing to test against)
        pytest.skip(f"npm ci failed: {err}")


def _children() -> list[int]:
    import os

    return [pid for pid in process_tree(os.getpid()) if pid != os.getpid()]


def test_write_doc_replaces_only_the_peers_section(tmp_path: Path) -> None:
    doc = tmp_path / "b.md"
    # (a marker quoted inside a line is text, not the marker)
    doc.write_text(f"# Bench\n\nsee `{BEGIN}`\n\n{BEGIN}\nold\n{END}\n\nafter\n")
    write_doc(f"{BEGIN}\nnew\n{END}", doc)
    assert doc.read_text() == f"# Bench\n\nsee `{BEGIN}`\n\n{BEGIN}\nnew\n{END}\n\nafter\n"
    plain = tmp_path / "c.md"
    plain.write_text("# Bench\n")
    write_doc(f"{BEGIN}\nt\n{END}", plain)
    assert plain.read_text() == f"# Bench\n\n{BEGIN}\nt\n{END}\n"


def test_the_plan_runs_the_baseline_once_and_expedition_with_and_without_deflate() -> None:
    a = peers.parse(["--games", "all"])
    names = [name for name, *_ in plan_project(a)]
    assert names[0] == "baseline"
    assert "project-expedition-none" in names and "project-expedition-deflate" in names
    assert {"project-classic-deflate", "project-voyages-deflate", "project-khan-deflate"} <= set(names)
    assert [name for name, *_ in plan_project(peers.parse(["--games", "none", "--no-baseline"]))] == []


@pytest.mark.timeout(120)
def test_a_short_run_of_two_peers_measures_audits_and_cleans_up(node: None, tmp_path: Path) -> None:
    doc = tmp_path / "bench.md"
    doc.write_text(f"# Bench\n\nkept\n\n{BEGIN}\n{END}\n")
    before = set(_children())
    code = main(
        ["--peers", "colyseus-now,bgio", "--games", "none", "--no-baseline", "--rooms", "2", "--seconds", "1.5"]
        + ["--doc", str(doc), "--results", str(tmp_path)]
    )
    assert code == 0
    assert set(_children()) <= before, "a server or driver was left running"
    text = doc.read_text()
    assert text.startswith("# Bench\n\nkept\n\n" + BEGIN) and text.rstrip().endswith(END)
    assert f"| {PEERS['colyseus-now'].title} | 3-card hidden hand |" in text
    assert f"| {PEERS['bgio'].title} | 3-card hidden hand |" in text
    (result,) = [json.loads(p.read_text()) for p in tmp_path.glob("peers-*.json")]
    rows = {r["name"]: r for r in result["rows"]}
    for name in ("colyseus-now", "bgio"):
        r = rows[name]
        assert r["moves"] > 0 and r["server_cpu_us_per_move"] > 0 and r["wire_bytes_per_move"] > 0, r
        assert r["errors"] == {}, r["errors"]
    # Colyseus's StateView keeps the hands apart; boardgame.io's sync hands every seat the initial state
    assert rows["colyseus-now"]["audit"] == []
    assert any("initialState" in line and "hands" in line for line in rows["bgio"]["audit"])
    assert result["versions"]["boardgame.io"].startswith("0.50.")
