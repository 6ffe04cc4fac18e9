"""The room extensions a node runs in every room, in order (see docs/architecture.md, "Room extensions").

The order is part of the contract: hooks run in it, so presence marks a seat connected before the away timer
reads it, the seats' view keys come out as `connected`, `rating`, `autoplay`, the bots' timers start before the
room's timer is set, and the fill/close timers run before the turn clock in a tick.
"""

from __future__ import annotations

from server.config import Settings
from server.rooms.bots import Bots
from server.rooms.chat import Chat
from server.rooms.clock import TurnClock
from server.rooms.core import Extension
from server.rooms.host import HostControls
from server.rooms.presence import Presence
from server.rooms.results import Results
from server.rooms.timers import RoomTimers


def standard_extensions(settings: Settings, *, presence_grace: float = 0.0) -> list[Extension]:
    """New instances of the standard extensions for one room."""
    return [
        Presence(presence_grace),
        RoomTimers(settings),
        Results(),
        Bots(settings),
        TurnClock(settings),
        Chat(settings),
        HostControls(),
    ]
