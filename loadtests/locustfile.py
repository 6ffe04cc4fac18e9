"""Locust load test: players of every game over the real wire contract (msgpack over WebSocket).

Run against a running server (for instance `python -m server --rate 1000 --burst 2000 --max-conns-per-addr 0`),
or let `python -m loadtests.run_locust` (`make loadtest`) start one and keep the CSVs:

    locust -f loadtests/locustfile.py --host ws://127.0.0.1:8765/ws
    locust -f loadtests/locustfile.py --host ws://127.0.0.1:8765/ws --headless -u 200 -r 20 -t 5m \\
        --game expedition:2,classic:1,voyages:1,khan:1 --think 0.5 --csv loadtests/results/run

Options (each also an environment variable):
- `--game` (`LOCUST_GAME`): a game id, `mix` (every game, equal weights; the default), or a weighted mix
  `expedition:2,khan:1`. Each user draws the game of each room it plays from it.
- `--seats` (`LOCUST_SEATS`, default 3): seats of the rooms the users ask `quick_match` for.
- `--think` (`LOCUST_THINK`, default 0.5): seconds a player waits after its prompt appears before it moves.
- `--request-timeout` (`LOCUST_REQUEST_TIMEOUT`, default 10): a request with no answer by then is a failure.
- `--storm-every` (`LOCUST_STORM_EVERY`, default 20): the reconnect-storm users all drop their sockets at the
  same wall-clock instants, every this many seconds, and come back with their token.

User classes: `Player` (weight 9) and `ReconnectStorm` (weight 1; `locust ... Player` runs players only).
A user says `hello`, takes a seat with `quick_match` (the server picks the seat, so no join can race into a
room that just filled), plays its prompt's options with the think time until the game ends, leaves, and
starts over. One reader greenlet per user applies every frame as it arrives (so arrival times are true and
no answer waits behind a sleeping user) and hands answers to the request waiting for their `re`.

Reported to locust (all in the CSVs):
- request type `ws`, one name per message (`hello`, `quick_match`, `move`, `sync`, `leave`, `connect`): the
  time to the answer carrying its `re`. `move` is therefore the move-to-ack latency. A move refused with
  `stale` (the room moved on between the choice and its arrival: another seat, a bot, a reconnection) is a
  correct answer to a legitimate race and is reported as a success named `move (stale)`.
- request type `latency`, name `move_to_last_patch`: from sending a move until the last of the room's locust
  players in this process holds the version it made (rooms whose other seats are in another locust worker
  or are server bots count only the players seen here).
- request type `ws`, name `reconnect`: from dropping the socket to holding the room's snapshot again
  (connect, `hello` with the token, `join` of the same seat). A failed reconnect is a failure.

Importing this file starts nothing (no connection, no greenlet): users start when locust spawns them.
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import gevent
import msgpack
from gevent.event import AsyncResult
from gevent.event import Event as GEvent
from locust import User, constant, events, task
from locust.env import Environment
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from protocol.patch import PatchError, apply_patch

GAMES = ("expedition", "classic", "voyages", "khan")
DEFAULTS: dict[str, Any] = {
    "game": "mix",
    "seats": 3,
    "think": 0.5,
    "request_timeout": 10.0,
    "storm_every": 20.0,
}
#: how long a user waits for its room to start or change before it gives the room up (no failure: it starts over)
IDLE_TIMEOUT = 90.0


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument("--game", env_var="LOCUST_GAME", default=DEFAULTS["game"], help="game id, mix, or g:w,g:w")
    parser.add_argument("--seats", env_var="LOCUST_SEATS", type=int, default=DEFAULTS["seats"], help="seats per room")
    parser.add_argument("--think", env_var="LOCUST_THINK", type=float, default=DEFAULTS["think"], help="think seconds")
    parser.add_argument(
        "--request-timeout", env_var="LOCUST_REQUEST_TIMEOUT", type=float, default=DEFAULTS["request_timeout"]
    )
    parser.add_argument("--storm-every", env_var="LOCUST_STORM_EVERY", type=float, default=DEFAULTS["storm_every"])


def parse_mix(spec: str) -> dict[str, float]:
    """`mix` -> every game at weight 1; `expedition` -> that game; `expedition:2,khan:1` -> those weights."""
    spec = spec.strip()
    if spec in ("", "mix", "all"):
        return {g: 1.0 for g in GAMES}
    out: dict[str, float] = {}
    for part in spec.split(","):
        name, _, weight = part.strip().partition(":")
        if name not in GAMES:
            raise ValueError(f"unknown game {name!r} (one of {', '.join(GAMES)})")
        out[name] = float(weight) if weight else 1.0
        if out[name] < 0:
            raise ValueError("weights are not negative")
    if not any(out.values()):
        raise ValueError("at least one game needs a positive weight")
    return out


def option(environment: Environment, name: str) -> Any:
    parsed = getattr(environment, "parsed_options", None)
    value = getattr(parsed, name, None) if parsed is not None else None
    return DEFAULTS[name] if value is None else value


class WsError(Exception):
    """The server answered with an `error` message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class Fanout:
    """Arrival of each (room, version) at the locust players of this process, for move-to-last-patch."""

    def __init__(self) -> None:
        self.members: dict[str, set[int]] = {}
        self.arrivals: dict[tuple[str, int], list[float]] = {}  # -> [players holding it, latest arrival]
        self.waiting: dict[tuple[str, int], float] = {}  # -> send time of the move that made it

    def join(self, room: str, user: int) -> None:
        self.members.setdefault(room, set()).add(user)

    def leave(self, room: str, user: int) -> None:
        players = self.members.get(room)
        if players is not None:
            players.discard(user)
            if not players:
                del self.members[room]
                for key in [k for k in self.arrivals if k[0] == room]:
                    del self.arrivals[key]
                for key in [k for k in self.waiting if k[0] == room]:
                    del self.waiting[key]

    def arrived(self, room: str, v: int, now: float) -> float | None:
        """A player holds `v`; the fan-out latency when that completes a move's fan-out."""
        key = (room, v)
        entry = self.arrivals.setdefault(key, [0, now])
        entry[0] += 1
        entry[1] = now
        if len(self.arrivals) > 20000:  # versions nobody waits for (joins, starts, bots)
            for old in list(self.arrivals)[:10000]:
                del self.arrivals[old]
        if entry[0] >= len(self.members.get(room, ())) and key in self.waiting:
            del self.arrivals[key]
            return now - self.waiting.pop(key)
        return None

    def acked(self, room: str, v: int, t0: float) -> float | None:
        key = (room, v)
        entry = self.arrivals.get(key)
        if entry is not None and entry[0] >= len(self.members.get(room, ())):
            del self.arrivals[key]
            return entry[1] - t0
        self.waiting[key] = t0
        if len(self.waiting) > 20000:  # moves whose version some player got as a snapshot (a reconnect)
            for old in list(self.waiting)[:10000]:
                del self.waiting[old]
        return None


