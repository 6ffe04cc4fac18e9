"""Rendering views for the terminal: pure functions from view dicts to `rich` renderables and plain text.

Owns: the renderer registry by game id (one `GameRenderer` per game, discovered from the modules of
`clients.cli.games`), the generic fallback for any game (seats, status, result, a compact dump of
`public`, moves shown as compact JSON), the lobby table, the numbered option list (and its parts: the question, the
labels, the undo line), the hooks for what a small terminal always shows of a game (`turn_block`, `yours`, `now`,
`recent`), the mark of a log event a turn clock's move added (v1.2 `clock_moves`), and `to_text` for tests and logs.
Must not: do I/O, talk to the server or decide rules. A renderer reads the view it is given and nothing
else, so a new game adds one module under `clients/cli/games/` and nothing else changes.
"""

from __future__ import annotations

import importlib
import io
import json
import pkgutil
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clients.cli.i18n import N_, _, w

View = dict[str, Any]
Move = dict[str, Any]

#: characters of one `public` entry shown by the generic renderer before it is cut
DUMP_LIMIT = 160
#: the prompt's last line while it offers undo (v1.2 `prompt.undo`); `u` or `undo` in a room sends it
UNDO_HELP = N_("u or undo: take back what you chose this turn")
#: a room's status in words
STATUS: dict[str, str] = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}


def compact(value: Any, limit: int | None = None) -> str:
    """Compact JSON of a value (keys in the order given), cut to `limit` characters with an ellipsis."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    if limit is not None and len(text) > limit:
        return text[: max(0, limit - 1)] + "…"
    return text


def guest_mark(name: str, guest: Any) -> str:
    """A name marked `(guest)` when its player plays without an account (v1.2 `guest: true`); an account, a bot, a
    free seat and a record older than v1.2 (no `guest` at all) get no mark."""
    return f"{name} {_('(guest)')}" if guest is True else name


def muted_mark(name: str, muted: Any) -> str:
    """A seat's name marked `(muted)` when the room's host muted its chat (v1.2 `muted: true` on the seat)."""
    return f"{name} {_('(muted)')}" if muted is True else name


def late_mark(name: str, late: Any) -> str:
    """A seat's name marked `(late)` when its time ran out in a turn-based room and the game waits for it (v1.2:
    the seat is in the view's `clock.late`)."""
    return f"{name} {_('(late)')}" if late is True else name


def is_late(view: View, seat: int) -> bool:
    """Whether the view's clock marks the seat late (v1.2 `clock.late`, turn-based rooms)."""
    clock = view.get("clock")
    late = clock.get("late") if isinstance(clock, dict) else None
    return isinstance(late, list) and seat in late


def guest_of(guests: Any, i: int) -> Any:
    """Entry `i` of a per-seat `guests` list (None when the list is absent or too short)."""
    return guests[i] if isinstance(guests, list) and 0 <= i < len(guests) else None


def names_with_guests(players: Sequence[Any], guests: Any, free: str = "·") -> str:
    """One name per seat, comma-separated, guests marked; `free` for an empty seat."""
    return ", ".join(guest_mark(str(p), guest_of(guests, i)) if p else free for i, p in enumerate(players))


#: the most public log events one clock move marks (a move adds a few)
MARKS_PER_MOVE = 200


def clock_marks(view: View) -> dict[int, int]:
    """The public log events the turn clock's moves added (v1.2 `clock_moves`, the view's last few): `n` -> the
    seat the clock moved for."""
    marks: dict[int, int] = {}
    for m in view.get("clock_moves") or []:
        if not isinstance(m, dict) or not all(isinstance(m.get(k), int) for k in ("seat", "n_from", "n_to")):
            continue
        for n in range(m["n_from"], min(m["n_to"], m["n_from"] + MARKS_PER_MOVE - 1) + 1):
            marks[n] = m["seat"]
    return marks


def clock_mark(view: View, n: Any, marks: dict[int, int] | None = None) -> str | None:
    """`(the clock played for NAME)` after a log event a clock's move added, or None for a player's own."""
    seat = (clock_marks(view) if marks is None else marks).get(n) if isinstance(n, int) else None
    if seat is None:
        return None
    return _("(the clock played for {name})").format(name=seat_name(view, seat, you=False))


