"""One test (at least) per KAMIZA rule id of RULES.md, K-1..K-13."""

from __future__ import annotations

import pytest
from kamiza_helpers import FOUR, THREE, kinds, new_match, play_round, round_points

from rules.base import IllegalAction, InvalidSetup
from rules.kamiza import Kamiza, Play

# -- K-1 players and card sets ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [["a", "b"], ["a", "b", "c", "d", "e"]])
def test_k1_three_or_four_players_only(players: list[str]) -> None:
    with pytest.raises(InvalidSetup):
        Kamiza.create(players, None, {"start_player": "a"})


def test_k1_each_edition_has_its_own_set() -> None:
    second, classic = new_match(), new_match(edition="classic")
    assert second.view("red")["hand"] == ["boss", "underboss", "hitman", "policeman"]
    assert classic.view("red")["hand"] == ["boss", "underboss", "hitman", "raid"]


def test_k1_card_of_the_other_edition_is_refused() -> None:
    second, classic = new_match(), new_match(edition="classic")
    with pytest.raises(IllegalAction) as err:
        second.apply("red", Play("raid", "kamiza"))
    assert err.value.rule == "K-1"
    with pytest.raises(IllegalAction) as err:
        classic.apply("red", Play("policeman", "kamiza"))
    assert err.value.rule == "K-1"


# -- K-2 match of 3 games x 3 rounds, cards stay out until the game ends ---------------------------


def test_k2_played_card_cannot_be_played_again_in_the_same_game() -> None:
    game = new_match()
    play_round(game, {p: "underboss@shimoza" for p in FOUR})
    start = game.next().player
    with pytest.raises(IllegalAction) as err:
        game.apply(start, Play("underboss", "kamiza"))
    assert err.value.rule == "K-2"


def test_k2_hands_come_back_after_three_rounds_and_match_lasts_nine() -> None:
    game = new_match()
    rounds = 0
    for card in ("hitman", "underboss", "boss") * 3:
        events = play_round(game, {p: f"{card}@kamiza" for p in FOUR})
        rounds += 1
        if rounds % 3 == 0 and rounds < 9:
            assert "game_ended" in kinds(events)
            assert game.view("red")["hand"] == ["boss", "underboss", "hitman", "policeman"]
    assert rounds == 9 and game.over
    ended = [e for e in events if e.kind == "game_ended"]
    assert ended and ended[0].unplayed == dict.fromkeys(FOUR, "policeman")
    with pytest.raises(IllegalAction) as err:
        game.apply("red", Play("policeman", "kamiza"))
    assert err.value.rule == "K-2"


# -- K-3 turn order, public areas, advanced option -------------------------------------------------


def test_k3_clockwise_from_start_player_and_others_refused() -> None:
    game = new_match(start="green")
    assert game.next().player == "green"
    with pytest.raises(IllegalAction) as err:
        game.apply("red", Play("boss", "kamiza"))
    assert err.value.rule == "K-3"
    game.apply("green", Play("boss", "kamiza"))
    assert [game.next().player] == ["purple"]
    game.apply("purple", Play("hitman", "shimoza"))
    assert game.next().player == "red"


def test_k3_areas_public_cards_hidden() -> None:
    game = new_match()
    game.apply("red", Play("boss", "kamiza"))
    game.apply("blue", Play("hitman", "shimoza"))
    assert game.view("green")["table"] == [
        {"player": "red", "area": "kamiza", "card": None},
        {"player": "blue", "area": "shimoza", "card": None},
    ]
    assert game.view("red")["table"][0]["card"] == "boss"
    assert game.view("red")["table"][1]["card"] is None


def test_k3_advanced_start_player_plays_face_up() -> None:
    game = new_match(advanced=True)
    [placed] = game.apply("red", Play("boss", "kamiza"))
    assert placed.face_up
    [hidden] = game.apply("blue", Play("hitman", "kamiza"))
    assert not hidden.face_up
    table = game.view("green")["table"]
    assert table[0]["card"] == "boss" and table[1]["card"] is None


# -- K-4 areas: the bluff into shimoza is allowed and removed --------------------------------------


def test_k4_boss_in_shimoza_is_allowed_removed_and_scores_nothing() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@shimoza",
            "blue": "underboss@kamiza",
            "green": "hitman@shimoza",
            "purple": "policeman@shimoza",
        },
    )
    removed = [(e.player, e.card) for e in events if e.kind == "removed_wrong_area"]
    assert removed == [("red", "boss"), ("purple", "policeman")]
    assert round_points(events) == {"red": 0, "blue": 2, "green": 1, "purple": 0}


