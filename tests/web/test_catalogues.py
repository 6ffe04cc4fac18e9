"""The browser client's message catalogues (clients/web/src/i18n/*.json): every language has every key, with
the same placeholders, and no message is left empty or untranslated by accident."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "clients" / "web" / "src" / "i18n"
LANGUAGES = ("en", "hu", "fi", "it", "es")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))
    return data


def test_there_is_a_catalogue_for_each_of_the_five_languages_and_no_other() -> None:
    assert sorted(p.stem for p in I18N.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_catalogue_has_every_key_of_the_english_one_and_no_other(code: str) -> None:
    en, other = catalogue("en"), catalogue(code)
    assert sorted(set(en) - set(other)) == [], "missing"
    assert sorted(set(other) - set(en)) == [], "unknown"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_a_non_empty_string_with_the_english_placeholders(code: str) -> None:
    en, other = catalogue("en"), catalogue(code)
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), key


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_most_messages_differ_from_english(code: str) -> None:
    en, other = catalogue("en"), catalogue(code)
    same = [k for k in en if other[k] == en[k] and len(en[k]) > 8]
    assert len(same) <= 2, same


def test_every_key_the_code_asks_for_is_in_the_english_catalogue() -> None:
    src = I18N.parent
    asked: set[str] = set()
    for path in src.rglob("*.js"):
        asked |= set(re.findall(r"\bt\(\"([a-zA-Z]+\.[a-zA-Z.]+)\"", path.read_text(encoding="utf-8")))
    en = catalogue("en")
    known = set(en) | {k.rsplit(".", 1)[0] for k in en if k.endswith((".one", ".other"))}
    assert sorted(asked - known) == []
