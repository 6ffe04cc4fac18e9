"""`python -m server.admin`: the administrators' HTTP API (`/admin/`, server/net/admin.py) from a shell.

    export MARCOPOLO_ADMIN_TOKEN=...            # never on a shared command line: `ps` shows it to everyone
    python -m server.admin --url http://127.0.0.1:8765 reports
    python -m server.admin ban name Somebody "abusive in chat" --minutes 1440

One subcommand per route (docs/admin.md): `reports`, `resolve`, `bans`, `ban`, `lift`, `rooms`, `close`,
`delete-chat`, `player`, `audit`. Answers print as tables, or as the API's JSON with `--json`. A refusal prints
the server's message on stderr and exits 1 (2: a command line argparse refuses). Only the standard library
speaks HTTP here; `rich` draws the tables.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from rich.console import Console
from rich.table import Table
from rich.text import Text

TOKEN_ENV = "MARCOPOLO_ADMIN_TOKEN"
URL_ENV = "MARCOPOLO_ADMIN_URL"
NAME_ENV = "MARCOPOLO_ADMIN_NAME"
DEFAULT_URL = "http://127.0.0.1:8765"
_ACTOR = re.compile(r"[ -~]{1,64}")


class AdminFailed(Exception):
    """The server refused (its `{error, message}`), or could not be reached."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.code = message, status, code


