"""Every message of the wire contract (v1) as a pydantic model.

Owns: one model per message type, discriminated on the string field `t`, gathered in the
`ClientMessage` and `ServerMessage` unions and in the `CLIENT_TYPES` / `SERVER_TYPES` tables;
the shapes carried inside them (`RoomInfo`, `HeldSeat`, the view `View`, patch operations);
and the size bounds of the contract.
Must not: do I/O or know about msgpack (that is `protocol.codec`), or know any game's rules.

Every model is strict (ints never accept "3", 3.0 or True), frozen, and rejects unknown
fields. A field with a None default is optional on the wire and left out when None; every
other field is always sent. Free-form maps (`move`, `options`, views) are checked by the
codec to hold JSON-like values only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator
from typing_extensions import TypedDict

from .errors import ErrorCode, ProtocolError

PROTOCOL_VERSION = 1

MAX_SEATS = 8
NAME_MAX = 32
ID_MAX = 64
TOKEN_MAX = 128
#: v1.2: the longest password (characters); the server sets the shortest (`--password-min`, 8)
PASSWORD_MAX = 256
GAME_ID_MAX = 32
AUTH_MAX = 512
INVITE_MAX = 64
PAGE_MAX = 1000
MAX_FRAME = 64 * 1024
MAX_DEPTH = 32

# Printable ASCII without spaces: safe in logs, URLs and keys.
_ID_PATTERN = r"^[!-~]+$"
# No control characters, no leading or trailing whitespace.
_CTRL = r"\x00-\x1f\x7f-\x9f"
_NAME_PATTERN = rf"^[^\s{_CTRL}]([^{_CTRL}]*[^\s{_CTRL}])?$"

MsgId = Annotated[int, Field(ge=-(2**63), le=2**64 - 1)]
"""A request `id` / answer `re`: any integer msgpack can carry."""
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=_NAME_PATTERN)]
RoomId = Annotated[str, Field(min_length=1, max_length=ID_MAX, pattern=_ID_PATTERN)]
PlayerId = Annotated[str, Field(min_length=1, max_length=ID_MAX, pattern=_ID_PATTERN)]
Token = Annotated[str, Field(min_length=1, max_length=TOKEN_MAX, pattern=_ID_PATTERN)]
GameId = Annotated[str, Field(min_length=1, max_length=GAME_ID_MAX, pattern=_ID_PATTERN)]
Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
SeatCount = Annotated[int, Field(ge=1, le=MAX_SEATS)]
Version = Annotated[int, Field(ge=0, le=2**63 - 1)]
Status = Literal["waiting", "playing", "finished"]
BotLevel = Literal["random", "greedy", "search", "easy", "normal", "hard"]
JsonMap = dict[str, Any]
"""A free-form map; the codec checks it holds JSON-like values only."""
#: a live room's clock is at most a day (86400 s); a turn-based room's (v1.2) up to 14 days
TURN_SECONDS_LIVE_MAX = 86400
TURN_SECONDS_MAX = 14 * 86400
TurnSeconds = Annotated[int, Field(ge=10, le=TURN_SECONDS_MAX)]
#: (v1.2) a seat's time bank: up to 14 days (a turn-based room), a live room's up to a day (as its clock)
TimeBankSeconds = Annotated[int, Field(ge=0, le=TURN_SECONDS_MAX)]
#: (v1.2) what happens when a turn-based seat's time runs out
OnExpiry = Literal["wait", "bot", "end"]
FillSeconds = Annotated[int, Field(ge=1, le=86400)]
CHAT_MAX = 500
ChatText = Annotated[str, Field(min_length=1, max_length=CHAT_MAX)]
Pointer = Annotated[str, Field(pattern=r"^(/([^~]|~[01])*)*$")]
"""An RFC 6901 JSON Pointer: empty (the whole document) or `/`-separated, `~0`/`~1` escaped."""


def _require_t(schema: dict[str, Any]) -> None:
    """JSON Schema: `t` has a default in Python but is required on the wire."""
    required = schema.setdefault("required", [])
    if "t" not in required:
        required.insert(0, "t")


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, json_schema_extra=_require_t)


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# ---- shapes carried inside messages -------------------------------------------------------


class RoomInfo(_Shape):
    """One room as the lobby lists it; `players` has one entry per seat (a name or None)."""

    room: RoomId
    game: GameId
    seats: SeatCount
    players: list[Name | None]
    status: Status
    public: bool
    #: addition: each seat's public rating in the game (the leaderboard's figure; None: free or not rated yet)
    ratings: list[int | None] | None = None
    #: (v1.2 addition) `turn_based` for a room played over days (absent: live)
    mode: Literal["live", "turn_based"] | None = None
    #: (v1.2 addition) true: every person of this game is away (a live game leaves the list after a while)
    away: bool | None = None
    #: (v1.2 addition) per seat: true for a person playing as a guest, false for an account, None for a free
    #: seat or a bot
    guests: list[bool | None] | None = None

    @model_validator(mode="after")
    def _one_entry_per_seat(self) -> Self:
        per_seat = (self.players, self.ratings, self.guests)
        if any(x is not None and len(x) != self.seats for x in per_seat):
            raise ValueError(f"players (ratings, guests) must have one entry per seat ({self.seats})")
        return self


class HeldSeat(_Shape):
    """A seat the player holds, listed in `welcome` so a reconnected client can re-join it."""

    room: RoomId
    game: GameId
    seat: Seat


class Prompt(TypedDict):
    """What a seat may do now: each option is a complete move to send back as `move`."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    text: str
    options: list[JsonMap]
    #: (v1.2) present and true while the seat may take back the decisions of its current turn (`undo`)
    undo: NotRequired[bool]


