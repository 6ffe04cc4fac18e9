"""`python -m clients.cli` (console script `marcopolo-cli`): the reference terminal client.

Owns: the command line, opening the session (token file, hello, re-joining held seats), and choosing
the mode: interactive (lobby menu and room screen, `clients.cli.interactive`) or `--bot random|greedy`
(`clients.cli.bot`), which creates or joins one room, plays it to the end and prints the result.
`run(argv, console=..., lines=...)` is the async entry point that tests call directly; `main()` wraps
it in `asyncio.run`.
Must not: know any game's rules.

Exit status: 0 done, 1 connection or server failure, 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from clients.cli.bot import LEVELS, BotGaveUp, RandomBot
from clients.cli.i18n import LANGUAGES, error_sentence, language_from_env, set_language
from clients.cli.interactive import Interactive, stdin_lines
from clients.cli.public import invite_link, parse_link
from clients.cli.render import renderer_for, result_lines
from clients.cli.session import Session, SessionLost, default_token_file
from clients.client import ServerError

DEFAULT_URL = "ws://127.0.0.1:8765/ws"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see `--help`)."""
    ap = argparse.ArgumentParser(prog="marcopolo-cli", description="Terminal client for the Marco Polo game server")
    ap.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=language_from_env(),
        help="language of menus and notices (default from LANG)",
    )
    ap.add_argument("--url", default=DEFAULT_URL, help=f"server WebSocket URL (default {DEFAULT_URL})")
    ap.add_argument("--name", default=os.environ.get("USER") or "player", help="your player name")
    ap.add_argument("--token-file", help="where the player token is kept (default ~/.marcopolo/token-NAME)")
    ap.add_argument(
        "--bot",
        choices=list(LEVELS),
        help="play automatically instead of interactively: random (easy) or greedy (normal) in this client; "
        "search (hard) hands the seat to the server's search bot and follows the game",
    )
    ap.add_argument("--game", default="expedition", help="game of a created room (default expedition)")
    ap.add_argument("--seats", type=int, default=3, help="seats of a created room (default 3)")
    ap.add_argument("--create", action="store_true", help="create a room of --game with --seats and join it")
    ap.add_argument(
        "--bots",
        type=_bots_arg,
        default=0,
        metavar="N|LEVEL,...",
        help="server bots in the last seats of a created room: a count (greedy bots) or one level per bot "
        "seat, e.g. hard,normal (levels random/greedy/search or easy/normal/hard)",
    )
    ap.add_argument(
        "--bot-think",
        type=float,
        metavar="SECONDS",
        help="room option of a created room: seconds its search (hard) bots think per decision",
    )
    ap.add_argument("--join", metavar="ROOM", help="join this room (a room id or its link, invite included)")
    ap.add_argument("--spectate", metavar="ROOM", help="watch this room (a room id or its link)")
    ap.add_argument(
        "--quick", action="store_true", help="play now: a seat in the fullest waiting room of --game with --seats"
    )
    ap.add_argument("--replay", metavar="ROOM", help="step through the replay of this finished room")
    ap.add_argument(
        "--turn-seconds", type=int, metavar="S", help="seconds per move of a created room (10..86400; no clock)"
    )
    ap.add_argument("--private", action="store_true", help="a created room is unlisted: others join by its link")
    ap.add_argument("--seed", type=int, help="seed of the bot's random choices")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="room option of a created room, VALUE read as JSON when it parses (e.g. open_gold=true)",
    )
    ap.add_argument("--room-seed", type=int, help="game seed of a created room (only test servers accept it)")
    ap.add_argument("--delay", type=float, default=0.0, help="bot: seconds to pause before each move")
    ap.add_argument("--quiet", action="store_true", help="bot: do not print each move")
    ap.add_argument(
        "--reconnect-attempts", type=int, default=5, help="connection attempts, with doubling pauses (default 5)"
    )
    args = ap.parse_args(argv)
    if sum(bool(x) for x in (args.create, args.join, args.spectate, args.quick, args.replay)) > 1:
        ap.error("use at most one of --create, --join, --spectate, --quick and --replay")
    n_bots = len(args.bots) if isinstance(args.bots, list) else args.bots
    if n_bots < 0 or (n_bots and n_bots >= args.seats):
        ap.error("--bots N wants 0 <= N < --seats (you take a seat too)")
    if args.bot_think is not None and not 0 < args.bot_think <= 10:
        ap.error("--bot-think wants seconds in (0, 10]")
    return args


