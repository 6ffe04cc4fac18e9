"""Turn-based play (wire contract v1.2) in the terminal, drawn: the room's rule in words, times as words ("3 days",
"in 2 days", "late"), the "My games" list (`my_games`), the quick match's countdown to the bots, a game that
ended because a player's time ran out, and the account's turn signals (`notify`: e-mail, webhook, delay, web push).

Owns: reading a turn's length (and, v1.2, a time bank's) as typed (`3`, `0.5`, `2d`, `12h`, `90m`, `600s`: days
without a unit), reading a `notify` command into the request's fields, and pure functions from views and the
server's answers to text and `rich` renderables.
Must not: do I/O or decide rules; the server keeps every clock.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.i18n import N_, _

View = dict[str, Any]

MINUTE = 60
HOUR = 3600
DAY = 86400
#: the longest turn of a turn-based room (the server's bound: 14 days)
TURN_MAX = 14 * DAY
#: the shortest clock the server accepts
TURN_MIN = 10
#: a turn-based room's turn when none is given (the server's default too)
DEFAULT_DAYS = 3
#: what a late seat's expiry does, as the server names it
ON_EXPIRY = ("wait", "bot", "end")
#: the rule in words
EXPIRY_WORDS: dict[str, str] = {
    "wait": N_("a late player is waited for"),
    "bot": N_("a late player's bot moves for them"),
    "end": N_("the game ends when a player's time runs out"),
}
#: `closed_message` of a room closed because a turn-based seat's time ran out ("time ran out for NAME")
TIMEOUT_PREFIX = "time ran out for "

_UNITS = {"d": DAY, "h": HOUR, "m": MINUTE, "s": 1}
_TURN = re.compile(r"^\s*(\d+(?:\.\d+)?|\.\d+)\s*([dhms]?)\s*$", re.IGNORECASE)


def parse_turn(text: str | None) -> int:
    """Seconds of a turn typed as `3` (days), `0.5`, `2d`, `12h`, `90m` or `600s`; None or empty: 3 days.
    Raises ValueError (with a sentence) outside 10 s .. 14 days."""
    if text is None or not text.strip():
        return DEFAULT_DAYS * DAY
    match = _TURN.match(text)
    if match is None:
        raise ValueError(
            _("{line} is not a time for a move: days (3, 0.5) or a number with d, h, m or s (12h).").format(
                line=repr(text.strip())
            )
        )
    seconds = round(float(match[1]) * _UNITS[(match[2] or "d").lower()])
    if not TURN_MIN <= seconds <= TURN_MAX:
        raise ValueError(_("A move's time is from 10 seconds to 14 days."))
    return seconds


#: the longest time bank (the server's bound: 14 days in a turn-based room, a day in a live one)
BANK_MAX = 14 * DAY
BANK_LIVE_MAX = DAY


def parse_bank(text: str, *, live: bool = False) -> int:
    """Seconds of each player's time bank (v1.2) typed as `parse_turn` reads a turn (`1` day, `12h`, `90m`,
    `600s`); `0` for none. Raises ValueError (with a sentence) beyond 14 days, a live room's beyond a day."""
    match = _TURN.match(text or "")
    if match is None:
        raise ValueError(
            _("{line} is not a time bank: days (1, 0.5) or a number with d, h, m or s (12h); 0 for none.").format(
                line=repr((text or "").strip())
            )
        )
    seconds = round(float(match[1]) * _UNITS[(match[2] or "d").lower()])
    if seconds > (BANK_LIVE_MAX if live else BANK_MAX):
        raise ValueError(_("A time bank is at most 14 days (a live room's at most a day)."))
    return seconds


def duration_words(seconds: int) -> str:
    """A length of time in words, exact where it can be: `3 days`, `1 hour`, `36 hours`, `90 minutes`."""
    s = max(0, int(seconds))
    for unit, one, many in (
        (DAY, N_("1 day"), N_("{n} days")),
        (HOUR, N_("1 hour"), N_("{n} hours")),
        (MINUTE, N_("1 minute"), N_("{n} minutes")),
    ):
        if s >= unit and s % unit == 0:
            n = s // unit
            return _(one) if n == 1 else _(many).format(n=n)
    return _("{n} seconds").format(n=s)


