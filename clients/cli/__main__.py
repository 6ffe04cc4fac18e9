"""`python -m clients.cli` (console script `marcopolo-cli`): the reference terminal client.

Owns: the command line, opening the session (token file, hello or a sign-up / sign-in, re-joining held
seats), the one-shot account commands (`--sign-out`, `--devices`, `--change-password`, `--delete-account`), and
choosing the mode: interactive (lobby
menu and room screen, `clients.cli.interactive`) or `--bot random|greedy`
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

from clients.cli.account import (
    DELETE_CONFIRM,
    GUESTS_CANNOT,
    NEW_PASSWORD_ENV,
    PASSWORD_ENV,
    SIGN_IN,
    SIGN_UP,
    Credentials,
    PasswordMissing,
    account_sentence,
    default_device,
    devices_table,
    read_password,
)
from clients.cli.bot import LEVELS, BotGaveUp, RandomBot
from clients.cli.i18n import LANGUAGES, _, error_sentence, language_from_env, set_language
from clients.cli.interactive import QUICK_FILL_SECONDS, Interactive, folded, stdin_lines
from clients.cli.public import invite_link, parse_link
from clients.cli.render import renderer_for, result_lines
from clients.cli.session import (
    AuthError,
    Banned,
    Session,
    SessionLost,
    default_token_file,
    forget_token,
    read_token,
)
from clients.cli.turns import ON_EXPIRY, parse_bank, parse_turn
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
    acc = ap.add_argument_group(
        "accounts",
        f"guest play needs none of these. The password is asked for on the terminal (hidden), or read from "
        f"${PASSWORD_ENV} in a script; the account's token is then kept in the token file, so the next start "
        f"resumes the account without a password",
    )
    acc.add_argument(
        "--sign-up", action="store_true", help="make an account called --name (a guest's games go with it)"
    )
    acc.add_argument("--sign-in", action="store_true", help="sign in to the account called --name")
    acc.add_argument("--sign-out", action="store_true", help="sign this device out of the account and exit")
    acc.add_argument("--everywhere", action="store_true", help="with --sign-out: sign out every device of the account")
    acc.add_argument("--devices", action="store_true", help="list the devices the account is signed in on and exit")
    acc.add_argument(
        "--change-password",
        action="store_true",
        help=f"set a new password and exit: the current one, then the new one twice, asked on the terminal (hidden), "
        f"or ${PASSWORD_ENV} and ${NEW_PASSWORD_ENV} in a script; every other device of the account is signed out",
    )
    acc.add_argument(
        "--delete-account",
        action="store_true",
        help="delete the account for good and exit: asks its password, then its name to confirm (read from stdin); "
        "its finished games stay under 'deleted player'",
    )
    acc.add_argument("--device", metavar="LABEL", help="what the account's list of devices calls this one")
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
    ap.add_argument(
        "--turn-based",
        nargs="?",
        const="",
        metavar="DAYS",
        help="a created room is played over days (v1.2): DAYS a move (default 3; up to 14; also 12h, 90m)",
    )
    ap.add_argument(
        "--on-expiry",
        choices=ON_EXPIRY,
        help="with --turn-based, when a player's time runs out: wait for them (default), their bot moves, or the "
        "game ends",
    )
    ap.add_argument(
        "--time-bank",
        metavar="TIME",
        help="with --turn-based or --turn-seconds, each player's time bank (v1.2): days (1, 0.5) or 12h, 90m, 600s; "
        "spent once a move's time runs out",
    )
    ap.add_argument(
        "--fill-bots-after",
        type=int,
        default=QUICK_FILL_SECONDS,
        metavar="S",
        help=f"--quick: server bots fill the empty seats of the room after S seconds (default {QUICK_FILL_SECONDS}; "
        "0: as the server decides)",
    )
    ap.add_argument("--no-bell", action="store_true", help="no terminal bell when it becomes your move")
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
    if sum(bool(x) for x in (args.sign_up, args.sign_in, args.sign_out)) > 1:
        ap.error("use at most one of --sign-up, --sign-in and --sign-out")
    if args.everywhere and not args.sign_out:
        ap.error("--everywhere goes with --sign-out")
    one_shot = (args.sign_out, args.devices, args.change_password, args.delete_account)
    if sum(bool(x) for x in one_shot) > 1:
        ap.error("use at most one of --sign-out, --devices, --change-password and --delete-account")
    if any(one_shot) and (args.bot or args.create or args.join or args.spectate or args.quick or args.replay):
        ap.error(
            "--sign-out, --devices, --change-password and --delete-account do their work and exit: no --bot, "
            "--create, --join, --spectate, --quick or --replay"
        )
    n_bots = len(args.bots) if isinstance(args.bots, list) else args.bots
    if n_bots < 0 or (n_bots and n_bots >= args.seats):
        ap.error("--bots N wants 0 <= N < --seats (you take a seat too)")
    if args.bot_think is not None and not 0 < args.bot_think <= 10:
        ap.error("--bot-think wants seconds in (0, 10]")
    if args.turn_based is not None:
        if not args.create:
            ap.error("--turn-based goes with --create (a quick match is a live game)")
        if args.turn_seconds is not None:
            ap.error("--turn-based DAYS sets the time of a move: no --turn-seconds with it")
        try:
            args.turn_seconds = parse_turn(args.turn_based)
        except ValueError as err:
            ap.error(str(err))
    elif args.on_expiry is not None:
        ap.error("--on-expiry goes with --turn-based")
    if args.time_bank is not None:
        if not args.create or args.turn_seconds is None:
            ap.error("--time-bank goes with --create and --turn-based or --turn-seconds")
        try:
            args.time_bank = parse_bank(args.time_bank, live=args.turn_based is None) or None
        except ValueError as err:
            ap.error(str(err))
    if not 0 <= args.fill_bots_after <= 86400:
        ap.error("--fill-bots-after wants seconds from 0 to 86400")
    return args


def turn_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The `create` fields of a turn-based room (v1.2: mode, on_expiry) and of a time bank, or none."""
    bank = {"time_bank_seconds": args.time_bank} if args.time_bank else {}
    if args.turn_based is None:
        return bank
    return {"mode": "turn_based", "on_expiry": args.on_expiry or "wait", **bank}


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
    credentials = None
    if args.sign_up or args.sign_in:
        confirm = bool(args.sign_up)
        credentials = Credentials(
            SIGN_UP if args.sign_up else SIGN_IN,
            lambda: read_password(confirm=confirm),
            args.device or default_device(),
        )
    if args.sign_out and read_token(token_file) is None:
        out.print(Text(_("Not signed in: there is no saved token in {file}.").format(file=token_file)))
        return 0
    session = Session(
        args.url,
        args.name,
        token_file,
        attempts=max(1, args.reconnect_attempts),
        say=lambda msg: out.print(Text(msg, style="dim")),
        credentials=credentials,
    )
    session.rejoin = not (args.sign_out or args.devices or args.change_password or args.delete_account)
    try:
        welcome = await session.open()
        shown = welcome.get("name") or args.name
        out.print(Text(f"welcome {shown}: player {welcome['player']} (token in {token_file})", style="dim"))
        if welcome.get("account"):
            out.print(Text(_("Signed in to the account {name}.").format(name=shown), style="green"))
        if args.sign_out:
            return await sign_out(session, args, out)
        if args.devices:
            try:
                out.print(devices_table(await session.c.devices()))
            except ServerError as err:
                raise AuthError("devices", err.code, err.message) from None
            return 0
        if args.change_password:
            return await change_password(session, out)
        if args.delete_account:
            return await delete_account(session, args, out, lines)
        if args.bot:
            return await run_bot(session, args, options, out)
        create: tuple[Any, ...] | None = (args.game, args.seats, options, args.bots) if args.create else None
        if create is not None and (args.turn_seconds is not None or args.private):
            create = (*create, {"turn_seconds": args.turn_seconds, "public": not args.private, **turn_fields(args)})
        prompt = None
        if lines is None and sys.stdin.isatty() and out.is_terminal:
            from clients.cli.prompt import PromptLines  # prompt_toolkit: history and completion on a terminal

            prompt = PromptLines()
            lines = prompt.start()
        stdin_tty = lines is None and sys.stdin.isatty()  # no prompt_toolkit on a terminal: echo off for passwords
        ui = Interactive(
            session,
            out,
            lines if lines is not None else stdin_lines(),
            prompt=prompt,
            stdin_tty=stdin_tty,
            bell=not args.no_bell,
        )
        quick = (args.game, args.seats, args.turn_seconds, args.fill_bots_after or None) if args.quick else None
        status = await ui.run(create=create, join=args.join, spectate=args.spectate, quick=quick, replay=args.replay)
        if ui.farewell:  # printed after the screen is left (a terminal's alternate screen would hide it)
            out.print(Text(ui.farewell, style="green"))
        return status
    except PasswordMissing as err:
        out.print(Text(str(err), style="red"))
        return 2
    except Banned as err:  # v1.2: said once, never reconnected (the message says until when and why)
        out.print(Text(error_sentence("banned", err.message), style="red"))
        return 1
    except SessionLost as err:
        out.print(Text(str(err), style="red"))
        return 1
    except AuthError as err:
        if args.sign_out and err.request == "resume":  # the saved token resumes nobody: signed out already
            forget_token(token_file)
            out.print(Text(_("Not signed in: the saved token had stopped already; it is removed.")))
            return 0
        out.print(Text(account_sentence(err.request, err.code, err.message), style="red"))
        return 1
    except ServerError as err:
        out.print(Text(error_sentence(err.code, err.message), style="red"))
        return 1
    except BotGaveUp as err:
        out.print(Text(f"bot gave up: {err}", style="red"))
        return 1
    finally:
        await session.close()