class Clock(_Shape):
    """The view's top-level `clock`: the seats the clock runs for and when it runs out (ms since the epoch)."""

    seats: list[Seat]
    deadline: Annotated[int, Field(ge=0)]
    #: (addition) seats a bot plays after `max_expiries` expiries in a row
    auto: list[Seat] | None = None
    #: (v1.2 addition, turn-based `on_expiry: wait`) seats whose time ran out: the game waits for them
    late: list[Seat] | None = None
    #: (v1.2 addition, a room with `time_bank_seconds`) per seat, the ms left in its time bank at `deadline` (nil: a
    #: seat without one, a server bot's); a seat of `seats` runs out of time at `deadline + bank[seat]`
    bank: Annotated[list[Annotated[int, Field(ge=0)] | None], Field(max_length=MAX_SEATS)] | None = None


class ClockMove(_Shape):
    """(v1.2) One of the view's top-level `clock_moves`: a move the turn clock made for a late seat."""

    seat: Seat
    #: `expired`: the seat's time ran out and the clock played its bot's move; `auto`: a bot plays the seat after
    #: `max_expiries` expiries in a row
    by: Literal["expired", "auto"]
    #: the room version the move made
    v: Version
    #: the running numbers `n` of the public log events the move added, first and last (absent: it added none)
    n_from: Annotated[int, Field(ge=0)] | None = None
    n_to: Annotated[int, Field(ge=0)] | None = None


