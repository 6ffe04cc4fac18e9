"""The browser side of the web tests: one named browser context and what every game's test reads from it."""

from __future__ import annotations

import json
from typing import Any

ROOM_JS = "() => { const r = document.querySelector('section.room'); return r && {...r.dataset}; }"
VIEW_JS = "room => window.marcopolo.store.get(room).view"


def as_json(move: dict[str, Any]) -> str:
    """An option as the page writes it in `data-move` (JSON.stringify of the option as sent)."""
    return json.dumps(move, separators=(",", ":"), ensure_ascii=False)


class BrowserSeat:
    """One browser context (own localStorage) and its page, named on the lobby's first screen."""

    timeout_ms = 15000

    def __init__(self, browser: Any, base: str, name: str, viewport: dict[str, int] | None = None) -> None:
        self.ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(self.timeout_ms)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.name = name
        self.room_id = ""
        self.page.goto(base + "/")
        self.page.fill("#name", name)
        self.page.click("button:has-text('Enter')")
        self.page.wait_for_selector(f"text=Hello, {name}")

    def close(self) -> None:
        self.ctx.close()

    def room(self) -> dict[str, str]:
        """The room section's data attributes (room, v, you, status, myturn, pending...)."""
        data: dict[str, str] | None = self.page.evaluate(ROOM_JS)
        assert data is not None, "not on a room page"
        return data

    def v(self) -> int:
        return int(self.room()["v"])

    def view(self) -> dict[str, Any]:
        """The view the page's store holds for `room_id`."""
        view: dict[str, Any] = self.page.evaluate(VIEW_JS, self.room_id)
        return view

    def options(self) -> list[dict[str, Any]]:
        raw = self.page.eval_on_selector_all(".all-choices [data-move]", "els => els.map(e => e.dataset.move)")
        return [json.loads(m) for m in raw]

    def notices(self) -> list[str]:
        return list(self.page.eval_on_selector_all(".notice.error", "els => els.map(e => e.textContent)"))

    def wait_room(self, room: str) -> None:
        self.page.wait_for_selector(f"section.room[data-room='{room}']")

    def wait_version_above(self, v: int) -> None:
        self.page.wait_for_function(
            "v => { const r = document.querySelector('section.room'); return r && +r.dataset.v > v; }", arg=v
        )

    def set_language(self, code: str) -> None:
        """Choose a language in the header's menu and wait until the page has redrawn in it."""
        self.page.select_option("#lang-select", code)
        self.page.wait_for_function("code => document.documentElement.lang === code", arg=code)
