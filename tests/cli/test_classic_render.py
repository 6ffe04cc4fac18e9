"""The terminal renderer of the classic Marco Polo game on views of real engine states.

Every state comes from `GAME.setup` and moves through `GAME.apply` (the greedy bot or a seeded random choice
picks them); the view is what the server would send: `GAME.view` + `GAME.prompt` + `GAME.result` inside the
room's envelope.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

from clients.cli.games.classic import ClassicRenderer, event_words, notice_words
from clients.cli.render import option_labels, renderer_for, view_text
from server.games import all_games

# Load every engine before importing one game package: with a registry that stops loading once it holds
# any game, importing `server.games.classic` alone would leave the in-process servers of later tests
# knowing only this game.
all_games()

from server.games.classic.bots import GreedyBot  # noqa: E402
from server.games.classic.data import HAZARDS, NODES, city_of_table  # noqa: E402
from server.games.classic.engine import GAME  # noqa: E402

NAMES = ["ann", "bob", "cy", "dee"]
State = dict[str, Any]


def room_view(state: State, you: int | None) -> dict[str, Any]:
    """The document the server sends one viewer (server/room.py `build_view`)."""
    seats = [{"name": NAMES[i], "taken": True, "connected": True} for i in range(state["seats"])]
    view = GAME.view(state, you)
    return {
        "game": "classic",
        "room": "rc",
        "you": you,
        "status": "finished" if GAME.result(state) else "playing",
        "seats": seats,
        "public": view["public"],
        "private": view["private"],
        "prompt": GAME.prompt(state, you),
        "result": GAME.result(state),
    }


def game(seats: int = 2, seed: int = 3, *, greedy: bool = True, **options: Any) -> Iterator[State]:
    """Every state of one game, from the set-up to the end (greedy bots, or random choices)."""
    state = GAME.setup(seats, options, seed)
    bots = [GreedyBot(seed + i) for i in range(seats)]
    rng = random.Random(seed)
    yield state
    while GAME.result(state) is None:
        seat = GAME.active_seats(state)[0]
        prompt = GAME.prompt(state, seat)
        assert prompt is not None
        if greedy:
            move = bots[seat].choose(prompt, {**GAME.view(state, seat), "prompt": prompt})
        else:
            move = rng.choice(prompt["options"])
        state = GAME.apply(state, seat, move)
        yield state


def first(cond: Callable[[State], bool], *, seats: int = 2, seed: int = 5, greedy: bool = True) -> State:
    """The first state of a game that satisfies `cond`."""
    for state in game(seats, seed, greedy=greedy):
        if cond(state):
            return state
    raise AssertionError("no state of that game satisfies the condition")


def on_mission(state: State) -> bool:
    """Seat 0 holds a Golden Table it has not yet revealed, and some cards; seat 1 has no Golden Table yet."""
    return (
        state["table"][0] is not None
        and not state["secret"][0]
        and bool(state["hands"][0])
        and state["table"][1] is None
    )


def test_your_hand_money_and_mission_city_appear_in_your_own_render() -> None:
    state = first(on_mission)
    city = NODES[city_of_table(state["table"][0])].name
    text = view_text(room_view(state, 0), width=140)
    hand = state["hands"][0]
    assert f"Your hand ({len(hand)} cards, worth {sum(int(c.split('-')[1]) for c in hand)})" in text
    for card in hand:
        colour, value = card.split("-")[:2]
        assert any(line.strip().startswith(colour) and value in line for line in text.splitlines())
    assert f"Mission: your Golden Table sends you to {city} (secret until you reach it)." in text
    assert f"Your money: {state['money'][0]} bezants.  Your total: {GAME.total(state, 0)} of 1000" in text
    assert f"{city:<14} mission city (your mission)" in text  # marked on the map for you alone


def test_your_hand_and_mission_city_never_appear_in_another_seats_or_a_spectators_render() -> None:
    state = first(on_mission)
    city = NODES[city_of_table(state["table"][0])].name
    other, spectator = view_text(room_view(state, 1), width=140), view_text(room_view(state, None), width=140)
    for text in (other, spectator):
        assert "your mission" not in text and f"sends you to {city}" not in text
        assert "Golden Table, mission secret" in text  # what everybody knows about seat 0
        for token in GAME.secret_tokens(state, 0):
            assert token not in text
    assert "Your hand" not in spectator and "Mission:" not in spectator
    # the same renders whatever seat 0's secrets are: another mission city, other cards of the same colours
    swapped = copy.deepcopy(state)
    swapped["table"][0], swapped["tables"][0] = swapped["tables"][0], swapped["table"][0]
    for i, card in enumerate(swapped["hands"][0]):
        stack = swapped["stacks"][card.split("-")[0]]
        j = next(k for k, c in enumerate(stack) if c not in HAZARDS and c.split("-")[1] != card.split("-")[1])
        swapped["hands"][0][i], stack[j] = stack[j], card
    assert view_text(room_view(swapped, 1), width=140) == other
    assert view_text(room_view(swapped, None), width=140) == spectator
    assert view_text(room_view(swapped, 0), width=140) != view_text(room_view(state, 0), width=140)


def test_the_route_map_lists_every_stopping_point_with_its_type_links_and_the_pawns() -> None:
    state = GAME.setup(2, None, 1)
    text = view_text(room_view(state, 0), width=140)
    for node in NODES.values():
        assert node.name in text
    rows = {line.split()[1]: line for line in text.splitlines() if line[:2] in ("V ", ". ", "o ", "^ ", "* ", "K ")}
    assert len(rows) == len(NODES)
    assert rows["Venice"].split() == ["V", "Venice", "start", "and", "goal", "Ragusa", "Corfu", "ann*", "bob"]
    assert rows["Caffa"].split()[:4] == ["o", "Caffa", "violet", "post"]
    assert rows["Constantinople"].split() == [
        "^",
        "Constantinople",
        "port",
        "Ragusa,",
        "Ancyra",
        "Negroponte,",
        "Caffa,",
        "Trebizond",
    ]
    assert rows["Manila"].split() == ["*", "Manila", "mission", "city", "Formosa"]
    assert rows["Khanbaliq"].split()[:4] == ["K", "Khanbaliq", "the", "Khan's"]
    assert "Robbers' ransom space (land): empty" in text and "Pirates' ransom space (sea): empty" in text
    assert "Stacks: violet 14, green 14, yellow 14, turquoise 14." in text


def test_the_ends_of_your_move_are_numbered_on_the_map_as_in_the_prompt() -> None:
    state = first(lambda s: s["phase"] == "move")
    seat = state["turn"]
    view = room_view(state, seat)
    text = view_text(view, width=140)
    for i, option in enumerate(view["prompt"]["options"], 1):
        name = NODES[option["to"]].name
        row = next(line for line in text.splitlines() if line[2:].startswith(name + " "))
        assert row.rstrip().endswith(f"<- {i})")
    assert "<- 1)" not in view_text(room_view(state, 1 - seat), width=140)


def test_option_labels_read_as_words_in_every_phase() -> None:
    set_up = GAME.setup(2, None, 1)
    start = room_view(set_up, set_up["turn"])  # the start player is drawn from the seed
    assert option_labels(start) == ["Go by land: spin the land compass", "Go by sea: spin the sea compass"]
    seen: dict[str, list[str]] = {}
    for seed, greedy in ((3, True), (4, False), (5, False), (6, True)):
        for state in game(2, seed, greedy=greedy, max_rounds=30):
            if GAME.result(state):
                break
            view = room_view(state, state["turn"])
            for option, label in zip(view["prompt"]["options"], option_labels(view), strict=True):
                seen.setdefault(option["a"] if option["a"] != "done" else f"done-{state['phase']}", []).append(label)
    for kind, labels in seen.items():
        for label in labels:
            assert not label.startswith("{"), (kind, label)
    assert {"spin", "move", "sell", "done-sell", "buy", "done-buy", "ransom", "force"} <= set(seen)
    assert "Spin the land compass" in seen["spin"]
    assert all(label.startswith("End the move at ") for label in seen["move"])
    assert "End the move at Caffa (violet trading post)" in seen["move"]
    assert "End the move at Constantinople (port)" in seen["move"]
    assert all(label == "Done selling" for label in seen["done-sell"])
    assert all(label == "Done trading" for label in seen["done-buy"])
    assert any(label.startswith("Sell violet 80 for 80 bezants") for label in seen["sell"])
    assert "Buy the top violet card for 20 bezants" in seen["buy"]
    assert any(
        label in ("Make ann sell you a blind card for 30 bezants", "Make bob sell you a blind card for 30 bezants")
        for label in seen["force"]
    )
    ransom = set(seen["ransom"])
    assert {
        "Pay 50 bezants onto the ransom space of the robbers",
        "Pay 50 bezants onto the ransom space of the pirates",
    } & ransom
    assert any(
        label.startswith("Give ") and label.endswith(" onto the ransom space of the robbers") for label in ransom
    )


def test_the_protected_fight_the_gifts_and_the_lost_card_read_as_words() -> None:
    labels: dict[str, str] = {}
    for seed in range(3, 12):
        for state in game(2, seed, max_rounds=60):
            if GAME.result(state):
                break
            view = room_view(state, state["turn"])
            for option, label in zip(view["prompt"]["options"], option_labels(view), strict=True):
                labels.setdefault(option["a"], label)
        if {"fight", "decline", "discard"} <= set(labels):
            break
    assert labels["fight"] in (
        "Fight the robbers (the Golden Table protects you: you lose nothing)",
        "Fight the pirates (the Golden Table protects you: you lose nothing)",
    )
    assert labels["decline"] == "Decline the fight (your turn ends)"
    assert labels["discard"].startswith("Put ") and labels["discard"].endswith(" at the bottom of its stack")
    renderer = renderer_for("classic")
    view = room_view(GAME.setup(2, None, 1), 0)
    assert renderer.label(view, {"a": "gift", "card": "violet-80-2"}) == "Give violet 80 to the Khan"
    assert renderer.label(view, {"a": "teleport", "to": "venice"}) == '{"a":"teleport","to":"venice"}'


def test_the_spin_the_fight_the_ransom_spaces_and_the_trading_visit_are_shown() -> None:
    lost = first(lambda s: s["phase"] == "ransom")
    text = view_text(room_view(lost, None), width=140)
    fight = lost["fight"]
    who = NAMES[lost["turn"]]
    raiders = fight["space"]
    assert f"Spun the {lost['spin']['route']} compass: the {raiders}!" in text
    assert f"Fight: {who} rolled {fight['player']}, the {raiders} {fight['raiders']} ({who} lost)." in text
    paid = first(lambda s: any(v["money"] or v["cards"] for v in s["ransom"].values()), seed=4)
    text = view_text(room_view(paid, None), width=140)
    for space, lying in paid["ransom"].items():
        line = next(x for x in text.splitlines() if x.strip().startswith(space.title()))
        if lying["money"]:
            assert f"{lying['money']} bezants" in line
        for card in lying["cards"]:
            assert " ".join(card.split("-")[:2]) in line
    trading = first(lambda s: s["phase"] == "buy")
    post = trading["trade"]["post"]
    text = view_text(room_view(trading, None), width=140)
    assert f"Trading at {NODES[post].name} ({NODES[post].colour}): bought {trading['trade']['bought']} of 3" in text


def test_every_log_event_and_notice_of_whole_games_reads_as_words() -> None:
    kinds: set[str] = set()
    for seed, greedy in ((3, True), (4, False), (7, True), (5, False)):
        state = None
        for state in game(2, seed, greedy=greedy, max_rounds=60):
            for seat in (0, 1):
                view = room_view(state, seat)
                for note in view["private"]["notices"]:
                    assert not notice_words(view, note).startswith("{"), note
        assert state is not None
        view = room_view(state, None)
        for ev in view["public"]["log"]:
            kinds.add(ev["ev"])
            assert not event_words(view, ev).startswith("{"), ev
    assert {"spin", "move", "buy", "sell", "fight", "ransom"} <= kinds
    view = room_view(GAME.setup(2, None, 1), 0)
    assert event_words(view, {"ev": "comet", "n": 3}) == '{"ev":"comet"}'
    win = {"ev": "win", "seat": 1, "total": 1040, "n": 9}
    assert event_words(view, win) == "bob reached Venice with 1040 bezants in total and wins"
    sale = {"ev": "forced_sale", "buyer": 0, "seller": 1, "price": 30, "n": 4}
    assert event_words(view, sale) == "ann (you) made bob sell a blind card for 30 bezants"
    assert notice_words(view, {"ev": "forced_sale", "card": "green-50-2", "from": 1}) == (
        "You took a green 50 card from bob."
    )


def test_the_result_shows_totals_progress_winner_and_why_the_game_ended() -> None:
    *_, won = game(2, 3)
    result = GAME.result(won)
    assert result is not None and result["reason"] == "venice"
    text = view_text(room_view(won, 1), width=140)
    winner = result["winners"][0]
    assert f"Winner: {NAMES[winner]}" in text and "reached Venice with the mission done" in text
    rows = [[c.strip() for c in line.split("│")] for line in text.splitlines() if "winner" in line and "│" in line]
    assert rows[0][1].startswith(NAMES[winner]) and rows[0][3] == "mission done"
    assert rows[0][2] == str(result["scores"][winner])
    assert "The game is over." in text
    *_, limited = game(2, 4, greedy=False, max_rounds=10)
    text = view_text(room_view(limited, None), width=140)
    assert "the round limit ended the game" in text
    assert "Game over after" in text


def test_the_classic_renderer_is_registered_for_its_game_id() -> None:
    assert isinstance(renderer_for("classic"), ClassicRenderer)
