"""One or more instances of every message type, used by the round-trip tests."""

from __future__ import annotations

from pydantic import BaseModel

from protocol import messages as m

ROOM = m.RoomInfo(room="r1", game="expedition", seats=3, players=["ann", None, "bob"], status="waiting", public=True)
VIEW: m.View = {
    "game": "expedition",
    "you": 1,
    "public": {"status": "playing", "seats": [{"name": "ann"}, {"name": "bob"}], "round": 2},
    "private": {"hand": ["c1", "c2"]},
    "prompt": {"text": "Choose an action space", "options": [{"act": "market", "dice": [3]}, {"act": "pass"}]},
    "result": None,
}
WAITING_VIEW: m.View = {
    "game": "expedition",
    "you": None,
    "public": {"status": "waiting", "seats": [None, "bob"]},
    "private": None,
    "prompt": None,
    "result": None,
}

CLIENT_SAMPLES: list[BaseModel] = [
    m.Hello(name="ann"),
    m.Hello(id=1, name="Ann Lee", token="tok-123"),
    m.ListRooms(),
    m.ListRooms(id=2, game="expedition"),
    m.WatchLobby(id=3),
    m.WatchLobby(),
    m.UnwatchLobby(id=4),
    m.Create(game="expedition", seats=2),
    m.Create(id=5, game="expedition", seats=4, options={"variant": "2p", "seed": 7}, public=False),
    m.Join(room="r1"),
    m.Join(id=6, room="r1", seat=7),
    m.Join(id=7, room="r1", spectate=True),
    m.Move(id=8, room="r1", move={"act": "market", "dice": [3, 4], "undo": False, "note": None}),
    m.Move(room="r1", move={}),
    m.Sync(id=9, room="r1"),
    m.Leave(id=10, room="r1"),
    m.Ping(id=-1),
    m.Ping(id=2**64 - 1),
    m.Ping(),
    # v1.1: public lobbies
    m.QuickMatch(id=20, game="classic", seats=3),
    m.QuickMatch(game="classic", seats=2, options={"x": 1}, turn_seconds=10, fill_bots_after=60),
    m.Create(game="classic", seats=3, turn_seconds=86400, fill_bots_after=1, max_expiries=3),
    m.ChatSend(id=21, room="r1", text="<script>x</script>"),
    m.ChatSend(text="a" * 500),
    m.ChatLog(id=22),
    m.ChatLog(room="r1"),
    m.HistoryRequest(),
    m.HistoryRequest(id=23, game="classic", player="p1"),
    m.ReplayRequest(room="r1"),
    m.ReplayRequest(id=24, room="r1", v=0),
    m.RatingsRequest(game="khan"),
    m.Rematch(id=25, room="r1"),
    m.Host(room="r1", action="kick", seat=1),
    m.Host(id=26, room="r1", action="options", options={"x": 1}),
    m.Host(room="r1", action="start"),
    m.GameLogRequest(id=27, room="r1"),
    m.Autoplay(id=28, room="r1", level="hard"),
    m.Autoplay(id=29, room="r1"),
]

SERVER_SAMPLES: list[BaseModel] = [
    m.Welcome(re=1, player="p-1", token="tok-123", rooms=[m.HeldSeat(room="r1", game="expedition", seat=0)]),
    m.Welcome(player="p-1", token="tok-123", rooms=[]),
    m.Rooms(re=2, rooms=[ROOM]),
    m.Rooms(rooms=[]),
    m.Lobby(rooms=[ROOM, ROOM.model_copy(update={"room": "r2", "status": "playing", "public": False})]),
    m.Created(re=5, room="r1"),
    m.Joined(re=6, room="r1", seat=1),
    m.Joined(re=7, room="r1", seat=None),
    m.Joined(room="r1", seat=None),
    m.Snapshot(room="r1", v=0, state=WAITING_VIEW),
    m.Snapshot(re=9, room="r1", v=12, state=VIEW),
    m.Snapshot(room="r1", v=3, state={**VIEW, "result": {"scores": [3, 5], "winners": [1]}, "log": ["x"]}),
    m.Patch(room="r1", base=12, v=13, ops=[]),
    m.Patch(
        room="r1",
        base=0,
        v=1,
        ops=[
            {"op": "add", "path": "/public/seats/0", "value": "ann"},
            {"op": "remove", "path": "/public/round"},
            {"op": "replace", "path": "", "value": None},
            {"op": "move", "from": "/a~1b", "path": "/c~0d"},
            {"op": "copy", "from": "/a", "path": "/b/-"},
            {"op": "test", "path": "/a", "value": [1, {"x": True}]},
        ],
    ),
    m.Ok(re=8, v=13),
    m.Ok(v=0),
    m.Left(re=10, room="r1"),
    m.Error(re=8, code="not_your_turn", message="seat 1 may not move now"),
    m.Error(code="bad_message", message="the frame is not one msgpack value"),
    m.Pong(re=-1),
    m.Pong(),
    # v1.1: public lobbies
    m.Ok(re=30),
    m.Chat(room="r1", sender="p1", name="ann", text="<b>hi</b>", at=1700000000000),
    m.Chat(room=None, sender="p1", name="ann", text="anyone?", at=0),
    m.ChatLogAnswer(re=31, room=None, messages=[m.ChatLine(room=None, sender="p1", name="ann", text="x", at=1)]),
    m.History(re=32, games=[m.GameRecord(room="r1", game="classic", seats=2, players=["ann", None],
                                         result={"scores": [3, 5], "winners": [1]}, finished_at=1)]),
    m.Replay(re=33, room="r1", v=0, last=40, seed=7, state=WAITING_VIEW),
    m.Ratings(re=34, game="classic", players=[m.Rated(player="p1", name="ann", rating=-120, games=3)]),
    m.RematchOpened(re=35, room="r1", new="r2"),
    m.RematchOpened(room="r1", new="r2"),
    m.HostDone(re=36, room="r1", v=4),
    m.Closed(room="r1", reason="abandoned"),
    m.GameLog(re=37, room="r1", v=9, events=[{"n": 1, "kind": "roll", "seat": 0}]),
    m.AutoplayDone(re=38, room="r1", v=10),
    m.Rooms(rooms=[ROOM.model_copy(update={"ratings": [1250, None, -30]})]),
]
