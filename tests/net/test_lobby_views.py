"""What the lobby and a room show of their players (additions to v1.1) over real sockets: each seat's public
rating in the room view and the lobby listing, no token or session id in any view or lobby frame, and the
whole public log (`game_log`) for a viewer who joins mid-game or comes back, also after a restart.

Memory store and the real Redis at 6379 (the `make_server` fixture of test_lobby.py).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest

from clients.client import Client, ServerError
from server.node.hub import token_key
from tests.util import strings

from .test_lobby import GAME, Server, _eventually, _finished_game, _two_player_game
from .test_lobby import make_server as make_server  # the fixture, for this module's tests

# ---- helpers ----------------------------------------------------------------------------------


async def _play_some(room: str, players: list[Client], rng: random.Random, moves: int) -> None:
    """Play `moves` random legal moves (fewer if the game ends), each acknowledged."""
    done = 0
    for _ in range(moves * 20):
        if done >= moves:
            return
        views = [p.view(room) for p in players]
        if any(v.get("result") for v in views):
            return
        mover = next((p for p, v in zip(players, views, strict=True) if v.get("prompt")), None)
        if mover is None:
            await asyncio.sleep(0.005)
            continue
        view = mover.view(room)
        try:
            await mover.move(room, rng.choice(view["prompt"]["options"]), v=mover.views[room].v)
            done += 1
        except ServerError as err:
            assert err.code in ("not_your_turn", "illegal_move", "stale"), err
            await asyncio.sleep(0.005)


async def game_under_way(
    url: str, names: tuple[str, str], seed: int, moves: int = 0, accounts: bool = False
) -> tuple[str, Client, Client]:
    """Two connected clients seated in a new 2-seat Expedition (seeded) that has started; `moves` played.
    With `accounts`, the two sign up (v1.2: only games of accounts are rated) instead of saying hello."""
    a, b = Client(url), Client(url)
    for c, name in zip((a, b), names, strict=True):
        await c.connect()
        if accounts:
            await c.sign_up(name, "correct horse battery")
        else:
            await c.hello(name)
    room = await a.create_room("expedition", 2, options={"seed": seed})
    await a.join(room)
    await b.join(room)
    await a.wait_for(room, lambda s: s["status"] == "playing")
    await b.wait_for(room, lambda s: s["status"] == "playing")
    if moves:
        await _play_some(room, [a, b], random.Random(seed), moves)
    return room, a, b


async def _caught_up(room: str, clients: list[Client]) -> None:
    """Wait until every client holds the same version of the room."""
    for _ in range(400):
        if len({c.views[room].v for c in clients}) == 1:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the clients did not catch up")


def _gather(client: Client, room: str) -> dict[int, dict[str, Any]]:
    """Every public log event `client` is shown in `room` from now on, by its running number (a witness)."""
    seen: dict[int, dict[str, Any]] = {}

    def on_update(r: str) -> None:
        if r == room:
            for ev in client.view(room)["public"].get("log") or []:
                seen.setdefault(ev["n"], ev)

    client.on_update = on_update
    on_update(room)
    return seen


def _forbidden_now(srv: Server, room: str, seats: list[int]) -> set[str]:
    """The strings of `seats`' secrets and of the hidden parts of the room's current state."""
    assert srv.app is not None
    state = srv.app.hub.rooms[room].state
    assert state is not None
    out = set(GAME.hidden_tokens(state))
    for seat in seats:
        out |= set(GAME.secret_tokens(state, seat))
    return out


def _frames(client: Client, t: str) -> list[dict[str, Any]]:
    assert client.frames is not None
    return [msg for msg in (msgpack.unpackb(f) for f in client.frames) if msg["t"] == t]


# ---- ratings in the room and the lobby ----------------------------------------------------------


async def test_two_rated_players_see_each_others_ratings_in_the_room_and_the_lobby(make_server: Any) -> None:
    """ann and bob are accounts (v1.2: only accounts are rated) whose public game made their rows; cy is a guest
    (never rated): no rating beside her seat."""
    srv = await make_server()
    first, (ann, bob), _spectator, _ = await _finished_game(srv, accounts=True)
    board = await _eventually(lambda: ann.ratings("expedition"), lambda r: len(r) == 2)
    rating = {row["player"]: row["rating"] for row in board}
    assert set(rating) == {ann.player, bob.player} and all(row["games"] == 1 for row in board)
    winners = ann.view(first)["result"]["winners"]
    if len(winners) == 1:  # the winner's row went up past the loser's (provisional: shown at 0 or above)
        won, lost = (ann, bob) if winners == [0] else (bob, ann)
        assert rating[won.player] > rating[lost.player] >= 0
    cy = await srv.client("cy")  # a guest who never played: no rating
    room = await bob.create_room("expedition", 4, options={"seed": 4}, bots=1)
    await ann.join(room)
    await bob.join(room)
    await cy.join(room)
    await ann.wait_for(room, lambda s: all(seat["taken"] for seat in s["seats"]))
    await bob.wait_for(room, lambda s: all(seat["taken"] for seat in s["seats"]))
    bot_rows = await ann.ratings("expedition")
    assert "bot" not in {row["player"] for row in bot_rows}  # the first game had no bot
    want = [rating[ann.player], rating[bob.player], None, None]
    for client in (ann, bob, cy):
        assert [seat["rating"] for seat in client.view(room)["seats"]] == want
        assert [seat.get("guest") for seat in client.view(room)["seats"]] == [False, False, True, None]
    listed = next(r for r in (await ann.request("list_rooms"))["rooms"] if r["room"] == room)
    assert listed["ratings"] == want and listed["players"] == ["ann", "bob", "cy", "Bot 1"]
    # a seat freed before the start loses its rating; a player seated again shows it again
    waiting = await ann.create_room("expedition", 3)
    await bob.join(waiting)
    await ann.join(waiting)
    await ann.wait_for(waiting, lambda s: s["seats"][1]["rating"] == rating[ann.player])
    assert ann.view(waiting)["seats"][0]["rating"] == rating[bob.player]
    await bob.request("leave", room=waiting)
    await ann.wait_for(waiting, lambda s: not s["seats"][0]["taken"])
    assert [seat["rating"] for seat in ann.view(waiting)["seats"]] == [None, rating[ann.player], None]


async def test_a_bots_rating_shows_beside_its_seat_once_bots_are_rated(make_server: Any) -> None:
    """ann, an account, plays a public game against a server bot, every move of her seat her own: both are rated
    (the bot as `bot`), and the bot's rating shows beside a bot seat of her next room."""
    srv = await make_server()
    ann = await srv.client("ann", account=True)
    first = await ann.create_room("expedition", 2, options={"seed": 3}, bots=1)
    await ann.join(first)
    rng = random.Random(3)
    for _ in range(3000):
        await ann.wait_for(first, lambda s: s["result"] is not None or bool(s["prompt"]), timeout=10)
        if ann.view(first)["result"] is not None:
            break
        try:
            await ann.move(first, rng.choice(ann.view(first)["prompt"]["options"]))
        except ServerError as err:
            assert err.code in ("not_your_turn", "illegal_move", "stale"), err
    rows = await _eventually(lambda: ann.ratings("expedition"), lambda r: len(r) == 2)
    rating = {row["player"]: row["rating"] for row in rows}
    assert set(rating) == {ann.player, "bot"} and all(row["games"] == 1 for row in rows)
    room = await ann.create_room("expedition", 3)
    await ann.join(room)
    await ann.host(room, "add_bot", seat=2)
    await ann.wait_for(room, lambda s: s["seats"][2]["taken"])
    assert [seat["rating"] for seat in ann.view(room)["seats"]] == [rating[ann.player], None, rating["bot"]]


