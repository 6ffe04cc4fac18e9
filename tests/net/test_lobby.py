"""Public lobbies (wire contract v1.1) over real sockets: quick match, turn clocks, chat, host controls,
history, replays, ratings, rematch, filling seats with bots and closing rooms nobody uses.

Each test runs on the memory store and on the real Redis at 6379 under a random key prefix (never flushed;
the keys expire or are left under their own prefix). Clocks run with `clock_scale` so that the contract's
shortest clock (10 s) lasts a fraction of a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
import redis.asyncio as aredis

from clients.client import Client, ServerError
from server.games import get_game
from server.net.app import App
from server.store import MemoryStore, RedisStore, Store
from tests.util import strings

from .conftest import play_to_end, start_app

GAME = get_game("expedition")
SCALE = 0.05  # a 10 s clock lasts 0.5 s
PASSWORD = "correct horse battery"
#: cheap password hashes for tests (the server's defaults are OWASP's: 19 MiB, two passes)
CHEAP = {"password_memory_kib": 1024, "password_time_cost": 1}


async def _redis_up() -> bool:
    r = aredis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=0.5)
    try:
        await r.ping()
        return True
    except Exception:  # noqa: BLE001
        return False
    finally:
        await r.aclose()


def _new_store(kind: str) -> Store:
    if kind == "memory":
        return MemoryStore(trim_log=False)
    return RedisStore("redis://127.0.0.1:6379/0", prefix=f"mptest:lobby:{secrets.token_hex(4)}:", trim_log=False)


class Server:
    """An app on a store that outlives it (so a test can restart the app), and its clients."""

    def __init__(self, kind: str, **settings: Any) -> None:
        self.kind = kind
        self.store = _new_store(kind)
        self.settings = {"clock_scale": SCALE, "bot_delay": 0.05, **CHEAP, **settings}
        self.app: App | None = None
        self.clients: list[Client] = []

    async def start(self) -> App:
        self.app = await start_app(self.store, **self.settings)
        return self.app

    async def restart(self) -> App:
        assert self.app is not None
        await self._stop_app()
        return await self.start()

    async def _stop_app(self) -> None:
        assert self.app is not None
        # stop the rooms and the listener but keep the store open for the next app
        real_close = self.store.close

        async def keep_open() -> None:
            return None

        self.store.close = keep_open  # type: ignore[method-assign]
        try:
            await self.app.stop()
        finally:
            self.store.close = real_close  # type: ignore[method-assign]

    async def client(
        self, name: str | None = None, keep_frames: bool = False, token: str | None = None, account: bool = False
    ) -> Client:
        """A connected client that said hello as `name` (a guest), or with `account` signed up as `name` (v1.2:
        only accounts are rated); a `token` resumes a player, guest or account."""
        assert self.app is not None
        c = Client(f"ws://127.0.0.1:{self.app.port}/ws", keep_frames=keep_frames)
        await c.connect()
        self.clients.append(c)
        if name is not None and account:
            answer = await c.request("sign_up", name=name, password=PASSWORD)
            assert answer["t"] == "welcome" and answer["account"] is True, answer
            c.player, c.token = answer["player"], answer["token"]
        elif name is not None:
            await c.hello(name, token)
        return c

    async def close(self) -> None:
        for c in self.clients:
            await c.close()
        if self.app is not None:
            await self.app.stop()
        if isinstance(self.store, RedisStore):  # this test's keys only (its own prefix); never a FLUSH
            raw = aredis.Redis(host="127.0.0.1", port=6379)
            keys = [k async for k in raw.scan_iter(match=f"{self.store.prefix}*")]
            if keys:
                await raw.delete(*keys)
            await raw.aclose()


@pytest.fixture(params=["memory", "redis"])
async def make_server(request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Awaitable[Server]]]:
    if request.param == "redis" and not await _redis_up():
        pytest.skip("no Redis at 127.0.0.1:6379")
    made: list[Server] = []

    async def make(**settings: Any) -> Server:
        srv = Server(request.param, **settings)
        await srv.start()
        made.append(srv)
        return srv

    yield make
    for srv in made:
        await srv.close()


async def _two_player_game(
    srv: Server, keep_frames: bool = False, accounts: bool = False, **create: Any
) -> tuple[str, list[Client]]:
    """ann and bob (guests, or with `accounts` signed up) seated in a new public 2-seat Expedition that started."""
    a = await srv.client("ann", keep_frames=keep_frames, account=accounts)
    b = await srv.client("bob", keep_frames=keep_frames, account=accounts)
    room = await a.create_room("expedition", 2, options={"seed": 11}, **create)
    await a.join(room)
    await b.join(room)
    await b.wait_for(room, lambda s: s["status"] == "playing")
    await a.wait_for(room, lambda s: s["status"] == "playing")
    return room, [a, b]


async def _eventually(ask: Callable[[], Awaitable[Any]], ok: Callable[[Any], bool], timeout: float = 5.0) -> Any:
    """History and ratings are written just after the last version is shown: ask until they are there."""
    stop = time.monotonic() + timeout
    while True:
        got = await ask()
        if ok(got) or time.monotonic() > stop:
            return got
        await asyncio.sleep(0.05)


# ---- quick match ------------------------------------------------------------------------------


async def test_two_clients_quick_match_into_one_room_and_the_game_starts(make_server: Any) -> None:
    srv = await make_server()
    a, b = await srv.client("ann"), await srv.client("bob")
    room_a, seat_a = await a.quick_match("expedition", 2)
    room_b, seat_b = await b.quick_match("expedition", 2)
    assert room_a == room_b and {seat_a, seat_b} == {0, 1}
    await a.wait_for(room_a, lambda s: s["status"] == "playing")
    await b.wait_for(room_a, lambda s: s["status"] == "playing")
    # a third player with other options gets a room of its own
    c = await srv.client("cy")
    room_c, _ = await c.quick_match("expedition", 3)
    assert room_c != room_a and c.view(room_c)["status"] == "waiting"


async def test_a_lone_quick_match_gets_server_bots_when_the_fill_timer_runs_out(make_server: Any) -> None:
    srv = await make_server()
    a = await srv.client("ann")
    t0 = time.monotonic()
    room, seat = await a.quick_match("expedition", 3, fill_bots_after=10)  # 0.5 s at this scale
    assert seat == 0 and a.view(room)["status"] == "waiting"
    await a.wait_for(room, lambda s: s["status"] == "playing", timeout=5)
    assert time.monotonic() - t0 < 10 * SCALE + 1.5
    names = [s["name"] for s in a.view(room)["seats"]]
    assert names[0] == "ann" and all(n and n.startswith("Bot") for n in names[1:])


# ---- turn clocks ------------------------------------------------------------------------------


async def test_the_clock_is_in_every_view_and_the_same_for_every_viewer(make_server: Any) -> None:
    srv = await make_server()
    room, (a, b) = await _two_player_game(srv, turn_seconds=600)
    w = await srv.client("watcher")
    await w.join(room, spectate=True)
    clocks = [c.view(room).get("clock") for c in (a, b, w)]
    assert clocks[0] is not None and clocks[0] == clocks[1] == clocks[2]
    assert clocks[0]["deadline"] > time.time() * 1000
    movers = [c.view(room)["you"] for c in (a, b) if c.view(room)["prompt"]]
    assert clocks[0]["seats"] == sorted(movers)
    # a room without turn_seconds has no clock
    room2, (c, _d) = await _two_player_game(srv)
    assert "clock" not in c.view(room2)


async def test_a_seat_that_never_moves_is_played_by_the_clock_then_handed_to_a_bot(make_server: Any) -> None:
    srv = await make_server()
    room, players = await _two_player_game(srv, turn_seconds=10, max_expiries=2)
    a = players[0]
    expired: dict[int, int] = {}
    stop_at = time.monotonic() + 30
    # nobody ever moves: each deadline passes and the server plays the late seats, no sooner than the
    # deadline and within turn_seconds + 1 s of it; after 2 expiries in a row a seat is handed to a bot
    while time.monotonic() < stop_at:
        clock = a.view(room).get("clock")
        if a.view(room)["result"] is not None or clock is None or clock.get("auto"):
            break
        v0 = a.views[room].v
        await a.wait_for(room, lambda s, v0=v0: a.views[room].v > v0, timeout=10 * SCALE + 2)
        now = time.time() * 1000
        assert clock["deadline"] - 50 <= now <= clock["deadline"] + 1000, (now, clock)
        for seat in clock["seats"]:
            expired[seat] = expired.get(seat, 0) + 1
    clock = a.view(room)["clock"]
    assert clock.get("auto"), clock
    seat = clock["auto"][0]
    assert expired[seat] >= 2
    # a bot now plays that seat at bot speed, long before any deadline
    bot_moves = 0
    for _ in range(6):
        view = a.view(room)
        if view["result"] is not None or seat not in (view.get("clock") or {}).get("seats", []):
            break
        v0, deadline = a.views[room].v, view["clock"]["deadline"]
        await a.wait_for(room, lambda s, v0=v0: a.views[room].v > v0, timeout=5)
        if time.time() * 1000 < deadline:
            bot_moves += 1
    assert bot_moves >= 1
    # its player comes back (re-attaches to the seat): the seat is theirs again
    owner = players[seat]
    await owner.join(room)
    await owner.wait_for(room, lambda s: seat not in (s.get("clock") or {}).get("auto", []), timeout=5)


async def test_the_clock_survives_a_restart_of_the_app_on_the_same_store(make_server: Any) -> None:
    srv = await make_server(clock_scale=0.3)  # a 10 s clock lasts 3 s
    room, (a, b) = await _two_player_game(srv, turn_seconds=10)
    clock = a.view(room)["clock"]
    v_before = a.views[room].v
    tokens = [a.token, b.token]
    await srv.restart()
    a2 = await srv.client("ann", token=tokens[0])
    await a2.join(room)
    assert a2.view(room)["clock"]["deadline"] == clock["deadline"]  # the stored clock, not a new one
    assert a2.views[room].v >= v_before
    # nobody moves: after the deadline the restarted server plays the late seat
    remaining = clock["deadline"] / 1000 - time.time()
    await a2.wait_for(
        room,
        lambda s: (s.get("clock") or {}).get("deadline", 0) != clock["deadline"] or s["result"] is not None,
        timeout=max(0.0, remaining) + 2.0,
    )
    assert time.time() * 1000 >= clock["deadline"] - 50


# ---- chat -------------------------------------------------------------------------------------


async def test_a_chat_line_reaches_every_viewer_of_the_room_and_never_another_room(make_server: Any) -> None:
    srv = await make_server()
    room, (a, b) = await _two_player_game(srv, keep_frames=True)
    w = await srv.client("watcher", keep_frames=True)
    await w.join(room, spectate=True)
    other, (c, d) = await _two_player_game(srv, keep_frames=True)
    lobby = await srv.client("lounger", keep_frames=True)
    await lobby.request("watch_lobby")
    await a.chat("<script>alert(1)</script> hello", room=room)
    for viewer in (a, b, w):
        line = await viewer.wait_chat(lambda x: x["room"] == room)
        assert line["text"] == "<script>alert(1)</script> hello" and line["name"] == "ann"
        assert line["from"] == a.player and isinstance(line["at"], int)
    await c.chat("only here", room=other)
    await d.wait_chat(lambda x: x["text"] == "only here")
    await asyncio.sleep(0.2)
    for outsider in (c, d, lobby):
        assert outsider.frames is not None
        assert not any(b"alert(1)" in f for f in outsider.frames)
    for insider in (a, b, w):
        assert insider.frames is not None
        assert not any(b"only here" in f for f in insider.frames)
    # kept with the room
    kept = await c.chat_log(room)
    assert [x["text"] for x in kept] == ["<script>alert(1)</script> hello"]


async def test_the_chat_rate_limit_is_a_setting(make_server: Any) -> None:
    srv = await make_server(chat_lines=2, chat_window=60.0)
    a = await srv.client("ann")
    await a.chat("one")
    await a.chat("two")
    with pytest.raises(ServerError) as err:
        await a.chat("three")
    assert err.value.code == "rate_limited" and "2 chat lines per 60 s" in err.value.message


async def test_lobby_chat_reaches_lobby_watchers_and_bad_lines_are_refused(make_server: Any) -> None:
    srv = await make_server()
    a, w = await srv.client("ann"), await srv.client("watcher")
    await w.request("watch_lobby")
    await a.chat("anyone for a game?")
    line = await w.wait_chat(lambda x: x["room"] is None)
    assert line["text"] == "anyone for a game?"
    for bad in ("", "x" * 501, "bell\x07"):
        with pytest.raises(ServerError) as err:
            await a.chat(bad)
        assert err.value.code == "bad_message"
    await a.chat("y" * 500)
    with pytest.raises(ServerError) as err:  # 5 lines per 10 s
        for i in range(10):
            await a.chat(f"spam {i}")
    assert err.value.code == "rate_limited"
    # chatting in a room one does not watch is refused
    room = await a.create_room("expedition", 2)
    with pytest.raises(ServerError) as err:
        await w.chat("hi", room=room)
    assert err.value.code == "forbidden"


# ---- host controls ----------------------------------------------------------------------------


async def test_the_creator_removes_a_player_adds_bots_changes_options_and_starts_early(make_server: Any) -> None:
    srv = await make_server()
    host, guest = await srv.client("host"), await srv.client("guest")
    room = await host.create_room("expedition", 4)
    await host.join(room)
    await guest.join(room)
    with pytest.raises(ServerError) as err:
        await guest.host(room, "kick", seat=0)
    assert err.value.code == "forbidden"
    await host.host(room, "kick", seat=1)
    await host.wait_for(room, lambda s: s["seats"][1]["taken"] is False)
    await host.host(room, "add_bot", seat=2)
    await host.wait_for(room, lambda s: (s["seats"][2]["name"] or "").startswith("Bot"))
    await host.host(room, "remove_bot", seat=2)
    await host.wait_for(room, lambda s: s["seats"][2]["taken"] is False)
    with pytest.raises(ServerError) as err:
        await host.host(room, "options", options={"no_such_option": 1})
    assert err.value.code == "bad_message"
    await host.host(room, "start")
    await host.wait_for(room, lambda s: s["status"] == "playing")
    names = [s["name"] for s in host.view(room)["seats"]]
    assert names[0] == "host" and all(n.startswith("Bot") for n in names[1:])
    with pytest.raises(ServerError) as err:
        await host.host(room, "add_bot")
    assert err.value.code == "forbidden"


# ---- closing rooms ----------------------------------------------------------------------------


async def test_a_waiting_room_nobody_joins_is_closed_and_leaves_the_lobby(make_server: Any) -> None:
    srv = await make_server(close_waiting_after=10)  # 0.5 s at this scale
    a = await srv.client("ann")
    room = await a.create_room("expedition", 3)
    assert room in {r["room"] for r in (await a.request("list_rooms"))["rooms"]}
    await a.join(room, spectate=True)
    await a.wait_for(room, lambda s: s.get("closed") == "nobody_joined", timeout=5)
    assert room not in {r["room"] for r in (await a.request("list_rooms"))["rooms"]}


async def test_a_game_whose_players_all_went_away_is_closed(make_server: Any) -> None:
    srv = await make_server(close_away_after=20)  # 1 s at this scale
    room, (a, b) = await _two_player_game(srv)
    w = await srv.client("watcher")
    await w.join(room, spectate=True)
    await a.close()
    await b.close()
    await w.wait_for(room, lambda s: s.get("closed") == "abandoned", timeout=6)
    assert w.view(room)["status"] == "finished"
    assert room not in {r["room"] for r in (await w.request("list_rooms"))["rooms"]}


# ---- history, replays, ratings, rematch -------------------------------------------------------


async def _finished_game(
    srv: Server, keep_frames: bool = False, accounts: bool = False
) -> tuple[str, list[Client], Client, Any]:
    """`_two_player_game` played to its end by its players themselves, watched by a spectator (a guest)."""
    room, players = await _two_player_game(srv, keep_frames=keep_frames, accounts=accounts)
    spectator = await srv.client("watcher", keep_frames=keep_frames)
    await spectator.join(room, spectate=True)
    start_v = players[0].views[room].v
    played = await play_to_end(room, players, random.Random(5))
    for c in [*players, spectator]:
        await c.wait_for(room, lambda s: s["result"] is not None)
    return room, players, spectator, (start_v, played)


async def test_a_replay_stepped_to_the_last_version_ends_at_the_spectators_final_view(make_server: Any) -> None:
    srv = await make_server()
    room, players, spectator, (start_v, played) = await _finished_game(srv)
    reader = await srv.client("reader", keep_frames=True)
    first = await reader.replay(room)
    last = first["last"]
    assert first["v"] == 0 and first["seed"] == 11 and first["state"]["public"]["status"] == "waiting"
    states = {}
    for v in range(0, last + 1):
        rep = await reader.replay(room, v)
        assert rep["v"] == v and rep["last"] == last
        states[v] = rep["state"]
        assert rep["state"]["private"] is None and rep["state"]["prompt"] is None
    final = spectator.view(room)
    for key in ("public", "result", "game", "you"):
        assert states[last][key] == final[key], key
    assert states[start_v]["status"] == "playing"
    # no private data of any seat, at any version, in the raw frames
    state = GAME.setup(2, {}, 11)
    by_v = {start_v: state}
    for v, seat, move in sorted(played, key=lambda x: x[0]):
        state = GAME.apply(state, seat, move)
        by_v[v] = state
    assert reader.frames is not None
    checked = 0
    for frame in reader.frames:
        msg = msgpack.unpackb(frame)
        if msg["t"] != "replay" or msg["v"] < start_v:
            continue
        at = max(v for v in by_v if v <= msg["v"])
        forbidden = set(GAME.hidden_tokens(by_v[at]))
        for seat in range(2):
            forbidden |= set(GAME.secret_tokens(by_v[at], seat))
        leaked = strings(msg["state"]) & forbidden
        assert not leaked, f"replay leak at v{msg['v']}: {leaked}"
        checked += 1
    assert checked > 20
    with pytest.raises(ServerError) as err:
        await reader.replay(room, last + 1)
    assert err.value.code == "not_found"


async def test_a_finished_games_replay_outlives_its_room_in_the_archive(make_server: Any, tmp_path: Path) -> None:
    """The live room expires (here: the node stops and the room is deleted from the store); the replay, the
    history and the ratings come from the records database, the replay the same frame for frame. Its players
    are accounts, so that the game is rated (v1.2)."""
    srv = await make_server(records=f"sqlite:///{tmp_path}/records.db")
    room, players, _spectator, _ = await _finished_game(srv, accounts=True)
    reader = await srv.client("reader")
    await _eventually(lambda: reader.history(), bool)
    live = [await reader.replay(room, v) for v in range(0, (await reader.replay(room))["last"] + 1)]
    await srv._stop_app()
    await srv.store.delete_room(room)
    await srv.start()
    assert srv.app is not None and await srv.app.hub.meta_of(room) is None
    late = await srv.client("late")
    archived = [await late.replay(room, v) for v in range(len(live))]
    assert [{k: v for k, v in r.items() if k != "re"} for r in archived] == [
        {k: v for k, v in r.items() if k != "re"} for r in live
    ]
    assert [g["room"] for g in await late.history()] == [room]
    assert {row["player"] for row in await late.ratings("expedition")} == {p.player for p in players}
    with pytest.raises(ServerError) as err:
        await late.replay("nosuchroom")
    assert err.value.code == "not_found"


async def test_an_archived_unlisted_game_is_replayed_to_its_players_only_and_keeps_no_invite(
    make_server: Any, tmp_path: Path
) -> None:
    srv = await make_server(records=f"sqlite:///{tmp_path}/records.db")
    a, b = await srv.client("ann"), await srv.client("bob")
    room = await a.create_room("expedition", 2, options={"seed": 8}, public=False)
    await a.join(room)
    await b.join(room, invite=a.invites[room])
    await play_to_end(room, [a, b], random.Random(8))
    await a.wait_for(room, lambda s: s["result"] is not None)
    await _eventually(lambda: a.history(), bool)
    await srv._stop_app()
    await srv.store.delete_room(room)
    await srv.start()
    assert srv.app is not None
    kept = await srv.app.records.archived(room)
    assert kept is not None and kept["meta"].get("invite") is None and a.invites[room] not in strings(kept)
    ann, eve = await srv.client("ann", token=a.token), await srv.client("eve")
    assert (await ann.replay(room))["seed"] == 8
    with pytest.raises(ServerError) as err:
        await eve.replay(room)
    assert err.value.code == "forbidden"


async def test_a_records_database_that_never_answers_delays_no_move(make_server: Any) -> None:
    """The records database accepts connections and never answers (a stalled PostgreSQL): the game plays to
    its end at the usual pace, the last move included (its archive is written in the background); the
    records requests and room chat answer `unavailable`."""
    stalled: list[asyncio.StreamWriter] = []

    async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        stalled.append(writer)  # accepted, never answered

    listener = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    try:
        srv = await make_server(records=f"postgresql://marcopolo@127.0.0.1:{port}/records", records_timeout=1.0)
        room, players = await _two_player_game(srv)
        slowest = 0.0
        loop = asyncio.get_running_loop()
        rng = random.Random(4)
        for _ in range(5000):
            views = [p.view(room) for p in players]
            if any(v.get("result") for v in views):
                break
            mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
            if mover is None:
                await asyncio.sleep(0.005)
                continue
            started = loop.time()
            try:
                await mover.move(room, rng.choice(mover.view(room)["prompt"]["options"]))
            except ServerError as err:
                assert err.code in ("not_your_turn", "illegal_move", "stale"), err
                await asyncio.sleep(0.005)
                continue
            slowest = max(slowest, loop.time() - started)
        assert any(p.view(room).get("result") for p in players), "the game did not end"
        assert slowest < 2.0, f"a move waited {slowest:.2f} s on the records database"
        for ask in (lambda: players[0].history(), lambda: players[0].ratings("expedition"),
                    lambda: players[0].chat_log(room), lambda: players[0].chat("gg", room=room)):  # fmt: skip
            with pytest.raises(ServerError) as err:
                await ask()
            assert err.value.code == "unavailable"
    finally:
        for writer in stalled:
            writer.close()
        listener.close()


async def test_a_replay_of_a_running_game_is_refused(make_server: Any) -> None:
    srv = await make_server()
    room, (a, _b) = await _two_player_game(srv)
    with pytest.raises(ServerError) as err:
        await a.replay(room)
    assert err.value.code == "forbidden"


async def test_ratings_move_the_right_way_and_history_lists_the_game(make_server: Any) -> None:
    """A public game of two accounts who made their own moves is rated (v1.2): both get a row, the winner's
    above the loser's (both are provisional after one game, so shown at 0 or above)."""
    srv = await make_server()
    room, players, _spectator, _ = await _finished_game(srv, accounts=True)
    result = players[0].view(room)["result"]
    winner = result["winners"][0]
    loser = 1 - winner
    board = await _eventually(lambda: players[0].ratings("expedition"), lambda r: len(r) == 2)
    by_player = {row["player"]: row for row in board}
    win_row, lose_row = by_player[players[winner].player], by_player[players[loser].player]
    assert set(by_player) == {p.player for p in players}
    if len(result["winners"]) == 1:
        assert win_row["rating"] > lose_row["rating"]
        assert board[0]["player"] == players[winner].player  # best first
    assert win_row["games"] == lose_row["games"] == 1
    assert all(row["rating"] >= 0 for row in board)  # provisional (fewer than 5 rated games): never below 0
    history = await _eventually(lambda: players[0].history(game="expedition"), bool)
    assert history[0]["room"] == room and history[0]["result"] == result
    assert history[0]["players"] == ["ann", "bob"]
    mine = await players[1].history(player=players[1].player)
    assert [g["room"] for g in mine] == [room]
    assert await players[1].history(player="pnobody") == []


