"""One test (at least) per Rights of Losers rule id of RULES.md, R-1..R-7."""

from __future__ import annotations

import json
import random

import pytest
from losers_helpers import (
    FOUR,
    THREE,
    act,
    build_first,
    clear_chips,
    full_trick,
    kinds,
    new_game,
    nth,
    place_chips,
    play_trick,
    put,
    settle,
    suit,
    suit_hands,
)

from rules.base import IllegalAction, InvalidSetup, MalformedAction
from rules.losers import RightsOfLosers
from rules.losers_actions import PASS, REVERSE, Build, Chip, Move, Play
from rules.losers_board import CARD_IDS, LAND, TOUCHED_BY, TOUCHING, spot_index
from rules.losers_judgement import CardOwner, final_scores, judge_card, rank, tie_break

# ann red-1..5 + yellow-1..5, ben red-6..10 + yellow-6..10, cho green, dev blue.
MIXED = {
    "ann": suit("red")[:5] + suit("yellow")[:5],
    "ben": suit("red")[5:] + suit("yellow")[5:],
    "cho": suit("green"),
    "dev": suit("blue"),
}
FIRST = {"ann": "red-1", "ben": "yellow-1", "cho": "green-1", "dev": "blue-1"}


def refused(game: RightsOfLosers, player: str, data: dict) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        act(game, player, data)
    return err.value