def test_k4_classic_raid_may_sit_in_shimoza() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "raid@shimoza",
            "blue": "raid@kamiza",
            "green": "boss@shimoza",
            "purple": "hitman@shimoza",
        },
    )
    assert round_points(events) == {"red": 0, "blue": 0, "green": 0, "purple": 1}
    assert [e.player for e in events if e.kind == "removed_wrong_area"] == ["green"]
    seated = {(e.player, e.area) for e in events if e.kind == "seated"}
    assert ("red", "shimoza") in seated and ("blue", "kamiza") in seated


# -- K-5 squealing (classic) -----------------------------------------------------------------------


def test_k5_one_raid_squeals_nobody_scores_raider_starts() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "underboss@shimoza",
            "green": "raid@shimoza",
            "purple": "hitman@shimoza",
        },
    )
    assert "squealed" in kinds(events)
    assert round_points(events) == dict.fromkeys(FOUR, 0)
    started = [e for e in events if e.kind == "round_started"][-1]
    assert started.start_player == "green" and started.reason == "squeal"


def test_k5_two_raids_do_not_squeal() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "raid@kamiza",
            "green": "raid@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert "squealed" not in kinds(events)
    assert round_points(events) == {"red": 5, "blue": 0, "green": 0, "purple": 2}


def test_k5_squeal_overrides_highest_total_even_across_games() -> None:
    game = new_match(edition="classic")
    play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@shimoza",
            "green": "underboss@shimoza",
            "purple": "hitman@kamiza",
        },
    )
    play_round(
        game,
        {
            "purple": "underboss@kamiza",
            "red": "underboss@kamiza",
            "blue": "underboss@shimoza",
            "green": "hitman@shimoza",
        },
    )
    assert game.totals == {"red": 0, "blue": 3, "green": 3, "purple": 4}
    events = play_round(
        game,
        {
            "purple": "boss@kamiza",
            "red": "hitman@shimoza",
            "blue": "raid@kamiza",
            "green": "boss@kamiza",
        },
    )
    assert "squealed" in kinds(events) and "game_ended" in kinds(events)
    assert game.totals["purple"] == 4
    assert game.next().player == "blue"
    started = [e for e in events if e.kind == "round_started"][-1]
    assert (started.game, started.round, started.reason) == (2, 1, "squeal")


# -- K-6 cancelling --------------------------------------------------------------------------------


def test_k6_same_type_in_one_area_cancels_all_copies() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "boss@kamiza",
            "green": "hitman@kamiza",
            "purple": "hitman@shimoza",
        },
    )  # the sheet's "When the Hitman fails"
    cancelled = [(e.area, e.card, e.players) for e in events if e.kind == "cancelled"]
    assert cancelled == [("kamiza", "boss", ("red", "blue"))]
    assert round_points(events) == {"red": 0, "blue": 0, "green": 1, "purple": 1}


def test_k6_same_type_in_different_areas_does_not_cancel() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "underboss@kamiza",
            "blue": "underboss@shimoza",
            "green": "hitman@shimoza",
            "purple": "policeman@shimoza",
        },
    )
    assert "cancelled" not in kinds(events)
    assert round_points(events) == {"red": 2, "blue": 2, "green": 1, "purple": 0}


def test_k6_policemen_and_raids_cancel_too() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "policeman@kamiza",
            "green": "policeman@kamiza",
            "purple": "hitman@shimoza",
        },
    )
    assert round_points(events) == {"red": 5, "blue": 0, "green": 0, "purple": 1}
    classic = new_match(edition="classic")
    events = play_round(
        classic,
        {
            "red": "boss@kamiza",
            "blue": "raid@kamiza",
            "green": "raid@kamiza",
            "purple": "raid@shimoza",
        },
    )
    assert [(e.area, e.card) for e in events if e.kind == "cancelled"] == [("kamiza", "raid")]
    assert round_points(events)["red"] == 5


# -- K-7 seats -------------------------------------------------------------------------------------


def test_k7_kamiza_seats_the_highest_single_card() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "underboss@kamiza",
            "blue": "boss@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    lost = [(e.player, e.area, e.to) for e in events if e.kind == "seat_lost"]
    assert lost == [("red", "kamiza", "blue")]
    assert round_points(events) == {"red": 0, "blue": 5, "green": 1, "purple": 2}


