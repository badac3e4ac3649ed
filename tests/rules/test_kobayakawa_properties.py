"""Property tests over random legal Kobayakawa games (seeded): B-1..B-7, G-1..G-3."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import IllegalAction
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_HELD, PASS_ACTION, REPLACE
from rules.log import new_header, replay, start
from rules.random_play import random_match

SETTINGS = settings(max_examples=40, derandomize=True, deadline=None)
NAMES = ["ann", "ben", "cho", "dev", "eve", "fay"]
games = st.tuples(st.integers(min_value=0, max_value=2**32 - 1), st.integers(3, 6))


def random_game(seed: int, n: int) -> tuple[Kobayakawa, random.Random]:
    log = new_header("kobayakawa", NAMES[:n], seed=seed)
    game = start(log)
    assert isinstance(game, Kobayakawa)
    return game, random.Random(seed)


def snapshot(game: Kobayakawa) -> list:
    return [
        game.view(None),
        *(game.view(p) for p in game.players),
        game.scores(),
        game.details(),
        game.next(),
    ]


def illegal_attempts(game: Kobayakawa) -> list[tuple[str, object]]:
    """Actions the rules must refuse now: out of turn, wrong phase, by someone out or unseated."""
    attempts: list[tuple[str, object]] = [("zed", KEEP_HELD)]
    nxt = game.next()
    if nxt is None:
        return [*attempts, *((p, a) for p in game.players for a in (KEEP_HELD, FIGHT_ACTION))]
    others = [p for p in game.players if p != nxt.player]
    if nxt.expects == "draw":
        attempts += [(nxt.player, FIGHT_ACTION), (nxt.player, PASS_ACTION)]
        attempts += [(p, KEEP_HELD) for p in others]
    else:
        attempts += [(nxt.player, KEEP_HELD), (nxt.player, REPLACE)]
        attempts += [(p, FIGHT_ACTION) for p in others]
    return attempts


@SETTINGS
@given(games)
def test_b1_b6_kamons_conserved_after_every_action(case: tuple[int, int]) -> None:
    game, rng = random_game(*case)
    while (nxt := game.next()) is not None:
        game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))
        assert sum(game.kamons.values()) + game.pot + game.centre + game.box == 32
        assert min(game.kamons.values()) >= 0 and game.centre >= 0
    assert game.pot == 0


@SETTINGS
@given(games)
def test_b2_never_more_than_seven_rounds_and_the_deck_never_runs_out(
    case: tuple[int, int],
) -> None:
    game, rng = random_game(*case)
    while (nxt := game.next()) is not None:
        assert 1 <= game.round <= 7
        if nxt.expects == "draw":
            assert game.drawn_card(nxt.player) is not None
            assert game.pile_top < len(game.pile)
        game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))
    assert game.round <= 7
    assert game.round == 7 or len(game.still_in()) < 2


@SETTINGS
@given(games)
def test_b7_players_out_hold_nothing_and_are_never_dealt(case: tuple[int, int]) -> None:
    game, rng = random_game(*case)
    while (nxt := game.next()) is not None:
        assert not set(game.out) & set(game.order)
        assert all(game.kamons[p] == 0 for p in game.out)
        game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))
    assert game.winners() and all(p not in game.out for p in game.winners())


@settings(max_examples=15, derandomize=True, deadline=None)
@given(games)
def test_g2_an_illegal_action_changes_nothing(case: tuple[int, int]) -> None:
    game, rng = random_game(*case)
    while True:
        for player, action in illegal_attempts(game):
            before = snapshot(game)
            try:
                game.check(player, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"check accepted {action} by {player}")
            try:
                game.apply(player, action)
            except IllegalAction as exc:
                assert exc.rule.startswith("B-")
            else:
                raise AssertionError(f"apply accepted {action} by {player}")
            assert snapshot(game) == before
        nxt = game.next()
        if nxt is None:
            break
        game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))


@SETTINGS
@given(games)
def test_g1_the_log_of_any_random_game_replays_to_the_same_result(case: tuple[int, int]) -> None:
    seed, n = case
    game, log = random_match("kobayakawa", NAMES[:n], seed)
    answer = replay(json.loads(json.dumps(log)))
    assert answer["over"] is True and answer["next"] is None
    assert answer["scores"] == game.scores() and answer["winners"] == game.winners()
    assert answer["out"] == game.out and answer["round"] == game.round


@settings(max_examples=20, derandomize=True, deadline=None)
@given(games)
def test_g3_views_never_show_another_players_card_before_the_showdown(
    case: tuple[int, int],
) -> None:
    game, rng = random_game(*case)
    while (nxt := game.next()) is not None:
        views = {p: game.view(p) for p in game.players}
        public = game.view(None)
        assert public["card"] is None
        hidden = ("you", "card")
        for player, view in views.items():
            # Everything but one's own card is the same for everyone: nothing else is private.
            assert {k: v for k, v in view.items() if k not in hidden} == {
                k: v for k, v in public.items() if k not in hidden
            }
            assert view["card"] == (game.cards[player] if player in game.order else None)
        events = game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))
        for event in events:
            if event.kind == "showdown" and len(event.fighters) == 1:
                assert event.cards == {} and event.totals == {}  # a lone fighter never shows
            if event.kind == "drew":
                assert set(event.to_json()) == {"type", "player", "discarded"}
