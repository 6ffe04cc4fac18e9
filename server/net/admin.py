"""The administrators' HTTP API under `/admin/` on the node's port (shared/DESIGN.md section 3c).

Owns: the routes, their bearer-token check (`--admin-token`; unset, every `/admin/` path answers 404 as if it
did not exist), the OpenAPI description they are tested against (`/admin/openapi.json`), and writing every
action to the audit log. Parameters travel in the query string: the node's HTTP side takes no request bodies.
Must not: hold moderation logic (`server.node.moderation` does it, on every node) or answer anything but JSON.

Routes (answers are JSON; errors `{error, message}` with 400, 401, 404 or 503):
- `GET /admin/reports?status=open|all&player=ID&limit=N`, `POST /admin/reports/{id}/resolve?resolution=TEXT`
- `GET /admin/bans?active=true|false&limit=N`, `POST /admin/bans?kind=player|addr|net&value=V&reason=TEXT
  [&minutes=N]` (`kind=name`: the account with that name), `DELETE /admin/bans/{id}`
- `GET /admin/rooms?game=G&status=waiting|playing&player=ID-OR-NAME&limit=N`,
  `POST /admin/rooms/{room}/close?reason=TEXT`
- `DELETE /admin/chat/{room|lobby}/{line}`
- `GET /admin/players?name=NAME` or `?player=ID`: the account, its devices, recent games, reports and bans
- `GET /admin/audit?limit=N&before=ID`, `GET /admin/openapi.json`
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.rooms.names import account_key
from server.store.base import StoreUnavailable

if TYPE_CHECKING:
    from server.node.hub import Hub

log = logging.getLogger("marcopolo.admin")

PREFIX = "/admin/"
LIMIT_MAX = 200
#: the longest reason or resolution kept (characters)
TEXT_MAX = 500
#: the most rooms one listing looks at (the store's unfinished rooms, newest ids last)
ROOMS_SCANNED = 5000
_ID = re.compile(r"^[A-Za-z0-9_:\-]{1,64}$")


class AdminError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _json(status: int, body: Any) -> Response:
    data = json.dumps(body).encode()
    headers = Headers()
    headers["Content-Type"] = "application/json"
    headers["Content-Length"] = str(len(data))
    headers["Cache-Control"] = "no-store"
    return Response(status, _PHRASES.get(status, "Error"), headers, data)


_PHRASES = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
            503: "Service Unavailable"}  # fmt: skip


def _text(q: dict[str, list[str]], key: str, required: bool = False) -> str | None:
    got = q.get(key)
    if not got or not got[0].strip():
        if required:
            raise AdminError(400, "bad_request", f"`{key}` is required")
        return None
    value = got[0].strip()
    if len(value) > TEXT_MAX or any(ord(ch) < 32 for ch in value):
        raise AdminError(400, "bad_request", f"`{key}` is at most {TEXT_MAX} printable characters")
    return value


def _int(q: dict[str, list[str]], key: str, default: int | None, lo: int, hi: int) -> int | None:
    got = q.get(key)
    if not got:
        return default
    try:
        value = int(got[0])
    except ValueError:
        raise AdminError(400, "bad_request", f"`{key}` is an integer") from None
    if not lo <= value <= hi:
        raise AdminError(400, "bad_request", f"`{key}` is between {lo} and {hi}")
    return value


def _bool(q: dict[str, list[str]], key: str, default: bool) -> bool:
    got = q.get(key)
    if not got:
        return default
    if got[0] in ("true", "1"):
        return True
    if got[0] in ("false", "0"):
        return False
    raise AdminError(400, "bad_request", f"`{key}` is true or false")


def _id(value: str, what: str) -> str:
    if not _ID.match(value):
        raise AdminError(400, "bad_request", f"not a {what} id")
    return value


class AdminApi:
    """`/admin/` for one node (its actions reach every node through the moderation module)."""

    def __init__(self, hub: Hub, token: str) -> None:
        self.hub = hub
        self.token = token

    async def handle(self, request: Request, addr: str) -> Response:
        if not self.token:
            return _json(404, {"error": "not_found", "message": "no such page"})
        auth = request.headers.get("Authorization", "")
        given = auth[7:].strip() if auth.startswith("Bearer ") else ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            self.hub.metrics.errors.labels("admin_unauthorized").inc()
            log.warning("admin: refused a request without the token from %s", addr)
            return _json(401, {"error": "unauthorized", "message": "the admin token is missing or wrong"})
        split = urlsplit(request.path)
        parts = [p for p in split.path[len(PREFIX) :].split("/") if p]
        query = parse_qs(split.query, keep_blank_values=True)
        method = getattr(request, "method", "GET")
        actor = (request.headers.get("X-Admin-Name") or "admin").strip()[:64] or "admin"
        try:
            if not self.hub.ready:
                raise AdminError(503, "unavailable", "the node is starting; retry")
            return _json(200, await self._route(method, parts, query, actor))
        except AdminError as err:
            return _json(err.status, {"error": err.code, "message": err.message})
        except StoreUnavailable:
            return _json(503, {"error": "unavailable", "message": "the records or the store are unavailable; retry"})

    async def _route(self, method: str, parts: list[str], q: dict[str, list[str]], actor: str) -> Any:
        head = parts[0] if parts else ""
        if parts == ["openapi.json"] and method == "GET":
            return openapi()
        if head == "reports":
            if len(parts) == 1 and method == "GET":
                return await self._reports(q)
            if len(parts) == 3 and parts[2] == "resolve" and method == "POST":
                return await self._resolve(parts[1], q, actor)
        elif head == "bans":
            if len(parts) == 1 and method == "GET":
                return await self._bans(q)
            if len(parts) == 1 and method == "POST":
                return await self._ban(q, actor)
            if len(parts) == 2 and method == "DELETE":
                return await self._lift(parts[1], actor)
        elif head == "rooms":
            if len(parts) == 1 and method == "GET":
                return await self._rooms(q)
            if len(parts) == 3 and parts[2] == "close" and method == "POST":
                return await self._close(parts[1], q, actor)
        elif head == "chat" and len(parts) == 3 and method == "DELETE":
            return await self._delete_chat(parts[1], parts[2], actor)
        elif head == "players" and len(parts) == 1 and method == "GET":
            return await self._player(q)
        elif head == "audit" and len(parts) == 1 and method == "GET":
            return await self.hub.records.audit(
                limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100, before=_int(q, "before", None, 1, 2**62)
            )
        raise AdminError(404, "not_found", "no such route")

    async def _audit(self, actor: str, action: str, target: str | None, detail: dict[str, Any]) -> None:
        self.hub.metrics.admin_actions.labels(action).inc()
        await self.hub.moderation.audit(actor, action, target, detail)
        log.info("admin %s: %s %s %s", actor, action, target or "", json.dumps(detail)[:300])

    # ---- reports ---------------------------------------------------------------------------------

    async def _reports(self, q: dict[str, list[str]]) -> list[dict[str, Any]]:
        status = _text(q, "status") or "open"
        if status not in ("open", "all"):
            raise AdminError(400, "bad_request", "`status` is open or all")
        player = _text(q, "player")
        got = await self.hub.records.reports(
            open_only=status == "open",
            player=_id(player, "player") if player else None,
            limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100,
        )
        return [r.to_dict() for r in got]

    async def _resolve(self, rid: str, q: dict[str, list[str]], actor: str) -> dict[str, Any]:
        if not rid.isdigit() or len(rid) > 12:
            raise AdminError(400, "bad_request", "a report id is a number")
        resolution = _text(q, "resolution", required=True)
        assert resolution is not None
        got = await self.hub.records.resolve_report(int(rid), resolution, int(time.time()))
        if got is None:
            raise AdminError(404, "not_found", f"no report {rid}")
        await self._audit(actor, "resolve_report", rid, {"resolution": resolution})
        return got.to_dict()

    # ---- bans ------------------------------------------------------------------------------------

    async def _bans(self, q: dict[str, list[str]]) -> list[dict[str, Any]]:
        active = _bool(q, "active", True)
        got = await self.hub.records.bans(
            active_at=int(time.time()) if active else None, limit=_int(q, "limit", 100, 1, LIMIT_MAX) or 100
        )
        return [b.to_dict() for b in got]

    async def _ban(self, q: dict[str, list[str]], actor: str) -> dict[str, Any]:
        kind = _text(q, "kind", required=True)
        value = _text(q, "value", required=True)
        reason = _text(q, "reason", required=True)
        assert kind is not None and value is not None and reason is not None
        minutes = _int(q, "minutes", None, 1, 60 * 24 * 365 * 100)
        if kind == "name":
            account = await self.hub.records.account_by_key(account_key(value))
            if account is None:
                raise AdminError(404, "not_found", "no account has that name")
            kind, value = "player", account.player
        if kind == "player":
            _id(value, "player")
        elif kind in ("addr", "net"):
            try:
                parsed = ipaddress.ip_address(value) if kind == "addr" else ipaddress.ip_network(value, strict=False)
                value = str(parsed)
            except ValueError:
                raise AdminError(400, "bad_request", f"not an {'address' if kind == 'addr' else 'network'}") from None
        else:
            raise AdminError(400, "bad_request", "`kind` is player, name, addr or net")
        until = int(time.time()) + minutes * 60 if minutes else None
        ban = await self.hub.moderation.ban(kind, value, reason, until, actor)
        await self._audit(actor, "ban", f"{kind}:{value}", {"id": ban.id, "reason": reason, "until": until})
        return ban.to_dict()

    async def _lift(self, bid: str, actor: str) -> dict[str, Any]:
        if not bid.isdigit() or len(bid) > 12:
            raise AdminError(400, "bad_request", "a ban id is a number")
        got = await self.hub.moderation.lift(int(bid))
        if got is None:
            raise AdminError(404, "not_found", f"no ban {bid}")
        await self._audit(actor, "lift_ban", bid, {"kind": got.kind, "value": got.value})
        return got.to_dict()

    # ---- rooms and chat --------------------------------------------------------------------------

    async def _rooms(self, q: dict[str, list[str]]) -> list[dict[str, Any]]:
        game, status, who = _text(q, "game"), _text(q, "status"), _text(q, "player")
        if status not in (None, "waiting", "playing"):
            raise AdminError(400, "bad_request", "`status` is waiting or playing")
        limit = _int(q, "limit", 100, 1, LIMIT_MAX) or 100
        key = account_key(who) if who else None
        out = []
        for room_id in (await self.hub.store.room_ids(unfinished_only=True))[-ROOMS_SCANNED:]:
            meta = await self.hub.meta_of(room_id)
            if meta is None or (game and meta.game != game) or (status and meta.status != status):
                continue
            if who and who not in meta.players and key not in {account_key(n) for n in meta.names if n}:
                continue
            out.append({"room": meta.room, "game": meta.game, "status": meta.status, "public": meta.public,
                        "seats": meta.seats, "players": list(meta.players), "names": list(meta.names),
                        "host": meta.host, "created": meta.created, "v": meta.v})  # fmt: skip
            if len(out) >= limit:
                break
        return out

    async def _close(self, room_id: str, q: dict[str, list[str]], actor: str) -> dict[str, Any]:
        _id(room_id, "room")
        reason = _text(q, "reason", required=True)
        assert reason is not None
        meta = await self.hub.meta_of(room_id)
        if meta is None:
            raise AdminError(404, "not_found", f"no room {room_id}")
        if meta.status == "finished":
            raise AdminError(400, "bad_request", "the room is finished already")
        if not await self.hub.moderation.close_room(room_id, reason):
            raise AdminError(503, "unavailable", "the room's node did not answer; retry")
        await self._audit(actor, "close_room", room_id, {"reason": reason})
        return {"room": room_id, "closed": "moderator", "reason": reason}

    async def _delete_chat(self, where: str, line: str, actor: str) -> dict[str, Any]:
        room = None if where == "lobby" else _id(where, "room")
        _id(line, "line")
        gone = await self.hub.moderation.delete_chat(room, line)
        if gone is None:
            raise AdminError(404, "not_found", "no such chat line (kept lines only)")
        await self._audit(actor, "delete_chat", f"{where}/{line}",
                          {"from": gone.get("from"), "name": gone.get("name"), "text": gone.get("text")})  # fmt: skip
        return {"room": room, "line": line, "deleted": {k: gone.get(k) for k in ("from", "name", "text", "at")}}

    # ---- players ---------------------------------------------------------------------------------

    async def _player(self, q: dict[str, list[str]]) -> dict[str, Any]:
        records = self.hub.records
        name, pid = _text(q, "name"), _text(q, "player")
        account = None
        if name:
            account = await records.account_by_key(account_key(name))
            if account is None:
                raise AdminError(404, "not_found", "no account has that name (guests are looked up by `player`)")
            pid = account.player
        elif pid:
            _id(pid, "player")
            account = await records.account(pid)
        else:
            raise AdminError(400, "bad_request", "give `name` or `player`")
        assert pid is not None
        devices = await records.devices(pid) if account is not None else []
        games = await records.history(None, pid, 20)
        now = int(time.time())
        bans = [b.to_dict() for b in await records.bans(limit=LIMIT_MAX) if b.kind == "player" and b.value == pid]
        return {
            "player": pid,
            "account": None if account is None else {"name": account.name, "created_at": account.created_at},
            "online": pid in self.hub.players,
            # a device's label and times only: never its token hash
            "devices": [{"device": d.device, "created_at": d.created_at, "last_seen": d.last_seen} for d in devices],
            "games": [{k: v for k, v in g.items() if not k.startswith("_")} for g in games],
            "reports": [r.to_dict() for r in await records.reports(open_only=False, player=pid, limit=50)],
            "bans": bans,
            "banned": any(b["lifted_at"] is None and (b["until"] is None or b["until"] > now) for b in bans),
        }


# ---- the OpenAPI description -----------------------------------------------------------------------


def _param(name: str, where: str = "query", required: bool = False, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema or {"type": "string"}}


def _op(summary: str, params: list[dict[str, Any]], answer: dict[str, Any], errors: tuple[int, ...] = ()) -> Any:
    responses: dict[str, Any] = {"200": {"description": "done", "content": {"application/json": {"schema": answer}}}}
    for status in (400, 401, 404, 503, *errors):
        responses[str(status)] = {"$ref": "#/components/responses/Error"}
    return {"summary": summary, "parameters": params, "responses": responses, "security": [{"bearer": []}]}


_OBJ = {"type": "object"}
_LIST = {"type": "array", "items": {"type": "object"}}
_TEXT = {"type": "string", "minLength": 1, "maxLength": TEXT_MAX}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX}


def openapi() -> dict[str, Any]:
    """The API as OpenAPI 3.0 (tested by schemathesis: tests/net/test_admin_api.py)."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "marcopolo administration", "version": "1.2",
                 "description": "Moderation of one deployment; every action is kept in the audit log."},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "responses": {"Error": {"description": "refused", "content": {"application/json": {"schema": {
                "type": "object", "required": ["error", "message"],
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}}}}}}},
        },
        "security": [{"bearer": []}],
        "paths": {
            "/admin/reports": {"get": _op("Reports, newest first", [
                _param("status", enum=["open", "all"], type="string"), _param("player"),
                _param("limit", **_LIMIT)], _LIST)},
            "/admin/reports/{id}/resolve": {"post": _op("Resolve a report", [
                _param("id", "path", type="integer", minimum=1), _param("resolution", required=True, **_TEXT)], _OBJ)},
            "/admin/bans": {
                "get": _op("Bans, newest first", [_param("active", type="boolean"), _param("limit", **_LIMIT)], _LIST),
                "post": _op("Ban an account, a name's account, an address or a network", [
                    _param("kind", required=True, type="string", enum=["player", "name", "addr", "net"]),
                    _param("value", required=True, **_TEXT), _param("reason", required=True, **_TEXT),
                    _param("minutes", type="integer", minimum=1, maximum=60 * 24 * 365 * 100)], _OBJ),
            },
            "/admin/bans/{id}": {"delete": _op("Lift a ban", [_param("id", "path", type="integer", minimum=1)], _OBJ)},
            "/admin/rooms": {"get": _op("Unfinished rooms", [
                _param("game"), _param("status", type="string", enum=["waiting", "playing"]), _param("player"),
                _param("limit", **_LIMIT)], _LIST)},
            "/admin/rooms/{room}/close": {"post": _op("Close a room (its viewers see the reason)", [
                _param("room", "path"), _param("reason", required=True, **_TEXT)], _OBJ)},
            "/admin/chat/{room}/{line}": {"delete": _op("Delete a chat line everywhere (`lobby`: the lobby's)", [
                _param("room", "path"), _param("line", "path")], _OBJ)},
            "/admin/players": {"get": _op("A player: account, devices, games, reports, bans", [
                _param("name"), _param("player")], _OBJ)},
            "/admin/audit": {"get": _op("The audit log, newest first", [
                _param("limit", **_LIMIT), _param("before", type="integer", minimum=1)], _LIST)},
            "/admin/openapi.json": {"get": _op("This description", [], _OBJ)},
        },
    }