async def test_a_guest_is_marked_wherever_its_name_is_shown(make_server: Any) -> None:
    """v1.2: a guest is marked as one in the lobby's room list, on chat lines (room and lobby, pushed and in the
    chat log) and in the history of the finished game; an account is marked as not a guest, a bot and a free
    seat as neither."""
    srv = await make_server(bot_delay=0.0)
    ann = await srv.client("ann", account=True)
    gus = await srv.client("gus")  # a guest
    room = await ann.create_room("expedition", 2, options={"seed": 3})
    await ann.join(room)

    async def listed(r: str) -> dict[str, Any]:
        return next(x for x in (await gus.request("list_rooms"))["rooms"] if x["room"] == r)

    assert (await listed(room))["guests"] == [False, None]
    with_bot = await gus.create_room("expedition", 2, bots=1)
    await gus.join(with_bot)
    assert (await listed(with_bot))["guests"] in ([True, None], [None, True])
    await gus.join(room)
    assert (await listed(room))["guests"] == [False, True]
    await ann.chat("hi from an account", room=room)
    await gus.chat("hi from a guest", room=room)
    line = await ann.wait_chat(lambda x: x["text"] == "hi from a guest")
    assert line["guest"] is True and line["room"] == room
    assert (await gus.wait_chat(lambda x: x["text"] == "hi from an account"))["guest"] is False
    await gus.chat("a guest in the lobby")
    logged = {x["text"]: x["guest"] for x in await ann.chat_log(None)} | {
        x["text"]: x["guest"] for x in await ann.chat_log(room)
    }
    assert logged == {"a guest in the lobby": True, "hi from an account": False, "hi from a guest": True}
    for c in (ann, gus):
        await c.wait_for(room, lambda s: s["status"] == "playing")
    assert [s.get("guest") for s in ann.view(room)["seats"]] == [False, True]
    await play_to_end(room, [ann, gus], random.Random(3))
    history = await _eventually(lambda: gus.history(), lambda h: room in [g["room"] for g in h])
    assert next(g for g in history if g["room"] == room)["guests"] == [False, True]
    page = await ann.request("player", player=gus.player)
    assert next(g for g in page["games"] if g["room"] == room)["guests"] == [False, True]


