"""The question, its first option and "End your turn" stay in view, on a desktop and on a phone, in every state.

Each game is played on its engine (tests/web/states.py: four seats, the most crowded boards, greedy bots with
some random moves); every state is drawn by a signed-in page as the acting seat's view, at 1280×800 and at
390×844. In each one the prompt bar's question, the bar's first option button (else the first of its folded
lists), every button that ends the turn or a step of it, and the control the keyboard was put on (the question's
first option, scrolled into view for a keyboard player) lie inside the viewport and are not covered (by the
phone's bottom sheet, say). Marco Polo II used to put "End your turn" last after up to 18 money-bag buttons,
200 px below an 800-px screen and under the phone's sheet.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import CHROMIUM

from .pages import BrowserSeat
from .states import GAMES, SHOW_JS, seeded_views

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"
)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

#: each view of a batch drawn in turn (as its room's next version; the page scrolled to the top for a new question),
#: then measured: each part's box inside the viewport, and the topmost element at a point of it (its centre, or near
#: its left end) being the part itself or inside it
MEASURE_JS = """(batch) => {
  const app = window.marcopolo;
  const vw = window.innerWidth, vh = window.innerHeight;
  const seen = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return "no box";
    if (r.top < 0 || r.left < 0 || r.bottom > vh + 0.5 || r.right > vw + 0.5)
      return `outside: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
    const mid = r.top + r.height / 2;
    const xs = [r.left + r.width / 2, r.left + Math.min(r.width / 2, 12)];
    const tops = xs.map((x) => document.elementFromPoint(x, mid));
    if (tops.some((top) => top && (el === top || el.contains(top)))) return "ok";
    return `covered by ${tops[0] ? `${tops[0].tagName}.${tops[0].className.baseVal ?? tops[0].className}` : "nothing"}`;
  };
  return batch.map(([v, view]) => {
    const asked = JSON.stringify(view.prompt.options);
    if (asked !== window.askedBefore) window.scrollTo(0, 0); // a new question (the same one stays where it was)
    window.askedBefore = asked;
    app.store.snapshot({ room: view.room, v, state: view });
    app.draw();
    const bar = document.querySelector(".prompt-bar");
    const first = [...bar.querySelectorAll(".bar-body .choices [data-move], .bar-body summary")]
      .find((el) => el.checkVisibility());
    const focused = document.activeElement;
    return {
      question: seen(bar.querySelector(".status")),
      first: seen(first),
      ends: [...bar.querySelectorAll("button.end-turn")].map(seen),
      focus: focused && bar.closest("main").contains(focused) ? seen(focused) : "not focused",
      focusKey: focused && (focused.getAttribute("data-key") || focused.getAttribute("data-move") || focused.tagName),
    };
  });
}"""
BATCH = 40


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_question_its_first_option_and_end_turn_are_in_view_in_every_state(
    browser: Any, server: str, game: str
) -> None:
    every = list(seeded_views(game))
    views = [(step, view) for step, view in every if view["prompt"]]
    assert len(views) > 100
    for size, viewport in SIZES.items():
        seat = BrowserSeat(browser, server, "Ann", viewport=viewport)
        try:
            seat.page.evaluate(SHOW_JS, [every[-1][1]["room"], 1, every[-1][1]])  # opens the room page (at the end)
            seat.page.keyboard.press("Shift")  # a keyboard player: the focused first option is scrolled into view
            problems: list[str] = []
            for at in range(0, len(views), BATCH):
                chunk = views[at : at + BATCH]
                batch = [[at + k + 2, view] for k, (_, view) in enumerate(chunk)]
                for (step, view), got in zip(chunk, seat.page.evaluate(MEASURE_JS, batch), strict=True):
                    bad = {k: got[k] for k in ("question", "first", "focus") if got[k] != "ok"}
                    if any(e != "ok" for e in got["ends"]):
                        bad["ends"] = got["ends"]
                    if bad:
                        kinds = sorted({o.get("a", "?") for o in view["prompt"]["options"]})
                        problems.append(f"{size} step {step} ({','.join(kinds)}; focus {got['focusKey']}): {bad}")
            assert not problems, f"{len(problems)} of {len(views)} states:\n" + "\n".join(problems[:20])
            assert not seat.errors
        finally:
            seat.close()
