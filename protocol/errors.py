"""Error codes of the wire contract and the exception for malformed frames.

Owns: the closed list of `code` values an `error` message may carry (`ErrorCode`, with one
line of meaning each) and `ProtocolError`, raised when the *remote peer* sent a frame that
breaks the contract. Rule violations are not protocol errors: engines raise `IllegalMove`
and the server maps it to `illegal_move` / `not_your_turn`.
Must not: do I/O, or import anything of the server.
"""

from __future__ import annotations

from typing import Literal, get_args

ErrorCode = Literal[
    "bad_message",
    "unknown_type",
    "not_found",
    "forbidden",
    "not_your_turn",
    "illegal_move",
    "room_full",
    "seat_taken",
    "rate_limited",
    "too_large",
    "unavailable",
    "stale",
    "internal",
    "name_taken",
    "bad_credentials",
    "banned",
    "muted",
    "filtered",
]

ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)

ERROR_MEANINGS: dict[ErrorCode, str] = {
    "bad_message": "the frame is not a msgpack map of JSON-like values, or a field is missing, "
    "unknown, mistyped or out of bounds",
    "unknown_type": "`t` is a string but names no client message",
    "not_found": "no such room or game",
    "forbidden": "no `hello` yet, a room you are not in, or a spectator moving",
    "not_your_turn": "your seat may not move now",
    "illegal_move": "the move is not one of the legal options, is badly shaped, "
    "or came before the start",
    "room_full": "every seat is taken",
    "seat_taken": "another player holds that seat",
    "rate_limited": "too many frames; slow down and retry later",
    "too_large": "the frame is over the size limit",
    "unavailable": "the store is down, or the room is moving to another node; nothing was changed; retry",
    "stale": "the move carried a version `v` that is not the room's current version; nothing was changed; "
    "sync and choose again",
    "internal": "a server fault (logged on the server, never shown as a traceback)",
    "name_taken": "v1.2: an account holds that name (names are compared folded: case, Unicode compatibility "
    "forms, look-alike letters); choose another",
    "bad_credentials": "v1.2: no account has that name, or the password is wrong (the two are not told apart)",
    "banned": "v1.2: an administrator banned this account or address; the message says until when and why",
    "muted": "v1.2: the room's host muted your seat's chat",
    "filtered": "v1.2: the chat line holds a word this server does not allow",
}

RETRYABLE: frozenset[ErrorCode] = frozenset({"rate_limited", "unavailable"})


class ProtocolError(Exception):
    """The peer sent a frame that breaks the wire contract.

    `code` and `message` go into the `error` answer; `re` is the request's integer `id` when
    the frame decoded far enough to read it, else None (then the answer carries no `re`).
    """

    def __init__(self, code: ErrorCode, message: str, re: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message
        self.re = re

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r}, re={self.re!r})"