def _bots_arg(text: str) -> int | list[str]:
    """`--bots`: a count, or a comma-separated list of levels (one per bot seat)."""
    try:
        return int(text)
    except ValueError:
        pass
    levels = [x.strip() for x in text.split(",") if x.strip()]
    for x in levels:
        if x not in LEVELS:
            raise argparse.ArgumentTypeError(f"{x!r} is no bot level; known: {', '.join(LEVELS)}")
    return levels


def room_options(args: argparse.Namespace) -> dict[str, Any]:
    """Room options from `--option KEY=VALUE` and `--room-seed`."""
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--option wants KEY=VALUE, not {item!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    if args.room_seed is not None:
        options["seed"] = args.room_seed
    if args.bot_think is not None:
        options["bot_think_ms"] = round(1000 * args.bot_think)
    return options


async def run(
    argv: list[str] | None = None,
    *,
    console: Console | None = None,
    lines: asyncio.Queue[str | None] | None = None,
) -> int:
    """The whole client: parse `argv`, open the session, run the chosen mode; returns the exit status."""
    args = parse_args(argv)
    set_language(args.lang)
    out = console or Console()
    try:
        options = room_options(args)
    except ValueError as err:
        out.print(Text(str(err), style="red"))
        return 2
    token_file = Path(args.token_file).expanduser() if args.token_file else default_token_file(args.name)
    session = Session(
        args.url,
        args.name,
        token_file,
        attempts=max(1, args.reconnect_attempts),
        say=lambda msg: out.print(Text(msg, style="dim")),
    )
    try:
        welcome = await session.open()
        out.print(Text(f"welcome {args.name}: player {welcome['player']} (token in {token_file})", style="dim"))
        if args.bot:
            return await run_bot(session, args, options, out)
        create: tuple[Any, ...] | None = (args.game, args.seats, options, args.bots) if args.create else None
        if create is not None and (args.turn_seconds is not None or args.private):
            create = (*create, {"turn_seconds": args.turn_seconds, "public": not args.private})
        prompt = None
        if lines is None and sys.stdin.isatty() and out.is_terminal:
            from clients.cli.prompt import PromptLines  # prompt_toolkit: history and completion on a terminal

            prompt = PromptLines()
            lines = prompt.start()
        ui = Interactive(session, out, lines if lines is not None else stdin_lines(), prompt=prompt)
        quick = (args.game, args.seats, args.turn_seconds) if args.quick else None
        return await ui.run(create=create, join=args.join, spectate=args.spectate, quick=quick, replay=args.replay)
    except SessionLost as err:
        out.print(Text(str(err), style="red"))
        return 1
    except ServerError as err:
        out.print(Text(error_sentence(err.code, err.message), style="red"))
        return 1
    except BotGaveUp as err:
        out.print(Text(f"bot gave up: {err}", style="red"))
        return 1
    finally:
        await session.close()


async def run_bot(session: Session, args: argparse.Namespace, options: dict[str, Any], out: Console) -> int:
    """`--bot random|greedy`: create or join one room (or take the seat held already), play it, print the result."""
    if args.create:
        room = await session.create(
            args.game, args.seats, options, bots=args.bots, public=not args.private, turn_seconds=args.turn_seconds
        )
        n_bots = len(args.bots) if isinstance(args.bots, list) else args.bots
        bots = f", {n_bots} server bot{'s' if n_bots != 1 else ''}" if n_bots else ""
        out.print(f"created room {room} ({args.game}, {args.seats} seats{bots})")
        out.print(f"invite link: {invite_link(session.url, room, session.invite_of(room))}")
        seat = await session.join(room)
    elif args.quick:
        room, seat = await session.quick_match(args.game, args.seats, turn_seconds=args.turn_seconds)
        out.print(f"quick match: room {room}")
    elif args.join or args.spectate:
        room, invite = parse_link(args.join or args.spectate)
        session.keep_invite(room, invite)
        seat = await session.join(room, spectate=bool(args.spectate))
    elif session.rooms:
        room = next(iter(session.rooms))
        seat = session.seats.get(room)
    else:
        out.print(Text("nothing to play: use --create, --join ROOM or --spectate ROOM", style="red"))
        return 2
    out.print(f"{args.name} in room {room} " + ("as a spectator" if seat is None else f"at seat {seat + 1}"))

    def say(label: str) -> None:
        if not args.quiet:
            out.print(f"{args.name}: {label}")

    bot = RandomBot(session, room, seed=args.seed, delay=args.delay, say=say, level=args.bot)
    view = await bot.play()
    out.print(renderer_for(view.get("game")).result(view))
    out.print("result: " + "; ".join(result_lines(view)))
    out.print(f"{args.name} made {bot.moves} moves ({bot.refused} refused, {bot.reconnects} reconnects)")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point."""
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run(argv))
    return 130


if __name__ == "__main__":
    sys.exit(main())
