"""Display names people choose: what the server refuses, and how two alike names in a room are told apart.

Owns: the name policy of `hello` (length, invisible and direction-changing characters, names that
would pass for a server bot or the server itself) and `unique_name`, which gives a seat's name a
" (2)" suffix when another seat of the room already shows a name that reads the same.
Must not: do I/O. The wire contract's own bounds (1..32 characters, no control characters, no outer
whitespace) are checked by the codec before any of this runs.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable
from importlib import resources

from protocol.messages import NAME_MAX

#: characters that render as nothing or reorder text around them: a name holding one could look like
#: another player's, or turn the rest of a line round in a log or a chat
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
#: whole words a person's name may not hold: server bots are named "Bot N", and the server speaks as itself
_RESERVED = re.compile(r"\b(bot|server|system|admin|administrator|moderator|marcopolo)\b")


class NameRefused(ValueError):
    """The name breaks the policy; the message says why (safe to show)."""


def name_key(name: str) -> str:
    """What a name reads as: compatibility-normalised, case-folded, letters and digits only."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    key = "".join(ch for ch in folded if ch.isalnum())
    return key or folded


#: after look-alikes from other scripts became ASCII: ASCII characters that pass for one another
_ASCII_ALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s"})


@functools.cache
def _to_ascii() -> dict[str, str]:
    """Every single character Unicode lists as confusable with an ASCII letter or digit -> that character
    (case-folded; the smallest when there are several), from the `confusable_homoglyphs` data (TR39)."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    found: dict[str, set[str]] = {}
    for ch, alikes in data.items():
        if len(ch) != 1:
            continue
        for alike in alikes:
            other = alike["c"]
            if len(other) != 1:
                continue
            for src, dst in ((ch, other), (other, ch)):
                if not src.isascii() and dst.isascii() and dst.isalnum():
                    found.setdefault(src, set()).add(dst.casefold())
    return {src: min(dsts) for src, dsts in found.items()}


def account_key(name: str) -> str:
    """What an account's name is compared by: two names with one key are one name. Compatibility forms,
    case, look-alike letters of other scripts (Cyrillic "а" for "a"), ASCII look-alikes ("0"/"o", "1"/"l"/"I")
    and everything but letters and digits are folded away. Never shown; stored to make names unique."""
    table = _to_ascii()
    # before and after case folding: a capital may pass for a Latin letter its small form does not (Cyrillic В)
    normal = unicodedata.normalize("NFKC", name)
    folded = "".join(table.get(ch, ch) for ch in normal).casefold()
    ascii_ = "".join(table.get(ch, ch) for ch in folded).translate(_ASCII_ALIKES)
    key = "".join(ch for ch in ascii_ if ch.isalnum())
    return key or folded


def check_name(name: str, max_len: int = NAME_MAX) -> None:
    """Raise NameRefused unless a person may use `name`."""
    if len(name) > max_len:
        raise NameRefused(f"a name has at most {max_len} characters")
    if _INVISIBLE.search(name):
        raise NameRefused("a name may not hold invisible or direction-changing characters")
    folded = unicodedata.normalize("NFKC", name).casefold()
    if _RESERVED.search(folded):
        raise NameRefused("that name is kept for the server and its bots")


def unique_name(name: str, taken: Iterable[str | None]) -> str:
    """`name`, or `name (N)` with the smallest N >= 2 that no name in `taken` reads the same as."""
    keys = {name_key(t) for t in taken if t}
    if name_key(name) not in keys:
        return name
    for n in range(2, 1000):
        suffix = f" ({n})"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
    raise NameRefused("too many players with that name")  # pragma: no cover - rooms hold at most 8 seats
