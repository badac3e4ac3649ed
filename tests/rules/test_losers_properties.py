"""Property tests over random legal Rights of Losers games (seeded), and G-1..G-3."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from losers_helpers import build_first, full_trick, new_game, nth, place_chips, play_trick, settle

from rules.base import Event, IllegalAction
from rules.log import load, new_header, replay, result, start
from rules.losers import RightsOfLosers
from rules.losers_actions import PASS, REVERSE, Appoint, Build, Chip, Move, Play
from rules.losers_board import CARD_IDS, CARD_SUIT, LAND
from rules.losers_checks import PHASE_ACTIONS
from rules.random_play import random_match

SETTINGS = settings(max_examples=25, derandomize=True, deadline=None)
NAMES = ["ann", "ben", "cho", "dev", "eve"]
games = st.tuples(st.integers(min_value=0, max_value=2**32 - 1), st.integers(3, 5))


def steps(seed: int, n: int) -> Iterator[tuple[RightsOfLosers, str, Any, random.Random]]:
    """Drive a random game: yields (game, player, action about to be applied, rng)."""
    game = start(new_header("rights-of-losers", NAMES[:n], seed=seed))
    rng = random.Random(seed)
    while (nxt := game.next()) is not None:
        action = game.random_action(nxt.player, rng)
        yield game, nxt.player, action, rng
        game.apply(nxt.player, action)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


@SETTINGS
@given(games)
def test_r2_r6_the_field_ends_with_25_cards_all_judged(args: tuple[int, int]) -> None:
    seed, n = args
    game, _ = random_match("rights-of-losers", NAMES[:n], seed)
    assert game.over and all(card is not None for card in game.field)
    assert sum(card == LAND for card in game.field) == 5
    assert len(game.discarded) == 10 * (n - 2)
    assert len(game.details()["owners"]) == 25 and game.winners()
    assert all(not hand for hand in game.hands.values())


@SETTINGS
@given(games)
def test_r3_one_chip_a_spot_and_r1_ten_chips_each(args: tuple[int, int]) -> None:
    seed, n = args
    board: dict[tuple[int, int], str] = {}
    placed: Counter[str] = Counter()
    game = None
    for game, player, action, _ in steps(seed, n):
        events: list[Event] = game.clone().apply(player, action)
        for event in events:
            if event.kind == "chip_placed":
                assert event.at not in board
                board[event.at] = event.player
                placed[event.player] += 1
            elif event.kind == "chip_moved":
                assert board.pop(event.source) == event.player and event.to not in board
                board[event.to] = event.player
    assert game is not None
    assert all(count <= 10 for count in placed.values())
    final = game.view(None)
    assert {tuple(c["at"]): c["player"] for c in final["chips"]} == board
    assert all(final["chips_left"][p] == 10 - placed[p] for p in NAMES[:n])


@SETTINGS
@given(games)
def test_r4_must_follow_is_always_enforced(args: tuple[int, int]) -> None:
    seed, n = args
    for game, player, action, _ in steps(seed, n):
        if not isinstance(action, Play) or not game.trick:
            continue
        led = CARD_SUIT[game.trick[0][1]]
        hand = game.hands[player]
        can_follow = any(CARD_SUIT[c] == led for c in hand)
        for card in hand:
            must_refuse = can_follow and CARD_SUIT[card] != led
            try:
                game.check(player, Play(card))
            except IllegalAction as err:
                assert must_refuse and err.rule == "R-4"
            else:
                assert not must_refuse


@SETTINGS
@given(games)
def test_g1_logs_of_random_games_replay_exactly(args: tuple[int, int]) -> None:
    seed, n = args
    game, log = random_match("rights-of-losers", NAMES[:n], seed)
    copied = json.loads(json.dumps(log))
    assert replay(copied) == result(game)
    again = load(copied)
    assert all(again.view(p) == game.view(p) for p in [*game.players, None])
    assert again.details() == game.details()


@SETTINGS
@given(games)
def test_random_actions_are_legal_and_legal_actions_pass_check(args: tuple[int, int]) -> None:
    seed, n = args
    for game, player, action, _ in steps(seed, n):
        legal = game.legal_actions(player)
        assert action in legal and len(set(legal)) == len(legal)
        if not isinstance(action, Build):  # a build lists thousands: sample a few
            for other in legal:
                game.check(player, other)
        assert all(game.legal_actions(p) == [] for p in game.players if p != player)


def _candidates(game: RightsOfLosers, rng: random.Random) -> list[Any]:
    """Actions of every shape for the player to act, mostly illegal now."""
    coord = (rng.randint(-1, 9), rng.randint(-1, 9))
    cell = (rng.randint(-1, 5), rng.randint(-1, 5))
    pool = [*game.won, *rng.sample(CARD_IDS, 2)]
    hand = game.hands[game.next().player] or CARD_IDS
    return [
        Play(rng.choice(CARD_IDS)),
        Play(rng.choice(hand)),
        Chip(coord),
        Build((rng.choice(pool), rng.choice(pool)), (cell, (rng.randint(0, 4), rng.randint(0, 4)))),
        Appoint(rng.choice([*game.players, "zed"])),
        REVERSE,
        PASS,
        Move((rng.randint(0, 8), rng.randint(0, 8)), coord),
    ]


@settings(max_examples=12, derandomize=True, deadline=None)
@given(games)
def test_g2_an_illegal_action_changes_nothing(args: tuple[int, int]) -> None:
    seed, n = args
    for game, player, _, rng in steps(seed, n):
        who = player if rng.random() < 0.8 else rng.choice([*game.players, "zed"])
        options = _candidates(game, rng)
        fitting = [a for a in options if isinstance(a, PHASE_ACTIONS[game.phase])]
        attempt = rng.choice(fitting if rng.random() < 0.7 else options)
        before = ([game.view(p) for p in [*game.players, None]], game.details())
        legal = who in game.players and attempt in game.legal_actions(who)
        try:
            game.check(who, attempt)
        except IllegalAction:
            assert not legal
            clone = game.clone()
            try:
                clone.apply(who, attempt)
            except IllegalAction:
                pass
            else:
                raise AssertionError("apply accepted what check refused")
            assert ([clone.view(p) for p in [*game.players, None]], clone.details()) == before
        else:
            assert legal


@SETTINGS
@given(games)
def test_g3_views_never_show_another_players_hand(args: tuple[int, int]) -> None:
    seed, n = args
    for game, _, _, _ in steps(seed, n):
        for player in [*game.players, None]:
            view = game.view(player)
            json.dumps(view)
            assert view["hand"] == (game.hands[player] if player else None)
            others = {c for p, hand in game.hands.items() if p != player for c in hand}
            assert not others & set(strings(view))


def test_random_action_is_uniform_over_the_legal_choices() -> None:
    game = new_game()
    full_trick(game, nth(1), {"action": "appoint", "lead": "ben"})
    play_trick(game, {"ben": "yellow-2", "cho": "green-2", "dev": "blue-2", "ann": "red-2"})
    settle(game)  # ben passes, leads again and wins again
    play_trick(game, {"ben": "yellow-3", "cho": "green-3", "dev": "blue-3", "ann": "red-3"})
    place_chips(game)
    build_first(game)
    legal = game.legal_actions("ben")
    assert sum(isinstance(a, Move) for a in legal) > 20  # ben's one chip, many free spots
    rng = random.Random(5)
    draws = Counter(game.random_action("ben", rng) for _ in range(60 * len(legal)))
    assert set(draws) == set(legal)
    assert min(draws.values()) > 25 and max(draws.values()) < 105  # expected 60 each