def seat_name(view: View, seat: int | None, *, you: bool = True, guest: bool = False) -> str:
    """A seat's player name (or `seat N`), marked `(you)` for the viewer's own seat and, with `guest`, `(guest)` for
    a person playing without an account (the seat's `guest`, v1.2), `(muted)` for a seat whose chat the room's
    host muted (the seat's `muted`, v1.2) and `(late)` for a seat whose time ran out (`clock.late`, v1.2)."""
    if seat is None:
        return _("nobody")
    seats = view.get("seats") or []
    name = seats[seat].get("name") if 0 <= seat < len(seats) else None
    label = name or _("seat {n}").format(n=seat + 1)
    if guest and 0 <= seat < len(seats):
        label = muted_mark(guest_mark(label, seats[seat].get("guest")), seats[seat].get("muted"))
        label = late_mark(label, is_late(view, seat))
    if you and view.get("you") == seat:
        label += " " + _("(you)")
    return label


class GameRenderer:
    """The generic renderer; game renderers subclass it and override `body` and `label`."""

    #: the game id this renderer draws; None for the generic fallback
    game: str | None = None

    def render(self, view: View) -> RenderableType:
        """The whole view: a header, the game's body and the result once there is one."""
        parts: list[RenderableType] = [self.header(view)]
        if view.get("status") == "waiting" or (view.get("public") or {}).get("status") == "waiting":
            parts.append(seats_table(view))
        else:
            parts.append(self.body(view))
        if view.get("result"):
            parts.append(self.result(view))
        return Group(*parts)

    def header(self, view: View) -> RenderableType:
        """One line: game, room, status and who is looking."""
        you = view.get("you")
        who = (
            _("spectator") if you is None else _("seat {n}").format(n=you + 1) + f" ({seat_name(view, you, you=False)})"
        )
        status = str(view.get("status", "?"))
        line = Text.assemble(
            (str(view.get("game", "?")), "bold"),
            "  " + _("room") + " ",
            (str(view.get("room", "?")), "cyan"),
            "  ",
            (_(STATUS[status]) if status in STATUS else status, "bold magenta"),
            "  " + _("you: {who}").format(who=who),
        )
        return line

    def body(self, view: View) -> RenderableType:
        """The game itself; the generic one shows seats and a compact dump of `public`."""
        return Group(seats_table(view), public_dump(view.get("public")), private_dump(view.get("private")))

    def result(self, view: View) -> RenderableType:
        """The final scores and winners."""
        return result_table(view)

    def prompt_text(self, view: View) -> str | None:
        """The prompt's question in the client's language, from the view's structure; None: the server's text."""
        return None

    # ---- what a small screen always shows (the terminal's room page; the whole view is a page to flip to) -----

    def turn_block(self, view: View) -> RenderableType | None:
        """Whose turn it is and what is going on, in a line or two (None: the game does not say)."""
        return None

    def yours(self, view: View) -> RenderableType | None:
        """The viewer's own resources in a few lines (None for a spectator, or a game that does not say)."""
        return None

    def now(self, view: View) -> RenderableType | None:
        """The choices being made now by anybody (e.g. a draft's offer), or None."""
        return None

    def recent(self, view: View) -> RenderableType | None:
        """The last events in words (None: the game has no log panel)."""
        return None

    def label(self, view: View, option: Move) -> str:
        """One option of the prompt in words; the generic one is the move as compact JSON."""
        return compact(option)

    def event(self, view: View, ev: dict[str, Any]) -> str:
        """One event of the public log in words; the generic one is the event as compact JSON."""
        return compact(ev)

    def log_line(self, view: View, ev: dict[str, Any]) -> str:
        """One event of the public log in words, as the log panels show it: an event the server adds for every
        game (`shared_event`) said here, the game's own by `event`."""
        return shared_event(view, ev) or self.event(view, ev)


def shared_event(view: View, ev: dict[str, Any]) -> str | None:
    """An event the server adds to every game's public log in words, or None for a game's own event: v1.2 `undo`
    (`{ev: "undo", seat}`: "ann took back their move"; the taken-back choices stay in the log as they were)."""
    if ev.get("ev") == "undo" and isinstance(ev.get("seat"), int):
        return w("w.log.undo", who=seat_name(view, ev["seat"])).rstrip(".")
    return None


_REGISTRY: dict[str, GameRenderer] = {}
_GENERIC = GameRenderer()
_loaded = False


def register(renderer: GameRenderer) -> GameRenderer:
    """Add a game's renderer to the registry (called once by each module in `clients.cli.games`)."""
    if renderer.game is None:
        raise ValueError("a registered renderer needs a game id")
    _REGISTRY[renderer.game] = renderer
    return renderer


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from clients.cli import games

    for info in pkgutil.iter_modules(games.__path__):
        importlib.import_module(f"{games.__name__}.{info.name}")


