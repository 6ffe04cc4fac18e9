"""The games' words in five languages, shared by the browser client and the terminal client.

Owns: one catalogue per language (`<lang>.json`: the names of goods, spaces, cities, characters, cards and
contracts, and the templates of options, prompts and board texts), `{name}` placeholders and the plural
forms `key.one` / `key.other` (CLDR rules via Babel). The browser imports the same files (`src/i18n.js`),
so both clients say the same thing. Must not: decide a rule or translate what players type.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

HERE = Path(__file__).resolve().parent
LANGUAGES: tuple[str, ...] = ("en", "hu", "fi", "it", "es")
_FIELD = re.compile(r"\{(\w+)\}")


@cache
def catalogue(code: str) -> dict[str, str]:
    """The game words of one language (key -> message)."""
    data: dict[str, str] = json.loads((HERE / f"{code}.json").read_text(encoding="utf-8"))
    return data


@cache
def _plural(code: str) -> Any:
    return Locale.parse(code).plural_form


def text(code: str, key: str, **params: Any) -> str:
    """The message `key` in language `code` (English when missing, the key itself when English lacks it too).

    With a number `n` among the parameters, `key.one` or `key.other` is chosen first, as in the browser.
    """
    cats = [catalogue(code if code in LANGUAGES else "en"), catalogue("en")]
    k = key
    n = params.get("n")
    if isinstance(n, int):
        form = "one" if _plural(code if code in LANGUAGES else "en")(abs(n)) == "one" else "other"
        if any(f"{key}.{form}" in c for c in cats):
            k = f"{key}.{form}"
    for c in cats:
        if k in c:
            return _FIELD.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), c[k])
    return key
