"""A node on a SQLite file SIGKILLed mid-game and restarted on the same file: nothing acknowledged is lost.

One real `python -m server` process on `sqlite:///<tmp>/data/marcopolo.db` (with `--keep-log`, so the whole log
stays for the audit); two players play a room while a third has already finished a game against a server bot
and a fourth room waits in the lobby. The node is SIGKILLed mid-game and started again on the same file and
port: the players reconnect with their tokens and get their own seats back, play on, and the stored log is
audited against every `ok`; the finished game and the waiting room are still there, and so are the records
of the finished game (its history, its player's rating, its room chat and the lobby's chat). The player of the
finished game is an account (v1.2: only accounts are rated), whose account and token outlive the crash too. The
restarted node runs under another node id (as after a change of `--node-id`): it takes every room at once all
the same, since a server opens its file as its one writer and so fences every lease of the killed process.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from server.store import open_store

from .procs import CHEAP, NodeProc, Player, _sign_up, audit
from .test_faults import play_through


async def test_a_sigkilled_node_restarted_on_its_file_resumes_every_room_token_and_finished_game(
    tmp_path: Path,
) -> None:
    url = f"sqlite://{tmp_path}/data/marcopolo.db"
    # the server's default: the records in the store's own file (not the suite's memory); cheap password hashes
    default = ["--records", "", *CHEAP]
    node = NodeProc("solo", url, "mp:", extra=default)
    again = NodeProc("solo-again", url, "mp:", extra=default)
    again.port = node.port  # the same address, so the players' reconnects find it
    node.start()
    players: list[Player] = []
    try:
        ann, bob, cyd = (Player(name, [node.url]) for name in ("ann", "bob", "cyd"))
        players = [ann, bob, cyd]
        await ann.connect()
        await bob.connect()
        await _sign_up(cyd)  # an account: her game against the bot is rated
        who = {p.name: (p.token, p.client.player if p.client else None) for p in players}
        assert ann.client is not None and cyd.client is not None
        # a game finished before the crash: cyd (an account, every move of her seat her own) against a server bot
        answer = await cyd.client.request(
            "create", game="expedition", seats=2, public=True, options={"seed": 301}, bots=1
        )
        finished = str(answer["room"])
        await cyd.join(finished, None)
        await cyd.play(finished, random.Random(5), lambda: False)
        assert cyd.client.views[finished].state.get("result"), "the bot game did not finish"
        await cyd.client.request("chat", room=finished, text="good game")
        await cyd.client.request("chat", text="hello lobby")
        waiting = await ann.client.create("expedition", 3, {"seed": 302})
        room = await ann.client.create("expedition", 2, {"seed": 303})
        await ann.join(room, None)
        await bob.join(room, None)
        seats = {ann.name: ann.seat, bob.name: bob.seat}
        timing: dict[str, float] = {}

        async def crash() -> None:
            acked = sum(len(p.acks) for p in (ann, bob))
            node.kill()
            started = time.monotonic()
            await asyncio.to_thread(again.start)
            timing["restart"] = time.monotonic() - started
            timing["acked_before"] = acked

        await play_through(room, [ann, bob], crash, before=12, after=12, seed=7)
        assert ann.reconnects >= 1 and bob.reconnects >= 1, "the players never saw the crash"
        for p in (ann, bob):
            assert p.client is not None
            assert (p.token, p.client.player) == who[p.name], f"{p.name} came back as someone else"
            assert p.seat == seats[p.name]
        figures = await audit(url, "mp:", room, [ann, bob])
        assert figures["acks"] >= 24 and figures["log"] >= figures["acks"]
        state = await cyd.settle(finished)
        assert state.get("result"), "the finished game is gone after the restart"
        # the records of that game (its history, the players' ratings, its chat) are in the same file, and so is
        # cyd's account: she came back through its token as herself
        assert cyd.client is not None and cyd.client.player == who["cyd"][1]
        board = await cyd.client.request("ratings", game="expedition")
        assert {row["player"]: row["games"] for row in board["players"]} == {who["cyd"][1]: 1, "bot": 1}, board
        history = await cyd.client.request("history", game="expedition")
        assert [g["room"] for g in history["games"]] == [finished]
        said = await cyd.client.request("chat_log", room=finished)
        assert [line["text"] for line in said["messages"]] == ["good game"]
        lobby = await cyd.client.request("chat_log")
        assert [line["text"] for line in lobby["messages"]] == ["hello lobby"]
        async with open_store(url) as store:
            assert {finished, waiting, room} <= set(await store.room_ids())
            meta = await store.get_meta(finished)
            assert meta is not None and meta["status"] == "finished"
            listed = {m["room"] for m in await store.list_public()}
            assert waiting in listed
        print(f"restart took {timing['restart']:.2f} s; {figures}")
    finally:
        for p in players:
            await p.close()
        node.stop()
        again.stop()


async def test_a_second_server_on_the_same_file_refuses_to_start_and_the_first_plays_on(tmp_path: Path) -> None:
    """Two servers on one SQLite file: the second exits at once (code 2) naming the first one's pid; the first
    never notices (its room plays on, nothing fenced); once the first is SIGKILLed, the second starts (the
    kernel dropped the lock with the process)."""
    url = f"sqlite://{tmp_path}/data/marcopolo.db"
    first = NodeProc("first", url, "mp:")
    second = NodeProc("second", url, "mp:")
    first.start()
    ann = Player("ann", [first.url])
    try:
        await ann.connect()
        assert ann.client is not None
        room = str(
            (await ann.client.request("create", game="expedition", seats=2, options={"seed": 5}, bots=1))["room"]
        )
        await ann.join(room, None)
        second.start(wait=False)
        assert second.proc is not None
        code = await asyncio.to_thread(second.proc.wait, 30)
        assert code == 2, second.log()
        assert first.proc is not None and "in use by another server" in second.log()
        assert f"pid {first.proc.pid}" in second.log()
        await ann.play(room, random.Random(5), lambda: False)
        assert ann.client.views[room].state.get("result"), "the first server's game did not play on"
        assert not ann.errors, ann.errors
        first.kill()
        second.start()  # healthy: it took the file
        reader = Player("reader", [second.url])
        await reader.connect()
        state = await reader.settle(room)
        assert state.get("result")
        await reader.close()
    finally:
        await ann.close()
        first.stop()
        second.stop()