class View(TypedDict):
    """What one viewer sees (`snapshot.state`); games may add keys beyond these."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]
    game: GameId
    you: Seat | None
    public: JsonMap
    private: JsonMap | None
    prompt: Prompt | None
    result: JsonMap | None
    #: (v1.1 addition) the turn clock, while it runs for some seat
    clock: NotRequired[Clock]
    #: (v1.2 addition) the turn clock's last moves for late seats, oldest first (at most 16)
    clock_moves: NotRequired[Annotated[list[ClockMove], Field(max_length=16)]]


class OpAdd(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    op: Literal["add"]
    path: Pointer
    value: Any


class OpRemove(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    op: Literal["remove"]
    path: Pointer


class OpReplace(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    op: Literal["replace"]
    path: Pointer
    value: Any


class OpTest(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    op: Literal["test"]
    path: Pointer
    value: Any


# `from` is a keyword, hence the functional syntax.
OpMove = TypedDict("OpMove", {"op": Literal["move"], "from": Pointer, "path": Pointer})
OpCopy = TypedDict("OpCopy", {"op": Literal["copy"], "from": Pointer, "path": Pointer})
for _op in (OpMove, OpCopy):
    setattr(_op, "__pydantic_config__", ConfigDict(extra="forbid"))  # noqa: B010
PatchOp = Annotated[OpAdd | OpRemove | OpReplace | OpMove | OpCopy | OpTest, Field(discriminator="op")]
"""One RFC 6902 operation. Diffs made by `protocol.patch` use only add, remove and replace."""


# ---- client -> server ---------------------------------------------------------------------


class _Request(_Message):
    id: MsgId | None = None


class Hello(_Request):
    """First message of a connection; a known `token` resumes that player."""

    t: Literal["hello"] = "hello"
    name: Name
    token: Token | None = None
    #: on a closed server, the shared secret or a signed token (docs/security.md); ignored otherwise
    auth: Annotated[str, Field(min_length=1, max_length=AUTH_MAX, pattern=_ID_PATTERN)] | None = None


class ListRooms(_Request):
    """Ask for the public rooms that are waiting or playing, optionally of one game."""

    t: Literal["list_rooms"] = "list_rooms"
    game: GameId | None = None
    #: paging: skip `offset` rooms, return at most `limit` (the server caps `limit` at its lobby size)
    offset: Annotated[int, Field(ge=0, le=2**31)] | None = None
    limit: Annotated[int, Field(ge=1, le=PAGE_MAX)] | None = None


class WatchLobby(_Request):
    """Ask for the room list now and a `lobby` push whenever it changes."""

    t: Literal["watch_lobby"] = "watch_lobby"


class UnwatchLobby(_Request):
    """Stop the `lobby` pushes."""

    t: Literal["unwatch_lobby"] = "unwatch_lobby"


class Create(_Request):
    """Create a room; the creator is not seated and joins like anyone."""

    t: Literal["create"] = "create"
    game: GameId
    seats: SeatCount
    options: JsonMap | None = None
    public: bool = True
    #: how many of the last seats the server fills with its own bots (at least one seat stays for people),
    #: or one level per bot seat (`random`/`greedy`/`search`, or the labels `easy`/`normal`/`hard`)
    bots: Annotated[int, Field(ge=0, le=MAX_SEATS - 1)] | Annotated[list[BotLevel], Field(max_length=MAX_SEATS - 1)] = 0
    #: v1.1: seconds per move (a clock in every view; on expiry the server plays the late seat's bot move)
    turn_seconds: TurnSeconds | None = None
    #: v1.1: seconds after which a waiting room's empty seats are filled with server bots
    fill_bots_after: FillSeconds | None = None
    #: v1.1: expiries in a row after which a bot plays the seat until its player moves again (default 3)
    max_expiries: Annotated[int, Field(ge=1, le=100)] | None = None
    #: (v1.2) `turn_based`: played over days; `turn_seconds` up to 14 days (default 3 days), away players never
    #: close the room, and `on_expiry` says what a late seat's expiry does
    mode: Literal["live", "turn_based"] | None = None
    #: (v1.2, turn-based rooms) `wait` (default: the seat is marked late and the game waits for it), `bot` (the
    #: seat's bot moves), `end` (the game ends, the late seat named)
    on_expiry: OnExpiry | None = None
    #: (v1.2) each person's seat gets a time bank of this many seconds (0 or absent: none): once the seat's per-move
    #: deadline passes its bank runs down, and only an empty bank lets the expiry rule apply; a move after the
    #: deadline pays the overrun from the bank. Up to 14 days (turn-based) or a day (live, which needs
    #: `turn_seconds`)
    time_bank_seconds: TimeBankSeconds | None = None

    @model_validator(mode="after")
    def _clock_of_its_mode(self) -> Self:
        turn_based = self.mode == "turn_based"
        if not turn_based and self.turn_seconds is not None and self.turn_seconds > TURN_SECONDS_LIVE_MAX:
            raise ValueError(f"a live room's turn_seconds is at most {TURN_SECONDS_LIVE_MAX} (longer: turn_based)")
        if self.on_expiry is not None and not turn_based:
            raise ValueError("on_expiry is for turn_based rooms")
        if self.time_bank_seconds and not turn_based:
            if self.turn_seconds is None:
                raise ValueError("a time bank needs a clock: turn_seconds (or mode turn_based)")
            if self.time_bank_seconds > TURN_SECONDS_LIVE_MAX:
                raise ValueError(f"a live room's time_bank_seconds is at most {TURN_SECONDS_LIVE_MAX}")
        return self


class Join(_Request):
    """Take a seat (the lowest free one without `seat`), re-attach to a held one, or watch."""

    t: Literal["join"] = "join"
    room: RoomId
    seat: Seat | None = None
    spectate: bool = False
    #: the invite secret of a private room (from `created.invite`); needed to take a seat in or watch it
    invite: Annotated[str, Field(min_length=1, max_length=INVITE_MAX, pattern=_ID_PATTERN)] | None = None

    @model_validator(mode="after")
    def _seat_or_spectate(self) -> Self:
        if self.spectate and self.seat is not None:
            raise ValueError("a spectator takes no seat")
        return self


class Move(_Request):
    """One decision in a room: one of the options of the mover's prompt."""

    t: Literal["move"] = "move"
    room: RoomId
    move: JsonMap
    #: the room version the move was made against (optional); when given and not current: `stale`
    v: Version | None = None


class Undo(_Request):
    """(v1.2) Take back the decisions of the seat's current turn, while its prompt offers `undo: true`; answered by
    the mover's patch, then `ok` with the new version (`illegal_move` when the prompt does not offer it)."""

    t: Literal["undo"] = "undo"
    room: RoomId
    #: the room version the undo was asked at (optional); when given and not current: `stale`
    v: Version | None = None


class Sync(_Request):
    """Ask for a fresh snapshot of a room (after a gap or a failed patch)."""

    t: Literal["sync"] = "sync"
    room: RoomId


