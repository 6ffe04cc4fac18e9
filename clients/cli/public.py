"""The public-lobby pieces of the terminal client, drawn: invite links, the turn clock (v1.2: with the time banks),
chat lines, finished games, the ratings leaderboard (pages, ranks, provisional ratings, the player's own row), a
player's page, the replay screen and the whole game's log (v1.2: the turn clock's moves marked as the clock's).
Guests are marked `(guest)` wherever a name is shown (v1.2).

Owns: the room link (the browser's address `http://HOST:PORT/#/room/ID`, with `?invite=SECRET` for an unlisted
room) made from the WebSocket URL and read back from what a player pastes, and pure functions from the
server's answers to `rich` renderables.
Must not: do I/O or decide rules. Chat text stays plain text: it is put in `Text` objects, never read as
`rich` markup.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.i18n import N_, _
from clients.cli.render import (
    clock_mark,
    clock_marks,
    guest_mark,
    is_late,
    names_with_guests,
    render_view,
    renderer_for,
    seat_name,
)

View = dict[str, Any]


# ---- links --------------------------------------------------------------------------------------


def web_base(ws_url: str) -> str:
    """The browser's address for a server's WebSocket URL (`ws://h:p/ws` -> `http://h:p/`)."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    path = parts.path[: -len("/ws")] if parts.path.endswith("/ws") else parts.path
    return f"{scheme}://{parts.netloc}{path.rstrip('/')}/"


def invite_link(ws_url: str, room: str, invite: str | None = None) -> str:
    """The room's shareable link, the same one the browser shows (it opens the room in a browser too)."""
    link = f"{web_base(ws_url)}#/room/{quote(room, safe='')}"
    return f"{link}?invite={quote(invite, safe='')}" if invite else link


def parse_link(text: str) -> tuple[str, str | None]:
    """(room, invite) from a pasted link (`http://…/#/room/ID?invite=X`, `#/room/ID`) or a bare room id."""
    text = text.strip()
    fragment = text.split("#", 1)[1] if "#" in text else text
    path, _sep, query = fragment.partition("?")
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] == "room":
        room = unquote(parts[1])
    elif len(parts) == 1 and "/" not in text.split("?")[0]:
        room = unquote(parts[0])
    else:
        raise ValueError(f"not a room link: {text!r}")
    invites = parse_qs(query).get("invite") or []
    return room, (invites[0] if invites else None)


# ---- the clock ----------------------------------------------------------------------------------


def clock_text(seconds: float) -> str:
    """m:ss (h:mm:ss from an hour on, `Nd h:mm:ss` from a day on: a turn-based room's clock runs for days)."""
    s = max(0, int(seconds))
    d, s = divmod(s, 86400)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    if d:
        return f"{d}d {h}:{m:02d}:{sec:02d}"
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def clock_line(view: View, now_ms: float | None = None) -> Text | None:
    """The turn clock of a view (`clock: {seats, deadline}`): who must move and how long is left, or None."""
    clock = view.get("clock")
    if not clock or view.get("result") or not isinstance(clock.get("deadline"), int):
        return None
    now = time.time() * 1000 if now_ms is None else now_ms
    left = max(0.0, (clock["deadline"] - now) / 1000)
    seats = list(clock.get("seats") or [])
    who = ", ".join(seat_name(view, s) for s in seats) or _("nobody")
    fmt = "%a %d %b %H:%M" if left >= 86400 else "%H:%M:%S"  # a day or more ahead: the date too
    until = time.strftime(fmt, time.localtime(clock["deadline"] / 1000))
    line = Text(_("Clock:") + " ", style="bold")
    late = [s for s in seats if is_late(view, s)]
    if late and late == seats:  # v1.2 turn-based `on_expiry: wait`: the time ran out, the game waits for them
        line.append(_("time ran out for {who}: late, the game waits for them").format(who=who), style="bold red")
        return line
    line.append(clock_text(math.ceil(left)), style="bold red" if left <= 10 else "bold")
    line.append(" " + _("left for {who} (until {until})").format(who=who, until=until))
    auto = list(clock.get("auto") or [])
    if auto:
        names = ", ".join(seat_name(view, s) for s in auto)
        line.append("; " + _("a bot plays for {names} until they move again").format(names=names), style="dim")
    if late:  # some of the seats the clock runs for (a phase where several move at once)
        names = ", ".join(seat_name(view, s) for s in late)
        line.append("; " + _("late: {names} (the game waits for them)").format(names=names), style="bold red")
    banks = bank_parts(view, now)
    if banks:
        line.append("; " + _("time bank: {banks}").format(banks=", ".join(banks)))
    return line