class AdminClient:
    """The `/admin/` routes over urllib: `call(method, path, **query)` returns the decoded JSON answer."""

    def __init__(self, url: str, token: str, actor: str | None = None, timeout: float = 15.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.actor = actor
        self.timeout = timeout

    def call(self, method: str, path: str, **query: Any) -> Any:
        params = {k: _param(v) for k, v in query.items() if v is not None and v is not False}
        target = self.url + path + ("?" + urlencode(params) if params else "")
        req = urllib.request.Request(target, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Accept", "application/json")
        if self.actor:
            req.add_header("X-Admin-Name", self.actor)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as err:
            with err:
                raw = err.read()
            try:
                body = json.loads(raw)
                message, code = str(body["message"]), str(body["error"])
            except (ValueError, KeyError, TypeError):
                message, code = raw.decode("utf-8", "replace").strip()[:300] or err.reason, None
            if err.code == 404 and code == "not_found" and message == "no such page":
                message += " (is the node's admin token set? without one /admin/ does not exist)"
            raise AdminFailed(message, err.code, code) from None
        except urllib.error.URLError as err:
            raise AdminFailed(f"cannot reach {self.url}: {err.reason}") from None
        except (TimeoutError, OSError) as err:
            raise AdminFailed(f"cannot reach {self.url}: {err}") from None
        except ValueError:
            raise AdminFailed(f"{self.url} did not answer JSON (is it a marcopolo node?)") from None


def _param(value: Any) -> str:
    if value is True:
        return "true"
    return str(value)


def seg(value: str) -> str:
    """One path segment, every reserved character escaped (the server decodes it)."""
    return quote(value, safe="")


# ---- the subcommands: what each asks of the API ----------------------------------------------------


def _reports(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("GET", "/admin/reports", status="all" if a.all else None, player=a.player, limit=a.limit)


def _resolve(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("POST", f"/admin/reports/{seg(a.id)}/resolve", resolution=a.resolution)


def _bans(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("GET", "/admin/bans", active="false" if a.all else None, limit=a.limit)


def _ban(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("POST", "/admin/bans", kind=a.kind, value=a.value, reason=a.reason, minutes=a.minutes)


def _lift(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("DELETE", f"/admin/bans/{seg(a.id)}")


def _rooms(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("GET", "/admin/rooms", game=a.game, status=a.status, player=a.player, limit=a.limit)


def _close(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("POST", f"/admin/rooms/{seg(a.room)}/close", reason=a.reason)


def _delete_chat(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("DELETE", f"/admin/chat/{seg(a.room)}/{seg(a.line)}")


def _player(api: AdminClient, a: argparse.Namespace) -> Any:
    if (a.name is None) == (a.id is None):
        raise AdminFailed("give a NAME or --id ID (one of them)")
    return api.call("GET", "/admin/players", name=a.name, player=a.id)


def _audit(api: AdminClient, a: argparse.Namespace) -> Any:
    return api.call("GET", "/admin/audit", limit=a.limit, before=a.before)


# ---- printing ----------------------------------------------------------------------------------------


def when(ts: Any) -> str:
    """Unix seconds as UTC, to the minute ("" for none)."""
    if ts is None or ts == "":
        return ""
    try:
        return datetime.fromtimestamp(float(ts), UTC).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError, OSError):
        return str(ts)


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    table = Table(title=title, title_justify="left", show_lines=False)
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in rows:  # Text: a reason or a chat line is never read as markup
        table.add_row(*(Text("" if v is None else str(v)) for v in row))
    return table


def say(console: Console, line: str) -> None:
    console.print(Text(line))


def _report_rows(reports: list[dict[str, Any]]) -> Table:
    return _table(f"Reports ({len(reports)})", ["id", "filed", "reporter", "player", "room", "reason", "resolution"], [
        (r["id"], when(r["created_at"]), r["reporter"], r["player"], r["room"] or "lobby", r["reason"],
         f"{r['resolution']} ({when(r['resolved_at'])})" if r["resolved_at"] else "open")
        for r in reports
    ])  # fmt: skip


def _ban_until(b: dict[str, Any]) -> str:
    if b.get("lifted_at"):
        return f"lifted {when(b['lifted_at'])}"
    return "permanent" if b.get("until") is None else when(b["until"])


def _ban_rows(bans: list[dict[str, Any]], title: str = "Bans") -> Table:
    return _table(f"{title} ({len(bans)})", ["id", "kind", "value", "reason", "until", "by", "since"], [
        (b["id"], b["kind"], b["value"], b["reason"], _ban_until(b), b["by"], when(b["created_at"])) for b in bans
    ])  # fmt: skip


def _seated(room: dict[str, Any]) -> str:
    names, players = room.get("names") or [], room.get("players") or []
    out = []
    for i in range(max(len(names), len(players))):
        name = names[i] if i < len(names) else None
        player = players[i] if i < len(players) else None
        out.append("-" if player is None else f"{name or '?'} ({player})")
    return ", ".join(out)


def show(console: Console, command: str, got: Any) -> None:
    """A subcommand's answer, for people."""
    if command == "reports":
        console.print(_report_rows(got))
    elif command == "bans":
        console.print(_ban_rows(got))
    elif command == "rooms":
        console.print(_table(f"Rooms ({len(got)})", ["room", "game", "status", "seats", "players", "host", "created"], [
            (r["room"], r["game"], r["status"], r["seats"], _seated(r), r["host"], when(r["created"])) for r in got
        ]))  # fmt: skip
    elif command == "audit":
        console.print(_table(f"Audit log ({len(got)})", ["id", "at", "actor", "action", "target", "detail"], [
            (a["id"], when(a["at"]), a["actor"], a["action"], a["target"],
             json.dumps(a["detail"], ensure_ascii=False, sort_keys=True)) for a in got
        ]))  # fmt: skip
    elif command == "resolve":
        say(console, f"report {got['id']} resolved: {got['resolution']}")
    elif command == "ban":
        say(console, f"ban {got['id']}: {got['kind']} {got['value']} {_ban_until(got)} ({got['reason']})")
    elif command == "lift":
        say(console, f"ban {got['id']} lifted: {got['kind']} {got['value']}")
    elif command == "close":
        say(console, f"room {got['room']} closed: {got['reason']}")
    elif command == "delete-chat":
        gone = got.get("deleted") or {}
        say(console, f"line {got['line']} deleted from {got['room'] or 'the lobby'}: "
                     f"{gone.get('name') or gone.get('from')}: {gone.get('text')}")  # fmt: skip
    elif command == "player":
        _show_player(console, got)
    else:  # pragma: no cover - every subcommand is above
        say(console, json.dumps(got, indent=2, ensure_ascii=False))


def _show_player(console: Console, p: dict[str, Any]) -> None:
    account = p.get("account")
    who = f"{account['name']} (account since {when(account['created_at'])})" if account else "a guest (no account)"
    say(console, f"player {p['player']}: {who}; {'online' if p['online'] else 'offline'}"
                 f"{'; BANNED' if p['banned'] else ''}")  # fmt: skip
    if p["devices"]:
        console.print(_table(f"Devices ({len(p['devices'])})", ["device", "signed in", "last seen"], [
            (d["device"], when(d["created_at"]), when(d["last_seen"])) for d in p["devices"]
        ]))  # fmt: skip
    if p["games"]:
        rows = []
        for g in p["games"]:  # as archived: `players` are the names shown, `finished_at` in milliseconds
            ended = g.get("finished_at")
            rows.append((g.get("room"), g.get("game"), when(ended / 1000 if isinstance(ended, int | float) else None),
                         ", ".join(str(n) for n in g.get("players") or [])))  # fmt: skip
        console.print(_table(f"Recent games ({len(rows)})", ["room", "game", "ended", "players"], rows))
    if p["reports"]:
        console.print(_report_rows(p["reports"]))
    if p["bans"]:
        console.print(_ban_rows(p["bans"]))


# ---- the command line -------------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return value


Command = Callable[[AdminClient, argparse.Namespace], Any]


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m server.admin",
        description="Moderate a marcopolo deployment through its administrators' HTTP API (/admin/). "
        f"The token comes from {TOKEN_ENV} (or --token-file); --token works too, but a command line is "
        "visible to every user of the machine.",
    )
    ap.add_argument("--url", default=os.environ.get(URL_ENV, DEFAULT_URL),
                    help=f"the node's HTTP address (env {URL_ENV}; default {DEFAULT_URL})")  # fmt: skip
    ap.add_argument("--token", help=f"the admin token (prefer env {TOKEN_ENV})")
    ap.add_argument("--token-file", help="a file holding the admin token")
    ap.add_argument(
        "--name",
        default=os.environ.get(NAME_ENV),
        help=f"who acts, as the audit log names you (env {NAME_ENV}; default: your login name)",
    )
    ap.add_argument("--json", action="store_true", help="print the API's JSON answer instead of tables")
    ap.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for an answer (default 15)")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Command, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(run=run)
        return p

    p = command("reports", _reports, "players' reports, newest first (open ones unless --all)")
    p.add_argument("--all", action="store_true", help="resolved ones too")
    p.add_argument("--player", help="only reports of this player id")
    p.add_argument("--limit", type=_positive, help="at most this many (the server's default: 100)")
    p = command("resolve", _resolve, "resolve an open report")
    p.add_argument("id", metavar="ID")
    p.add_argument("resolution", metavar="RESOLUTION", help="what was done (kept with the report)")
    p = command("bans", _bans, "bans in force, newest first (--all: lifted and ended ones too)")
    p.add_argument("--all", action="store_true")
    p.add_argument("--limit", type=_positive)
    p = command("ban", _ban, "ban an account (by player id or by name), an address or a network")
    p.add_argument("kind", choices=["player", "name", "addr", "net"])
    p.add_argument("value", metavar="VALUE", help="a player id, an account's name, an IP address or a CIDR network")
    p.add_argument("reason", metavar="REASON", help="shown to the banned party")
    p.add_argument("--minutes", type=_positive, help="how long (default: permanently)")
    p = command("lift", _lift, "lift a ban")
    p.add_argument("id", metavar="ID")
    p = command("rooms", _rooms, "unfinished rooms, newest first")
    p.add_argument("--game")
    p.add_argument("--status", choices=["waiting", "playing"])
    p.add_argument("--player", help="a player id or name seated in the room")
    p.add_argument("--limit", type=_positive)
    p = command("close", _close, "close a room; its viewers see the reason")
    p.add_argument("room", metavar="ROOM")
    p.add_argument("reason", metavar="REASON")
    p = command("delete-chat", _delete_chat, "delete a chat line everywhere")
    p.add_argument("room", metavar="ROOM", help="the room, or `lobby`")
    p.add_argument("line", metavar="LINE", help="the line's id")
    p = command("player", _player, "look a player up: account, devices, games, reports, bans")
    p.add_argument("name", metavar="NAME", nargs="?", help="an account's name")
    p.add_argument("--id", help="a player id (guests have no name to look up)")
    p = command("audit", _audit, "the audit log, newest first")
    p.add_argument("--limit", type=_positive)
    p.add_argument("--before", type=_positive, help="entries older than this id (paging)")
    return ap


def _token(a: argparse.Namespace) -> str | None:
    if a.token:
        return str(a.token).strip()
    if a.token_file:
        try:
            with open(a.token_file, encoding="utf-8") as f:
                return f.read().strip()
        except OSError as err:
            raise AdminFailed(f"cannot read the token file: {err.strerror}") from None
    return os.environ.get(TOKEN_ENV, "").strip() or None


def _actor(given: str | None) -> str | None:
    if given is not None:
        return given
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name to be had (a container without a passwd entry)
        return None
    return name if _ACTOR.fullmatch(name) else None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = Console(soft_wrap=False)
    err = Console(stderr=True, soft_wrap=True)
    try:
        token = _token(args)
        if not token:
            raise AdminFailed(f"no admin token: set {TOKEN_ENV} (or --token-file)")
        api = AdminClient(args.url, token, _actor(args.name), args.timeout)
        got = args.run(api, args)
    except AdminFailed as failed:
        where = f" ({failed.status} {failed.code})" if failed.status else ""
        err.print(f"error{where}: {failed.message}", markup=False, highlight=False)
        return 1
    if args.json:
        print(json.dumps(got, indent=2, ensure_ascii=False))
    else:
        show(out, args.command, got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