class Leave(_Request):
    """Leave a room: frees the seat before the start; keeps it (disconnected) after."""

    t: Literal["leave"] = "leave"
    room: RoomId


class Ping(_Request):
    """Liveness check; answered by `pong`."""

    t: Literal["ping"] = "ping"


# ---- client -> server, v1.1: public lobbies (DESIGN.md section 3b) --------------------------


class QuickMatch(_Request):
    """A seat in the fullest waiting public room of that game with those seats and options, or a new one."""

    t: Literal["quick_match"] = "quick_match"
    game: GameId
    seats: SeatCount
    options: JsonMap | None = None
    #: for a room created by the match (an existing room keeps its own)
    turn_seconds: Annotated[int, Field(ge=10, le=TURN_SECONDS_LIVE_MAX)] | None = None
    fill_bots_after: FillSeconds | None = None


class ChatSend(_Request):
    """A chat line to a room's viewers, or without `room` to every lobby watcher; plain text."""

    t: Literal["chat"] = "chat"
    room: RoomId | None = None
    text: ChatText


class ChatLog(_Request):
    """The chat kept with a room (or the lobby's, without `room`), oldest first."""

    t: Literal["chat_log"] = "chat_log"
    room: RoomId | None = None


class HistoryRequest(_Request):
    """Finished games, newest first, optionally of one game or one player."""

    t: Literal["history"] = "history"
    game: GameId | None = None
    player: PlayerId | None = None


class ReplayRequest(_Request):
    """A finished room's spectator view at version `v` (default 0)."""

    t: Literal["replay"] = "replay"
    room: RoomId
    v: Version | None = None


class RatingsRequest(_Request):
    """The leaderboard of one game."""

    t: Literal["ratings"] = "ratings"
    game: GameId
    #: (v1.2 addition) paging: skip `offset` rows, return at most `limit` (the server caps it at 100)
    offset: Annotated[int, Field(ge=0, le=2**31)] | None = None
    limit: Annotated[int, Field(ge=1, le=PAGE_MAX)] | None = None


class PlayerRequest(_Request):
    """(v1.2 addition) A player's page: name, ratings in each game with rank, recent games with the rating after
    each; answered by `player`."""

    t: Literal["player"] = "player"
    player: PlayerId


class Rematch(_Request):
    """A seated player of a finished room opens a new room with the same game, seats and options."""

    t: Literal["rematch"] = "rematch"
    room: RoomId


class GameLogRequest(_Request):
    """The whole public log of a game the sender views (seated or watching), oldest first (addition)."""

    t: Literal["game_log"] = "game_log"
    room: RoomId


class Autoplay(_Request):
    """A seated player hands its seat to a server bot of `level` until it moves again; `level` None takes it
    back (addition). The bot sees only that seat's view, as every server bot."""

    t: Literal["autoplay"] = "autoplay"
    room: RoomId
    level: BotLevel | None = None


HostAction = Literal["kick", "add_bot", "remove_bot", "options", "start", "mute", "unmute"]


class Host(_Request):
    """The room's creator, before the start: remove a player, add or remove a bot, change options, start;
    (v1.2 additions) while the room waits or plays: `mute` / `unmute` a seat's chat."""

    t: Literal["host"] = "host"
    room: RoomId
    action: HostAction
    seat: Seat | None = None
    options: JsonMap | None = None


# ---- client -> server, v1.2: accounts (DESIGN.md section 3c) --------------------------------

Password = Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]
#: v1.2: what a client calls the device it signs in on (shown in the account's list of devices)
DeviceLabel = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=_NAME_PATTERN)]
#: v1.2: a device of an account as the list names it (never its token)
DeviceId = Annotated[str, Field(min_length=1, max_length=ID_MAX, pattern=_ID_PATTERN)]


class SignUp(_Request):
    """Make an account with this name and password; answered by `welcome` with `account: true`. On a connection
    that said `hello` as a guest, the guest's player id becomes the account's (its games and seats stay)."""

    t: Literal["sign_up"] = "sign_up"
    name: Name
    password: Password
    #: (addition) what the account's list of devices calls this one
    device: DeviceLabel | None = None


class SignIn(_Request):
    """Sign in to an account; answered by `welcome` (the account's player id, a new token for this device)."""

    t: Literal["sign_in"] = "sign_in"
    name: Name
    password: Password
    #: (addition) what the account's list of devices calls this one
    device: DeviceLabel | None = None


class SignOut(_Request):
    """Stop this connection's token (`everywhere`: every token of the account); answered by `ok`, then the
    server closes the connection (4002)."""

    t: Literal["sign_out"] = "sign_out"
    everywhere: bool | None = None
    #: (addition) sign out only that other device of the account (an `id` of `devices`); this one stays
    device: DeviceId | None = None