async def test_server_bots_are_rated_too(make_server: Any) -> None:
    """An account's public game against a server bot, every move of the account's seat its own: both are rated,
    the bot under the one identity `bot`."""
    srv = await make_server()
    ann = await srv.client("ann", account=True)
    room = await ann.create_room("expedition", 2, options={"seed": 3}, bots=1)
    await ann.join(room)
    await ann.wait_for(room, lambda s: s["status"] == "playing")
    rng = random.Random(3)
    for _ in range(3000):  # play ann's prompts; the bot plays its own
        await ann.wait_for(room, lambda s: s["result"] is not None or bool(s["prompt"]), timeout=10)
        view = ann.view(room)
        if view["result"] is not None:
            break
        with contextlib.suppress(ServerError):  # a prompt the bot's move made stale
            await ann.move(room, rng.choice(view["prompt"]["options"]))
    assert ann.view(room)["result"] is not None
    rows = await _eventually(lambda: ann.ratings("expedition"), lambda r: len(r) == 2)
    board = {row["player"]: row for row in rows}
    assert set(board) == {ann.player, "bot"}
    assert board["bot"]["games"] == 1 and board["bot"]["name"] == "Bot"
    winners = ann.view(room)["result"]["winners"]
    if winners == [1]:
        assert board["bot"]["rating"] > board[ann.player]["rating"]
    elif winners == [0]:
        assert board[ann.player]["rating"] > board["bot"]["rating"]
    with pytest.raises(ServerError) as err:
        await ann.ratings("no_such_game")
    assert err.value.code == "not_found"


