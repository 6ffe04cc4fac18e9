"""axe-core on the lobby and every game, on a desktop and a phone: no critical or serious violation.

axe-core (clients/web/package.json devDependencies; `make web` installs it) is put into a signed-in page and run
over the lobby, then over views of a seeded game of each kind (tests/web/states.py): the first view of every
kind of question the game asks (each set of option kinds), a spectator's view mid-game, and the end. A violation
of impact "critical" or "serious" fails, named with the elements it found, and so do the moderate rules of the
headings' outline (`heading-order`: no level skipped, e.g. a panel's h3 straight under the room's h1;
`page-has-heading-one`); the other moderate and minor ones are only listed in the failure message when a test
fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import CHROMIUM, ROOT

from .pages import BrowserSeat
from .states import GAMES, SHOW_JS, seeded_views

AXE = ROOT / "clients" / "web" / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
    ),
    pytest.mark.skipif(not AXE.is_file(), reason="axe-core is not installed: run `make web` (npm ci in clients/web)"),
]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
FAILING = ("critical", "serious")
#: moderate rules that fail too: the headings' outline (a page's one h1, no level skipped)
STRICT = ("heading-order", "page-has-heading-one")


def failing(v: dict[str, Any]) -> bool:
    return v["impact"] in FAILING or v["id"] in STRICT


RUN_JS = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
  }));
}"""
DRAW_JS = """([view, v]) => {
  window.marcopolo.store.snapshot({ room: view.room, v, state: view });
  window.marcopolo.draw();
}"""


def views_to_check(game: str) -> list[tuple[str, dict[str, Any]]]:
    """The first view of each kind of question, a spectator's view mid-game, and the end."""
    every = [view for _, view in seeded_views(game, room="a11y")]
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for view in every:
        if view["prompt"]:
            kinds = ",".join(sorted({o["a"] for o in view["prompt"]["options"]}))
            if kinds not in seen:
                seen.add(kinds)
                out.append((kinds, view))
    middle = every[len(every) // 2]
    out.append(("spectator", {**middle, "you": None, "private": None, "prompt": None}))
    out.append(("end", every[-1]))
    return out


def violations(page: Any) -> list[dict[str, Any]]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_JS)
    return found


def report(where: str, found: list[dict[str, Any]]) -> list[str]:
    return [f"{where}: {v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in found]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_has_no_critical_or_serious_violation_nor_a_skipped_heading(
    browser: Any, server: str, size: str
) -> None:
    seat = BrowserSeat(browser, server, "Ann", viewport=SIZES[size])
    try:
        seat.page.wait_for_selector("#quick-title")
        found = violations(seat.page)
        bad = [v for v in found if failing(v)]
        assert not bad, "\n".join(report(f"lobby {size}", found))
    finally:
        seat.close()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("size", list(SIZES))
def test_every_game_has_no_critical_or_serious_violation_nor_a_skipped_heading(
    browser: Any, server: str, game: str, size: str
) -> None:
    seat = BrowserSeat(browser, server, "Ann", viewport=SIZES[size])
    try:
        page = seat.page
        checks = views_to_check(game)
        page.evaluate(SHOW_JS, [checks[0][1]["room"], 1, checks[0][1]])
        problems: list[str] = []
        for v, (label, view) in enumerate(checks, start=2):
            page.evaluate(DRAW_JS, [view, v])
            found = violations(page)
            if any(failing(x) for x in found):
                problems += report(f"{game} {size} {label}", found)
        assert not problems, "\n".join(problems)
        assert not seat.errors
    finally:
        seat.close()