def renderer_for(game: str | None) -> GameRenderer:
    """The renderer registered for `game`, or the generic fallback."""
    _load()
    return _REGISTRY.get(game or "", _GENERIC)


def known_games() -> list[str]:
    """Game ids that have a dedicated renderer."""
    _load()
    return sorted(_REGISTRY)


def render_view(view: View) -> RenderableType:
    """The view drawn by its game's renderer (or the generic one)."""
    return renderer_for(view.get("game")).render(view)


def option_label(view: View, option: Move) -> str:
    """One prompt option in words (compact JSON when the renderer does not know its shape)."""
    try:
        return renderer_for(view.get("game")).label(view, option)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return compact(option)


def option_labels(view: View) -> list[str]:
    """Every option of the view's prompt in words, in order (empty without a prompt)."""
    prompt = view.get("prompt") or {}
    return [option_label(view, o) for o in prompt.get("options") or []]


def prompt_parts(view: View) -> tuple[Text, list[str], Text | None]:
    """The prompt's question (or what the viewer is waiting for: nothing to do in a room the server closed, v1.2
    `closed`, even when its view still holds a prompt), its options in words, and the undo line while the prompt
    offers undo (v1.2; else None)."""
    prompt = view.get("prompt")
    if view.get("result") or (view.get("closed") and view.get("status") == "finished"):
        return Text(_("The game is over."), style="bold"), [], None
    if not prompt:
        if view.get("you") is None:
            return Text(_("You are watching."), style="dim"), [], None
        if view.get("status") == "waiting":
            return Text(_("Waiting for the seats to fill…"), style="dim"), [], None
        return Text(_("Waiting for the other players…"), style="dim"), [], None
    asked = renderer_for(view.get("game")).prompt_text(view)
    question = Text(asked or str(prompt.get("text", _("Your move."))), style="bold")
    offered = prompt.get("undo") and view.get("you") is not None
    undo = Text("  " + _(UNDO_HELP), style="bold yellow") if offered else None
    return question, option_labels(view), undo


def render_prompt(view: View) -> RenderableType:
    """The prompt's text and its options numbered from 1 (and `u` while the prompt offers undo, v1.2), or what the
    viewer is waiting for."""
    question, labels, undo = prompt_parts(view)
    lines = question.copy()
    for i, label in enumerate(labels, 1):
        lines.append(f"\n  {i:>3}) ", style="cyan")
        lines.append(label)
    if undo is not None:
        lines.append("\n")
        lines.append_text(undo)
    return lines


# ---- generic pieces shared by renderers -------------------------------------------------------