async def test_farmed_games_move_no_rating_and_only_an_all_account_public_game_played_by_its_players_does(
    make_server: Any,
) -> None:
    """Rating farming (v1.2): an account's games in unlisted rooms against a guest (its own second tab) or
    another account, its public game against a guest, and its public game against a server bot in which
    autoplay made every move of its seat change no rating row of any player (the last rates the bot only).
    Then two accounts' public game, each playing its own moves, is rated: both get a row."""
    srv = await make_server(bot_delay=0.0)
    farmer = await srv.client("farmer", account=True)
    rival = await srv.client("rival", account=True)
    alt = await srv.client("alt")  # a guest
    assert await farmer.ratings("expedition") == []

    async def play_out(room: str, players: list[Client], seed: int) -> None:
        for c in players:
            await c.wait_for(room, lambda s: s["status"] == "playing")
        await play_to_end(room, players, random.Random(seed))
        for c in players:
            await c.wait_for(room, lambda s: s["result"] is not None)
        # the game is archived (listed in its players' history), so its rating step, if any, is done
        await _eventually(lambda: farmer.history(), lambda h: room in [g["room"] for g in h])
        assert room in [g["room"] for g in await farmer.history()]

    # (a) three games in unlisted rooms against a guest: the leaderboard stays empty
    for seed in (1, 2, 3):
        room = await farmer.create_room("expedition", 2, options={"seed": seed}, public=False)
        await farmer.join(room)
        await alt.join(room, invite=farmer.invites[room])
        await play_out(room, [farmer, alt], seed)
        assert await farmer.ratings("expedition") == [], f"unlisted game {seed} was rated"
    # ... and one against another account: still unlisted, still unrated
    room = await farmer.create_room("expedition", 2, options={"seed": 7}, public=False)
    await farmer.join(room)
    await rival.join(room, invite=farmer.invites[room])
    await play_out(room, [farmer, rival], 7)
    assert await farmer.ratings("expedition") == [], "an unlisted game of two accounts was rated"
    # (b) a public game against a guest: no row appears
    room = await farmer.create_room("expedition", 2, options={"seed": 4})
    await farmer.join(room)
    await alt.join(room)
    seats = farmer.view(room)["seats"]
    assert [seat.get("guest") for seat in seats] == [False, True]  # the guest's seat says so
    await play_out(room, [farmer, alt], 4)
    assert await farmer.ratings("expedition") == [], "a public game with a guest was rated"
    # (c) a public game against a server bot, the account's seat on autoplay from its first move to the end:
    # the game is rated (the bot's row), the account's own row is not made (none of its seat's moves was its own)
    room = await farmer.create_room("expedition", 2, options={"seed": 5}, bots=1)
    await farmer.join(room)
    await farmer.wait_for(room, lambda s: s["status"] == "playing")
    me = farmer.view(room)["you"]
    await farmer.autoplay(room, "easy")
    await farmer.wait_for(room, lambda s: s["result"] is not None, timeout=60)
    assert farmer.view(room)["seats"][me].get("autoplay") == "random"  # never taken back by a move of its own
    await _eventually(lambda: farmer.history(), lambda h: room in [g["room"] for g in h])
    rows = await _eventually(lambda: farmer.ratings("expedition"), bool)
    assert [(row["player"], row["games"]) for row in rows] == [("bot", 1)], rows
    # (d) two accounts' public game, each playing its own moves: both are rated
    room = await farmer.create_room("expedition", 2, options={"seed": 6})
    await farmer.join(room)
    await rival.join(room)
    assert [seat.get("guest") for seat in farmer.view(room)["seats"]] == [False, False]
    await play_out(room, [farmer, rival], 6)
    rows = await _eventually(lambda: farmer.ratings("expedition"), lambda r: len(r) == 3)
    board = {row["player"]: row for row in rows}
    assert set(board) == {"bot", farmer.player, rival.player}
    assert board[farmer.player]["games"] == board[rival.player]["games"] == board["bot"]["games"] == 1
    result = farmer.view(room)["result"]
    if len(result["winners"]) == 1:
        winner = [farmer, rival][result["winners"][0]]
        loser = rival if winner is farmer else farmer
        assert board[winner.player]["rating"] > board[loser.player]["rating"]


