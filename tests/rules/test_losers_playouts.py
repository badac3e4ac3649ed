"""Rights of Losers random playouts made fast: a seed still plays the same game (G-1), the RNG's
draws are copied exactly, `apply` trusts a draw of `random_action` only for that very action of
that very state (G-2), and replays take the quick path without judging anything differently."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from losers_helpers import FOUR, new_game, nth, play_trick, suit_hands

from rules.base import IllegalAction, InvalidSetup
from rules.log import LogError, apply_entry, load, new_header, start
from rules.losers import RightsOfLosers
from rules.losers_actions import Build, Play
from rules.losers_board import CARD_IDS, TOUCHING, check_hands, chip_masks, touched
from rules.losers_judgement import final_scores, judge_field
from rules.losers_rng import COPIED_RANDOM, below, pair, shuffled, two_below
from rules.losers_shared import LIMIT, Shared
from rules.random_play import random_match

NAMES = ["ann", "ben", "cho", "dev", "eve"]


class OwnRandom(random.Random):
    """A subclass: its own methods are asked for every draw, never copied."""


def refusal(game: RightsOfLosers, player: str, action: Any) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as err:
        game.apply(player, action)
    return err.value.rule, err.value.reason


# -- G-1: the same games from the same seeds ------------------------------------------------------


def test_g1_random_match_plays_the_games_it_always_played() -> None:
    # The digest of these 24 logs as the engine wrote them before its playouts were made fast.
    digest = hashlib.sha256()
    for n in (3, 4, 5):
        for seed in range(8):
            _, log = random_match("rights-of-losers", NAMES[:n], seed)
            digest.update(json.dumps(log, sort_keys=True).encode())
    assert digest.hexdigest() == "7d9e277bb243b8f69ddfe00ef2036eb847bcbe38c5315186ab0eb6414b85a45b"


BUILT_AT = [[3, 3], [2, 4]]


def test_g1_a_pinned_random_game_opens_as_it_always_did() -> None:
    _, log = random_match("rights-of-losers", NAMES[:4], 2024)
    assert log["players"] == ["cho", "ben", "ann", "dev"]
    assert log["setup"]["lead_player"] == "dev" and log["setup"]["seed"] == 2019024262
    assert log["actions"][:9] == [
        {"player": "dev", "action": "play", "card": "purple-7"},
        {"player": "cho", "action": "play", "card": "purple-8"},
        {"player": "ben", "action": "play", "card": "purple-4"},
        {"player": "ann", "action": "play", "card": "purple-9"},
        {"player": "dev", "action": "chip", "at": [8, 8]},
        {"player": "cho", "action": "chip", "at": [8, 1]},
        {"player": "ben", "action": "chip", "at": [3, 3]},
        {
            "player": "ann",
            "action": "build",
            "cards": ["purple-8", "purple-4"],
            "at": [[3, 3], [2, 4]],
        },
        {"player": "ann", "action": "appoint", "lead": "dev"},
    ]
    assert len(log["actions"]) == 90
    assert log["actions"][-1] == {"player": "dev", "action": "move", "from": [8, 8], "to": [6, 4]}


def test_g1_the_copied_draws_are_those_of_random() -> None:
    assert COPIED_RANDOM is random.Random  # this Python draws as the copies do (checked at import)
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        deck = list(CARD_IDS)
        theirs.shuffle(deck)
        assert shuffled(ours, CARD_IDS) == deck
        n = 2 + seed % 20
        items = [f"item-{i}" for i in range(n)]
        assert below(ours, 7 * n) == theirs.randrange(7 * n)
        assert list(two_below(ours, n)) == theirs.sample(range(n), 2)
        assert list(pair(ours, items)) == theirs.sample(items, 2)
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_g1_a_subclass_of_random_plays_the_same_game_through_its_own_methods(n: int) -> None:
    for seed in range(6):
        played = []
        for kind in (random.Random, OwnRandom):
            rng = kind(seed)
            setup = RightsOfLosers.draw_setup(NAMES[:n], {}, rng)
            game = RightsOfLosers.create(NAMES[:n], None, setup)
            actions = []
            while (nxt := game.next()) is not None:
                action = game.random_action(nxt.player, rng)
                game.apply(nxt.player, action)
                actions.append(action)
            played.append((setup, actions, game.scores(), rng.random()))
        assert played[0] == played[1]


# -- G-2: a draw is trusted only for that action of that state -------------------------------------


def test_g2_a_drawn_action_from_another_player_is_refused_as_ever() -> None:
    game = new_game()
    drawn = game.random_action("ann", random.Random(1))
    assert refusal(game, "ben", drawn) == ("R-4", "it is ann's turn to play a card, not ben's")
    assert refusal(game, "eve", drawn) == ("R-1", "'eve' is not seated at this table")
    assert game.apply("ann", drawn)[0].kind == "card_played"  # a refusal changed nothing


def test_g2_a_draw_goes_stale_once_another_action_is_applied() -> None:
    game = new_game()
    play_trick(game, nth(9))  # ann wins; the others put their chips
    while game.phase == "chip":
        player = game.next().player
        game.apply(player, game.random_action(player, random.Random(2)))
    drawn = game.random_action("ann", random.Random(3))
    assert isinstance(drawn, Build)
    game.apply("ann", Build(drawn.cards, (drawn.at[1], drawn.at[0])))
    # Now ann chooses: the drawn build is a build no more, whatever it was found to be before.
    assert refusal(game, "ann", drawn) == (
        "R-5",
        "ann must choose (appoint, reverse, move or pass) now",
    )


def test_g2_a_redeal_does_not_trust_the_draw_made_before_it() -> None:
    game = start(new_header("rights-of-losers", FOUR, seed=5))
    assert isinstance(game, RightsOfLosers)
    player = game.next().player
    other = next(p for p in FOUR if p != player)
    for seed in range(50):
        drawn = game.random_action(player, random.Random(seed))
        assert isinstance(drawn, Play)
        twin = game.determinize(other, random.Random(seed))  # the player's hand dealt again
        if drawn.card not in twin.hands[player]:
            assert refusal(twin, player, drawn) == ("R-4", f"{player} does not hold {drawn.card}")
            return
    raise AssertionError("no redeal took the drawn card away")


def test_r3_open_spots_set_by_hand_drop_the_draw() -> None:
    game = new_game()
    play_trick(game, nth(9))
    drawn = game.random_action("ben", random.Random(4))
    spot = next(s for s in sorted(game.open) if drawn.at != (s // 9, s % 9))
    game.open = {spot}
    assert game.open == frozenset({spot})
    rule, reason = refusal(game, "ben", drawn)
    assert rule == "R-3" and reason.endswith("touches no card on the field")


# -- the state kept up to date for playouts ------------------------------------------------------


def assert_in_step(game: RightsOfLosers) -> None:
    """What the rules keep up to date instead of working it out (each player's chips as bits,
    the spots touching a card, the free spots) says what the chips and the field say."""
    assert game._mine == chip_masks(game.players, game.chips)
    assert game._touched == touched(game.field)
    around = {s for cell, card in enumerate(game.field) if card for s, _ in TOUCHING[cell]}
    assert game.open == around - set(game.chips)
    for player in game.players:
        assert game._own(player) == sorted(s for s, p in game.chips.items() if p == player)


@pytest.mark.parametrize("seed", range(9))
def test_r3_kept_chips_and_spots_stay_in_step_through_apply_clone_and_playout(seed: int) -> None:
    game = start(new_header("rights-of-losers", NAMES[: 3 + seed % 3], seed=seed))
    rng = random.Random(seed)
    while (nxt := game.next()) is not None:
        if rng.random() < 0.15:  # a search's rollout from here, on a copy
            twin = game.clone()
            twin.playout(random.Random(seed))
            assert_in_step(twin)
            assert twin.scores() == scores_of(twin)
        game.apply(nxt.player, game.random_action(nxt.player, rng))
        assert_in_step(game)
    assert game.scores() == scores_of(game)


def scores_of(game: RightsOfLosers) -> dict[str, int]:
    """R-6 and R-7 from the field and the chips as they stand, the long way."""
    return final_scores(game.players, judge_field(game.field, game.chips))


# -- replays: the quick path judges as `apply_entry` does ------------------------------------------


def test_a_replay_takes_odd_but_valid_entries_and_reports_refusals_as_ever() -> None:
    _, log = random_match("rights-of-losers", NAMES[:4], 7)
    entries = log["actions"]
    chip = next(i for i, entry in enumerate(entries) if entry["action"] == "chip")
    odd = [dict(entry) for entry in entries]
    odd[chip]["at"] = tuple(odd[chip]["at"])  # not a log's shape: left to `apply_entry`
    assert load({**log, "actions": odd}).result() == load(log).result()
    bad = [*entries[:chip], {**entries[chip], "player": entries[chip + 1]["player"]}]
    with pytest.raises(LogError) as err:
        load({**log, "actions": bad})
    twin = load({**log, "actions": entries[:chip]})
    with pytest.raises(IllegalAction) as direct:
        apply_entry(twin, bad[chip])
    assert err.value.index == chip and err.value.reason == str(direct.value)


# -- shared values and setups ----------------------------------------------------------------------


def test_shared_values_equal_fresh_ones_and_stay_bounded() -> None:
    table = Shared(lambda a, b: (a, b, object()))
    first = table[1, 2]
    assert table[1, 2] is first and first[:2] == (1, 2)
    for i in range(LIMIT + 10):
        table[i, i]
    assert len(table) <= LIMIT


@pytest.mark.parametrize(
    "hands",
    [
        {p: tuple(cards) for p, cards in suit_hands().items()},  # tuples: the careful path
        suit_hands(),
    ],
)
def test_r1_hands_are_accepted_whatever_path_checks_them(hands: dict[str, Any]) -> None:
    checked = check_hands(FOUR, hands)
    assert {p: list(cards) for p, cards in checked.items()} == suit_hands()
    game = RightsOfLosers.create(list(FOUR), None, {"lead_player": "ann", "hands": hands})
    assert game.hands == {p: list(cards) for p, cards in suit_hands().items()}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ann": [*suit_hands()["ann"][:9], "blue-1"]}, "card blue-1 is dealt twice (R-1)"),
        ({"ben": [*suit_hands()["ben"][:9], ["red-1"]]}, "setup.hands.ben must be 10 distinct"),
        ({"cho": suit_hands()["cho"][:9]}, "setup.hands.cho must be 10 distinct"),
        ({"eve": suit_hands()["dev"]}, "setup.hands must give a hand to exactly the players"),
    ],
)
def test_r1_a_bad_deal_is_refused_with_its_reason(change: dict[str, Any], message: str) -> None:
    hands = {**suit_hands(), **change}
    with pytest.raises(InvalidSetup) as err:
        check_hands(FOUR, hands)
    assert str(err.value).startswith(message)
