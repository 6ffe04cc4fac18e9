"""Options that differ in one field only read differently in the terminal, in every language.

Marco Polo II offers every paying move plain and with a `jade` split (jade paying some of the coins or camels);
the Voyages' `post_choice` asks which city of a split city-card move gets the trading post
(`{"a": "post", "city": c}`). The views are the browser tests' (tests/web/js/fixtures/labels.json, made by
`python -m tests.web.js.make_fixtures`), and a few seeded Marco Polo II games are played through for the rest.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clients.cli import i18n
from clients.cli.render import option_labels
from server.games import all_games

all_games()

from tests.web.states import seeded_views  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "web" / "js" / "fixtures" / "labels.json"
LANGUAGES = ("en", "hu", "fi", "it", "es")


def look_alike() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(FIXTURES.read_text(encoding="utf-8"))
    return data


def twins(view: dict[str, Any]) -> dict[str, int]:
    return {label: n for label, n in Counter(option_labels(view)).items() if n > 1}


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Any:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_the_fixtures_hold_what_they_should() -> None:
    data = look_alike()
    kinds = {o["a"] for v in data["khan"] for o in v["prompt"]["options"] if isinstance(o.get("jade"), dict)}
    assert {"reroll", "adjust", "black", "die", "step", "fulfil"} <= kinds
    (post,) = data["voyages"]
    assert len(post["prompt"]["options"]) >= 2 and {o["a"] for o in post["prompt"]["options"]} == {"post"}


def test_no_two_jade_splits_or_post_cities_share_a_label(language: str) -> None:
    data = look_alike()
    for view in [*data["khan"], *data["voyages"]]:
        assert not twins(view), (language, twins(view))
        for label, option in zip(option_labels(view), view["prompt"]["options"], strict=True):
            assert not label.startswith("{"), (language, option, label)  # words, not the move's JSON
    post = data["voyages"][0]
    prefix = i18n.w("w.vo.opt.post", city="\x00").split("\x00")[0]
    assert all(label.startswith(prefix) for label in option_labels(post)), option_labels(post)


def test_a_jade_split_says_what_the_jade_pays() -> None:
    view = look_alike()["khan"][0]
    for label, option in zip(option_labels(view), view["prompt"]["options"], strict=True):
        jade = option.get("jade")
        if isinstance(jade, dict):
            assert ", with jade for " in label, label
            for kind in ("coins", "camels"):
                if jade.get(kind):
                    assert f"{jade[kind]} {kind[:-1]}" in label, label


@pytest.mark.parametrize("seed", [2, 3])
def test_no_prompt_of_a_seeded_marco_polo_ii_game_has_two_options_alike(seed: int) -> None:
    checked = 0
    for _, view in seeded_views("khan", seed, room="labels"):
        if view.get("prompt"):
            assert not twins(view), (view["prompt"]["options"], twins(view))
            checked += 1
    assert checked > 50


def test_two_face_up_expedition_cards_of_one_kind_read_differently_by_their_place(language: str) -> None:
    """The Expedition display can hold two cards of one kind: each option names its place in the row."""
    from clients.cli.games.expedition import card_name

    twin_rows = 0
    for seed in range(1, 7):
        for _, view in seeded_views("expedition", seed, room="labels"):
            prompt = view.get("prompt") or {}
            if not any(o.get("a") == "draw" for o in prompt.get("options") or []):
                continue
            assert not twins(view), (language, seed, twins(view))
            display = [c for c in view["public"]["display"] if c is not None]
            twin_rows += len({card_name(c) for c in display}) < len(display)
    assert twin_rows > 0  # the seeds reach a row with two cards of one kind