def test_k7_shimoza_seats_two_higher_numbers() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "underboss@shimoza",
            "blue": "hitman@shimoza",
            "green": "raid@shimoza",
            "purple": "raid@kamiza",
        },
    )
    assert [(e.player, e.area) for e in events if e.kind == "seat_lost"] == [("green", "shimoza")]
    assert round_points(events) == {"red": 2, "blue": 1, "green": 0, "purple": 0}


def test_k7_policeman_is_not_counted_for_kamiza_seat() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "underboss@kamiza",
            "blue": "policeman@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert "seat_lost" not in kinds(events)
    assert round_points(events) == {"red": 1, "blue": 1, "green": 1, "purple": 2}


# -- K-8 the hit -----------------------------------------------------------------------------------


def test_k8_hitman_hits_lone_boss_for_four() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "underboss@shimoza",
            "purple": "hitman@shimoza",
        },
    )
    [hit] = [e for e in events if e.kind == "hit"]
    assert (hit.hitman, hit.boss) == ("blue", "red")
    assert round_points(events) == {"red": 0, "blue": 4, "green": 2, "purple": 1}


def test_k8_underboss_protects_boss() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "underboss@kamiza",
            "purple": "hitman@shimoza",
        },
    )
    assert "hit" not in kinds(events)
    assert round_points(events) == {"red": 5, "blue": 0, "green": 0, "purple": 1}


def test_k8_raid_does_not_protect_boss() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "raid@kamiza",
            "purple": "raid@shimoza",
        },
    )
    assert "hit" in kinds(events)
    assert round_points(events) == {"red": 0, "blue": 4, "green": 0, "purple": 0}


def test_k8_no_hit_when_bosses_cancel() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "boss@kamiza",
            "green": "hitman@kamiza",
            "purple": "underboss@shimoza",
        },
    )
    assert "hit" not in kinds(events)
    assert round_points(events)["green"] == 1


# -- K-9 bribe -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seated", "half"), [("boss", 2), ("underboss", 1), ("hitman", 0)])
def test_k9_bribe_halves_and_shares(seated: str, half: int) -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": f"{seated}@kamiza",
            "blue": "policeman@kamiza",
            "green": "underboss@shimoza" if seated != "underboss" else "hitman@shimoza",
            "purple": "hitman@shimoza" if seated != "hitman" else "underboss@shimoza",
        },
    )
    [bribe] = [e for e in events if e.kind == "bribe"]
    assert (bribe.policeman, bribe.player, bribe.points) == ("blue", "red", half)
    points = round_points(events)
    assert points["red"] == half and points["blue"] == half


def test_k9_bribe_of_hitman_who_hit_is_two_and_two() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "policeman@kamiza",
            "purple": "hitman@shimoza",
        },
    )  # the sheet's example: red 0, blue 2, green 2, purple 1
    assert round_points(events) == {"red": 0, "blue": 2, "green": 2, "purple": 1}


def test_k9_policeman_alone_scores_zero() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "policeman@kamiza",
            "blue": "hitman@shimoza",
            "green": "underboss@shimoza",
            "purple": "boss@shimoza",
        },
    )
    assert "policeman_unpaid" in kinds(events)
    assert round_points(events) == {"red": 0, "blue": 1, "green": 2, "purple": 0}
    assert game.wanted["red"] == 0


def test_k9_second_edition_sheet_example_boss_and_policeman() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "policeman@kamiza",
            "green": "underboss@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert round_points(events) == {"red": 2, "blue": 2, "green": 0, "purple": 0}


# -- K-10 WANTED -----------------------------------------------------------------------------------


def _bribe_game(game: Kamiza, briber: str, rich: str, others: dict[str, str]) -> None:
    """Three rounds in which `briber` bribes `rich`'s Underboss in the first round."""
    play_round(game, {briber: "policeman@kamiza", rich: "underboss@kamiza", **others})


def test_k10_paid_policeman_earns_wanted_chip_unpaid_does_not() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "underboss@kamiza",
            "blue": "policeman@kamiza",
            "green": "hitman@shimoza",
            "purple": "hitman@shimoza",
        },
    )
    assert [(e.player, e.chips) for e in events if e.kind == "wanted"] == [("blue", 1)]
    game2 = new_match()
    events = play_round(
        game2,
        {
            "red": "hitman@kamiza",
            "blue": "policeman@kamiza",
            "green": "underboss@shimoza",
            "purple": "boss@kamiza",
        },
    )  # boss beats hitman; boss 5 -> 2+2
    assert game2.wanted["blue"] == 1


