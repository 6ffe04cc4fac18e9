"""The message catalogues: the browser shell's (clients/web/src/i18n/*.json) and the games' words shared by the
browser and the terminal (clients/words/*.json): every language has every key, with the same placeholders,
and no message is left empty or untranslated by accident; every key the code asks for exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "clients" / "web" / "src" / "i18n"
WORDS = Path(__file__).resolve().parents[2] / "clients" / "words"
CLI = Path(__file__).resolve().parents[2] / "clients" / "cli"
LANGUAGES = ("en", "hu", "fi", "it", "es")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(code: str, folder: Path = I18N) -> dict[str, str]:
    data: dict[str, str] = json.loads((folder / f"{code}.json").read_text(encoding="utf-8"))
    return data


def words(code: str) -> dict[str, str]:
    return catalogue(code, WORDS)


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
    asked = {k for k in asked if not k.startswith("w.")}  # the games' words: checked below
    en = catalogue("en")
    known = set(en) | {k.rsplit(".", 1)[0] for k in en if k.endswith((".one", ".other"))}
    assert sorted(asked - known) == []


# ---- the games' words (clients/words/), shared by the browser and the terminal ------------------------------


def test_there_is_a_game_words_catalogue_for_each_language_and_its_keys_are_apart_from_the_shell() -> None:
    assert sorted(p.stem for p in WORDS.glob("*.json")) == sorted(LANGUAGES)
    en = words("en")
    assert len(en) > 400
    assert all(k.startswith("w.") for k in en)
    assert not set(en) & set(catalogue("en"))


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_game_words_catalogue_has_every_key_of_the_english_one_and_no_other(code: str) -> None:
    en, other = words("en"), words(code)
    assert sorted(set(en) - set(other)) == [], "missing"
    assert sorted(set(other) - set(en)) == [], "unknown"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_game_word_is_a_non_empty_string_with_the_english_placeholders(code: str) -> None:
    en, other = words("en"), words(code)
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), key


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_most_game_words_differ_from_english(code: str) -> None:
    en, other = words("en"), words(code)
    same = [k for k in en if other[k] == en[k] and len(en[k]) > 12 and "{" not in en[k]]
    assert len(same) <= 3, same


def test_every_game_word_the_code_asks_for_is_in_the_english_catalogue() -> None:
    """Keys written out in the renderers (browser `t("w.…")`, terminal `w("w.…")`); keys built from data
    (`w.kh.space.${sp}`) are checked by the renderers' unit tests, which fail on a key left in the words."""
    asked: set[str] = set()
    sources = [*I18N.parent.rglob("*.js"), *CLI.rglob("*.py")]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        asked |= set(re.findall(r"\b(?:t|tOr|w|w_or)\(\s*[\"'](w\.[A-Za-z0-9_.]+)[\"']", text))
    en = words("en")
    known = set(en) | {k.rsplit(".", 1)[0] for k in en if k.endswith((".one", ".other"))}
    assert len(asked) > 200
    assert sorted(asked - known) == []