def bank_parts(view: View, now_ms: float) -> list[str]:
    """The time banks (v1.2 `clock.bank`, ms per seat at the deadline) of the seats the clock runs for and the
    viewer's own, as `NAME m:ss`: a seat to move spends its bank once its deadline has passed."""
    clock = view.get("clock") or {}
    banks = clock.get("bank")
    if not isinstance(banks, list) or not isinstance(clock.get("deadline"), int):
        return []
    seats = [s for s in clock.get("seats") or [] if isinstance(s, int)]
    you = view.get("you")
    shown = seats + ([you] if isinstance(you, int) and you not in seats else [])
    out = []
    for s in shown:
        bank = banks[s] if 0 <= s < len(banks) else None
        if not isinstance(bank, int):
            continue
        running = s in seats and not is_late(view, s)
        left = min(bank, clock["deadline"] + bank - now_ms) if running else bank
        out.append(f"{seat_name(view, s)} {clock_text(math.ceil(max(0.0, left) / 1000))}")
    return out


# ---- chat ----------------------------------------------------------------------------------------


def chat_lines(lines: Sequence[dict[str, Any]], limit: int = 6) -> Text | None:
    """The last chat lines as plain text (`HH:MM name: text`, a guest's name marked), or None when there are none."""
    if not lines:
        return None
    out = Text(_("Chat"), style="bold")
    for line in list(lines)[-limit:]:
        at = time.strftime("%H:%M", time.localtime(int(line.get("at") or 0) / 1000))
        out.append(f"\n  {at} ", style="dim")
        out.append(guest_mark(str(line.get("name") or "?"), line.get("guest")), style="bold")
        out.append(": ")
        out.append(str(line.get("text") or ""))  # plain text: never parsed as markup
    return out


# ---- history, ratings, replays -------------------------------------------------------------------


def history_table(games: Sequence[dict[str, Any]]) -> RenderableType:
    """Finished games numbered from 1 (newest first), for `replay N`; guests marked (records from v1.2 on)."""
    if not games:
        return Text(_("No finished game to show."), style="dim")
    table = Table(title=_("Finished games"), title_justify="left", show_edge=False, pad_edge=False)
    for col, just in (
        ("#", "right"),
        (N_("room"), "left"),
        (N_("game"), "left"),
        (N_("players"), "left"),
        (N_("winner"), "left"),
        (N_("finished"), "left"),
    ):
        table.add_column(_(col) if col != "#" else col, justify=just)  # type: ignore[arg-type]
    for i, g in enumerate(games, 1):
        players = list(g.get("players") or [])
        won = (g.get("result") or {}).get("winners") or []
        winners = [players[s] or _("seat {n}").format(n=s + 1) for s in won if s < len(players)]
        when = _when(g.get("finished_at"))
        table.add_row(
            str(i),
            str(g.get("room")),
            str(g.get("game")),
            names_with_guests(players, g.get("guests")),
            ", ".join(winners),
            when,
        )
    return table


#: a rating with fewer rated games than this is provisional (the server's rule, docs/protocol.md)
PROVISIONAL_GAMES = 5


def _when(ms: Any) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(int(ms or 0) / 1000))


def _who(row: dict[str, Any], you: str | None) -> str:
    """A leaderboard row's name, with `(server bot)` for the bots' identity and `(you)` for the viewer."""
    name = str(row.get("name"))
    if str(row.get("player", "")).startswith("bot"):
        name += " " + _("(server bot)")
    if you is not None and row.get("player") == you:
        name += " " + _("(you)")
    return name


def ratings_table(
    game: str,
    players: Sequence[dict[str, Any]],
    you: str | None = None,
    *,
    offset: int = 0,
    me: dict[str, Any] | None = None,
    page: int = 1,
) -> RenderableType:
    """One page of a game's leaderboard, best first: each row's place (`rank`, else counted from `offset`), name,
    rating, games and `provisional` in words; `me`, the viewer's own row, under the table when it is not on the
    page."""
    if not players:
        if page > 1 or offset:
            return Text(_("The leaderboard of {game} has no page {page}.").format(game=game, page=page), style="dim")
        return Text(_("No rated game of {game} yet.").format(game=game), style="dim")
    title = _("Ratings: {game}, page {page}").format(game=game, page=page)
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(_("player"))
    table.add_column(_("rating"), justify="right")
    table.add_column(_("games"), justify="right")
    table.add_column("")

    def row(p: dict[str, Any], place: int) -> None:
        mine = you is not None and p.get("player") == you
        table.add_row(
            str(p.get("rank") or place),
            _who(p, you),
            str(p.get("rating")),
            str(p.get("games")),
            _("provisional") if p.get("provisional") else "",
            style="bold" if mine else None,
        )

    for i, p in enumerate(players, offset + 1):
        row(p, i)
    shown = list(players)
    if me is not None and all(p.get("player") != me.get("player") for p in players):
        table.add_section()
        row(me, 0)
        shown.append(me)
    parts: list[RenderableType] = [table]
    if any(p.get("provisional") for p in shown):
        legend = _("provisional: fewer than {n} rated games so far; such a rating is shown at 0 or above")
        parts.append(Text(legend.format(n=PROVISIONAL_GAMES), style="dim"))
    return Group(*parts)