async def test_a_rematch_opens_one_new_room_with_the_same_game_and_seats(make_server: Any) -> None:
    srv = await make_server()
    room, (a, b), spectator, _ = await _finished_game(srv)
    new = await a.rematch(room)
    push = seen = None
    for _ in range(100):
        push = next((x for x in b.pushes if x.get("t") == "rematch"), None)
        seen = next((x for x in spectator.pushes if x.get("t") == "rematch"), None)
        if push and seen:
            break
        await asyncio.sleep(0.02)
    assert push is not None and push["new"] == new and push["invite"]  # the players get the unlisted room's invite
    assert seen is not None and seen["new"] == new and seen["invite"] is None  # a spectator does not
    with pytest.raises(ServerError) as err:
        await spectator.join(new, spectate=True)
    assert err.value.code == "forbidden"
    assert await b.rematch(room) == new  # the second asks for the same room
    await a.join(new)
    await b.join(new)
    await b.wait_for(new, lambda s: s["status"] == "playing")
    w = await srv.client("stranger")
    with pytest.raises(ServerError) as err:
        await w.rematch(room)
    assert err.value.code == "forbidden"


async def test_a_finished_game_re_run_from_its_revealed_seed_is_found_fair(make_server: Any) -> None:
    from clients.replay_check import check, fetch

    srv = await make_server()
    room, _players, _spectator, _ = await _finished_game(srv)
    assert srv.app is not None
    data = await fetch(f"ws://127.0.0.1:{srv.app.port}/ws", room)
    assert data["seed"] == 11 and data["seats"] == 2 and len(data["views"]) == data["last"] + 1
    verdict = check(data["game"], data["seats"], data["options"], data["seed"], data["views"])
    assert verdict.fair, verdict.why
    # another seed deals another game: the check fails at the start
    other = check(data["game"], data["seats"], data["options"], data["seed"] + 1, data["views"])
    assert not other.fair and "start" in other.why
    # a public view no legal move explains (here: the result's scores changed) is caught
    tampered = [dict(v) for v in data["views"]]
    tampered[-1] = {**tampered[-1], "result": {**tampered[-1]["result"], "scores": [999, -999]}}
    bad = check(data["game"], data["seats"], data["options"], data["seed"], tampered)
    assert not bad.fair and f"v{data['last']}" in bad.why