class DevicesRequest(_Request):
    """(addition) The devices the account is signed in on; answered by `devices`."""

    t: Literal["devices"] = "devices"


class ChangePassword(_Request):
    """(addition) A new password; answered by `ok`. Every other device of the account is signed out."""

    t: Literal["change_password"] = "change_password"
    password: Password
    new_password: Password


class DeleteAccount(_Request):
    """(addition) Delete the account (its password confirms it); answered by `ok`, then the connection closes
    (4002). Its games stay in the archive under "deleted player"; its name is free after a waiting period."""

    t: Literal["delete_account"] = "delete_account"
    password: Password


# ---- client -> server, v1.2: moderation (DESIGN.md section 3c) ------------------------------

ReportReason = Annotated[str, Field(min_length=1, max_length=500)]


class Block(_Request):
    """(v1.2) Receive no chat line of `player` any more (rooms and lobby); it cannot join a room you host."""

    t: Literal["block"] = "block"
    player: PlayerId
    #: the name the client showed for that player (kept with the block, listed by `blocks`)
    name: Name | None = None


class Unblock(_Request):
    """(v1.2) Lift your block of `player`."""

    t: Literal["unblock"] = "unblock"
    player: PlayerId


class BlocksRequest(_Request):
    """(v1.2 addition) The players you block; answered by `blocks`."""

    t: Literal["blocks"] = "blocks"


class MyGamesRequest(_Request):
    """(v1.2) Every unfinished room where the player holds a seat, from every node; answered by `my_games`."""

    t: Literal["my_games"] = "my_games"


class ReportRequest(_Request):
    """(v1.2) Report `player` to the server's moderators, with the context of `room` (None: the lobby)."""

    t: Literal["report"] = "report"
    player: PlayerId
    room: RoomId | None = None
    reason: ReportReason


# ---- client -> server, v1.2: signals of turn-based games -------------------------------------

#: the longest delay an account may ask before its turn's signals (minutes: 14 days, the longest turn)
NOTIFY_DELAY_MAX = 14 * 24 * 60
#: an e-mail address as `notify` takes it ("": none); the server checks its shape
EmailAddress = Annotated[str, Field(max_length=254, pattern=r"^[^\s\x00-\x1f\x7f]*$")]
#: a webhook as `notify` takes it ("": none); the server checks its scheme and where it leads
WebhookUrl = Annotated[str, Field(max_length=2000, pattern=r"^[^\s\x00-\x1f\x7f]*$")]
NotifyDelay = Annotated[int, Field(ge=0, le=NOTIFY_DELAY_MAX)]
#: (v1.2 addition) a push service's URL for one browser (a PushSubscription's `endpoint`); the server checks its
#: scheme and where it leads as a webhook's
PushEndpoint = Annotated[str, Field(min_length=1, max_length=2000, pattern=r"^[^\s\x00-\x1f\x7f]+$")]
_B64URL = r"^[A-Za-z0-9_-]+={0,2}$"
#: the channels a server may send turn signals by
SignalChannel = Literal["email", "webhook", "push"]


class PushKeys(_Shape):
    """(v1.2 addition) A PushSubscription's keys, base64url: `p256dh` the browser's P-256 public key (65 bytes, an
    uncompressed point), `auth` its 16-byte authentication secret (RFC 8291)."""

    p256dh: Annotated[str, Field(min_length=86, max_length=88, pattern=_B64URL)]
    auth: Annotated[str, Field(min_length=22, max_length=24, pattern=_B64URL)]


class PushSubscription(_Shape):
    """(v1.2 addition) One browser's web push subscription: `PushSubscription.toJSON()` without `expirationTime`."""

    endpoint: PushEndpoint
    keys: PushKeys


class NotifyRequest(_Request):
    """(v1.2 addition) An account's signals of turn-based games: read them (no field) or change them; answered by
    `notify`. A field left out (or nil) stays as it was; an empty string removes that address. `new_secret`: the
    webhook's signing secret is replaced."""

    t: Literal["notify"] = "notify"
    email: EmailAddress | None = None
    webhook: WebhookUrl | None = None
    delay_minutes: NotifyDelay | None = None
    new_secret: bool | None = None
    #: (addition) web push: a subscription to add (or renew: the same endpoint), or "" to remove every one
    push: PushSubscription | Literal[""] | None = None
    #: (addition) web push: the endpoint of a subscription to remove (this browser's, turning it off)
    push_remove: PushEndpoint | None = None


