"""The arena's rows and tables: per seat, per start player and per character, written between markers."""

from __future__ import annotations

from pathlib import Path

from server.games import arena
from server.games.search import Budget


def test_a_played_game_names_seat_start_and_characters() -> None:
    row = arena.play("voyages", 1, Budget(seconds=None, playouts=1))
    assert row["seat"] == 1
    assert isinstance(row["starts"], bool)
    assert row["character"] and row["greedy_character"]
    assert row["win"] in (0.0, 0.5, 1.0)
    assert row["decisions"] > 0 and row["playouts"] > 0  # (a prompt of one option and a cancel: no playout)


def test_seat_table_splits_the_win_rate_and_replace_block_keeps_the_rest(tmp_path: Path) -> None:
    rows = [
        {"game": "khan", "seat": 0, "starts": True, "character": "abha", "greedy_character": "dewu", "win": 1.0},
        {"game": "khan", "seat": 1, "starts": False, "character": "dewu", "greedy_character": "abha", "win": 0.0},
        {"game": "khan", "seat": 0, "starts": False, "character": "abha", "greedy_character": "mailin", "win": 0.5},
    ]
    text = arena.seat_table(rows, "khan")
    assert "| search at seat 0 | 75% (2) |" in text
    assert "| search at seat 1 | 0% (1) |" in text
    assert "| search starts | 100% (1) |" in text
    assert "| search plays abha | 75% (2) |" in text
    assert "| greedy plays mailin | 50% (1) |" in text
    doc = tmp_path / "khan.md"
    doc.write_text(f"# Khan\n\nbefore\n\n{arena.BEGIN}\nold\n{arena.END}\n\nafter\n")
    arena.replace_block(doc, "new")
    assert doc.read_text() == f"# Khan\n\nbefore\n\n{arena.BEGIN}\nnew\n{arena.END}\n\nafter\n"


def test_wilson_interval_brackets_the_rate() -> None:
    assert arena.wilson(0, 0) == "-"
    assert arena.wilson(15, 20) == "53-89%"
    assert arena.wilson(20, 20).endswith("-100%")
