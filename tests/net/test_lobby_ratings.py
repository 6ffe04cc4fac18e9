"""The rating maths (server.ratings, pure): ranks from a result, who is rated, which way ratings move."""

from __future__ import annotations

from server.rooms import ratings
from server.rooms.ratings import identity, ranks, rate_game, shown


def test_ranks_put_winners_first_then_scores_and_share_ties() -> None:
    assert ranks({"scores": [10, 30, 20], "winners": [1]}, 3) == [3, 1, 2]
    # a tie-break winner ranks above a seat with the same score
    assert ranks({"scores": [30, 30, 5], "winners": [0]}, 3) == [1, 2, 3]
    assert ranks({"scores": [7, 7], "winners": [0, 1]}, 2) == [1, 1]


def test_bots_are_rated_under_one_identity_per_level() -> None:
    assert identity("p1234") == "p1234"
    assert identity("bot:2") == "bot"
    assert identity("bot:hard:1") == "bot:hard"


def test_a_three_player_game_moves_ratings_in_finishing_order() -> None:
    rows = rate_game({}, ["pa", "pb", "pc"], ["ann", "bob", "cy"], {"scores": [5, 50, 20], "winners": [1]})
    assert shown(rows["pb"]) > shown(rows["pc"]) > shown(rows["pa"])
    assert all(r["games"] == 1 for r in rows.values()) and rows["pb"]["name"] == "bob"
    again = rate_game(rows, ["pa", "pb"], ["ann", "bob"], {"scores": [9, 1], "winners": [0]})
    assert again["pa"]["games"] == 2 and again["pa"]["mu"] > rows["pa"]["mu"] and again["pb"]["mu"] < rows["pb"]["mu"]


def test_two_bot_seats_of_one_game_make_one_rated_bot() -> None:
    rows = rate_game({}, ["pa", "bot:1", "bot:2"], ["ann", "Bot 1", "Bot 2"], {"scores": [9, 1, 1], "winners": [0]})
    assert set(rows) == {"pa", "bot"}
    assert rows["bot"]["games"] == 1 and rows["bot"]["name"] == "Bot"
    assert shown(rows["pa"]) > shown(rows["bot"])


def test_only_all_account_public_games_rate_and_only_seats_their_players_played() -> None:
    players = ["pa", "pb", "bot:greedy:1"]
    played = [[10, 10], [4, 10], [0, 10]]  # pa chose every move, pb 4 of 10 (the clock or autoplay the rest)
    accounts = {"pa", "pb"}
    assert ratings.rated_ids(players, True, played, accounts) == {"pa", "bot:greedy"}
    assert ratings.rated_ids(players, True, [[10, 10], [5, 10], [0, 10]], accounts) == {"pa", "pb", "bot:greedy"}
    assert ratings.rated_ids(players, False, played, accounts) == set()  # a private room
    assert ratings.rated_ids(players, True, played, {"pa"}) == set()  # a guest at the table rates nobody
    assert ratings.rated_ids(["bot:1", "bot:2"], True, None, set()) == set()  # bots alone
    assert ratings.rated_ids(players, True, None, accounts) == {"bot:greedy"}  # no move chosen by anybody


def test_a_provisional_rating_is_never_shown_below_zero() -> None:
    fresh = {"mu": 20.0, "sigma": 8.0, "games": 1, "name": "A"}
    assert ratings.provisional(fresh) and ratings.shown(fresh) == 0
    settled = {**fresh, "games": ratings.PROVISIONAL_GAMES}
    assert not ratings.provisional(settled) and ratings.shown(settled) == round((20.0 - 24.0) * 100)
