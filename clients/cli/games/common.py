"""What every terminal game renderer shares beyond `clients.cli.render`: the recent-events panel.

Owns: the log panel (the last few events, each in the game's words; those a turn clock's move added marked "(the
clock played for NAME)"). Must not: know a game's events; a
renderer says them in its own `event`.
"""

from __future__ import annotations

from rich.text import Text

from clients.cli.i18n import _
from clients.cli.render import GameRenderer, View, clock_mark, clock_marks


class LogRenderer(GameRenderer):
    """A game renderer with a `Recent events` panel of its last `log_shown` events."""

    #: how many of the latest events the panel shows
    log_shown = 10

    def recent(self, view: View) -> Text | None:
        return self.log(view)

    def log(self, view: View) -> Text:
        """The last few log events in words."""
        events = (view.get("public") or {}).get("log") or []
        text = Text(_("Recent events"), style="bold")
        if not events:
            text.append("\n  " + _("(nothing yet)"), style="dim")
        marks = clock_marks(view)
        for ev in events[-self.log_shown :]:
            text.append("\n  " + self.log_line(view, ev))
            mark = clock_mark(view, ev.get("n") if isinstance(ev, dict) else None, marks)
            if mark is not None:  # v1.2: a move the turn clock made for a late seat
                text.append(" " + mark, style="italic")
        return text
