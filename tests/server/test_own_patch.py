"""A viewer's own part: a prompt with a new question is replaced whole; every patch turns old into new."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.patch import apply_patch
from server.rooms.core import own_patch

MOVE = {"text": "Move a figure", "options": [{"a": "move", "fig": 0, "pay": ["a-1"]}, {"a": "pass"}]}
PICK = {"text": "Pick a card", "options": [{"a": "pick", "card": "a-1"}, {"a": "cancel"}]}
MOVE_LESS = {"text": "Move a figure", "options": [{"a": "pass"}]}


def _own(prompt: Any, hand: list[str] | None = None) -> dict[str, Any]:
    return {"you": 1, "private": {"hand": hand or ["a-1", "b-2"]}, "prompt": prompt}


@pytest.mark.parametrize(
    ("old", "new", "whole"),
    [
        (_own(MOVE), _own(PICK), True),  # a new question: replaced whole
        (_own(None), _own(MOVE), True),  # a prompt comes
        (_own(MOVE), _own(None, ["b-2"]), True),  # a prompt goes, and the hand changes
        (_own(MOVE), _own(MOVE_LESS), False),  # the same question: its options are diffed
        (_own(None), _own(None, ["b-2", "c-3"]), False),  # no prompt either side
    ],
)
def test_every_own_patch_turns_the_old_part_into_the_new_one(old: Any, new: Any, whole: bool) -> None:
    ops = own_patch(old, new)
    assert apply_patch(old, ops) == new
    replaced = [op for op in ops if op["path"] == "/prompt"]
    assert (replaced == [{"op": "replace", "path": "/prompt", "value": new["prompt"]}]) is whole


def test_an_unchanged_own_part_gives_no_operation() -> None:
    assert own_patch(_own(MOVE), _own({**MOVE, "options": list(MOVE["options"])})) == []