ClientMessage = Annotated[
    Hello
    | ListRooms
    | WatchLobby
    | UnwatchLobby
    | Create
    | Join
    | Move
    | Undo
    | Sync
    | Leave
    | Ping
    | QuickMatch
    | ChatSend
    | ChatLog
    | HistoryRequest
    | ReplayRequest
    | RatingsRequest
    | Rematch
    | Host
    | GameLogRequest
    | Autoplay
    | SignUp
    | SignIn
    | SignOut
    | DevicesRequest
    | ChangePassword
    | DeleteAccount
    | PlayerRequest
    | Block
    | Unblock
    | BlocksRequest
    | ReportRequest
    | MyGamesRequest
    | NotifyRequest,
    Field(discriminator="t"),
]


# ---- server -> client ---------------------------------------------------------------------


class _Answer(_Message):
    re: MsgId | None = None


class Welcome(_Answer):
    """Answer to `hello`: the player's id and token, and the seats it holds."""

    t: Literal["welcome"] = "welcome"
    player: PlayerId
    token: Token
    rooms: list[HeldSeat]
    #: v1.2: the player is an account (signed up or in); false: a guest
    account: bool | None = None
    #: v1.2: the name the player is shown by (an account's own name, whatever `hello` said)
    name: Name | None = None


class Rooms(_Answer):
    """Answer to `list_rooms`, `watch_lobby` and `unwatch_lobby`."""

    t: Literal["rooms"] = "rooms"
    rooms: list[RoomInfo]
    #: how many rooms match in all (the list is one page of them)
    total: Annotated[int, Field(ge=0)] | None = None


class Lobby(_Message):
    """Push to lobby watchers: the full room list, whenever it changes."""

    t: Literal["lobby"] = "lobby"
    rooms: list[RoomInfo]
    #: how many rooms are listed in all (a push holds at most the server's lobby size)
    total: Annotated[int, Field(ge=0)] | None = None


class Created(_Answer):
    """Answer to `create`."""

    t: Literal["created"] = "created"
    room: RoomId
    #: a private room's invite secret (only the creator gets it; `join` needs it)
    invite: Annotated[str, Field(min_length=1, max_length=INVITE_MAX, pattern=_ID_PATTERN)] | None = None


class Joined(_Answer):
    """Answer to `join`, followed by a `snapshot`; `seat` is None (sent as nil) for a spectator."""

    t: Literal["joined"] = "joined"
    room: RoomId
    seat: Seat | None


class Snapshot(_Answer):
    """The viewer's whole view at version `v`; resets the viewer's base. `re` only for `sync`."""

    t: Literal["snapshot"] = "snapshot"
    room: RoomId
    v: Version
    state: View


class Patch(_Message):
    """Push: the change of one viewer's view from version `base` to `v = base + 1`."""

    t: Literal["patch"] = "patch"
    room: RoomId
    base: Version
    v: Version
    ops: list[PatchOp]

    @model_validator(mode="after")
    def _one_step(self) -> Self:
        if self.v != self.base + 1:
            raise ValueError("v must be base + 1")
        return self


class Ok(_Answer):
    """Answer to `move`, sent after the mover's patch; `v` is the room's version after the move.

    v1.1: also the answer to `chat`, without `v` (`v` is always sent in the answer to a move).
    """

    t: Literal["ok"] = "ok"
    v: Version | None = None


class Left(_Answer):
    """Answer to `leave`."""

    t: Literal["left"] = "left"
    room: RoomId


class Error(_Answer):
    """The request failed; `re` is absent when the frame could not be decoded far enough."""

    t: Literal["error"] = "error"
    code: ErrorCode
    message: str

    @classmethod
    def from_protocol_error(cls, exc: ProtocolError) -> Error:
        """The answer to send for a frame that failed to decode."""
        return cls(re=exc.re, code=exc.code, message=exc.message)


class Pong(_Answer):
    """Answer to `ping`."""

    t: Literal["pong"] = "pong"


# ---- server -> client, v1.1 --------------------------------------------------------------


class ChatLine(_Shape):
    """One chat line; `room` is None for the lobby; `at` in milliseconds since the epoch."""

    room: RoomId | None
    #: the sender's player id
    sender: PlayerId = Field(alias="from")
    name: Name
    text: ChatText
    at: Annotated[int, Field(ge=0)]
    #: (v1.2 addition) true: the sender played as a guest (no account)
    guest: bool | None = None
    #: (v1.2 addition) the line's id (what `chat_deleted` names)
    line: Annotated[str, Field(min_length=1, max_length=64)] | None = None

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True, serialize_by_alias=True)


class Chat(_Message):
    """Push: a chat line, to every viewer of the room (or every lobby watcher)."""

    t: Literal["chat"] = "chat"
    room: RoomId | None
    sender: PlayerId = Field(alias="from")
    name: Name
    text: ChatText
    at: Annotated[int, Field(ge=0)]
    #: (v1.2 addition) true: the sender played as a guest (no account)
    guest: bool | None = None
    #: (v1.2 addition) the line's id (what `chat_deleted` names)
    line: Annotated[str, Field(min_length=1, max_length=64)] | None = None

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        populate_by_name=True,
        serialize_by_alias=True,
        json_schema_extra=_require_t,
    )