async def test_an_unlisted_rooms_chat_and_replay_stay_with_its_players(make_server: Any) -> None:
    srv = await make_server()
    a, b = await srv.client("ann"), await srv.client("bob")
    room = await a.create_room("expedition", 2, options={"seed": 8}, public=False)
    await a.join(room)
    await a.chat("our secret plan", room=room)
    outsider = await srv.client("eve", keep_frames=True)
    with pytest.raises(ServerError) as err:
        await outsider.chat_log(room)
    assert err.value.code == "forbidden"
    assert [x["text"] for x in await a.chat_log(room)] == ["our secret plan"]
    await b.join(room, invite=a.invites[room])  # ann shared the room's invite with bob
    await play_to_end(room, [a, b], random.Random(8))
    await a.wait_for(room, lambda s: s["result"] is not None)
    with pytest.raises(ServerError) as err:
        await outsider.replay(room)
    assert err.value.code == "forbidden"
    assert (await b.replay(room))["seed"] == 8
    assert outsider.frames is not None
    assert not any(b"our secret plan" in f for f in outsider.frames)
    # its game is in its players' history only
    assert room in [g["room"] for g in await _eventually(lambda: a.history(), bool)]
    assert room not in [g["room"] for g in await outsider.history()]
    assert room not in [g["room"] for g in await outsider.history(player=a.player)]


