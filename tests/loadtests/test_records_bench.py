"""`python -m loadtests.records_bench` on SQLite with tiny counts: it ends the games it says it ends, rates
their players through the real ratings, and reads a leaderboard page best first."""

from __future__ import annotations

from pathlib import Path

import pytest

from loadtests import records_bench


async def test_the_bench_ends_rated_games_and_reads_through_the_records(tmp_path: Path) -> None:
    results = await records_bench.run(["sqlite"], [10, 500], 5, calls=3, tmp=str(tmp_path))
    assert [(r["backend"], r["players"], r["ends"]) for r in results] == [("sqlite", 10, 5), ("sqlite", 500, 5)]
    for r in results:
        assert r["problems"] == []
        assert r["archived"] == 5 and r["rating_rows"] == r["players"] + 2 * 5
        assert sum(r["played"].values()) == 5 * records_bench.SEATS
        for player, games in r["played"].items():  # every seat of every game end was rated
            row = r["after"][player]
            assert row["games"] >= games >= 1
            seeded = records_bench.seeded_row(int(player[1:]))["games"] if player.startswith("p") else 0
            assert row["games"] == seeded + games
        scores = [score for _, score in r["board"]]
        assert len(scores) == min(records_bench.PAGE, r["rating_rows"])
        assert scores == sorted(scores, reverse=True)
        assert 0 < r["end_ms_median"] <= r["end_ms_p95"] <= r["end_ms_max"]
        assert r["cpu_ms_per_end"] > 0 and r["leaderboard_ms_median"] > 0 and r["history_ms_median"] > 0
        # the archive row, its players, the 4 rating rows read, then written, then the players' scores after it
        assert r["statements_per_end"] == 5
    assert list(tmp_path.iterdir()) == []  # its temporary directory is gone


def test_the_command_prints_a_table_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert records_bench.main(["--backend", "sqlite", "--players", "10,200", "--ends", "3", "--calls", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| sqlite |")]
    assert [row.split(" | ")[1] for row in rows] == ["10", "200"]
    assert all(row.rstrip(" |").endswith("ok") for row in rows)
    assert "sqlite, 200 / 10 players: game end median" in out


@pytest.mark.parametrize("players, ends", [(1, 5), (10, 0), (records_bench.MAX_PLAYERS + 1, 5)])
async def test_out_of_bounds_counts_are_refused(players: int, ends: int) -> None:
    with pytest.raises(ValueError):
        await records_bench.bench_one("sqlite", players, ends)
