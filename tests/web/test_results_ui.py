"""The end of a game explains itself: a result panel at the top says who won and why, per game.

Each game is played to its end on its engine with seeded random moves (tests/web/states.py) and its last view is
drawn by a signed-in page, as a seat's and as a spectator's, with the whole game's log at hand (as the page has it
after `game_log`). The panel is the first thing of the board's column and starts inside the first screen; it names
the winners, the winner's margin, the ranking and a table of the final scoring per seat, best first, whose columns
add up to each total where the game gives the parts, with the tie-break's column; what the end reveals is shown
(every seat's gold and chests in Expedition, every seat's mission city and goods by colour in classic, the goal
cards in the dice games), and nothing still says "gold hidden" or "Waiting for the other players". Screenshots in
tests/artifacts/result-<game>-<size>.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat
from .states import GAMES, NAMES, SHOW_JS, seeded_views

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

#: the score table's columns that add up to the total, and the total's column (by heading), per game
PARTS = {
    "expedition": (
        ["at the start", "chests on the track", "Kantshou scoring", "final scoring", "lightened loads"],
        "gold",
    ),
    "classic": (["money", "goods cards", "Golden Table", "Secret of the East"], "total"),
    "voyages": (
        ["in game", "goal cards", "goal cities", "coins", "Beijing", "goods", "most contracts", "all posts"],
        "total",
    ),
    "khan": (
        ["in game", "goal seals", "shields", "goods", "coins", "most contracts", "caravan"],
        "total",
    ),
}
TIEBREAK = {
    "expedition": "furthest figure (tie-break)",
    "classic": "progress (first)",
    "voyages": "camels",
    "khan": "camels",
}

TABLE_JS = """() => {
  const table = document.querySelector("[data-testid='result'] [data-testid='score-table'] table");
  if (!table) return null;
  const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  const rows = [...table.querySelectorAll("tbody tr")].map((tr) => ({
    seat: +tr.dataset.seat,
    winner: tr.classList.contains("winner"),
    cells: [...tr.children].map((c) => c.textContent.trim()),
  }));
  return { heads, rows };
}"""


def end_of(game: str, seed: int = 7) -> tuple[dict[str, Any], list[dict[str, Any]], dict[int | None, dict[str, Any]]]:
    """The result, the whole game's public log events and the last view of every seat (None: a spectator)."""
    room = f"end-{game}"
    events: dict[int, dict[str, Any]] = {}
    last: dict[int | None, dict[str, Any]] = {}
    for _, view in seeded_views(game, seed, room=room):
        for ev in view["public"].get("log", []):
            events[ev["n"]] = ev
        if view["result"] is not None:
            last[view["you"]] = view
    result = last[None]["result"]
    return result, [events[n] for n in sorted(events)], last


def open_end(seat: BrowserSeat, game: str, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Draw the end view with the whole game's log kept for its room (as `game_log` leaves it)."""
    seat.page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"marcopolo.log.{view['room']}", json.dumps({"game": game, "events": events})],
    )
    seat.page.evaluate(SHOW_JS, [view["room"], 1, view])
    seat.page.wait_for_selector("[data-testid='result']")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_result_panel_says_who_won_and_why(browser: Any, server: str, artifacts: Path, game: str) -> None:
    result, events, last = end_of(game)
    seats = GAMES[game]["seats"]
    ranking = result.get("ranking") or sorted(range(seats), key=lambda s: -result["scores"][s])
    winners = [NAMES[s] for s in result["winners"]]
    for size, viewport in {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}.items():
        for who in (0, None):
            seat = BrowserSeat(browser, server, "Ann", viewport=viewport)
            try:
                open_end(seat, game, last[who], events)
                page = seat.page
                # first in the board's column, starting inside the first screen
                assert (
                    page.evaluate("() => document.querySelector('.board-col').firstElementChild.dataset.testid")
                    == "result"
                )
                top = page.evaluate(
                    "() => document.querySelector(\"[data-testid='result']\").getBoundingClientRect().top"
                )
                assert 0 <= top < viewport["height"] / 2, top
                text = page.inner_text("[data-testid='result']")
                assert all(name in text for name in winners), text
                # the ranking, best first, with every score
                order = page.eval_on_selector_all(
                    "[data-testid='result'] .ranking li", "els => els.map((e) => +e.dataset.seat)"
                )
                assert order == ranking
                # the table: a row per seat in the same order, winners marked, parts adding up, the tie-break
                table = page.evaluate(TABLE_JS)
                assert table is not None, f"{game}: no score table in the result panel"
                assert [r["seat"] for r in table["rows"]] == ranking
                assert [r["seat"] for r in table["rows"] if r["winner"]] == [
                    s for s in ranking if s in result["winners"]
                ]
                parts, total = PARTS[game]
                heads = table["heads"]
                assert TIEBREAK[game] in heads, heads
                for row in table["rows"]:
                    cells = dict(zip(heads, row["cells"], strict=True))
                    assert int(cells[total]) == result["scores"][row["seat"]]
                    assert sum(int(cells[p]) for p in parts if cells[p] != "—") == result["scores"][row["seat"]], (
                        row,
                        heads,
                    )
                page_text = page.inner_text("main")
                assert "gold hidden" not in page_text
                assert "Waiting for the other players" not in page_text
                if game in ("voyages", "khan"):
                    goals = page.eval_on_selector_all(
                        "[data-testid='result'] .goals-at-end li", "els => els.map((e) => +e.dataset.seat)"
                    )
                    assert goals == ranking  # every seat's goal cards, shown by the end
                if game == "classic":  # every secret the end reveals: mission cities, goods by colour
                    revealed = page.eval_on_selector_all(
                        "[data-testid='result'] [data-testid='revealed'] li",
                        "els => els.map((e) => [+e.dataset.seat, e.textContent])",
                    )
                    assert [s for s, _ in revealed] == ranking
                    for s, words in revealed:
                        part = result["breakdown"][s]
                        assert ("mission city" in words) == bool(part["mission"]), words
                        assert ("the colours a win needs: yes" in words) == part["colours_ok"], words
                if game == "expedition":  # the server's breakdown: every seat's chests held
                    assert "chests held" in heads
                    for row in table["rows"]:
                        cv = result["breakdown"][row["seat"]]["chest_values"]
                        held = dict(zip(heads, row["cells"], strict=True))["chests held"]
                        assert all(f"{cv[k]}×{k}" in held for k in ("1", "2", "3") if cv[k]), held
                if who == 0:
                    page.screenshot(path=str(artifacts / f"result-{game}-{size}.png"))
                assert not seat.errors
            finally:
                seat.close()
