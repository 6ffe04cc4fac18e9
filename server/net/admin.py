"""The administrators' HTTP API under `/admin/` on the node's port (shared/DESIGN.md section 3c; docs/admin.md).

Owns: the routes, their bearer-token check (`--admin-token`; unset, every `/admin/` path answers 404 as if it
did not exist), the OpenAPI description they are tested against (`/admin/openapi.json`), and writing every
action to the audit log. Parameters travel in the query string: the node's HTTP side takes no request bodies.
Must not: hold moderation logic (`server.node.moderation` does it, on every node) or answer anything but JSON.

Routes (answers are JSON; errors `{error, message}` with 400, 401, 404, 405, 409 or 503):
- `GET /admin/reports?status=open|all&player=ID&limit=N`, `POST /admin/reports/{id}/resolve?resolution=TEXT`
- `GET /admin/bans?active=true|false&limit=N`, `POST /admin/bans?kind=player|addr|net&value=V&reason=TEXT
  [&minutes=N]` (`kind=name`: the account with that name), `DELETE /admin/bans/{id}`
- `GET /admin/rooms?game=G&status=waiting|playing&player=ID-OR-NAME&limit=N`,
  `POST /admin/rooms/{room}/close?reason=TEXT`
- `DELETE /admin/chat/{room|lobby}/{line}`
- `GET /admin/players?name=NAME` or `?player=ID`: the account, its devices, recent games, reports and bans
- `GET /admin/audit?limit=N&before=ID`, `GET /admin/openapi.json`

Input is checked strictly (an unknown or repeated parameter, an empty one, a number out of range: 400), so a
typo never silently widens a listing. The actor of an action is the `X-Admin-Name` header (printable ASCII,
at most 64 characters; "admin" when absent).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.rooms.core import RoomError
from server.rooms.names import account_key
from server.store.base import StoreUnavailable

if TYPE_CHECKING:
    from server.node.hub import Hub

log = logging.getLogger("marcopolo.admin")

PREFIX = "/admin/"
LIMIT_MAX = 200
#: the longest reason or resolution kept (characters)
TEXT_MAX = 500
#: the longest name looked up or banned, ban value (an id, a name, an address, a network), actor name
NAME_MAX = 64
#: the largest report, ban or audit id (the records keep them as 32-bit integers)
ID_MAX = 2**31 - 1
#: the longest ban (minutes: a hundred years)
MINUTES_MAX = 60 * 24 * 365 * 100
#: the most rooms one listing looks at (the oldest of the store's index of unfinished rooms, read a page at a time)
ROOMS_SCANNED = 5000
#: the most active bans read to tell whether a ban is still in force before lifting it
ACTIVE_BANS_READ = 10_000
#: an id of a player, a room, a chat line or a game (as the node makes them)
ID_PATTERN = r"^[A-Za-z0-9_:\-]{1,64}$"
#: a number in the path (a report's or a ban's id) and an integer parameter
NUMBER_PATTERN = r"^[0-9]{1,10}$"
#: free text: no control characters, not only spaces
TEXT_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"
ACTOR_PATTERN = r"^[ -~]*[!-~][ -~]*$"
_ID = re.compile(ID_PATTERN)
_NUMBER = re.compile(NUMBER_PATTERN)
_INT = re.compile(r"^-?[0-9]{1,18}$")
_TEXT = re.compile(TEXT_PATTERN)
_ACTOR = re.compile(ACTOR_PATTERN)

Query = dict[str, str]


class AdminError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


_PHRASES = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
            409: "Conflict", 500: "Internal Server Error", 503: "Service Unavailable"}  # fmt: skip


def _json(status: int, body: Any, extra: dict[str, str] | None = None) -> Response:
    data = json.dumps(body).encode()
    headers = Headers()
    headers["Content-Type"] = "application/json"
    headers["Content-Length"] = str(len(data))
    headers["Cache-Control"] = "no-store"
    for key, value in (extra or {}).items():
        headers[key] = value
    return Response(status, _PHRASES.get(status, "Error"), headers, data)


def _query(raw: str, allowed: frozenset[str]) -> Query:
    """The query string as one value per name: unknown, repeated or undecodable parameters are refused."""
    try:
        parsed = parse_qs(raw, keep_blank_values=True, strict_parsing=False, errors="strict", max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        raise AdminError(400, "bad_request", "the query string is not UTF-8 or has too many parameters") from None
    out: Query = {}
    for key, values in parsed.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise AdminError(400, "bad_request", f"unknown parameter `{key[:40]}` (known here: {known})")
        if len(values) != 1:
            raise AdminError(400, "bad_request", f"`{key}` is given more than once")
        out[key] = values[0]
    return out


def _text(q: Query, key: str, required: bool = False, longest: int = TEXT_MAX) -> str | None:
    value = q.get(key)
    if value is None:
        if required:
            raise AdminError(400, "bad_request", f"`{key}` is required")
        return None
    if len(value) > longest or not _TEXT.fullmatch(value):
        raise AdminError(400, "bad_request", f"`{key}` is 1 to {longest} printable characters, not only spaces")
    return value.strip()


def _int(q: Query, key: str, default: int | None, lo: int, hi: int) -> int | None:
    value = q.get(key)
    if value is None:
        return default
    if not _INT.fullmatch(value):
        raise AdminError(400, "bad_request", f"`{key}` is an integer")
    number = int(value)
    if not lo <= number <= hi:
        raise AdminError(400, "bad_request", f"`{key}` is between {lo} and {hi}")
    return number


def _bool(q: Query, key: str, default: bool) -> bool:
    value = q.get(key)
    if value is None:
        return default
    if value not in ("true", "false"):
        raise AdminError(400, "bad_request", f"`{key}` is true or false")
    return value == "true"


def _id(value: str, what: str) -> str:
    if not _ID.fullmatch(value):
        raise AdminError(400, "bad_request", f"not a {what} id")
    return value


def _number(value: str, what: str) -> int:
    if not _NUMBER.fullmatch(value) or not 1 <= int(value) <= ID_MAX:
        raise AdminError(400, "bad_request", f"a {what} id is a number from 1 to {ID_MAX}")
    return int(value)


Handler = Callable[[list[str], Query, str], Awaitable[Any]]


class AdminApi:
    """`/admin/` for one node (its actions reach every node through the moderation module)."""

    def __init__(self, hub: Hub, token: str) -> None:
        self.hub = hub
        self.token = token
        # (the path's shape: literal segments, "*" for one argument) -> method -> (handler, query parameters)
        self.routes: dict[tuple[str, ...], dict[str, tuple[Handler, frozenset[str]]]] = {
            ("openapi.json",): {"GET": (self._openapi, frozenset())},
            ("reports",): {"GET": (self._reports, frozenset({"status", "player", "limit"}))},
            ("reports", "*", "resolve"): {"POST": (self._resolve, frozenset({"resolution"}))},
            ("bans",): {"GET": (self._bans, frozenset({"active", "limit"})),
                        "POST": (self._ban, frozenset({"kind", "value", "reason", "minutes"}))},
            ("bans", "*"): {"DELETE": (self._lift, frozenset())},
            ("rooms",): {"GET": (self._rooms, frozenset({"game", "status", "player", "limit"}))},
            ("rooms", "*", "close"): {"POST": (self._close, frozenset({"reason"}))},
            ("chat", "*", "*"): {"DELETE": (self._delete_chat, frozenset())},
            ("players",): {"GET": (self._player, frozenset({"name", "player"}))},
            ("audit",): {"GET": (self._audit_log, frozenset({"limit", "before"}))},
        }  # fmt: skip

    async def handle(self, request: Request, addr: str) -> Response:
        if not self.token:
            return _json(404, {"error": "not_found", "message": "no such page"})
        auth = request.headers.get("Authorization", "")
        given = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        # header values arrive as ASCII with surrogate escapes: compare their bytes, whatever they hold
        if not given or not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), self.token.encode()):
            self.hub.metrics.errors.labels("admin_unauthorized").inc()
            why = "with a wrong token" if given else "without the token"
            log.warning("admin: refused a request %s from %s", why, addr)
            return _json(401, {"error": "unauthorized", "message": "the admin token is missing or wrong"},
                         {"WWW-Authenticate": 'Bearer realm="admin"'})  # fmt: skip
        method = getattr(request, "method", "GET")
        try:
            split = urlsplit(request.path)
            parts = [unquote(p, errors="strict") for p in split.path[len(PREFIX) :].split("/") if p]
            shape, args = self._shape(parts)
            methods = self.routes.get(shape) if shape is not None else None
            if methods is None:
                raise AdminError(404, "not_found", "no such route")
            if method not in methods:
                allow = ", ".join(sorted(methods))
                return _json(405, {"error": "method_not_allowed", "message": f"this route takes {allow}"},
                             {"Allow": allow})  # fmt: skip
            handler, allowed = methods[method]
            query = _query(split.query, allowed)
            actor = self._actor(request.headers.get("X-Admin-Name"))
            if not self.hub.ready:
                raise AdminError(503, "unavailable", "the node is starting; retry")
            return _json(200, await handler(args, query, actor))
        except UnicodeDecodeError:
            return _json(400, {"error": "bad_request", "message": "the path is not UTF-8"})
        except AdminError as err:
            return _json(err.status, {"error": err.code, "message": err.message})
        except StoreUnavailable:
            return _json(503, {"error": "unavailable", "message": "the records or the store are unavailable; retry"})
        except Exception:  # noqa: BLE001 - a JSON answer and the trace in the log, never a bare 500 page
            log.exception("admin: %s %s failed", method, urlsplit(request.path).path[:200])
            return _json(500, {"error": "internal", "message": "the server failed; see its log"})

    def _shape(self, parts: list[str]) -> tuple[tuple[str, ...] | None, list[str]]:
        """The route `parts` match (literal segments, "*" for an argument) and the arguments."""
        for shape in self.routes:
            if len(shape) == len(parts) and all(s == "*" or s == p for s, p in zip(shape, parts, strict=True)):
                return shape, [p for s, p in zip(shape, parts, strict=True) if s == "*"]
        return None, []

    @staticmethod
    def _actor(header: str | None) -> str:
        if header is None or not header.strip():
            return "admin"
        if len(header) > NAME_MAX or not _ACTOR.fullmatch(header):
            raise AdminError(400, "bad_request", f"`X-Admin-Name` is 1 to {NAME_MAX} printable ASCII characters")
        return header.strip()

    async def _audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any]) -> None:
        self.hub.metrics.admin_actions.labels(action).inc()
        await self.hub.moderation.audit(actor, action, target, detail)
        log.info("admin %s: %s %s %s", actor, action, target or "", json.dumps(detail)[:300])

    async def _openapi(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        return openapi()

    async def _audit_log(self, args: list[str], q: Query, actor: str) -> list[dict[str, Any]]:
        return await self.hub.records.audit(
            limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100, before=_int(q, "before", None, 1, ID_MAX)
        )

    # ---- reports ---------------------------------------------------------------------------------

    async def _reports(self, args: list[str], q: Query, actor: str) -> list[dict[str, Any]]:
        status = q.get("status", "open")
        if status not in ("open", "all"):
            raise AdminError(400, "bad_request", "`status` is open or all")
        player = q.get("player")
        got = await self.hub.records.reports(
            open_only=status == "open",
            player=_id(player, "player") if player is not None else None,
            limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100,
        )
        return [r.to_dict() for r in got]

    async def _resolve(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        rid = _number(args[0], "report")
        resolution = _text(q, "resolution", required=True)
        assert resolution is not None
        now = int(time.time())
        got = await self.hub.records.resolve_report(rid, resolution, now)
        if got is None:
            raise AdminError(404, "not_found", f"no report {rid}")
        # the records resolve a report once and keep its first resolution (the same one within this second:
        # taken for this request repeated)
        if got.resolved_at != now or got.resolution != resolution:
            raise AdminError(409, "conflict", f"report {rid} was resolved already: {got.resolution}")
        await self._audit(actor, "resolve_report", str(rid), {"resolution": resolution, "player": got.player})
        return got.to_dict()

    # ---- bans ------------------------------------------------------------------------------------

    async def _bans(self, args: list[str], q: Query, actor: str) -> list[dict[str, Any]]:
        active = _bool(q, "active", True)
        got = await self.hub.records.bans(
            active_at=int(time.time()) if active else None, limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100
        )
        return [b.to_dict() for b in got]

    async def _ban(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        kind = q.get("kind")
        if kind not in ("player", "name", "addr", "net"):
            raise AdminError(400, "bad_request", "`kind` is player, name, addr or net")
        value = _text(q, "value", required=True, longest=NAME_MAX)
        reason = _text(q, "reason", required=True)
        assert value is not None and reason is not None
        minutes = _int(q, "minutes", None, 1, MINUTES_MAX)
        detail: dict[str, Any] = {}
        if kind == "name":
            account = await self.hub.records.account_by_key(account_key(value))
            if account is None:
                raise AdminError(404, "not_found", "no account has that name")
            detail["name"] = account.name
            kind, value = "player", account.player
        if kind == "player":
            _id(value, "player")
        else:
            try:
                parsed = ipaddress.ip_address(value) if kind == "addr" else ipaddress.ip_network(value, strict=False)
            except ValueError:
                raise AdminError(400, "bad_request", "not an address" if kind == "addr" else "not a network") from None
            value = str(parsed)
        until = int(time.time()) + minutes * 60 if minutes else None
        ban = await self.hub.moderation.ban(kind, value, reason, until, actor)
        await self._audit(actor, "ban", f"{kind}:{value}", {"id": ban.id, "reason": reason, "until": until, **detail})
        return ban.to_dict()

    async def _lift(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        bid = _number(args[0], "ban")
        now = int(time.time())
        in_force = await self.hub.records.bans(active_at=now, limit=ACTIVE_BANS_READ)
        was_active = any(b.id == bid for b in in_force)
        got = await self.hub.moderation.lift(bid)
        if got is None:
            raise AdminError(404, "not_found", f"no ban {bid}")
        if not was_active and (len(in_force) < ACTIVE_BANS_READ or got.lifted_at != now):
            raise AdminError(409, "conflict", f"ban {bid} is not in force (lifted already or over)")
        await self._audit(actor, "lift_ban", str(bid), {"kind": got.kind, "value": got.value})
        return got.to_dict()

    # ---- rooms and chat --------------------------------------------------------------------------

    async def _rooms(self, args: list[str], q: Query, actor: str) -> list[dict[str, Any]]:
        game = _id(q["game"], "game") if "game" in q else None
        status = q.get("status")
        if status not in (None, "waiting", "playing"):
            raise AdminError(400, "bad_request", "`status` is waiting or playing")
        who = _text(q, "player", longest=NAME_MAX)
        limit = _int(q, "limit", 100, 1, LIMIT_MAX) or 100
        key = account_key(who) if who else None
        out: list[dict[str, Any]] = []
        scanned: list[str] = []
        cursor: str | None = None
        while len(scanned) < ROOMS_SCANNED:  # the store's index of unfinished rooms, a page at a time (oldest first)
            page, cursor = await self.hub.store.open_rooms(cursor, min(500, ROOMS_SCANNED - len(scanned)))
            scanned += page
            if cursor is None:
                break
        for room_id in scanned:
            meta = await self.hub.meta_of(room_id)
            if meta is None or meta.status == "finished":
                continue
            if (game and meta.game != game) or (status and meta.status != status):
                continue
            if who and who not in meta.players and key not in {account_key(n) for n in meta.names if n}:
                continue
            out.append({"room": meta.room, "game": meta.game, "status": meta.status, "public": meta.public,
                        "seats": meta.seats, "players": list(meta.players), "names": list(meta.names),
                        "host": meta.host, "created": meta.created, "v": meta.v})  # fmt: skip
        out.sort(key=lambda r: (-float(r["created"] or 0), r["room"]))  # newest first
        return out[:limit]

    async def _close(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        room_id = _id(args[0], "room")
        reason = _text(q, "reason", required=True)
        assert reason is not None
        meta = await self.hub.meta_of(room_id)
        if meta is None:
            raise AdminError(404, "not_found", f"no room {room_id}")
        if meta.status == "finished":
            raise AdminError(409, "conflict", "the room is finished already")
        try:
            closed = await self.hub.moderation.close_room(room_id, reason)
        except RoomError as err:
            raise AdminError(409, "conflict", f"the room refused: {err}") from None
        if not closed:
            raise AdminError(503, "unavailable", "the room's node did not answer; retry")
        await self._audit(actor, "close_room", room_id, {"reason": reason, "game": meta.game})
        return {"room": room_id, "closed": "moderator", "reason": reason}

    async def _delete_chat(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        where, line = args
        room = None if where == "lobby" else _id(where, "room")
        _id(line, "line")
        gone = await self.hub.moderation.delete_chat(room, line)
        if gone is None:
            raise AdminError(404, "not_found", "no such chat line (kept lines only)")
        await self._audit(actor, "delete_chat", f"{where}/{line}",
                          {"from": gone.get("from"), "name": gone.get("name"), "text": gone.get("text")})  # fmt: skip
        return {"room": room, "line": line, "deleted": {k: gone.get(k) for k in ("from", "name", "text", "at")}}

    # ---- players ---------------------------------------------------------------------------------

    async def _player(self, args: list[str], q: Query, actor: str) -> dict[str, Any]:
        records = self.hub.records
        if ("name" in q) == ("player" in q):
            raise AdminError(400, "bad_request", "give `name` or `player` (one of them)")
        account = None
        if "name" in q:
            name = _text(q, "name", longest=NAME_MAX)
            assert name is not None
            account = await records.account_by_key(account_key(name))
            if account is None:
                raise AdminError(404, "not_found", "no account has that name (guests are looked up by `player`)")
            pid = account.player
        else:
            pid = _id(q["player"], "player")
            account = await records.account(pid)
        devices = await records.devices(pid) if account is not None else []
        games = await records.history(None, pid, 20)
        now = int(time.time())
        # the bans in force on the account (all of them), then its recent ones (lifted or over too)
        bans = {b.id: b for b in await records.bans_on("player", [pid], now)}
        for b in await records.bans(limit=LIMIT_MAX):
            if b.kind == "player" and b.value == pid:
                bans.setdefault(b.id, b)
        return {
            "player": pid,
            "account": None if account is None else {"name": account.name, "created_at": account.created_at},
            "online": pid in self.hub.players,
            # a device's label and times only: never its token hash
            "devices": [{"device": d.device, "created_at": d.created_at, "last_seen": d.last_seen} for d in devices],
            "games": [{k: v for k, v in g.items() if not k.startswith("_")} for g in games],
            "reports": [r.to_dict() for r in await records.reports(open_only=False, player=pid, limit=50)],
            "bans": [b.to_dict() for b in sorted(bans.values(), key=lambda b: -b.id)],
            "banned": any(b.active(now) for b in bans.values()),
        }


# ---- the OpenAPI description -----------------------------------------------------------------------


def _param(name: str, where: str = "query", required: bool = False, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema or _STR}


def _op(summary: str, params: list[dict[str, Any]], answer: dict[str, Any], errors: tuple[int, ...] = (),
        action: bool = False) -> Any:  # fmt: skip
    responses: dict[str, Any] = {"200": {"description": "done", "content": {"application/json": {"schema": answer}}}}
    for status in sorted({400, 401, 404, 405, 503, *errors}):
        responses[str(status)] = {"$ref": "#/components/responses/Error"}
    responses["401"] = {"$ref": "#/components/responses/Unauthorized"}
    responses["405"] = {"$ref": "#/components/responses/MethodNotAllowed"}
    responses["414"] = {"$ref": "#/components/responses/TooLong"}
    if action:  # who does it, as the audit log names them
        params = [*params, {"$ref": "#/components/parameters/AdminName"}]
    return {"summary": summary, "parameters": params, "responses": responses, "security": [{"bearer": []}]}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _list(name: str) -> dict[str, Any]:
    return {"type": "array", "items": _ref(name)}


def _obj(required: dict[str, Any], **optional: Any) -> dict[str, Any]:
    return {"type": "object", "required": list(required), "properties": {**required, **optional}}


_STR: dict[str, Any] = {"type": "string"}
_INTEGER: dict[str, Any] = {"type": "integer"}
_NSTR: dict[str, Any] = {"type": "string", "nullable": True}
_NINT: dict[str, Any] = {"type": "integer", "nullable": True}
_ANY: dict[str, Any] = {"type": "object"}
_IDS: dict[str, Any] = {"type": "string", "pattern": ID_PATTERN}
_TEXT_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": TEXT_MAX, "pattern": TEXT_PATTERN}
_NAME_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": NAME_MAX, "pattern": TEXT_PATTERN}
_LIMIT: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX}
_NUM_ID: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": ID_MAX}

_SCHEMAS: dict[str, Any] = {
    "Error": _obj({"error": _STR, "message": _STR}),
    "Report": _obj({"id": _INTEGER, "reporter": _STR, "player": _STR, "room": _NSTR, "reason": _STR,
                    "context": _ANY, "created_at": _INTEGER, "resolved_at": _NINT, "resolution": _NSTR}),
    "Ban": _obj({"id": _INTEGER, "kind": {"type": "string", "enum": ["player", "addr", "net"]}, "value": _STR,
                 "reason": _STR, "created_at": _INTEGER, "until": _NINT, "lifted_at": _NINT, "by": _STR}),
    "Room": _obj({"room": _STR, "game": _STR, "status": {"type": "string", "enum": ["waiting", "playing"]},
                  "public": {"type": "boolean"}, "seats": _INTEGER,
                  "players": {"type": "array", "items": _NSTR}, "names": {"type": "array", "items": _NSTR},
                  "host": _NSTR, "created": {"type": "number"}, "v": _INTEGER}),
    "Closed": _obj({"room": _STR, "closed": {"type": "string", "enum": ["moderator"]}, "reason": _STR}),
    "ChatDeleted": _obj({"room": _NSTR, "line": _STR, "deleted": _obj(
        {"from": _NSTR, "name": _NSTR, "text": _NSTR}, at={"type": "number", "nullable": True})}),
    "Player": _obj({
        "player": _STR, "account": {**_obj({"name": _STR, "created_at": _INTEGER}), "nullable": True},
        "online": {"type": "boolean"},
        "devices": {"type": "array", "items": _obj({"device": _NSTR, "created_at": _INTEGER, "last_seen": _INTEGER})},
        "games": {"type": "array", "items": _ANY}, "reports": _list("Report"), "bans": _list("Ban"),
        "banned": {"type": "boolean"}}),
    "AuditEntry": _obj({"id": _INTEGER, "at": _INTEGER, "actor": _STR,
                        "action": {"type": "string", "description": "resolve_report, ban, lift_ban, close_room or "
                                   "delete_chat"},
                        "target": _NSTR, "detail": _ANY}),
}  # fmt: skip


def openapi() -> dict[str, Any]:
    """The API as OpenAPI 3.0 (tested by schemathesis: tests/net/test_admin_api.py)."""
    error = {"application/json": {"schema": _ref("Error")}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "marcopolo administration", "version": "1.2",
                 "description": "Moderation of one deployment; every action is kept in the audit log "
                                "(docs/admin.md). Parameters travel in the query string; no request has a body."},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": _SCHEMAS,
            "parameters": {"AdminName": {
                "name": "X-Admin-Name", "in": "header", "required": False,
                "description": "who acts, as the audit log names them (default: admin)",
                "schema": {"type": "string", "minLength": 1, "maxLength": NAME_MAX, "pattern": ACTOR_PATTERN}}},
            "responses": {
                "Error": {"description": "refused", "content": error},
                "Unauthorized": {"description": "the token is missing or wrong", "content": error,
                                 "headers": {"WWW-Authenticate": {"schema": _STR}}},
                "MethodNotAllowed": {"description": "not a method of this route", "content": error,
                                     "headers": {"Allow": {"schema": _STR}}},
                "TooLong": {"description": "the request line is over 8192 bytes (answered by the node's HTTP "
                                           "layer, in plain text)", "content": {"text/plain": {"schema": _STR}}},
            },
        },
        "security": [{"bearer": []}],
        "paths": {
            "/admin/reports": {"get": _op("Reports, newest first", [
                _param("status", type="string", enum=["open", "all"]), _param("player", **_IDS),
                _param("limit", **_LIMIT)], _list("Report"))},
            "/admin/reports/{id}/resolve": {"post": _op("Resolve an open report", [
                _param("id", "path", **_NUM_ID), _param("resolution", required=True, **_TEXT_SCHEMA)],
                _ref("Report"), (409,), action=True)},
            "/admin/bans": {
                "get": _op("Bans, newest first (active: those in force)", [
                    _param("active", type="boolean"), _param("limit", **_LIMIT)], _list("Ban")),
                "post": _op("Ban an account, a name's account, an address or a network", [
                    _param("kind", required=True, type="string", enum=["player", "name", "addr", "net"]),
                    _param("value", required=True, **_NAME_SCHEMA), _param("reason", required=True, **_TEXT_SCHEMA),
                    _param("minutes", type="integer", minimum=1, maximum=MINUTES_MAX)], _ref("Ban"), action=True),
            },
            "/admin/bans/{id}": {"delete": _op("Lift a ban in force", [_param("id", "path", **_NUM_ID)], _ref("Ban"),
                                               (409,), action=True)},
            "/admin/rooms": {"get": _op("Unfinished rooms, newest first", [
                _param("game", **_IDS), _param("status", type="string", enum=["waiting", "playing"]),
                _param("player", **_NAME_SCHEMA), _param("limit", **_LIMIT)], _list("Room"))},
            "/admin/rooms/{room}/close": {"post": _op("Close a room (its viewers see the reason)", [
                _param("room", "path", **_IDS), _param("reason", required=True, **_TEXT_SCHEMA)], _ref("Closed"),
                (409,), action=True)},
            "/admin/chat/{room}/{line}": {"delete": _op("Delete a chat line everywhere (`lobby`: the lobby's)", [
                _param("room", "path", **_IDS), _param("line", "path", **_IDS)], _ref("ChatDeleted"), action=True)},
            "/admin/players": {"get": _op("A player by account name or id: account, devices, games, reports, bans", [
                _param("name", **_NAME_SCHEMA), _param("player", **_IDS)], _ref("Player"))},
            "/admin/audit": {"get": _op("The audit log, newest first", [
                _param("limit", **_LIMIT), _param("before", **_NUM_ID)], _list("AuditEntry"))},
            "/admin/openapi.json": {"get": _op("This description", [], _ANY)},
        },
    }  # fmt: skip