def player_table(page: dict[str, Any], you: str | None = None) -> RenderableType:
    """A player's page (the server's `player` answer): the name, account or guest, the rating and place in each
    game, and the recent games with their players (guests marked), when each ended and the rating after it."""
    pid = str(page.get("player") or "")
    name = str(page.get("name") or _("(no name known)"))
    if pid.startswith("bot"):
        kind = _("(server bot)")
    else:
        kind = _("(account)") if page.get("account") else _("(guest)")
    head = Text(_("Player {name}").format(name=name) + " " + kind, style="bold")
    if you is not None and pid == you:
        head.append(" " + _("(you)"), style="bold")
    parts: list[RenderableType] = [head]
    rated = list(page.get("ratings") or [])
    if rated:
        table = Table(title=_("Ratings"), title_justify="left", show_edge=False, pad_edge=False)
        table.add_column(_("game"))
        table.add_column(_("place"), justify="right")
        table.add_column(_("rating"), justify="right")
        table.add_column(_("games"), justify="right")
        table.add_column("")
        for r in rated:
            table.add_row(
                str(r.get("game")),
                f"#{r.get('rank')}",
                str(r.get("rating")),
                str(r.get("games")),
                _("provisional") if r.get("provisional") else "",
            )
        parts.append(table)
        if any(r.get("provisional") for r in rated):
            legend = _("provisional: fewer than {n} rated games so far; such a rating is shown at 0 or above")
            parts.append(Text(legend.format(n=PROVISIONAL_GAMES), style="dim"))
    else:
        parts.append(Text(_("No rating yet."), style="dim"))
    games = list(page.get("games") or [])
    if not games:
        parts.append(Text(_("No finished game to show."), style="dim"))
        return Group(*parts)
    table = Table(title=_("Recent games"), title_justify="left", show_edge=False, pad_edge=False)
    for col, just in (
        ("#", "right"),
        (N_("game"), "left"),
        (N_("players"), "left"),
        (N_("winner"), "left"),
        (N_("finished"), "left"),
        (N_("rating after"), "right"),
    ):
        table.add_column(_(col) if col != "#" else col, justify=just)  # type: ignore[arg-type]
    for i, g in enumerate(games, 1):
        players = list(g.get("players") or [])
        won = (g.get("result") or {}).get("winners") or []
        winners = [players[s] or _("seat {n}").format(n=s + 1) for s in won if s < len(players)]
        after = g.get("rating")
        table.add_row(
            str(i),
            str(g.get("game")),
            names_with_guests(players, g.get("guests")),
            ", ".join(winners),
            _when(g.get("finished_at")),
            str(after) if isinstance(after, int) else "",
        )
    parts.append(table)
    return Group(*parts)


def render_replay(replay: dict[str, Any]) -> RenderableType:
    """A replay step: where it is (version v of last, the seed) and the spectator's view at that version."""
    head = Text.assemble(
        (_("Replay") + " ", "bold"),
        (str(replay.get("room")), "cyan"),
        "  "
        + _("version {v} of {last}  seed {seed}").format(
            v=replay.get("v"), last=replay.get("last"), seed=replay.get("seed")
        ),
    )
    return Group(head, render_view(replay.get("state") or {}))


# ---- ratings ------------------------------------------------------------------------------------


def ratings_line(view: View) -> Text | None:
    """Each seat's rating in the game (the view's `seats[i].rating`), or None when nobody has one."""
    seats = view.get("seats") or []
    rated = [(i, s["rating"]) for i, s in enumerate(seats) if isinstance(s.get("rating"), int)]
    if not rated:
        return None
    line = Text(_("Ratings:") + " ", style="bold")
    line.append(", ".join(f"{seat_name(view, i)} {r}" for i, r in rated))
    return line


# ---- the whole game's log ------------------------------------------------------------------------


def gather_log(known: dict[int, str], view: View) -> None:
    """Add the view's log events not seen yet to `known` (running number `n` -> words), each put in words
    with the view it was first seen in (the view keeps only the last few events; the client keeps them all)."""
    merge_log(known, view, (view.get("public") or {}).get("log") or [])


def merge_log(known: dict[int, str], view: View, events: Sequence[Any]) -> None:
    """Add numbered log events not seen yet to `known`, put in words with `view` (a view's own last few, or
    the whole game's from the server's `game_log` answer)."""
    renderer = renderer_for(view.get("game"))
    marks = clock_marks(view)
    for ev in events:
        n = ev.get("n") if isinstance(ev, dict) else None
        if isinstance(n, int) and n not in known:
            try:
                known[n] = renderer.log_line(view, ev)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                known[n] = str(ev)
            mark = clock_mark(view, n, marks)
            if mark is not None:  # v1.2: a move the turn clock made for a late seat
                known[n] += " " + mark


def log_page(known: dict[int, str], page: int, size: int | None) -> Text:
    """One page of the whole log, newest first (`size` None: all of it); page 1 is the newest."""
    events = sorted(known.items(), reverse=True)
    pages = 1 if not size else max(1, math.ceil(len(events) / size))
    page = max(1, min(page, pages))
    shown = events if not size else events[(page - 1) * size : page * size]
    head = _("The whole game: {n} events, newest first (page {page} of {pages})")
    text = Text(head.format(n=len(events), page=page, pages=pages), style="bold")
    for n, words in shown:
        text.append(f"\n  {n:>4}. ", style="dim")
        text.append(words)
    return text
