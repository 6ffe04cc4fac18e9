"""What every terminal game renderer shares beyond `clients.cli.render`: the recent-events panel.

Owns: the log panel (the last few events, each in the game's words). Must not: know a game's events; a
renderer says them in its own `event`.
"""

from __future__ import annotations

from rich.text import Text

from clients.cli.i18n import _
from clients.cli.render import GameRenderer, View


class LogRenderer(GameRenderer):
    """A game renderer with a `Recent events` panel of its last `log_shown` events."""

    #: how many of the latest events the panel shows
    log_shown = 10

    def log(self, view: View) -> Text:
        """The last few log events in words."""
        events = (view.get("public") or {}).get("log") or []
        text = Text(_("Recent events"), style="bold")
        if not events:
            text.append("\n  " + _("(nothing yet)"), style="dim")
        for ev in events[-self.log_shown :]:
            text.append("\n  " + self.log_line(view, ev))
        return text