def _three_bribes(game: Kamiza, briber: str) -> list:
    """Play whole games where `briber`'s policeman bribes an Underboss in the first round."""
    events: list = []
    for _ in range(3):
        others = [p for p in game.active_players() if p != briber]
        plays = {briber: "policeman@kamiza", others[0]: "underboss@kamiza"}
        plays |= {p: "hitman@shimoza" for p in others[1:]}
        events += play_round(game, plays)
        if game.over:
            break
        for card in ("boss", "hitman"):
            remaining = {
                p: (card if card in game.hands[p] else game.hands[p][0])
                for p in game.active_players()
            }
            events += play_round(game, {p: f"{c}@shimoza" for p, c in remaining.items()})
    return events


def test_k10_third_chip_drops_player_who_cannot_win() -> None:
    game = new_match()
    events = _three_bribes(game, "blue")
    dropped = [e for e in events if e.kind == "dropped_out"]
    assert [e.player for e in dropped] == ["blue"] and game.dropped == ["blue"]
    assert game.wanted["blue"] == 3
    assert "blue" not in game.order
    assert game.over
    assert "blue" not in game.winners()
    assert game.ranking()[-1] == ["blue"]


def test_k10_dropped_player_is_refused_and_skipped() -> None:
    game = new_match()
    for _ in range(2):
        _bribe_game(game, "blue", "red", {"green": "hitman@shimoza", "purple": "hitman@shimoza"})
        for card in ("boss", "hitman"):
            hands = {p: card if card in game.hands[p] else game.hands[p][0] for p in FOUR}
            play_round(game, {p: f"{c}@shimoza" for p, c in hands.items()})
    _bribe_game(game, "blue", "red", {"green": "hitman@shimoza", "purple": "hitman@shimoza"})
    assert game.dropped == ["blue"]
    assert "blue" not in game.order and len(game.order) == 3
    with pytest.raises(IllegalAction) as err:
        game.apply("blue", Play("boss", "kamiza"))
    assert err.value.rule == "K-10"


def test_k10_match_ends_when_fewer_than_two_remain() -> None:
    game = new_match(THREE)
    # ann bribes in games 1-3 round 1; ben bribes in games 1-3 round 2.
    for _ in range(3):
        play_round(
            game, {"ann": "policeman@kamiza", "ben": "underboss@kamiza", "cho": "hitman@shimoza"}
        )
        if game.over:
            break
        active = game.active_players()
        plays = {"ben": "policeman@kamiza", "cho": "underboss@kamiza", "ann": "hitman@shimoza"}
        events = play_round(game, {p: plays[p] for p in active})
        if game.over:
            break
        active = game.active_players()
        play_round(game, {p: f"{game.hands[p][0]}@shimoza" for p in active})
    assert game.position()[0] == 3
    assert game.dropped == ["ann", "ben"]
    assert game.over and "match_ended" in kinds(events)
    assert game.winners() == ["cho"]


# -- K-11 points -----------------------------------------------------------------------------------


def test_k11_seated_cards_score_their_numbers() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "underboss@shimoza",
            "green": "hitman@shimoza",
            "purple": "boss@kamiza",
        },
    )
    assert round_points(events) == {"red": 0, "blue": 2, "green": 1, "purple": 0}
    events = play_round(
        game,
        {
            "red": "underboss@kamiza",
            "blue": "boss@kamiza",
            "green": "underboss@shimoza",
            "purple": "hitman@shimoza",
        },
    )
    assert round_points(events) == {"red": 0, "blue": 5, "green": 2, "purple": 1}


# -- K-12 start player -----------------------------------------------------------------------------


def test_k12_highest_total_starts() -> None:
    game = new_match(start="red")
    play_round(
        game,
        {
            "red": "hitman@shimoza",
            "blue": "underboss@shimoza",
            "green": "boss@kamiza",
            "purple": "policeman@shimoza",
        },
    )
    assert game.next().player == "green"
    assert list(game.order) == ["green", "purple", "red", "blue"]


