"""Languages of the terminal client's menus and notices: gettext catalogues (`locale/<lang>.po`) read with Babel.

Owns: the chosen language (`--lang`, else the environment's LANG), `_()` for a message, error codes as
sentences. The catalogues are read as .po files at start (no compile step); the game renderers' words come from
the catalogues the browser uses too (`clients/words/`, `w()`). Must not: translate what players type.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from clients import words as _words

LOCALE = Path(__file__).resolve().parent / "locale"
LANGUAGES: tuple[str, ...] = ("en", "hu", "fi", "it", "es")

_current = "en"


@cache
def catalogue(code: str) -> Catalog | None:
    """The catalogue of a language (None for English, the source language)."""
    path = LOCALE / f"{code}.po"
    if code == "en" or not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=code)


def language_from_env() -> str:
    """The language of the environment (`LANGUAGE`, `LC_ALL`, `LANG`) when it is one of ours, else English."""
    for var in ("LANGUAGE", "LC_ALL", "LANG"):
        code = (os.environ.get(var) or "")[:2].lower()
        if code in LANGUAGES:
            return code
    return "en"


def set_language(code: str) -> None:
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; one of {', '.join(LANGUAGES)}")
    _current = code


def language() -> str:
    return _current


def _(message: str) -> str:
    """The message in the current language (as written, in English, when it has no translation)."""
    cat = catalogue(_current)
    if cat is None:
        return message
    entry = cat.get(message)
    return str(entry.string) if entry is not None and entry.string else message


def w(key: str, **params: Any) -> str:
    """A game word or game text (`clients/words/<lang>.json`, shared with the browser) in the current language."""
    return _words.text(_current, key, **params)


def w_or(key: str, fallback: str, **params: Any) -> str:
    """`w(key)` when the catalogue has the key, else `fallback` (data named by the server that we may not know)."""
    out = _words.text(_current, key, **params)
    return fallback if out == key else out


def N_(message: str) -> str:
    """Mark a message for translation where it is defined; `_()` translates it where it is shown."""
    return message


#: the server's error codes (docs/protocol.md) as sentences
ERRORS: dict[str, str] = {
    "bad_message": N_("The server could not read that request."),
    "unknown_type": N_("The server does not know that kind of request."),
    "not_found": N_("That room or game does not exist (any more)."),
    "forbidden": N_("You may not do that here."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_move": N_("That is not one of your choices now."),
    "room_full": N_("Every seat of that room is taken."),
    "seat_taken": N_("Another player holds that seat."),
    "rate_limited": N_("Too many requests at once: wait a moment and try again."),
    "too_large": N_("That request is too large."),
    "unavailable": N_("The server cannot reach its storage right now: try again in a moment."),
    "internal": N_("Something went wrong on the server."),
    "stale": N_("The game moved on before your move arrived."),
    "name_taken": N_("An account holds that name (or one that reads the same): choose another."),
    "bad_credentials": N_("No account has that name and password."),
    "banned": N_("You are banned from this server."),
    "muted": N_("The room's host muted your chat in this room: your line was not sent."),
    "filtered": N_("That line holds a word this server does not allow: it was not sent."),
}


def error_sentence(code: str, message: str) -> str:
    """An error code as a sentence in the current language; an unknown code shows the server's message (and so does
    `banned`: it says until when and why)."""
    if code == "banned":
        return _(ERRORS[code]) + " " + _("The server said: {message}").format(message=message)
    if code in ERRORS:
        return _(ERRORS[code])
    return _("The server said: {message}").format(message=message)