FANOUT = Fanout()
_user_ids = itertools.count(1)


class WsClient:
    """A client of the wire contract: requests matched by `re`, views kept current by a reader greenlet."""

    def __init__(self, url: str, environment: Environment, user: int, timeout: float) -> None:
        self.environment = environment
        self.timeout = timeout
        self.user = user
        self._ids = itertools.count(1)
        self.views: dict[str, dict[str, Any]] = {}  # room -> {"v", "state", "at"}
        self.waiting: dict[int, AsyncResult] = {}
        self.changed = GEvent()
        self.closed = False
        self.ws: ClientConnection = connect(
            url, compression=None, max_size=2**24, open_timeout=timeout, proxy=None, legacy=True
        )
        self.reader = gevent.spawn(self._read)

    @classmethod
    def open(cls, url: str, environment: Environment, user: int, timeout: float) -> WsClient:
        start = time.perf_counter()
        try:
            client = cls(url, environment, user, timeout)
        except Exception as exc:
            fire(environment, "ws", "connect", start, exc)
            raise
        fire(environment, "ws", "connect", start, None)
        return client

    def close(self) -> None:
        self.closed = True
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 (a socket already gone)
            pass
        self.reader.kill(block=False)

    def _read(self) -> None:
        try:
            while True:
                frame = self.ws.recv()
                now = time.perf_counter()
                if isinstance(frame, str):
                    continue
                msg = msgpack.unpackb(frame, raw=False)
                t = msg.get("t")
                if t == "snapshot":
                    self.views[msg["room"]] = {"v": msg["v"], "state": msg["state"], "at": now}
                elif t == "patch":
                    self._patch(msg, now)
                rid = msg.get("re")
                if rid is not None:
                    waiter = self.waiting.pop(rid, None)
                    if waiter is not None:
                        waiter.set((msg, len(frame)))
                self.changed.set()
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.closed = True
            for waiter in self.waiting.values():
                waiter.set_exception(ConnectionError("connection closed"))
            self.waiting.clear()
            self.changed.set()

    def _patch(self, msg: dict[str, Any], now: float) -> None:
        room = msg["room"]
        view = self.views.get(room)
        if view is None:
            return
        if view["v"] != msg["base"]:
            if view["v"] != -2:  # a gap: ask once for a fresh snapshot
                view["v"] = -2
                self.ws.send(msgpack.packb({"t": "sync", "room": room}, use_bin_type=True))
            return
        try:
            view["state"] = apply_patch(view["state"], msg["ops"], in_place=True)
        except PatchError:
            view["v"] = -2
            self.ws.send(msgpack.packb({"t": "sync", "room": room}, use_bin_type=True))
            return
        view["v"], view["at"] = msg["v"], now
        latency = FANOUT.arrived(room, msg["v"], now)
        if latency is not None:
            fire_value(self.environment, "latency", "move_to_last_patch", latency)

    def request(self, t: str, report: bool = True, **fields: Any) -> dict[str, Any]:
        """Send `{t, id, **fields}` and wait for its answer; reported as `ws` `t`; raises WsError / TimeoutError."""
        rid = next(self._ids)
        waiter = AsyncResult()
        self.waiting[rid] = waiter
        start = time.perf_counter()
        exc: BaseException | None = None
        answer: dict[str, Any] = {}
        length = 0
        name = t
        try:
            if self.closed:
                raise ConnectionError("connection closed")
            self.ws.send(msgpack.packb({"t": t, "id": rid, **fields}, use_bin_type=True))
            answer, length = waiter.get(timeout=self.timeout)
            if answer.get("t") == "error":
                code = str(answer.get("code"))
                if t == "move" and code == "stale":
                    name = "move (stale)"  # a legitimate race, answered as the contract says
                exc = WsError(code, str(answer.get("message")))
        except gevent.Timeout:
            exc = TimeoutError(f"no answer to {t} within {self.timeout} s")
        except Exception as err:  # noqa: BLE001 (a closed socket is a failure too)
            exc = err
        finally:
            self.waiting.pop(rid, None)
        if report:
            fire(self.environment, "ws", name, start, None if name == "move (stale)" else exc, length)
        if exc is not None:
            raise exc
        answer["_at"] = time.perf_counter()
        return answer

    def wait(self, cond: Any, timeout: float) -> bool:
        """Wait until `cond()` holds (True) or `timeout` passes or the socket closes (False)."""
        deadline = time.monotonic() + timeout
        while not cond():
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return False
            self.changed.clear()
            if cond():
                return True
            self.changed.wait(min(left, 1.0))
        return True


