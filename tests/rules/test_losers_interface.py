"""Rights of Losers through the typed game interface: observation (G-3), points now (R-6, R-7),
the tie-break used, result, clone and determinize (hidden hands dealt again under R-4 voids)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from losers_helpers import (
    FOUR,
    act,
    build_first,
    clear_chips,
    full_trick,
    new_game,
    nth,
    place_chips,
    play_trick,
    put,
    suit,
)

from rules.base import Game, IllegalAction, Result
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from rules.losers_actions import PASS
from rules.losers_board import CARD_IDS, CARD_SUIT, LAND, SUITS
from rules.losers_deal import deal_hidden
from rules.losers_judgement import final_scores, judge_field
from rules.losers_view import LosersObservation
from rules.random_play import random_match

NAMES = ["ann", "ben", "cho", "dev", "eve"]
SETTINGS = settings(max_examples=20, derandomize=True, deadline=None)
games = st.tuples(st.integers(min_value=0, max_value=2**32 - 1), st.integers(3, 5))


def positions(seed: int, n: int, every: int = 7) -> Iterator[RightsOfLosers]:
    """Every `every`-th position of a seeded random game, and its last."""
    game = start(new_header("rights-of-losers", NAMES[:n], seed=seed))
    assert isinstance(game, RightsOfLosers)
    rng = random.Random(seed)
    step = 0
    while (nxt := game.next()) is not None:
        if step % every == 0:
            yield game
        game.apply(nxt.player, game.random_action(nxt.player, rng))
        step += 1
    yield game


def play_out(game: RightsOfLosers, rng: random.Random) -> None:
    """Random legal actions to the end; every one is checked as a live action would be."""
    while (nxt := game.next()) is not None:
        action = game.random_action(nxt.player, rng)
        game.check(nxt.player, action)
        game.apply(nxt.player, action)


# -- the typed interface ---------------------------------------------------------------------------


def test_rights_of_losers_is_a_typed_game() -> None:
    game = new_game()
    assert isinstance(game, Game)
    assert isinstance(game.observation("ann"), LosersObservation)
    assert game.result() == Result(dict.fromkeys(FOUR, 0), (), ((*FOUR,),), None)


@SETTINGS
@given(games)
def test_g3_the_observation_is_exactly_the_view(args: tuple[int, int]) -> None:
    seed, n = args
    for game in positions(seed, n):
        for player in [*game.players, None]:
            seen = game.observation(player)
            assert seen.to_view(game.name) == game.view(player)
            assert seen.hand == (tuple(game.hands[player]) if player else None)
            assert seen.you == player


def test_g3_a_spectator_sees_no_hand_and_a_player_only_their_own() -> None:
    game = new_game()
    act(game, "ann", {"action": "play", "card": "red-4"})
    spectator, ben = game.observation(None), game.observation("ben")
    assert spectator.hand is None and ben.hand == tuple(suit("yellow"))
    assert spectator.trick == ben.trick == (("ann", "red-4"),)
    assert spectator.hand_sizes == {"ann": 9, "ben": 10, "cho": 10, "dev": 10}
    assert (ben.to_act, ben.expects, ben.phase) == ("ben", "play", "play")


# -- points now (R-6 and R-7 on the board as it stands) --------------------------------------------


def test_r7_points_now_on_a_hand_built_board() -> None:
    game = new_game()
    full_trick(game, nth(9))  # ann wins with red-9; red-9 and yellow-9 built on [0, 1] and [0, 2]
    assert game.view(None)["field"][0][1:3] == ["red-9", "yellow-9"]
    clear_chips(game)
    # ben: on red-9 and at the corner [1, 1] (which also touches the land on [0, 0]);
    # cho: on yellow-9 and on the land [0, 0] (on the card beats ben's corner, R-6);
    # dev: on the land [4, 4].
    put(game, {(0, 2): "ben", (1, 1): "ben", (0, 4): "cho", (0, 0): "cho", (8, 8): "dev"})
    owners = game.owners_now()
    assert (owners[0, 1], owners[0, 2], owners[0, 0], owners[4, 4]) == ("ben", "cho", "cho", "dev")
    # cho and dev have the most land (1 each) and both get 10.
    assert game.points_now() == {"ann": 0, "ben": 9, "cho": 19, "dev": 10}
    assert game.scores() == dict.fromkeys(FOUR, 0)  # scored only at the end


@SETTINGS
@given(games)
def test_r7_points_now_is_r7_on_owners_now_and_the_final_scores_at_the_end(
    args: tuple[int, int],
) -> None:
    seed, n = args
    for game in positions(seed, n, every=11):
        expected = final_scores(game.players, judge_field(game.field, game.chips))
        assert game.points_now() == expected == game.observation(None).points_now()
        owners = game.owners_now()
        for player in game.players:
            built = sum(
                int(card.rsplit("-", 1)[1])
                for cell, card in enumerate(game.field)
                if card not in (None, LAND) and owners[cell // 5, cell % 5] == player
            )
            assert expected[player] - built in (0, 10)  # buildings, maybe the land bonus
    assert game.over and game.points_now() == game.scores()


# -- tie-break and result --------------------------------------------------------------------------


def _last_choice() -> RightsOfLosers:
    game = new_game()
    for n in range(1, 10):
        full_trick(game, nth(n))
    play_trick(game, nth(10))
    place_chips(game)
    build_first(game)
    clear_chips(game)
    return game


@pytest.mark.parametrize(
    ("ann_left", "winners", "why"),
    [(9, ("ben",), "chips"), (8, ("ann", "ben"), "shared"), (7, ("ann",), "chips")],
)
def test_r7_tie_break_used_after_the_game(
    ann_left: int, winners: tuple[str, ...], why: str
) -> None:
    game = _last_choice()
    put(game, {(0, 0): "ann", (0, 8): "ben"})
    game.chips_left.update(ann=ann_left, ben=8)
    assert game.tie_break_used() is None  # not over yet
    act(game, "ann", {"action": "pass"})
    result = game.result()
    assert result.tie_break == game.tie_break_used() == why == game.details()["tie_break"]
    assert result.winners == winners and result.scores == game.scores()
    assert result.ranking[0] == winners


def test_r7_no_tie_break_when_the_points_decide() -> None:
    game = _last_choice()
    put(game, {(0, 0): "ann", (0, 1): "ann"})
    act(game, "ann", {"action": "pass"})
    assert game.result().winners == ("ann",) and game.tie_break_used() is None


# -- clone -----------------------------------------------------------------------------------------


@SETTINGS
@given(games)
def test_a_clone_is_independent_of_its_original(args: tuple[int, int]) -> None:
    seed, n = args
    rng = random.Random(seed)
    for position in positions(seed, n, every=13):
        if position.over:
            continue
        game = position.clone()
        before = ([game.view(p) for p in [*game.players, None]], game.details())
        twin = game.clone()
        assert list(vars(twin)) == list(vars(game))  # every attribute copied, in `__init__` order
        for name, value in vars(game).items():
            if isinstance(value, list | dict | set):
                assert vars(twin)[name] is not value and vars(twin)[name] == value, name
        assert [twin.view(p) for p in [*game.players, None]] == before[0]
        play_out(twin, rng)
        assert twin.over
        assert ([game.view(p) for p in [*game.players, None]], game.details()) == before
        # and the other way round: the original moves on, the clone does not
        twin = game.clone()
        nxt = game.next()
        assert nxt is not None and twin.next() == nxt
        game.apply(nxt.player, game.random_action(nxt.player, rng))
        assert [twin.view(p) for p in [*game.players, None]] == before[0]


# -- determinize -----------------------------------------------------------------------------------


def _seen_by(game: RightsOfLosers, player: str) -> set[str]:
    played = {c for _, c in game.trick} | set(game.won) | set(game.discarded)
    return set(game.hands[player]) | played | {c for c in game.field if c not in (None, LAND)}


def _voids_from_history(log: dict, upto: int) -> dict[str, set[str]]:
    """R-4 voids as a spectator works them out from the first `upto` actions of a log."""
    game = start(log)
    voids: dict[str, set[str]] = {p: set() for p in game.players}
    for entry in log["actions"][:upto]:
        if entry["action"] == "play" and game.trick:
            led = CARD_SUIT[game.trick[0][1]]
            if CARD_SUIT[entry["card"]] != led:
                voids[entry["player"]].add(led)
        game.apply(
            entry["player"],
            type(game).parse_action({k: v for k, v in entry.items() if k != "player"}),
        )
    return voids


@settings(max_examples=25, derandomize=True, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_determinize_keeps_the_observation_respects_voids_and_plays_on(
    args: tuple[int, int], draw: int
) -> None:
    seed, n = args
    _, log = random_match("rights-of-losers", NAMES[:n], seed)
    rng = random.Random(draw)
    cut = rng.randrange(len(log["actions"]))
    game = start({**log, "actions": []})
    for entry in log["actions"][:cut]:
        body = {k: v for k, v in entry.items() if k != "player"}
        game.apply(entry["player"], type(game).parse_action(body))
    assert isinstance(game, RightsOfLosers)
    voids = _voids_from_history(log, cut)
    assert {p: set(v) for p, v in game.voids.items()} == voids
    for player in game.players:
        before = [game.view(p) for p in [*game.players, None]]
        other = game.determinize(player, rng)
        assert [game.view(p) for p in [*game.players, None]] == before  # unchanged
        assert other.observation(player) == game.observation(player)
        assert other.view(None) == game.view(None)
        seen = _seen_by(game, player)
        dealt = [c for p in other.players if p != player for c in other.hands[p]]
        assert len(dealt) == len(set(dealt)) and not seen & set(dealt)
        for p in other.players:
            assert len(other.hands[p]) == len(game.hands[p])
            assert not {CARD_SUIT[c] for c in other.hands[p]} & voids[p]
        play_out(other, random.Random(draw))
        assert other.over and not game.over


def test_determinize_draws_the_unseen_cards_at_random() -> None:
    game = new_game(hands={p: CARD_IDS[i * 10 : i * 10 + 10] for i, p in enumerate(FOUR)})
    hands = [tuple(game.determinize("ann", random.Random(seed)).hands["ben"]) for seed in range(40)]
    assert len(set(hands)) == 40
    counts = Counter(c for hand in hands for c in hand)
    # No voids yet: ben's 10 cards come uniformly from the 40 ann has not seen (expected 10 each).
    assert set(counts) <= set(CARD_IDS[10:]) and min(counts.values()) >= 2


def test_determinize_a_seated_player_keeps_their_hand() -> None:
    game = new_game()
    other = game.determinize("cho", random.Random(1))
    assert other.hands["cho"] == game.hands["cho"]
    assert other.hands["ann"] != game.hands["ann"]


def test_r4_a_revoke_shows_a_void_and_determinize_respects_it() -> None:
    game = new_game()  # everybody holds a whole suit: nobody can follow anybody
    play_trick(game, nth(1))
    assert game.voids == {
        "ann": frozenset(),
        "ben": frozenset({"red"}),
        "cho": frozenset({"red"}),
        "dev": frozenset({"red"}),
    }
    for seed in range(30):
        other = game.determinize("ann", random.Random(seed))
        for p in ("ben", "cho", "dev"):
            assert not any(CARD_SUIT[c] == "red" for c in other.hands[p])


def test_deal_hidden_finds_the_only_deal_the_voids_leave() -> None:
    # ben may hold only green, cho only blue: the deal is forced, whatever the order drawn.
    unseen = suit("green")[:3] + suit("blue")[:2] + suit("red")[:4]
    voids = {
        "ben": frozenset(s for s in SUITS if s != "green"),
        "cho": frozenset(s for s in SUITS if s != "blue"),
    }
    for seed in range(30):
        dealt = deal_hidden(unseen, {"ben": 3, "cho": 2}, voids, random.Random(seed))
        assert sorted(dealt["ben"]) == sorted(suit("green")[:3])
        assert sorted(dealt["cho"]) == sorted(suit("blue")[:2])


def test_deal_hidden_looks_ahead_where_a_greedy_deal_would_get_stuck() -> None:
    # ben takes anything; cho only red, and there are just enough reds for cho.
    unseen = suit("red")[:4] + suit("green")[:4]
    voids = {"cho": frozenset(s for s in SUITS if s != "red")}
    for seed in range(50):
        dealt = deal_hidden(unseen, {"ben": 4, "cho": 4}, voids, random.Random(seed))
        assert sorted(dealt["cho"]) == sorted(suit("red")[:4])
        assert sorted(dealt["ben"]) == sorted(suit("green")[:4])


def test_deal_hidden_refuses_more_hidden_cards_than_unseen() -> None:
    with pytest.raises(ValueError, match="more hidden cards"):
        deal_hidden(suit("red")[:3], {"ben": 4}, {}, random.Random(1))


def test_determinize_of_a_finished_game_changes_nothing_hidden() -> None:
    game, _ = random_match("rights-of-losers", NAMES[:4], 5)
    assert isinstance(game, RightsOfLosers)
    other = game.determinize("ann", random.Random(2))
    assert other.view(None) == game.view(None) and all(not h for h in other.hands.values())
    assert other.next() is None and other.result() == game.result()
    with pytest.raises(IllegalAction, match="the game is over"):
        other.apply("ann", PASS)