def test_k12_tie_goes_clockwise_from_current_start_who_keeps_it() -> None:
    game = new_match(start="blue")
    # red and green tie at 2; blue (current start) has 0: green is first clockwise from blue.
    play_round(
        game,
        {
            "blue": "hitman@kamiza",
            "green": "underboss@shimoza",
            "purple": "hitman@kamiza",
            "red": "underboss@kamiza",
        },
    )
    assert game.totals == {"red": 2, "blue": 0, "green": 2, "purple": 0}
    assert game.next().player == "green"
    # red, blue and green tie at 2: green, the current start player, keeps it.
    play_round(
        game,
        {
            "green": "boss@kamiza",
            "purple": "boss@kamiza",
            "red": "boss@shimoza",
            "blue": "underboss@shimoza",
        },
    )
    assert game.totals == {"red": 2, "blue": 2, "green": 2, "purple": 0}
    assert game.next().player == "green"


def test_k12_current_start_keeps_seat_when_tied() -> None:
    game = new_match(start="green")
    play_round(
        game,
        {
            "green": "underboss@shimoza",
            "purple": "hitman@kamiza",
            "red": "underboss@kamiza",
            "blue": "hitman@kamiza",
        },
    )
    assert game.totals["green"] == game.totals["red"] == 2
    assert game.next().player == "green"


def test_k12_first_start_player_is_drawn_when_nobody_chooses() -> None:
    import random

    from rules.log import new_header

    drawn = {new_header("kamiza", FOUR, seed=s)["setup"]["start_player"] for s in range(40)}
    assert drawn == set(FOUR)
    chosen = new_header("kamiza", FOUR, seed=3, start_player="purple")
    assert chosen["setup"]["start_player"] == "purple"
    assert Kamiza.draw_setup(FOUR, {}, random.Random(1)) == Kamiza.draw_setup(
        FOUR, {}, random.Random(1)
    )


# -- K-13 winner and the chicken tie-break ---------------------------------------------------------


def _zero_games(game: Kamiza, times: int = 2) -> None:
    """Whole games in which every card cancels: nobody scores."""
    for _ in range(times):
        for card in ("boss", "underboss", "hitman"):
            play_round(game, {p: f"{card}@kamiza" for p in game.active_players()})


def _third_game_opening(game: Kamiza) -> None:
    play_round(
        game, {"ann": "underboss@shimoza", "ben": "hitman@shimoza", "cho": "policeman@shimoza"}
    )
    play_round(game, {"ann": "hitman@kamiza", "ben": "underboss@kamiza", "cho": "hitman@kamiza"})
    assert game.totals == {"ann": 2, "ben": 3, "cho": 0}
    assert game.next().player == "ben"


def test_k13_highest_total_wins() -> None:
    game = new_match(THREE, start="ann")
    _zero_games(game)
    _third_game_opening(game)
    events = play_round(
        game, {"ben": "boss@kamiza", "cho": "underboss@shimoza", "ann": "policeman@shimoza"}
    )
    assert game.totals == {"ann": 2, "ben": 8, "cho": 2}
    assert game.winners() == ["ben"] and game.tie_break is None
    assert [e.winners for e in events if e.kind == "match_ended"] == [("ben",)]


def test_k13_chicken_breaks_tie() -> None:
    game = new_match(THREE, start="ann")
    _zero_games(game)
    _third_game_opening(game)
    events = play_round(
        game, {"ben": "boss@shimoza", "cho": "underboss@kamiza", "ann": "policeman@kamiza"}
    )
    assert game.totals == {"ann": 3, "ben": 3, "cho": 1}
    assert game.unplayed == {"ann": "boss", "ben": "policeman", "cho": "boss"}
    assert game.winners() == ["ben"] and game.tie_break == "chicken"
    [ended] = [e for e in events if e.kind == "match_ended"]
    assert ended.winners == ("ben",) and ended.tie_break == "chicken"
    assert ended.ranking == (("ben",), ("ann",), ("cho",))


def test_k13_same_unplayed_card_is_a_shared_win() -> None:
    game = new_match(THREE, start="ann")
    _zero_games(game)
    _third_game_opening(game)
    play_round(
        game, {"ben": "policeman@shimoza", "cho": "underboss@kamiza", "ann": "policeman@kamiza"}
    )
    assert game.totals == {"ann": 3, "ben": 3, "cho": 1}
    assert sorted(game.winners()) == ["ann", "ben"] and game.tie_break == "shared"