class ChatLogAnswer(_Answer):
    """Answer to `chat_log`."""

    t: Literal["chat_log"] = "chat_log"
    room: RoomId | None
    messages: list[ChatLine]


class GameRecord(_Shape):
    """One finished game in `history`; `players` has one name per seat, `finished_at` in ms since the epoch."""

    room: RoomId
    game: GameId
    seats: SeatCount
    players: list[Name | None]
    result: JsonMap | None
    finished_at: Annotated[int, Field(ge=0)]
    #: (v1.2 addition) per seat: true for a person who was a guest when the game ended, false for an account,
    #: None for a bot or a free seat (absent in games archived before v1.2)
    guests: list[bool | None] | None = None


class History(_Answer):
    """Answer to `history`: finished games, newest first, bounded."""

    t: Literal["history"] = "history"
    games: list[GameRecord]


class Replay(_Answer):
    """Answer to `replay`: the spectator's view of a finished room at version `v` of `last`, and its seed."""

    t: Literal["replay"] = "replay"
    room: RoomId
    v: Version
    last: Version
    seed: Annotated[int, Field(ge=0)]
    state: View
    #: additions: the room's game options and seat count (what a re-run of the game from `seed` needs)
    options: JsonMap | None = None
    seats: SeatCount | None = None


class Rated(_Shape):
    """One leaderboard row; `rating` is the OpenSkill ordinal (mu - 3 sigma) times 100, rounded."""

    player: PlayerId
    name: Name
    rating: int
    games: Annotated[int, Field(ge=0)]
    #: (v1.2 additions) the place on the game's leaderboard (1: the best); fewer than 5 rated games
    rank: Annotated[int, Field(ge=1)] | None = None
    provisional: bool | None = None


class Ratings(_Answer):
    """Answer to `ratings`, best first."""

    t: Literal["ratings"] = "ratings"
    game: GameId
    players: list[Rated]
    #: (v1.2 additions) the page's first row's place minus one; the asking player's own row, wherever it is
    offset: Annotated[int, Field(ge=0)] | None = None
    me: Rated | None = None


class GameRating(_Shape):
    """(v1.2 addition) A player's rating in one game, on its page."""

    game: GameId
    rating: int
    games: Annotated[int, Field(ge=0)]
    rank: Annotated[int, Field(ge=1)]
    provisional: bool


class PlayerPage(_Answer):
    """(v1.2 addition) Answer to `player`: `games` are its finished games, newest first, as `history` lists
    them, each with `rating`, the player's rating in that game after it (absent: the game did not rate it)."""

    t: Literal["player"] = "player"
    player: PlayerId
    name: Name | None = None
    account: bool
    ratings: list[GameRating]
    games: list[JsonMap]


class RematchOpened(_Answer):
    """Answer to `rematch` (`re`), and a push to every viewer of the finished room (no `re`)."""

    t: Literal["rematch"] = "rematch"
    room: RoomId
    new: RoomId
    #: the new room's invite (it is unlisted): sent to the finished room's players only
    invite: Annotated[str, Field(min_length=1, max_length=INVITE_MAX, pattern=_ID_PATTERN)] | None = None


class HostDone(_Answer):
    """Answer to `host`; the change itself arrives as the room's next patch."""

    t: Literal["host"] = "host"
    room: RoomId
    v: Version


class AutoplayDone(_Answer):
    """Answer to `autoplay`; the seat's new `autoplay` level arrives as the room's next patch."""

    t: Literal["autoplay"] = "autoplay"
    room: RoomId
    v: Version


class GameLog(_Answer):
    """Answer to `game_log`: every public log event of the game up to version `v`, oldest first (addition).

    The events are those of the game's public views (the same for every viewer), each with its running
    number `n`; a view's `public.log` holds only the last few of them."""

    t: Literal["game_log"] = "game_log"
    room: RoomId
    v: Version
    events: list[JsonMap]


class Closed(_Message):
    """Push to a room's viewers: the server closed the room (nobody joined, or every player went away)."""

    t: Literal["closed"] = "closed"
    room: RoomId
    reason: Literal["nobody_joined", "abandoned", "moderator", "timeout"]
    #: (v1.2 addition) with `moderator`: the reason the moderator gave, for the viewers
    message: Annotated[str, Field(max_length=500)] | None = None


class Blocked(_Shape):
    """(v1.2 addition) A player you block, with the name kept when you blocked it."""

    player: PlayerId
    name: Name | None = None