async def sign_out(session: Session, args: argparse.Namespace, out: Console) -> int:
    """`--sign-out [--everywhere]`: sign this device (or every device) out of the account; the token file goes."""
    if not session.account:
        out.print(Text(_("This client plays as a guest: there is no account to sign out of.")))
        return 0
    name = session.welcome.get("name") or args.name
    await session.sign_out(everywhere=args.everywhere)
    done = _("Signed every device out of the account {name}.") if args.everywhere else _("Signed out of {name}.")
    out.print(Text(done.format(name=name), style="green"))
    return 0


async def change_password(session: Session, out: Console) -> int:
    """`--change-password`: the current password, then the new one twice (hidden, or from the environment); every
    other device of the account is signed out, this one stays signed in."""
    if not session.account:
        out.print(Text(_(GUESTS_CANNOT), style="red"))
        return 1
    old = await read_password(confirm=False, question=_("Your current password: "))
    new = await read_password(
        confirm=True,
        variable=NEW_PASSWORD_ENV,
        question=_("The new password: "),
        again=_("The same new password again: "),
    )
    await session.change_password(old, new)  # an AuthError is shown as a sentence by `run`
    done = _("Password changed. Every other device of the account is signed out; this one stays.")
    out.print(Text(done, style="green"))
    return 0


