"""`python -m server.admin` (server/admin.py) against a real node with real websocket players: every subcommand,
its tables and `--json`, the token from the environment or a file, and refusals (the server's message on
stderr, exit 1; the token never printed). One run goes through a real `python -m server.admin` process."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from clients.client import Client
from server.admin import TOKEN_ENV, main
from server.net.app import App
from tests.net.conftest import start_app

TOKEN = "cli-admin-token-for-tests"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def node() -> AsyncIterator[App]:
    app = await start_app(admin_token=TOKEN, password_memory_kib=1024, password_time_cost=1)
    yield app
    await app.stop()


@pytest.fixture
async def clients(node: App) -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    made: list[Client] = []

    async def make(name: str, account: bool = False) -> Client:
        c = Client(f"ws://127.0.0.1:{node.port}/ws")
        await c.connect()
        made.append(c)
        await (c.sign_up(name, "correct horse battery") if account else c.hello(name))
        return c

    yield make
    for c in made:
        await c.close()


Run = Callable[..., Awaitable[tuple[int, str, str]]]


@pytest.fixture
def admin(node: App, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """`await admin("reports", "--all")`: main() in a thread (the node runs in this loop): (code, out, err)."""
    monkeypatch.setenv(TOKEN_ENV, TOKEN)
    monkeypatch.setenv("COLUMNS", "200")

    async def run(*args: str, url: str | None = None) -> tuple[int, str, str]:
        capsys.readouterr()
        argv = ["--url", url or f"http://127.0.0.1:{node.port}", *args]
        try:
            code = await asyncio.to_thread(main, argv)
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        got = capsys.readouterr()
        return code, got.out, got.err

    return run


async def _push(c: Client, t: str, timeout: float = 5.0) -> dict[str, Any]:
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        for msg in c.pushes:
            if msg.get("t") == t:
                return msg
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {t!r} push")


async def test_every_subcommand_against_a_real_node(
    node: App, clients: Callable[..., Awaitable[Client]], admin: Run
) -> None:
    ann = await clients("Ann", account=True)
    bob = await clients("Bob")
    room = await ann.create("expedition", 2)
    await ann.join(room)
    await bob.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    await bob.chat("[bold]rude[/bold] words", room=room)
    line = await ann.wait_chat(lambda x: x["text"].endswith("rude[/bold] words"))
    await ann.request("report", player=bob.player, room=room, reason="rude [red]in chat")

    assert bob.player is not None and ann.player is not None
    code, out, _ = await admin("reports")
    assert code == 0 and "Reports (1)" in out and "rude [red]in chat" in out and bob.player in out  # no markup
    code, out, _ = await admin("--json", "reports", "--player", bob.player)
    (report,) = json.loads(out)
    assert code == 0 and report["reporter"] == ann.player and report["room"] == room
    code, out, _ = await admin("--name", "Mod X", "resolve", str(report["id"]), "warned Bob")
    assert code == 0 and out.strip() == f"report {report['id']} resolved: warned Bob"
    code, out, err = await admin("resolve", str(report["id"]), "again")
    assert code == 1 and out == "" and "409 conflict" in err and "resolved already" in err
    assert "Reports (0)" in (await admin("reports"))[1]
    assert "warned Bob" in (await admin("reports", "--all"))[1]

    code, out, _ = await admin("rooms", "--game", "expedition", "--status", "playing", "--player", "Ann")
    assert code == 0 and "Rooms (1)" in out and room in out and f"Bob ({bob.player})" in out
    assert "Rooms (0)" in (await admin("rooms", "--status", "waiting"))[1]

    code, out, _ = await admin("delete-chat", room, line["line"])
    assert code == 0 and out.startswith(f"line {line['line']} deleted from {room}: Bob: [bold]rude")
    assert (await _push(ann, "chat_deleted"))["line"] == line["line"]

    code, out, _ = await admin("ban", "player", bob.player, "cheating", "--minutes", "60")
    assert code == 0 and out.startswith(f"ban 1: player {bob.player} ") and "(cheating)" in out
    await asyncio.wait_for(bob.closed.wait(), 5)
    assert bob.close_code == 4003
    code, out, _ = await admin("bans")
    assert "Bans (1)" in out and "cheating" in out
    code, out, _ = await admin("player", "--id", bob.player)
    assert code == 0 and "a guest (no account)" in out and "BANNED" in out and "cheating" in out
    assert (await admin("lift", "1"))[1].strip() == f"ban 1 lifted: player {bob.player}"
    assert "Bans (0)" in (await admin("bans"))[1]
    assert "lifted " in (await admin("bans", "--all"))[1]

    code, out, _ = await admin("player", "ann")
    assert code == 0 and out.startswith(f"player {ann.player}: Ann (account since ") and "online" in out
    assert "Devices (1)" in out

    code, out, _ = await admin("close", room, "closed for abuse")
    assert code == 0 and out.strip() == f"room {room} closed: closed for abuse"
    closed = await _push(ann, "closed")
    assert closed["reason"] == "moderator" and closed["message"] == "closed for abuse"

    code, out, _ = await admin("--json", "audit")
    entries = json.loads(out)
    assert [(a["action"], a["actor"]) for a in entries][-1] == ("resolve_report", "Mod X")
    assert [a["action"] for a in entries] == ["close_room", "lift_ban", "ban", "delete_chat", "resolve_report"]
    code, out, _ = await admin("audit", "--limit", "2")
    assert code == 0 and "Audit log (2)" in out and "close_room" in out and "resolve_report" not in out
    code, out, _ = await admin("--json", "audit", "--before", str(entries[3]["id"]))
    assert [a["action"] for a in json.loads(out)] == ["resolve_report"]


async def test_refusals_print_the_servers_message_and_exit_1_never_the_token(
    node: App, admin: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for args, words in [
        (("lift", "7"), "404 not_found): no ban 7"),
        (("lift", "x"), "400 bad_request): a ban id is a number"),
        (("ban", "net", "10.0.0.0/99", "x"), "not a network"),
        (("ban", "name", "Nobody", "x"), "no account has that name"),
        (("close", "rnosuch", "x"), "no room rnosuch"),
        (("delete-chat", "lobby", "abc"), "no such chat line"),
        (("player", "Nobody"), "no account has that name"),
        (("player",), "give a NAME or --id ID"),
        (("player", "Ann", "--id", "p1"), "give a NAME or --id ID"),
        (("rooms", "--game", "a b"), "not a game id"),
    ]:
        code, out, err = await admin(*args)
        assert code == 1 and out == "" and words in err, (args, err)
    # the token: wrong, missing, from a file
    monkeypatch.setenv(TOKEN_ENV, "wrong-" + TOKEN)
    code, _, err = await admin("reports")
    assert code == 1 and "401 unauthorized" in err and "missing or wrong" in err and TOKEN not in err
    monkeypatch.delenv(TOKEN_ENV)
    code, _, err = await admin("reports")
    assert code == 1 and f"set {TOKEN_ENV}" in err
    secret = tmp_path / "token"
    secret.write_text(TOKEN + "\n", encoding="utf-8")
    assert (await admin("--token-file", str(secret), "reports"))[0] == 0
    assert (await admin("--token", TOKEN, "bans"))[0] == 0
    code, _, err = await admin("--token-file", str(tmp_path / "none"), "reports")
    assert code == 1 and "cannot read the token file" in err
    # argparse refuses a bad command line (2)
    assert (await admin("--token", TOKEN, "ban", "email", "x", "y"))[0] == 2
    assert (await admin("--token", TOKEN, "reports", "--limit", "0"))[0] == 2
    # a node without a token, a port nobody listens on
    bare = await start_app()
    port = bare.port
    try:
        code, _, err = await admin("--token", TOKEN, "reports", url=f"http://127.0.0.1:{port}")
        assert code == 1 and "404 not_found" in err and "admin token set" in err
    finally:
        await bare.stop()
    code, _, err = await admin("--token", TOKEN, "reports", url=f"http://127.0.0.1:{port}")
    assert code == 1 and "cannot reach" in err


async def test_python_dash_m_server_admin_in_a_process_of_its_own(
    node: App, clients: Callable[..., Awaitable[Client]]
) -> None:
    ann = await clients("Ann")
    room = await ann.create("khan", 3)
    url = f"http://127.0.0.1:{node.port}"

    async def run(*args: str, token: str) -> tuple[int, str, str]:
        env = {**os.environ, TOKEN_ENV: token, "PYTHONPATH": str(ROOT)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.admin", "--url", url, *args, env=env, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        return int(proc.returncode or 0), out.decode(), err.decode()

    code, out, err = await run("--json", "rooms", "--game", "khan", token=TOKEN)
    assert code == 0, err
    assert [(r["room"], r["status"], r["host"]) for r in json.loads(out)] == [(room, "waiting", ann.player)]
    code, out, err = await run("--name", "Shell", "ban", "addr", "192.0.2.9", "from a shell", token=TOKEN)
    assert code == 0 and out.strip() == "ban 1: addr 192.0.2.9 permanent (from a shell)", err
    assert (await node.hub.records.audit())[0]["actor"] == "Shell"
    code, out, err = await run("reports", token="not-" + TOKEN)
    assert code == 1 and out == "" and "missing or wrong" in err and TOKEN not in err