async def test_every_frame_of_the_v1_1_requests_is_a_valid_server_message(make_server: Any) -> None:
    from protocol import decode_server

    srv = await make_server(close_waiting_after=10)
    room, (a, b) = await _two_player_game(srv, keep_frames=True, turn_seconds=10)
    await a.chat("hi", room=room)
    await a.chat("lobby hi")
    await a.request("watch_lobby")
    await b.chat("to the lobby")
    await a.wait_chat(lambda x: x["text"] == "to the lobby")
    await a.chat_log(room)
    await a.chat_log()
    await play_to_end(room, [a, b], random.Random(2))
    await a.wait_for(room, lambda s: s["result"] is not None)
    await _eventually(lambda: a.history(), bool)
    await a.ratings("expedition")
    await a.replay(room, 3)
    new = await a.rematch(room)
    await a.join(new)
    await a.host(new, "add_bot")
    c = await srv.client("cy", keep_frames=True)
    waiting = await c.create_room("expedition", 3)
    await c.join(waiting, spectate=True)
    await c.wait_for(waiting, lambda s: s.get("closed") is not None, timeout=5)
    await asyncio.sleep(0.1)
    kinds: set[str] = set()
    for client in (a, b, c):
        assert client.frames is not None
        for frame in client.frames:
            msg = decode_server(frame)  # raises on anything the contract's models refuse
            kinds.add(msg.t)
    assert {"chat", "chat_log", "history", "ratings", "replay", "rematch", "host", "closed", "ok"} <= kinds


