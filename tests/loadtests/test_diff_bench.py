"""`python -m loadtests.diff_bench`: its pairs are real consecutive views and its comparison runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from loadtests.diff_bench import main, view_pairs
from protocol.patch import apply_patch_builtin, make_patch_builtin


def test_the_pairs_are_consecutive_views_that_a_diff_turns_into_each_other() -> None:
    pairs = view_pairs("expedition", 1, 3)
    assert len(pairs) > 20
    assert pairs[0][1] == pairs[1][0]  # the view after one move is the view before the next
    for s0, s1, o0, o1 in pairs[:40]:
        assert apply_patch_builtin(s0, make_patch_builtin(s0, s1)) == s1
        assert apply_patch_builtin(o0, make_patch_builtin(o0, o1)) == o1


def test_it_compares_against_another_diff_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    source = Path(__file__).resolve().parents[2] / "protocol" / "patch.py"
    main(["--games", "1", "--repeat", "1", "--against", str(source)])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split()[:2] == ["game", "moves"]
    assert [line.split()[0] for line in lines[1:]] == ["classic", "expedition", "khan", "voyages"]
    for line in lines[1:]:
        assert line.split()[-1] == "1.00"  # the same diff on both sides: the same bytes