# ---- no secret of a connection in what others see ------------------------------------------------


async def test_no_token_or_session_id_in_any_view_or_lobby_frame(make_server: Any) -> None:
    srv = await make_server()
    room, (ann, bob) = await _two_player_game(srv, keep_frames=True)
    watcher = await srv.client("watcher", keep_frames=True)
    await watcher.request("watch_lobby")
    await watcher.join(room, spectate=True)
    await _play_some(room, [ann, bob], random.Random(8), 30)
    await watcher.game_log(room)
    waiting = await bob.create_room("expedition", 3, bots=1)
    await bob.join(waiting)
    await ann.join(waiting)
    await asyncio.sleep(0.2)  # the coalesced lobby pushes
    secrets = set()
    for c in (ann, bob, watcher):
        assert c.token is not None
        secrets |= {c.token, token_key(c.token)}
    checked: set[str] = set()
    for c in (ann, bob, watcher):
        assert c.frames is not None
        for frame in c.frames:
            msg = msgpack.unpackb(frame)
            if msg["t"] == "welcome":  # the connection's own token, to itself
                continue
            checked.add(msg["t"])
            assert not any(s.encode() in frame for s in secrets), msg["t"]
            assert not strings(msg) & secrets, msg["t"]
    assert {"snapshot", "patch", "rooms", "lobby", "game_log"} <= checked