class _StuckStore(MemoryStore):
    """A store whose room creation never answers (a quick match waits inside its critical section)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = asyncio.Event()

    async def create_room(self, meta: dict[str, Any]) -> None:
        self.entered.set()
        await asyncio.Event().wait()


def test_a_quick_match_stuck_on_another_servers_event_loop_does_not_break_this_ones() -> None:
    """Quick matches are serialised per node: a match stuck in another server (here on an event loop that is
    not running while it waits) does not hold or poison the next server's (it did when the lock was global)."""
    first = asyncio.new_event_loop()
    stuck = _StuckStore()

    async def start_stuck_match() -> tuple[App, Client]:
        app = await start_app(stuck)
        c = Client(f"ws://127.0.0.1:{app.port}/ws")
        await c.connect()
        await c.hello("ann", None)
        asyncio.ensure_future(c.quick_match("expedition", 2))
        await asyncio.wait_for(stuck.entered.wait(), 10)
        return app, c

    async def stop(app: App, c: Client) -> None:
        rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in rest:  # the stuck match first: a server waits for its connections' handlers when it stops
            t.cancel()
        await asyncio.gather(*rest, return_exceptions=True)
        await c.close()
        await asyncio.wait_for(app.stop(), 10)

    try:
        app, c = first.run_until_complete(start_stuck_match())

        async def match_on_a_new_server() -> None:
            app = await start_app(MemoryStore())
            clients = [Client(f"ws://127.0.0.1:{app.port}/ws") for _ in range(2)]
            try:
                for c, name in zip(clients, ("bob", "cy"), strict=True):
                    await c.connect()
                    await c.hello(name, None)
                (room_a, _), (room_b, _) = [await asyncio.wait_for(c.quick_match("expedition", 2), 10) for c in clients]
                assert room_a == room_b
            finally:
                for c in clients:
                    await c.close()
                await app.stop()

        asyncio.run(match_on_a_new_server())
        first.run_until_complete(stop(app, c))
    finally:
        first.close()


async def test_a_leaderboard_page_shows_ranks_the_askers_own_row_and_a_player_page(make_server: Any) -> None:
    srv = await make_server()
    room, players, _spectator, _ = await _finished_game(srv, accounts=True)
    ann, bob = players
    await _eventually(lambda: ann.request("ratings", game="expedition"), lambda a: len(a["players"]) == 2)
    board = await ann.request("ratings", game="expedition")
    assert [r["rank"] for r in board["players"]] == [1, 2] and board["offset"] == 0
    assert all(r["provisional"] is True and r["rating"] >= 0 for r in board["players"])  # one rated game each
    assert board["me"]["player"] == ann.player and board["me"]["rank"] in (1, 2)
    second = await ann.request("ratings", game="expedition", offset=1, limit=1)
    assert [r["player"] for r in second["players"]] == [board["players"][1]["player"]]
    assert second["players"][0]["rank"] == 2 and second["offset"] == 1
    guest = await srv.client("guest")
    assert "me" not in await guest.request("ratings", game="expedition")  # nobody rated by that name
    page = await guest.request("player", player=bob.player)
    assert page["account"] is True and page["name"] == "bob"
    assert [(r["game"], r["games"], r["provisional"]) for r in page["ratings"]] == [("expedition", 1, True)]
    [game] = page["games"]
    assert game["room"] == room and game["rating"] == page["ratings"][0]["rating"]
    nobody = await guest.request("player", player="p0000000000000000")
    assert nobody["account"] is False and nobody["ratings"] == [] and nobody["games"] == []