def seats_table(view: View) -> Table:
    """Seats with their player names (guests and muted seats marked), whether taken and whether connected (and each
    player's rating in the game, when the server gives any)."""
    seats = view.get("seats") or []
    rated = any(isinstance(s.get("rating"), int) for s in seats)
    table = Table(title=_("Seats"), title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(_("seat"), justify="right")
    table.add_column(_("player"))
    table.add_column(_("connected"))
    if rated:
        table.add_column(_("rating"), justify="right")
    for i, s in enumerate(seats):
        name = guest_mark(s.get("name") or ("—" if not s.get("taken") else "?"), s.get("guest"))
        name = late_mark(muted_mark(name, s.get("muted")), is_late(view, i))
        if view.get("you") == i:
            name += " " + _("(you)")
        row = [str(i + 1), name, _("yes") if s.get("connected") else (_("no") if s.get("taken") else "")]
        if rated:
            row.append(str(s["rating"]) if isinstance(s.get("rating"), int) else "")
        table.add_row(*row)
    return table


def public_dump(public: Any) -> RenderableType:
    """A compact dump of the public part, one line per top-level key."""
    if not isinstance(public, dict):
        return Text(f"public: {compact(public, DUMP_LIMIT)}")
    text = Text(_("Public") + "\n", style="bold")
    for key, value in public.items():
        if key == "seats":
            continue
        text.append(f"  {key}: ", style="cyan")
        text.append(compact(value, DUMP_LIMIT) + "\n")
    return text


def private_dump(private: Any) -> RenderableType:
    """A compact dump of the viewer's private part (nothing for spectators)."""
    if not private:
        return Text("")
    text = Text(_("Yours") + "\n", style="bold")
    items = private.items() if isinstance(private, dict) else [("private", private)]
    for key, value in items:
        text.append(f"  {key}: ", style="green")
        text.append(compact(value, DUMP_LIMIT) + "\n")
    return text


def result_lines(view: View) -> list[str]:
    """The result in words: one line per seat in ranking order, then the winners."""
    res = view.get("result") or {}
    scores: list[Any] = list(res.get("scores") or [])
    ranking: list[int] = list(res.get("ranking") or sorted(range(len(scores)), key=lambda s: -_num(scores[s])))
    winners: list[int] = list(res.get("winners") or [])
    lines = [f"{place}. {seat_name(view, s)}: {scores[s]}" for place, s in enumerate(ranking, 1) if s < len(scores)]
    names = ", ".join(seat_name(view, w) for w in winners) or _("nobody")
    lines.append((_("Winners: {names}") if len(winners) > 1 else _("Winner: {names}")).format(names=names))
    return lines


def _num(x: Any) -> float:
    return float(x) if isinstance(x, int | float) else 0.0


def result_table(view: View, tiebreak_label: str = N_("tie-break")) -> RenderableType:
    """The final result as a table: rank, player, score, tie-break value, winner mark."""
    res = view.get("result") or {}
    scores: list[Any] = list(res.get("scores") or [])
    ranking: list[int] = list(res.get("ranking") or sorted(range(len(scores)), key=lambda s: -_num(scores[s])))
    winners = set(res.get("winners") or [])
    tiebreak = res.get("tiebreak")
    table = Table(title=_("Final result"), title_justify="left", title_style="bold", show_edge=False)
    table.add_column(_("rank"), justify="right")
    table.add_column(_("player"))
    table.add_column(_("score"), justify="right")
    if isinstance(tiebreak, list):
        table.add_column(_(tiebreak_label), justify="right")
    table.add_column("")
    for place, s in enumerate(ranking, 1):
        if s >= len(scores):
            continue
        row = [str(place), seat_name(view, s), str(scores[s])]
        if isinstance(tiebreak, list):
            row.append(str(tiebreak[s]) if s < len(tiebreak) else "")
        row.append(_("winner") if s in winners else "")
        table.add_row(*row, style="bold green" if s in winners else None)
    names = ", ".join(seat_name(view, w) for w in sorted(winners)) or _("nobody")
    won = (_("Winners: {names}") if len(winners) > 1 else _("Winner: {names}")).format(names=names)
    return Group(table, Text(won, style="bold green"))


def render_lobby(rooms: Sequence[dict[str, Any]], held: Sequence[str] = ()) -> RenderableType:
    """The lobby: public rooms numbered from 1 with game (a turn-based room marked, v1.2 `mode`), seats taken,
    players (guests marked, with their ratings) and status."""
    if not rooms:
        return Panel(Text(_("No open rooms yet. Create one!"), style="dim"), title=_("Lobby"), title_align="left")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("#", justify="right", style="cyan")
    table.add_column(_("room"))
    table.add_column(_("game"))
    table.add_column(_("seats"), justify="right")
    table.add_column(_("players"))
    table.add_column(_("status"))
    for i, r in enumerate(rooms, 1):
        players = r.get("players") or []
        taken = sum(1 for p in players if p)
        ratings = r.get("ratings") or []
        guests = r.get("guests")
        names = ", ".join(
            "·"
            if not p
            else guest_mark(str(p), guest_of(guests, i))
            + (f" ({ratings[i]})" if i < len(ratings) and isinstance(ratings[i], int) else "")
            for i, p in enumerate(players)
        )
        mark = " " + _("(your seat)") if r.get("room") in held else ""
        game = str(r.get("game")) + (" " + _("(turn-based)") if r.get("mode") == "turn_based" else "")
        seats = f"{taken}/{r.get('seats')}"
        status = str(r.get("status"))
        status = _(STATUS[status]) if status in STATUS else status
        table.add_row(str(i), str(r.get("room")) + mark, game, seats, names, status)
    return Panel(table, title=_("Lobby"), title_align="left")


def to_text(renderable: RenderableType, width: int = 100) -> str:
    """Plain text of a renderable (no colours or control codes), for tests and logs."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, legacy_windows=False)
    console.print(renderable)
    return buf.getvalue()


def view_text(view: View, width: int = 100) -> str:
    """The whole view and its prompt as plain text."""
    return to_text(Group(render_view(view), render_prompt(view)), width)