# ---- the whole public log for a viewer who joins mid-game ----------------------------------------


async def test_a_spectator_joining_mid_game_gets_the_whole_public_log_and_no_secret(make_server: Any) -> None:
    srv = await make_server()
    room, (ann, bob) = await _two_player_game(srv)
    seen = _gather(ann, room)
    await _play_some(room, [ann, bob], random.Random(21), 70)
    late = await srv.client("late", keep_frames=True)
    await late.join(room, spectate=True)
    shown = late.view(room)["public"]["log"]
    assert len(seen) > len(shown) and shown[0]["n"] > 1  # the view alone would start mid-game
    events = await late.game_log(room)
    await _caught_up(room, [ann, late])
    assert [ev["n"] for ev in events] == list(range(1, len(events) + 1))
    assert events == [seen[n] for n in sorted(seen)][: len(events)] and len(events) == len(seen)
    # no secret of either seat and nothing hidden, in the raw frame
    forbidden = _forbidden_now(srv, room, [0, 1])
    (frame,) = _frames(late, "game_log")
    assert frame["room"] == room and frame["v"] == late.views[room].v
    assert not strings(frame) & forbidden
    # the game goes on: the log grows by the new events only
    await _play_some(room, [ann, bob], random.Random(22), 5)
    await _caught_up(room, [ann, bob, late])
    again = await late.game_log(room)
    assert again[: len(events)] == events and [ev["n"] for ev in again] == list(range(1, len(again) + 1))
    # a connection that does not view the room is refused
    outsider = await srv.client("outsider")
    with pytest.raises(ServerError) as err:
        await outsider.game_log(room)
    assert err.value.code == "forbidden"


async def test_a_player_who_comes_back_gets_the_whole_log_also_after_a_restart(make_server: Any) -> None:
    srv = await make_server()
    room, (ann, bob) = await _two_player_game(srv)
    seen = _gather(ann, room)
    await _play_some(room, [ann, bob], random.Random(5), 60)
    await _caught_up(room, [ann, bob])
    expected = [seen[n] for n in sorted(seen)]
    # bob reconnects (a new connection with his token) and re-attaches to his seat
    await bob.close()
    back = await srv.client("bob", keep_frames=True, token=bob.token)
    await back.join(room)
    assert back.view(room)["you"] == 1
    got = await back.game_log(room)
    assert got == expected[: len(got)] and len(got) == len(expected) > 30
    (frame,) = _frames(back, "game_log")
    assert not strings(frame) & _forbidden_now(srv, room, [0])  # ann's secrets stay hers
    # the server restarts: the room is loaded from its snapshot; the whole log is re-run from the stored one
    await srv.restart()
    ann2 = await srv.client("ann", keep_frames=True, token=ann.token)
    await ann2.join(room)
    rebuilt = await ann2.game_log(room)
    assert rebuilt == expected[: len(rebuilt)] and len(rebuilt) == len(expected)
    (frame,) = _frames(ann2, "game_log")
    assert not strings(frame) & _forbidden_now(srv, room, [1])


async def test_a_room_whose_early_log_was_trimmed_gives_what_it_has_and_reads_the_store_once(make_server: Any) -> None:
    """With the log trimmed at snapshots (`keep_log` off), a restarted room cannot re-run the game: its whole
    log starts with the events its view still has, and asking again does not read the stored log again."""
    srv = await make_server(snapshot_every=8)
    srv.store.trim_log = True  # type: ignore[attr-defined]
    room, (ann, bob) = await _two_player_game(srv)
    await _play_some(room, [ann, bob], random.Random(7), 40)
    await _caught_up(room, [ann, bob])
    await srv.restart()
    reads = 0
    real_full_log = srv.store.full_log  # type: ignore[attr-defined]

    async def counted(room_id: str) -> list[dict[str, Any]]:
        nonlocal reads
        reads += 1
        return await real_full_log(room_id)  # type: ignore[no-any-return]

    srv.store.full_log = counted  # type: ignore[attr-defined]
    ann2 = await srv.client("ann", token=ann.token)
    await ann2.join(room)
    first = await ann2.game_log(room)
    shown = ann2.view(room)["public"]["log"]
    assert first == shown and len(first) > 0
    assert await ann2.game_log(room) == first
    assert reads == 1