def fire(
    environment: Environment, kind: str, name: str, start: float, exc: BaseException | None, length: int = 0
) -> None:
    environment.events.request.fire(
        request_type=kind,
        name=name,
        response_time=(time.perf_counter() - start) * 1000.0,
        response_length=length,
        exception=exc,
        context={},
    )


def fire_value(environment: Environment, kind: str, name: str, seconds: float) -> None:
    environment.events.request.fire(
        request_type=kind, name=name, response_time=seconds * 1000.0, response_length=0, exception=None, context={}
    )


def _options_of(view: dict[str, Any] | None) -> list[Any] | None:
    if not view or view["v"] < 0:
        return None
    prompt = view["state"].get("prompt")
    return prompt.get("options") if prompt else None


class Player(User):
    """One player: hello, quick_match, play from the prompt with a think time until the game ends, start over."""

    weight = 9
    wait_time = constant(0)
    host = "ws://127.0.0.1:8765/ws"  # `make serve`; --host overrides it
    storm = False

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.client: WsClient | None = None
        self.rng = random.Random()
        self.uid = next(_user_ids)
        self.token: str | None = None
        self.name = f"locust-{self.uid}"
        self.mix = parse_mix(str(option(environment, "game")))
        self.seats = int(option(environment, "seats"))
        self.think = float(option(environment, "think"))
        self.timeout = float(option(environment, "request_timeout"))
        self.storm_every = float(option(environment, "storm_every"))
        self.room: str | None = None
        self.seat: int | None = None

    def on_start(self) -> None:
        self._connect()

    def on_stop(self) -> None:
        if self.room is not None:
            FANOUT.leave(self.room, self.uid)
            self.room = None
        if self.client is not None:
            self.client.close()
            self.client = None

    def _connect(self) -> None:
        self.client = WsClient.open(self.host, self.environment, self.uid, self.timeout)
        fields: dict[str, Any] = {"name": self.name}
        if self.token:
            fields["token"] = self.token
        answer = self.client.request("hello", **fields)
        self.token = str(answer["token"])

    def pick_game(self) -> str:
        games = [g for g, w in self.mix.items() if w > 0]
        return self.rng.choices(games, weights=[self.mix[g] for g in games])[0]

    @task
    def play_a_game(self) -> None:
        try:
            if self.client is None or self.client.closed:
                self.on_stop()
                self._connect()
            assert self.client is not None
            game = self.pick_game()
            seats = max(2, min(self.seats, 5 if game == "expedition" else 4))
            answer = self.client.request("quick_match", game=game, seats=seats)
            room = self.room = str(answer["room"])
            self.seat = answer.get("seat")
            FANOUT.join(room, self.uid)
            try:
                self._play(room)
            finally:  # also when locust stops the user: no `leave` then, the socket just closes
                FANOUT.leave(room, self.uid)
                self.room = None
            if self.client is not None and not self.client.closed:
                self.client.views.pop(room, None)
                self.client.request("leave", room=room)
        except (WsError, TimeoutError, ConnectionError, ConnectionClosed, OSError):
            # reported already (a failed request) or a dropped socket: start over on a new connection
            self.on_stop()
            gevent.sleep(0.5)

    def _play(self, room: str) -> None:
        assert self.client is not None
        client = self.client
        quiet_since = time.monotonic()
        while True:
            if self.storm and self._storm_in() <= 0:
                client = self._reconnect(room)
            view = client.views.get(room)
            if view is not None and view["v"] >= 0 and view["state"].get("result") is not None:
                return
            options = _options_of(view)
            if options:
                assert view is not None
                seen_v = view["v"]
                due = view["at"] + self.think
                if due > time.perf_counter():
                    gevent.sleep(due - time.perf_counter())
                view = client.views.get(room)
                if view is None or view["v"] != seen_v:
                    continue  # the view moved on while thinking: look again
                options = _options_of(view)
                if not options:
                    continue
                t0 = time.perf_counter()
                try:
                    answer = client.request("move", room=room, move=self.rng.choice(options), v=seen_v)
                except WsError as err:
                    if err.code == "stale":
                        client.wait(lambda c=client, v=seen_v: (c.views.get(room) or {"v": v})["v"] != v, 5.0)
                        continue
                    raise
                latency = FANOUT.acked(room, int(answer["v"]), t0)
                if latency is not None:
                    fire_value(self.environment, "latency", "move_to_last_patch", latency)
                continue
            v_now = view["v"] if view is not None else None
            idle_for = time.monotonic() - quiet_since
            wait = IDLE_TIMEOUT - idle_for
            if self.storm:
                wait = min(wait, max(0.05, self._storm_in()))
            if client.wait(lambda c=client, v=v_now: (c.views.get(room) or {}).get("v") != v, wait):
                quiet_since = time.monotonic()
            elif client.closed:
                raise ConnectionError("connection closed")
            elif time.monotonic() - quiet_since >= IDLE_TIMEOUT:
                return  # nothing happened for a long time (no players came): give the room up

    # ---- reconnect storms ----

    def _storm_in(self) -> float:
        """Seconds to this user's next socket drop (infinite for a plain player)."""
        return float("inf")

    def _reconnect(self, room: str) -> WsClient:
        raise NotImplementedError


class ReconnectStorm(Player):
    """A player whose socket drops at the same wall-clock instants as every other storm user's, then comes
    back with its token and re-attaches to its seat (`reconnect` in the figures)."""

    weight = 1
    storm = True

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.next_storm = self._next_slot()

    def _next_slot(self) -> float:
        every = self.storm_every
        return (time.time() // every + 1) * every

    def _storm_in(self) -> float:
        return self.next_storm - time.time()

    def _reconnect(self, room: str) -> WsClient:
        self.next_storm = self._next_slot()
        assert self.client is not None
        seat = self.seat  # from quick_match: a seat stays the player's through a disconnection
        self.client.close()
        self.client = None
        start = time.perf_counter()
        try:
            self._connect()
            assert self.client is not None
            fields: dict[str, Any] = {"room": room}
            if seat is not None:
                fields["seat"] = seat
            self.client.request("join", **fields)
            if not self.client.wait(lambda: (self.client.views.get(room) or {"v": -1})["v"] >= 0, self.timeout):
                raise TimeoutError("no snapshot after the re-join")
        except Exception as exc:
            fire(self.environment, "ws", "reconnect", start, exc)
            raise
        fire(self.environment, "ws", "reconnect", start, None)
        return self.client