def relative_words(seconds: float) -> str:
    """How long until a deadline, in words with its largest unit, rounded down: `in 2 days`, `in 5 hours`,
    `in 1 minute`, `in 42 seconds`; `late` once it has passed."""
    if seconds <= 0:
        return _("late")
    for unit, one, many in (
        (DAY, N_("in 1 day"), N_("in {n} days")),
        (HOUR, N_("in 1 hour"), N_("in {n} hours")),
        (MINUTE, N_("in 1 minute"), N_("in {n} minutes")),
    ):
        if seconds >= unit:
            n = int(seconds // unit)
            return _(one) if n == 1 else _(many).format(n=n)
    return _("in {n} seconds").format(n=max(1, math.ceil(seconds)))


def rule_text(view: View) -> str | None:
    """The room's rule in words ("Turn-based: 3 days a move; a late player is waited for"), or None for a live
    room (a view without `turn`)."""
    turn = view.get("turn")
    if not isinstance(turn, dict) or turn.get("mode") != "turn_based":
        return None
    seconds = turn.get("turn_seconds")
    expiry = str(turn.get("on_expiry") or "wait")
    rule = _(EXPIRY_WORDS[expiry]) if expiry in EXPIRY_WORDS else expiry
    if not isinstance(seconds, int):
        text = _("Turn-based: {rule}").format(rule=rule)
    else:
        text = _("Turn-based: {time} a move; {rule}").format(time=duration_words(seconds), rule=rule)
    bank = turn.get("time_bank_seconds")
    if isinstance(bank, int) and bank > 0:  # v1.2: each player's time bank
        text += ". " + _("Each player also has a time bank of {time}.").format(time=duration_words(bank))
    return text


def timeout_sentence(message: str | None) -> str:
    """A game closed because a player's time ran out (`closed: "timeout"`), from its `closed_message`."""
    msg = (message or "").strip()
    if msg.startswith(TIMEOUT_PREFIX) and msg[len(TIMEOUT_PREFIX) :].strip():
        return _("The game ended: time ran out for {name}").format(name=msg[len(TIMEOUT_PREFIX) :].strip())
    if msg:
        return _("The game ended: {message}").format(message=msg)
    return _("The game ended: a player's time ran out.")


def countdown_text(seconds_left: float, *, exact: bool) -> str:
    """The quick match's countdown to the bots that fill the empty seats; not `exact` when only its longest
    possible wait is known (the room was opened by someone else, earlier)."""
    s = max(0, math.ceil(seconds_left))
    if exact:
        return _("Bots fill the empty seats in {s} s").format(s=s)
    return _("Bots fill the empty seats in {s} s at the latest").format(s=s)


# ---- My games ------------------------------------------------------------------------------------


def urgent_first(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with the player's turn first, each part in the server's order (nearest deadline first)."""
    return [r for r in rows if r.get("your_turn")] + [r for r in rows if not r.get("your_turn")]


def turn_words(row: dict[str, Any]) -> str:
    """Whose turn it is in a `my_games` row, in words."""
    if row.get("your_turn"):
        return _("your turn")
    if row.get("status") == "waiting":
        return _("waiting for players")
    return _("their turn")


def deadline_words(row: dict[str, Any], now_ms: float | None = None) -> str:
    """A `my_games` row's deadline as relative time (`in 2 days`), `late`, or nothing without a clock: when the
    seat runs out of time (`out_at`, its time bank included), else the per-move deadline."""
    if row.get("late"):
        return _("late")
    deadline = row.get("out_at") if isinstance(row.get("out_at"), int) else row.get("deadline")
    if not isinstance(deadline, int):
        return ""
    now = time.time() * 1000 if now_ms is None else now_ms
    return relative_words((deadline - now) / 1000)


def games_table(rows: Sequence[dict[str, Any]], now_ms: float | None = None) -> RenderableType:
    """My games: the rooms where the player holds a seat, numbered from 1 for `open N`, those where it is the
    player's turn first (marked in words), each with its deadline as relative time."""
    if not rows:
        return Text(_("You hold no seat in an unfinished game."), style="dim")
    table = Table(title=_("My games"), title_justify="left", show_edge=False, pad_edge=False)
    for col, just in (
        ("#", "right"),
        (N_("room"), "left"),
        (N_("game"), "left"),
        (N_("turn"), "left"),
        (N_("deadline"), "left"),
        (N_("players"), "left"),
        (N_("mode"), "left"),
    ):
        table.add_column(_(col) if col != "#" else col, justify=just)  # type: ignore[arg-type]
    for i, row in enumerate(rows, 1):
        names = list(row.get("players") or [])
        seat = row.get("seat")
        shown = [(str(p) if p else "·") + (" " + _("(you)") if j == seat else "") for j, p in enumerate(names)]
        mode = _("turn-based") if row.get("mode") == "turn_based" else _("live")
        table.add_row(
            str(i),
            str(row.get("room")),
            str(row.get("game")),
            turn_words(row),
            deadline_words(row, now_ms),
            ", ".join(shown),
            mode,
            style="bold" if row.get("your_turn") else None,
        )
    return table


# ---- turn signals (`notify`) -----------------------------------------------------------------------

NOTIFY_USAGE = "notify [email ADDRESS|off] [webhook URL|off] [delay MINUTES] [secret] [push off]"
NOTIFY_HELP = N_(
    "notify: your turn signals   notify email ADDRESS|off   notify webhook URL|off   notify delay 30 (or 2h, 1d)   "
    "notify secret: a new webhook secret   notify push off: no web push"
)
#: the longest delay before a turn's signals (the server's bound: 14 days, in minutes)
NOTIFY_DELAY_MAX = 14 * 24 * 60
_DELAY = re.compile(r"^\s*(\d+)\s*([mhd]?)\s*$", re.IGNORECASE)


def parse_delay(text: str) -> int:
    """Minutes of a delay typed as `30` (minutes), `90m`, `2h` or `1d`; ValueError (a sentence) otherwise or beyond
    14 days."""
    match = _DELAY.match(text)
    minutes = int(match[1]) * {"m": 1, "h": 60, "d": 1440}[(match[2] or "m").lower()] if match else -1
    if not 0 <= minutes <= NOTIFY_DELAY_MAX:
        raise ValueError(_("A delay is 0 to 14 days: minutes (30), or with h or d (2h, 1d)."))
    return minutes


def parse_notify(rest: str) -> dict[str, Any]:
    """The `notify` request's fields from what follows the word `notify` (empty: only read the settings). The words
    may be combined: `notify email ann@example.org delay 2h`. ValueError (a sentence with the usage) otherwise."""
    words = rest.split()
    fields: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word, arg = words[i].lower(), words[i + 1] if i + 1 < len(words) else None
        if word in ("email", "e-mail", "webhook") and arg is not None:
            fields["email" if word != "webhook" else "webhook"] = "" if arg.lower() in ("off", "none") else arg
            i += 2
        elif word == "delay" and arg is not None:
            fields["delay_minutes"] = parse_delay(arg)
            i += 2
        elif word == "secret":
            fields["new_secret"] = True
            i += 1
        elif word == "push" and arg is not None and arg.lower() == "off":
            fields["push"] = ""
            i += 2
        else:
            raise ValueError(_("{line} is not a notify command: {usage}").format(line=repr(rest), usage=NOTIFY_USAGE))
    return fields


def signals_table(answer: dict[str, Any]) -> RenderableType:
    """The account's turn signals as the server's `notify` answer says them: each way on or off, the delay, and the
    webhook's signing secret (the account's own: shown only to it)."""
    off = _("off")
    table = Table(title=_("Turn signals"), title_justify="left", show_edge=False, pad_edge=False, show_header=False)
    table.add_column("")
    table.add_column("")
    channels = answer.get("channels")
    offered = set(channels) if isinstance(channels, list) else {"email", "webhook"}
    if "email" in offered or answer.get("email"):
        table.add_row(_("e-mail"), Text(str(answer.get("email") or off)))
    if "webhook" in offered or answer.get("webhook"):
        table.add_row(_("webhook"), Text(str(answer.get("webhook") or off)))
    table.add_row(_("delay"), duration_words(int(answer.get("delay_minutes") or 0) * MINUTE))
    if "push" in offered:
        n = len(answer.get("push") or [])
        table.add_row(_("web push"), (_("1 browser") if n == 1 else _("{n} browsers").format(n=n)) if n else off)
    if answer.get("secret"):
        table.add_row(_("webhook secret"), Text(str(answer["secret"])))
    return table