async def delete_account(
    session: Session, args: argparse.Namespace, out: Console, lines: asyncio.Queue[str | None] | None
) -> int:
    """`--delete-account`: the account's password (hidden, or from the environment), then its name typed to
    confirm (a line of stdin); then the account is deleted, the token file goes and the server closes the
    connection."""
    if not session.account:
        out.print(Text(_(GUESTS_CANNOT), style="red"))
        return 1
    name = str(session.welcome.get("name") or args.name)
    password = await read_password(confirm=False)
    out.print(Text(_(DELETE_CONFIRM).format(name=name), style="bold yellow"))
    typed = await (lines if lines is not None else stdin_lines()).get()
    if typed is None or folded(typed) != folded(name):
        out.print(Text(_("Nothing was deleted.")))
        return 2
    await session.delete_account(password)  # an AuthError is shown as a sentence by `run`
    out.print(Text(_("The account {name} is deleted and this client is signed out.").format(name=name), style="green"))
    return 0


async def run_bot(session: Session, args: argparse.Namespace, options: dict[str, Any], out: Console) -> int:
    """`--bot random|greedy`: create or join one room (or take the seat held already), play it, print the result."""
    if args.create:
        room = await session.create(
            args.game,
            args.seats,
            options,
            bots=args.bots,
            public=not args.private,
            turn_seconds=args.turn_seconds,
            **turn_fields(args),
        )
        n_bots = len(args.bots) if isinstance(args.bots, list) else args.bots
        bots = f", {n_bots} server bot{'s' if n_bots != 1 else ''}" if n_bots else ""
        out.print(f"created room {room} ({args.game}, {args.seats} seats{bots})")
        out.print(f"invite link: {invite_link(session.url, room, session.invite_of(room))}")
        seat = await session.join(room)
    elif args.quick:
        room, seat = await session.quick_match(
            args.game, args.seats, turn_seconds=args.turn_seconds, fill_bots_after=args.fill_bots_after or None
        )
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