# -- R-1 players, cards, chips ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 6])
def test_r1_three_to_five_players_only(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    with pytest.raises(InvalidSetup):
        RightsOfLosers.create(players, None, {"lead_player": "p0", "hands": {}})


@pytest.mark.parametrize("n", [3, 4, 5])
def test_r1_draw_setup_deals_ten_distinct_cards_each(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    setup = RightsOfLosers.draw_setup(players, {}, random.Random(n))
    assert setup["lead_player"] in players and set(setup["hands"]) == set(players)
    dealt = [card for hand in setup["hands"].values() for card in hand]
    assert all(len(hand) == 10 for hand in setup["hands"].values())
    assert len(set(dealt)) == 10 * n and set(dealt) <= set(CARD_IDS)
    game = RightsOfLosers.create(players, None, setup)
    assert game.view(None)["chips_left"] == dict.fromkeys(players, 10)


def test_r1_fifty_building_cards() -> None:
    assert len(set(CARD_IDS)) == 50 and "red-7" in CARD_IDS and "purple-10" in CARD_IDS


def _hands(**changes: object) -> dict:
    hands = {p: list(cards) for p, cards in suit_hands().items()}
    hands.update(changes)
    return hands


@pytest.mark.parametrize(
    "setup",
    [
        {"hands": suit_hands()},
        {"lead_player": "eve", "hands": suit_hands()},
        {"lead_player": "ann"},
        {"lead_player": "ann", "hands": []},
        {"lead_player": "ann", "hands": {p: suit_hands()[p] for p in THREE}},
        {"lead_player": "ann", "hands": _hands(eve=suit("purple"))},
        {"lead_player": "ann", "hands": _hands(ann=suit("red")[:9])},
        {"lead_player": "ann", "hands": _hands(ann=[*suit("red")[:9], "red-1"])},
        {"lead_player": "ann", "hands": _hands(ann=[*suit("red")[:9], "red-11"])},
        {"lead_player": "ann", "hands": _hands(ann=[*suit("red")[:9], "blue-1"])},
        {"lead_player": "ann", "hands": _hands(ann="red-1")},
    ],
)
def test_r1_setup_is_validated_strictly(setup: dict) -> None:
    with pytest.raises(InvalidSetup):
        RightsOfLosers.create(list(FOUR), None, setup)


def test_r1_options_are_refused() -> None:
    with pytest.raises(InvalidSetup):
        RightsOfLosers.create(list(FOUR), {"x": 1}, {"lead_player": "ann", "hands": suit_hands()})


def test_r1_unseated_player_is_refused() -> None:
    assert refused(new_game(), "eve", {"action": "play", "card": "red-1"}).rule == "R-1"


# -- R-2 the field -------------------------------------------------------------------------------


def test_r2_land_on_the_corners_and_the_centre() -> None:
    game = new_game()
    field = game.view("ann")["field"]
    lands = {(r, c) for r in range(5) for c in range(5) if field[r][c] == LAND}
    assert lands == {(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)}
    assert all(field[r][c] is None for r in range(5) for c in range(5) if (r, c) not in lands)
    assert len(game.empty_building_cells()) == 20 and (2, 2) not in game.empty_building_cells()


@pytest.mark.parametrize("cell", [[0, 0], [2, 2], [4, 4], [5, 1], [-1, 0]])
def test_r2_no_building_on_land_or_off_the_field(cell: list[int]) -> None:
    game = new_game()
    play_trick(game, FIRST)
    place_chips(game)
    data = {"action": "build", "cards": ["red-1", "blue-1"], "at": [[0, 1], cell]}
    assert refused(game, "ann", data).rule == "R-2"


# -- R-3 the chip lattice --------------------------------------------------------------------------


def test_r3_lattice_geometry() -> None:
    assert len(TOUCHED_BY) == 81
    assert {s for s, _ in TOUCHING[0]} == {spot_index(p) for p in [(0, 0), (0, 1), (1, 0), (1, 1)]}
    centre = TOUCHING[12]
    assert {s for s, _ in centre} == {spot_index((y, x)) for y in (3, 4, 5) for x in (3, 4, 5)}
    assert sorted(kind for _, kind in centre) == [0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert len(TOUCHED_BY[spot_index((1, 1))]) == 4  # a corner is shared by four cells
    assert len(TOUCHED_BY[spot_index((0, 1))]) == 2  # an edge by two
    assert TOUCHED_BY[spot_index((0, 2))] == (1,)  # a cell's own spot only by itself


def test_r3_chips_only_next_to_cards_at_the_start() -> None:
    game = new_game()
    spots = set(game.legal_chip_spots("ann"))
    assert len(spots) == 4 * 4 + 9
    assert (0, 2) not in spots and (4, 4) in spots and (1, 1) in spots and (8, 7) in spots


@pytest.mark.parametrize("at", [[0, 2], [2, 2], [9, 0], [0, -1], [4, 9]])
def test_r3_chip_off_the_cards_or_off_the_lattice_is_refused(at: list[int]) -> None:
    game = new_game()
    play_trick(game, FIRST)
    assert refused(game, "ben", {"action": "chip", "at": at}).rule == "R-3"


def test_r3_one_chip_a_spot() -> None:
    game = new_game()
    play_trick(game, FIRST)
    act(game, "ben", {"action": "chip", "at": [4, 4]})
    before = game.view(None)
    assert refused(game, "cho", {"action": "chip", "at": [4, 4]}).rule == "R-3"
    assert game.view(None) == before
    assert (4, 4) not in game.legal_chip_spots("cho")


def test_r3_a_building_opens_the_spots_around_it() -> None:
    game = new_game()
    play_trick(game, FIRST)
    place_chips(game)
    assert (0, 2) not in game.legal_chip_spots("ben")
    act(game, "ann", {"action": "build", "cards": ["red-1", "green-1"], "at": [[0, 1], [3, 3]]})
    spots = set(game.legal_chip_spots("ben"))
    assert {(0, 2), (0, 3), (1, 3), (6, 6), (7, 7)} <= spots


# -- R-4 tricks ------------------------------------------------------------------------------------


def test_r4_must_follow_the_led_suit() -> None:
    game = new_game(MIXED)
    act(game, "ann", {"action": "play", "card": "red-1"})
    err = refused(game, "ben", {"action": "play", "card": "yellow-6"})
    assert err.rule == "R-4" and "follow" in err.reason
    assert game.legal_actions("ben") == [Play(c) for c in suit("red")[5:]]
    act(game, "ben", {"action": "play", "card": "red-6"})
    assert len(game.legal_actions("cho")) == 10  # cho holds no red: any card


def test_r4_highest_of_the_led_suit_wins_other_suits_never() -> None:
    game = new_game()
    events = play_trick(
        game, {"ann": "red-1", "ben": "yellow-10", "cho": "green-10", "dev": "blue-9"}
    )
    won = next(e for e in events if e.kind == "trick_won")
    assert won.kind == "trick_won" and won.winner == "ann" and won.card == "red-1"
    assert won.why == "highest" and won.led_suit == "red"
    game = new_game(MIXED)
    events = play_trick(game, {"ann": "red-5", "ben": "red-7", "cho": "green-1", "dev": "blue-1"})
    assert next(e for e in events if e.kind == "trick_won").winner == "ben"


def test_r4_reversed_strength_lowest_wins() -> None:
    game = new_game(MIXED)
    play_trick(game, {"ann": "red-1", "ben": "red-6", "cho": "green-1", "dev": "blue-1"})
    events = settle(game, {"action": "reverse"})
    assert game.reversed and "reversed" in kinds(events)
    assert game.next().player == "ben"
    events = play_trick(
        game, {"ben": "yellow-10", "cho": "green-2", "dev": "blue-2", "ann": "yellow-1"}
    )
    won = next(e for e in events if e.kind == "trick_won")
    assert (won.winner, won.card, won.why) == ("ann", "yellow-1", "lowest")


def test_r4_turns_go_clockwise_from_the_lead() -> None:
    game = new_game(lead="cho")
    assert [game.next().player] == ["cho"]
    assert refused(game, "ann", {"action": "play", "card": "red-1"}).rule == "R-4"
    act(game, "cho", {"action": "play", "card": "green-3"})
    assert game.next().player == "dev"
    assert refused(game, "dev", {"action": "play", "card": "red-3"}).rule == "R-4"  # not held


def test_r4_ten_tricks_then_the_game_is_over() -> None:
    game = new_game()
    for n in range(1, 11):
        events = full_trick(game, nth(n))
        assert "trick_won" in kinds(events)
    assert game.over and game.next() is None and events[-1].kind == "game_over"
    assert game.legal_actions("ann") == []
    assert refused(game, "ann", {"action": "pass"}).rule == "R-4"


def test_r4_only_a_card_may_be_played_now() -> None:
    game = new_game()
    assert refused(game, "ann", {"action": "chip", "at": [4, 4]}).rule == "R-4"


# -- R-5 after the trick ---------------------------------------------------------------------------


def test_r5_order_chips_then_build_then_choice() -> None:
    game = new_game()
    events = full_trick(game, FIRST)
    assert kinds(events) == ["card_played"] * 4 + ["trick_won"] + ["chip_placed"] * 3 + [
        "built",
        "discarded",
        "passed",
        "trick_started",
    ]


def test_r5a_losers_put_chips_clockwise_from_the_winners_left() -> None:
    game = new_game()
    full_trick(game, FIRST, {"action": "appoint", "lead": "ben"})
    events = play_trick(
        game, {"ben": "yellow-2", "cho": "green-2", "dev": "blue-2", "ann": "red-2"}
    )
    assert game.winner == "ben" and game.next().expects == "chip"
    assert refused(game, "ben", {"action": "chip", "at": [4, 4]}).rule == "R-5"
    events = place_chips(game)
    assert [e.player for e in events] == ["cho", "dev", "ann"]
    assert game.chips_left == {"ann": 9, "ben": 9, "cho": 8, "dev": 8}


def test_r5a_a_player_without_chips_is_skipped() -> None:
    game = new_game()
    game.chips_left["cho"] = 0
    events = play_trick(game, FIRST)
    events += place_chips(game)
    skipped = [e for e in events if e.kind == "chip_skipped"]
    assert [(e.player, e.reason) for e in skipped] == [("cho", "no_chips")]
    assert [e.player for e in events if e.kind == "chip_placed"] == ["ben", "dev"]


def test_r5a_players_without_a_legal_spot_are_skipped() -> None:
    game = new_game()
    spots = sorted(game.open)
    for spot in spots[:-1]:
        game.chips[spot] = "ann"
    game.open = {spots[-1]}
    events = play_trick(game, FIRST)
    assert game.next().player == "ben" and not kinds(events).count("chip_skipped")
    events = place_chips(game)
    assert kinds(events) == ["chip_placed", "chip_skipped", "chip_skipped"]
    assert [(e.player, e.reason) for e in events[1:]] == [("cho", "no_spot"), ("dev", "no_spot")]
    assert game.next().expects == "build" and game.next().player == "ann"
    assert game.legal_chip_spots("ben") == []


def test_r5b_build_two_cards_of_the_trick_the_rest_leave() -> None:
    game = new_game()
    play_trick(game, FIRST)
    place_chips(game)
    data = {"action": "build", "cards": ["green-1", "red-1"], "at": [[3, 1], [0, 2]]}
    events = act(game, "ann", data)
    assert kinds(events) == ["built", "discarded"]
    assert events[0].cards == ("green-1", "red-1") and events[0].at == ((3, 1), (0, 2))
    assert sorted(events[1].cards) == ["blue-1", "yellow-1"]
    field = game.view("ben")["field"]
    assert field[3][1] == "green-1" and field[0][2] == "red-1"
    assert len(game.empty_building_cells()) == 18 and game.next().expects == "choice"


@pytest.mark.parametrize(
    ("cards", "at"),
    [
        (["red-1", "red-1"], [[0, 1], [0, 2]]),
        (["red-1", "red-2"], [[0, 1], [0, 2]]),
        (["red-1", "blue-1"], [[0, 1], [0, 1]]),
    ],
)
def test_r5b_invalid_builds_are_refused(cards: list[str], at: list[list[int]]) -> None:
    game = new_game()
    play_trick(game, FIRST)
    place_chips(game)
    assert refused(game, "ann", {"action": "build", "cards": cards, "at": at}).rule == "R-5"


def test_r5b_cells_must_be_empty_and_only_the_winner_builds() -> None:
    game = new_game()
    full_trick(game, FIRST)
    play_trick(game, {p: c.replace("-1", "-2") for p, c in FIRST.items()})
    place_chips(game)
    data = {"action": "build", "cards": ["red-2", "blue-2"], "at": [[0, 1], [3, 3]]}
    assert game.view(None)["field"][0][1] is not None
    assert refused(game, "ann", data).rule == "R-5"
    data["at"] = [[3, 2], [3, 3]]
    assert refused(game, "ben", data).rule == "R-5"
    assert refused(game, "ann", {"action": "pass"}).rule == "R-5"


def test_r5b_legal_builds_list_every_order_and_random_builds_are_among_them() -> None:
    game = new_game()
    play_trick(game, FIRST)
    place_chips(game)
    legal = game.legal_actions("ann")
    assert len(legal) == len(set(legal)) == (4 * 3) * (20 * 19)
    rng = random.Random(1)
    assert all(game.random_action("ann", rng) in legal for _ in range(200))
    assert Build(("red-1", "blue-1"), ((0, 1), (0, 2))) in legal


def _to_choice(game: RightsOfLosers, winner_cards: dict[str, str] = FIRST) -> None:
    play_trick(game, winner_cards)
    place_chips(game)
    build_first(game)


def test_r5c_appoint_anyone_as_the_next_lead() -> None:
    game = new_game()
    _to_choice(game)
    assert refused(game, "ann", {"action": "appoint", "lead": "eve"}).rule == "R-5"
    events = act(game, "ann", {"action": "appoint", "lead": "dev"})
    assert kinds(events) == ["appointed", "trick_started"]
    assert (events[1].lead, events[1].reason, events[1].trick) == ("dev", "appointed", 2)
    assert game.next() is not None and game.next().player == "dev" and game.lead == "dev"
    game = new_game()
    _to_choice(game)
    act(game, "ann", {"action": "appoint", "lead": "ann"})
    assert game.next().player == "ann"


def test_r5c_without_appointment_the_winner_leads() -> None:
    game = new_game(lead="cho")
    full_trick(game, {"cho": "green-1", "dev": "blue-1", "ann": "red-1", "ben": "yellow-1"})
    assert game.winner is None and game.next().player == "cho" and game.trick_number == 2


def test_r5c_reverse_toggles() -> None:
    game = new_game()
    full_trick(game, FIRST, {"action": "reverse"})
    assert game.reversed
    events = full_trick(
        game, {p: c.replace("-1", "-2") for p, c in FIRST.items()}, {"action": "reverse"}
    )
    assert not game.reversed and events[-2].reversed is False


def test_r5c_move_one_of_your_chips() -> None:
    game = new_game()
    full_trick(game, FIRST, {"action": "appoint", "lead": "ben"})
    play_trick(game, {"ben": "yellow-2", "cho": "green-2", "dev": "blue-2", "ann": "red-2"})
    place_chips(game, [[4, 4], [3, 3], [3, 5]])
    build_first(game)
    own = [s for s, p in game.chips.items() if p == "ben"]
    assert len(own) == 1
    source = [own[0] // 9, own[0] % 9]
    assert refused(game, "ben", {"action": "move", "from": [4, 4], "to": [5, 5]}).rule == "R-5"
    assert refused(game, "ben", {"action": "move", "from": source, "to": source}).rule == "R-5"
    assert refused(game, "ben", {"action": "move", "from": source, "to": [3, 3]}).rule == "R-3"
    assert refused(game, "ben", {"action": "move", "from": source, "to": [4, 0]}).rule == "R-3"
    assert refused(game, "ben", {"action": "move", "from": source, "to": [9, 9]}).rule == "R-3"
    events = act(game, "ben", {"action": "move", "from": source, "to": [5, 5]})
    assert kinds(events) == ["chip_moved", "trick_started"]
    assert events[0].to_json() == {
        "type": "chip_moved",
        "player": "ben",
        "from": tuple(source),
        "to": (5, 5),
    }
    assert game.chips[spot_index((5, 5))] == "ben" and spot_index(source) not in game.chips
    assert tuple(source) in game.legal_chip_spots("ann") and game.chips_left["ben"] == 9


def test_r5c_choices_listed() -> None:
    game = new_game()
    full_trick(game, FIRST, {"action": "appoint", "lead": "ben"})
    play_trick(game, {"ben": "yellow-2", "cho": "green-2", "dev": "blue-2", "ann": "red-2"})
    place_chips(game)
    build_first(game)
    legal = game.legal_actions("ben")
    free = len(game.legal_chip_spots("ben"))
    assert len(legal) == 4 + 2 + 1 * free and REVERSE in legal and PASS in legal
    assert sum(isinstance(a, Move) for a in legal) == free
    assert game.legal_actions("ann") == []


def test_r5c_a_choice_after_the_tenth_trick_counts() -> None:
    game = new_game()
    for n in range(1, 10):
        full_trick(game, nth(n))
    play_trick(game, nth(10))
    place_chips(game)
    build_first(game)
    assert game.next().expects == "choice" and game.trick_number == 10
    clear_chips(game)
    put(game, {(0, 1): "ben", (1, 1): "ann"})
    assert game.owners_now()[0, 0] == "ben"
    events = act(game, "ann", {"action": "move", "from": [1, 1], "to": [0, 0]})
    assert kinds(events) == ["chip_moved", "game_over"]
    assert game.owners_now()[0, 0] == "ann" and events[-1].owners[0].by == "on_card"


# -- R-6 who gets each card: hand-built boards around the centre land [2, 2] (spot [4, 4]) --------


@pytest.mark.parametrize(
    ("chips", "owner", "by"),
    [
        ({(3, 3): "ann", (3, 5): "ann", (4, 4): "ben"}, "ann", "most"),
        ({(4, 4): "ann", (3, 3): "ann", (3, 4): "ben", (4, 3): "ben"}, "ann", "on_card"),
        ({(3, 4): "ann", (3, 3): "ann", (3, 5): "ben", (5, 3): "ben"}, "ann", "edge"),
        ({(3, 4): "ann", (3, 3): "ann", (5, 4): "ben", (5, 5): "ben"}, None, "tie"),
        ({(3, 3): "ann", (3, 5): "ann", (5, 3): "ben", (5, 5): "ben", (4, 4): "cho"}, None, "tie"),
        (
            {(3, 4): "ann", (3, 3): "ann", (5, 3): "ben", (5, 5): "ben", (4, 4): "cho"},
            "ann",
            "edge",
        ),
        ({(5, 5): "dev"}, "dev", "most"),
        ({}, None, "no_chips"),
    ],
    ids=[
        "most",
        "on-card-beats-edge",
        "edge-beats-corner",
        "full-tie",
        "tie-only-among-most",
        "edge-among-most",
        "lone",
        "none",
    ],
)
def test_r6_judgement_of_one_card(chips: dict, owner: str | None, by: str) -> None:
    game = new_game()
    put(game, chips)
    assert game.owners_now()[2, 2] == owner
    assert judge_card(12, game.chips) == (owner, by)


def test_r6_spots_off_the_card_do_not_count() -> None:
    game = new_game()
    put(game, {(2, 2): "ben", (4, 2): "ben", (3, 2): "ben", (4, 5): "ann"})
    assert game.owners_now()[2, 2] == "ann"


def test_r6_a_corner_chip_counts_for_every_card_it_touches() -> None:
    game = new_game()
    _to_choice(game)
    assert game.view(None)["field"][0][1] is not None  # built on [0, 1] and [0, 2]
    clear_chips(game)
    put(game, {(1, 1): "cho"})
    owners = game.owners_now()
    assert owners[0, 0] == "cho" and owners[0, 1] == "cho" and owners[0, 2] is None
    assert set(owners) == {(0, 0), (0, 4), (4, 0), (4, 4), (2, 2), (0, 1), (0, 2)}


def test_r6_all_25_cards_are_judged_at_the_end() -> None:
    game = new_game()
    for n in range(1, 11):
        events = full_trick(game, nth(n))
    over = events[-1]
    assert over.kind == "game_over" and len(over.owners) == 25
    assert {o.cell for o in over.owners} == {(r, c) for r in range(5) for c in range(5)}
    assert game.owners_now() == {o.cell: o.owner for o in over.owners}
    assert [o.to_json() for o in over.owners] == game.details()["owners"]


# -- R-7 scores ------------------------------------------------------------------------------------


def _owners(*rows: tuple[str, str | None]) -> list[CardOwner]:
    return [CardOwner((i // 5, i % 5), card, owner, "most") for i, (card, owner) in enumerate(rows)]


def test_r7_building_numbers_plus_land_bonus_to_all_with_most_land() -> None:
    owners = _owners(
        ("red-7", "ann"), ("blue-3", "ann"), ("yellow-9", "ben"), ("green-5", None),
        (LAND, "ann"), (LAND, "ann"), (LAND, "cho"), (LAND, "cho"), (LAND, "ben"),
    )  # fmt: skip
    assert final_scores(FOUR, owners) == {"ann": 20, "ben": 9, "cho": 10, "dev": 0}


def test_r7_no_land_bonus_when_nobody_gets_land() -> None:
    owners = _owners(("red-7", "ann"), (LAND, None), (LAND, None))
    assert final_scores(THREE, owners) == {"ann": 7, "ben": 0, "cho": 0}


def test_r7_ties_fewest_unplaced_chips_then_shared() -> None:
    scores = {"ann": 12, "ben": 12, "cho": 12, "dev": 3}
    left = {"ann": 4, "ben": 2, "cho": 2, "dev": 0}
    assert rank(FOUR, scores, left) == [["ben", "cho"], ["ann"], ["dev"]]
    assert tie_break(FOUR, scores, left) == "shared"
    left["cho"] = 3
    assert rank(FOUR, scores, left)[0] == ["ben"] and tie_break(FOUR, scores, left) == "chips"
    assert tie_break(FOUR, {"ann": 5, "ben": 1, "cho": 0, "dev": 0}, left) is None


def _last_choice() -> RightsOfLosers:
    game = new_game()
    for n in range(1, 10):
        full_trick(game, nth(n))
    play_trick(game, nth(10))
    place_chips(game)
    build_first(game)
    clear_chips(game)
    return game


def test_r7_scores_are_zero_until_the_game_is_over() -> None:
    game = _last_choice()
    put(game, {(0, 0): "ben", (0, 1): "ben"})
    assert game.scores() == dict.fromkeys(FOUR, 0) and game.winners() == []
    events = act(game, "ann", {"action": "pass"})
    land_0_1 = game.view(None)["field"][0][1]
    expected = 10 + int(land_0_1.rsplit("-", 1)[1])
    assert game.scores() == {"ann": 0, "ben": expected, "cho": 0, "dev": 0}
    assert game.winners() == ["ben"] and events[-1].winners == ("ben",)
    assert game.details()["land"] == {"ann": 0, "ben": 1, "cho": 0, "dev": 0}


@pytest.mark.parametrize(
    ("ann_left", "winners", "why"), [(9, ["ben"], "chips"), (8, ["ann", "ben"], "shared")]
)
def test_r7_final_tie_break_in_a_game(ann_left: int, winners: list[str], why: str) -> None:
    game = _last_choice()
    put(game, {(0, 0): "ann", (0, 8): "ben"})
    game.chips_left.update(ann=ann_left, ben=8)
    events = act(game, "ann", {"action": "pass"})
    assert game.scores() == {"ann": 10, "ben": 10, "cho": 0, "dev": 0}
    assert game.winners() == winners and events[-1].tie_break == why
    assert game.details()["tie_break"] == why


# -- actions in their log form ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"action": "play", "card": "red-7"},
        {"action": "chip", "at": [3, 5]},
        {"action": "build", "cards": ["red-7", "blue-1"], "at": [[0, 1], [4, 3]]},
        {"action": "appoint", "lead": "ben"},
        {"action": "reverse"},
        {"action": "move", "from": [0, 0], "to": [8, 8]},
        {"action": "pass"},
    ],
)
def test_actions_round_trip_their_log_form(data: dict) -> None:
    action = RightsOfLosers.parse_action(data)
    assert RightsOfLosers.action_json(action) == data
    assert json.loads(json.dumps(action.to_json())) == data


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"card": "red-7"},
        {"action": "draw"},
        {"action": 3},
        {"action": "play"},
        {"action": "play", "card": "red-7", "at": [0, 0]},
        {"action": "play", "card": "red-11"},
        {"action": "play", "card": 7},
        {"action": "chip", "at": [1]},
        {"action": "chip", "at": [1, 2, 3]},
        {"action": "chip", "at": [True, 2]},
        {"action": "chip", "at": [1.0, 2]},
        {"action": "chip", "at": "1,2"},
        {"action": "build", "cards": ["red-7"], "at": [[0, 1], [0, 2]]},
        {"action": "build", "cards": ["red-7", "red-8"], "at": [[0, 1]]},
        {"action": "build", "cards": ["red-7", "red-8"], "at": [0, 1]},
        {"action": "build", "cards": "red-7", "at": [[0, 1], [0, 2]]},
        {"action": "appoint", "lead": 1},
        {"action": "appoint"},
        {"action": "reverse", "lead": "ann"},
        {"action": "move", "from": [0, 0]},
        {"action": "move", "from": [0, 0], "to": [0, False]},
        {"action": "pass", "x": 1},
        ["pass"],
    ],
)
def test_malformed_actions_are_refused(data: object) -> None:
    with pytest.raises(MalformedAction):
        RightsOfLosers.parse_action(data)  # type: ignore[arg-type]


def test_action_objects_are_shared() -> None:
    a = RightsOfLosers.parse_action({"action": "chip", "at": [3, 3]})
    assert a is RightsOfLosers.parse_action({"action": "chip", "at": [3, 3]}) and a == Chip((3, 3))


# -- G-3 views and details -------------------------------------------------------------------------


def test_g3_view_shows_own_hand_only() -> None:
    game = new_game()
    act(game, "ann", {"action": "play", "card": "red-4"})
    view = game.view("ben")
    assert view["hand"] == suit("yellow") and view["hand_sizes"] == {
        "ann": 9,
        "ben": 10,
        "cho": 10,
        "dev": 10,
    }
    assert view["trick"] == [{"player": "ann", "card": "red-4"}]
    assert (view["to_act"], view["expects"], view["phase"]) == ("ben", "play", "play")
    text = json.dumps(view)
    assert "red-5" not in text and "green-1" not in text
    assert game.view(None)["hand"] is None


def test_details_for_replay() -> None:
    game = new_game()
    full_trick(game, FIRST, {"action": "reverse"})
    details = game.details()
    assert details == {
        "trick": 2,
        "phase": "play",
        "lead": "ann",
        "reversed": True,
        "chips_left": {"ann": 10, "ben": 9, "cho": 9, "dev": 9},
    }


def test_events_are_json_ready() -> None:
    game = new_game()
    events = []
    for n in range(1, 11):
        events += full_trick(game, nth(n))
    for event in events:
        json.dumps(event.to_json())
    assert {e.kind for e in events} >= {
        "card_played",
        "trick_won",
        "chip_placed",
        "built",
        "game_over",
    }
