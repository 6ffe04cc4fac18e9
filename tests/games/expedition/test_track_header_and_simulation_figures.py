"""The house track says what it is (`track.json`'s header) and the simulation's figures in
docs/games/expedition.md ("Simulation figures") hold on fixed seeds, small enough for the default tests."""

from __future__ import annotations

import json
import statistics
from importlib import resources
from typing import Any

import pytest

from server.games.expedition.data import DAIDU, KANTSHOU, TRACK, track_from
from server.games.expedition.simulate import play, run


def _raw() -> dict[str, Any]:
    text = resources.files("server.games.expedition").joinpath("track.json").read_text(encoding="utf-8")
    raw: dict[str, Any] = json.loads(text)
    return raw


def test_the_track_header_says_it_is_house_data_and_names_the_fixed_points_it_rests_on() -> None:
    header = _raw()["_house_data"]
    assert header.startswith("HOUSE DATA")
    for fact in ("seed 000", "decisions.md", "30 positions", "Hormus = 0", "Kantshou = 16", "Daidu = 29"):
        assert fact in header, fact
    # and the track agrees with what its header says
    assert len(TRACK) == 30 and TRACK[0].name == "Hormus"
    assert TRACK[KANTSHOU].req == {"kind": "four_goods"} and TRACK[DAIDU].req == {"kind": "goods", "n": 4}
    assert [TRACK[p].score for p in range(11, 17)] == [1, 2, 3, 4, 5, 6]
    assert [TRACK[p].score for p in range(23, 30)] == [1, 2, 3, 4, 5, 6, 7]


def test_a_track_file_without_its_house_data_header_is_refused() -> None:
    raw = _raw()
    assert len(track_from(raw)) == 30
    without = {k: v for k, v in raw.items() if k != "_house_data"}
    with pytest.raises(AssertionError, match="HOUSE DATA"):
        track_from(without)
    with pytest.raises(AssertionError, match="HOUSE DATA"):
        track_from({**raw, "_house_data": "reconstructed track"})


@pytest.mark.parametrize(("seats", "low", "high"), [(3, 36.0, 41.0), (5, 25.0, 28.0)])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_seeded_games_last_as_many_turns_per_player_as_the_simulation_figures_say(
    seats: int, low: float, high: float, bot: str
) -> None:
    # docs: 1,000 games give 38.7 (random) / 38.1 (greedy) turns per player at 3 seats, 26.6 / 25.4 at 5 seats;
    # decision A asks for 25-60 on average, and spaces 6 and 10 were made harder so that 5 seats reach 25
    per_player = [play(seats, seed, bot)["turns"] / seats for seed in range(60)]
    assert low <= statistics.mean(per_player) <= high
    assert 25.0 <= statistics.mean(per_player) <= 60.0


def test_the_simulation_report_has_the_lines_the_docs_table_is_built_from() -> None:
    report = run(3, 4, "greedy")
    lines = report.splitlines()
    assert lines[0].startswith("## 3 seats, 4 games, greedy bot")
    for start in ("- turns per player: mean", "- win rate by seat", "- mean gold by seat", "- stalemate endings:"):
        assert any(line.startswith(start) for line in lines), start
    assert "- spaces ever occupied: " in report