class Blocks(_Answer):
    """(v1.2 addition) Answer to `blocks`: the players you block, newest first."""

    t: Literal["blocks"] = "blocks"
    players: list[Blocked]


class MyGame(_Shape):
    """(v1.2) One unfinished room the player holds a seat in: `your_turn` when its seat has a prompt with
    options; `deadline` (ms since the epoch) when a clock runs for that seat."""

    room: RoomId
    game: GameId
    status: Status
    seat: Seat
    your_turn: bool
    deadline: Annotated[int, Field(ge=0)] | None = None
    #: (addition) `turn_based` or `live`, the seats' names, and whether the seat is marked late
    mode: Literal["live", "turn_based"] | None = None
    players: list[Name | None] | None = None
    late: bool | None = None
    #: (addition) when the seat runs out of time (ms since the epoch): the deadline plus its time bank; the
    #: deadline itself in a room without banks; None when no clock runs for the seat
    out_at: Annotated[int, Field(ge=0)] | None = None


class MyGames(_Answer):
    """(v1.2) Answer to `my_games`: the player's unfinished rooms, the most urgent first (its turn first, then the
    seat that runs out of time first, `out_at`, then the newest)."""

    t: Literal["my_games"] = "my_games"
    rooms: list[MyGame]


class ChatDeleted(_Message):
    """(v1.2 addition) Push: a moderator deleted chat line `line` of `room` (None: the lobby); clients drop it."""

    t: Literal["chat_deleted"] = "chat_deleted"
    room: RoomId | None
    line: Annotated[str, Field(min_length=1, max_length=64)]


class DeviceInfo(_Shape):
    """(addition) One device an account is signed in on."""

    id: DeviceId
    device: DeviceLabel
    #: Unix seconds of the sign-in
    created: Annotated[int, Field(ge=0)]
    #: this connection's device
    current: bool


class Devices(_Answer):
    """(addition) Answer to `devices`, newest sign-in first."""

    t: Literal["devices"] = "devices"
    devices: list[DeviceInfo]


class Notify(_Answer):
    """(v1.2 addition) Answer to `notify`: the account's signals as they are now (nil: not that way) and the
    webhook's signing secret (HMAC-SHA256 key of `X-Marcopolo-Signature`), shown to the account only."""

    t: Literal["notify"] = "notify"
    email: EmailAddress | None = None
    webhook: WebhookUrl | None = None
    delay_minutes: NotifyDelay
    secret: Annotated[str, Field(min_length=16, max_length=128, pattern=_ID_PATTERN)]
    #: (addition) the endpoints of the account's web push subscriptions, oldest first (one per browser)
    push: list[PushEndpoint] | None = None
    #: (addition) the server's VAPID public key (base64url, an uncompressed P-256 point: a subscription's
    #: `applicationServerKey`); nil: this server sends no web push
    push_key: Annotated[str, Field(min_length=86, max_length=88, pattern=_B64URL)] | None = None
    #: (addition) what this server sends: `email` (it has an SMTP server), `webhook`, `push` (it has a VAPID key)
    channels: list[SignalChannel] | None = None


ServerMessage = Annotated[
    Welcome
    | Rooms
    | Lobby
    | Created
    | Joined
    | Snapshot
    | Patch
    | Ok
    | Left
    | Error
    | Pong
    | Chat
    | ChatLogAnswer
    | History
    | Replay
    | Ratings
    | RematchOpened
    | HostDone
    | Closed
    | GameLog
    | AutoplayDone
    | Devices
    | PlayerPage
    | Blocks
    | ChatDeleted
    | MyGames
    | Notify,
    Field(discriminator="t"),
]

CLIENT_TYPES: dict[str, type[BaseModel]] = {
    m.model_fields["t"].default: m
    for m in (
        Hello, ListRooms, WatchLobby, UnwatchLobby, Create, Join, Move, Sync, Leave, Ping,
        QuickMatch, ChatSend, ChatLog, HistoryRequest, ReplayRequest, RatingsRequest, Rematch, Host,
        GameLogRequest, Autoplay, SignUp, SignIn, SignOut, DevicesRequest, ChangePassword, DeleteAccount,
        PlayerRequest, Block, Unblock, BlocksRequest, ReportRequest, MyGamesRequest, NotifyRequest, Undo,
    )
}
SERVER_TYPES: dict[str, type[BaseModel]] = {
    m.model_fields["t"].default: m
    for m in (
        Welcome, Rooms, Lobby, Created, Joined, Snapshot, Patch, Ok, Left, Error, Pong,
        Chat, ChatLogAnswer, History, Replay, Ratings, RematchOpened, HostDone, Closed, GameLog, AutoplayDone,
        Devices, PlayerPage, Blocks, ChatDeleted, MyGames, Notify,
    )
}
