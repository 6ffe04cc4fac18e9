"""Names: the folded key that makes accounts' names unique (`account_key`)."""

from __future__ import annotations

import pytest

from server.rooms.names import account_key


@pytest.mark.parametrize(
    "alike",
    ["Alice", "ALICE", "alice", "A l i c e", "A-lice", "Аlice", "ＡＬＩＣＥ", "A1ice", "AIice", "𝐀𝐥𝐢𝐜𝐞", "Αlice"],
)
def test_names_that_read_the_same_share_one_key(alike: str) -> None:
    # case, spaces and punctuation, Cyrillic А, full-width, digit 1, capital I, mathematical bold, Greek Α
    assert account_key(alike) == account_key("Alice")


@pytest.mark.parametrize("other", ["Alicia", "Alce", "Zoë", "Bob", "Malice"])
def test_names_that_read_differently_keep_their_own_key(other: str) -> None:
    assert account_key(other) != account_key("Alice")


def test_marks_and_scripts_without_latin_look_alikes_are_kept() -> None:
    assert account_key("Zoë") != account_key("Zoe")
    assert account_key("Пётр") != account_key("Петр")
    assert account_key("東京") == "東京"
    assert account_key("B0B") == account_key("bob") == account_key("ВОВ")  # zero, Cyrillic В and О
