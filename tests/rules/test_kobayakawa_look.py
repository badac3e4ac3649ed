"""B-3: once the player to draw has looked at the drawn card, the Kobayakawa is not replaced."""

from __future__ import annotations

import random

import pytest

from rules.agents import computer_action, random_action
from rules.base import IllegalAction
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    Drew,
    ReplaceKobayakawa,
)

P3 = ["ann", "ben", "cho"]


def deck(*front: int) -> list[int]:
    return [*front, *(c for c in range(1, 16) if c not in front)]


def new_game(decks: list[list[int]] | None = None) -> Kobayakawa:
    # ann 5, ben 6, cho 7, Kobayakawa 9; the pile: 10, 11, 12, ...
    decks = decks or [deck(5, 6, 7, 9, 10, 11, 12)] * 7
    return Kobayakawa.create(P3, None, {"start_player": "ann", "decks": decks})


def test_b3_look_shows_the_drawn_card_then_only_keeping_is_legal() -> None:
    game = new_game()
    assert game.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD, REPLACE]
    assert game.look("ann") == 10
    assert game.has_looked("ann") and not game.has_looked("ben")
    assert game.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD]
    before = game.view(None), game.view("ann")
    for replace in (REPLACE, ReplaceKobayakawa()):
        with pytest.raises(IllegalAction) as err:
            game.apply("ann", replace)
        assert err.value.rule == "B-3" and "seen the drawn card" in err.value.reason
        with pytest.raises(IllegalAction):
            game.check("ann", replace)
    assert (game.view(None), game.view("ann")) == before
    assert game.look("ann") == 10  # looking again changes nothing
    assert game.apply("ann", KEEP_DRAWN) == [Drew("ann", 5)]
    assert game.cards["ann"] == 10


def test_b3_only_the_player_to_draw_may_look() -> None:
    game = new_game()
    for player in ("ben", "cho", "zed"):
        with pytest.raises(IllegalAction) as err:
            game.look(player)
        assert err.value.rule == "B-3"
    assert game.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD, REPLACE]
    for _ in P3:
        game.apply(game.next().player, KEEP_HELD)
    with pytest.raises(IllegalAction):  # the fight phase: nothing to draw
        game.look("ann")


def test_b3_the_look_belongs_to_that_turn_only() -> None:
    game = new_game()
    game.look("ann")
    game.apply("ann", KEEP_HELD)
    assert not game.has_looked("ann") and not game.has_looked("ben")
    assert game.legal_actions("ben") == [KEEP_DRAWN, KEEP_HELD, REPLACE]
    assert game.apply("ben", REPLACE)[0].kind == "kobayakawa_replaced"
    game.apply("cho", KEEP_HELD)
    for _ in P3:
        game.apply(game.next().player, PASS_ACTION)
    assert game.round == 2 and game.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD, REPLACE]


def test_b3_the_observation_shows_the_looked_card_to_that_player_only() -> None:
    game = new_game()
    assert game.observation("ann").drawn is None
    game.look("ann")
    assert game.observation("ann").drawn == 10
    assert game.observation("ben").drawn is None and game.observation(None).drawn is None
    assert "drawn" not in game.view("ann")  # the view stays as it always was
    assert game.view("ann") == game.observation("ann").view()


def test_b3_clone_and_determinize_keep_the_look() -> None:
    game = new_game()
    game.look("ann")
    copy = game.clone()
    assert copy.has_looked("ann") and copy.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD]
    for player in P3:
        drawn = game.determinize(player, random.Random(1))
        assert drawn.has_looked("ann") and drawn.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD]
        assert drawn.observation(player) == game.observation(player)
    assert game.determinize("ann", random.Random(2)).drawn_card("ann") == 10  # seen: kept
    copy.apply("ann", KEEP_HELD)
    assert game.has_looked("ann") and not copy.has_looked("ann")


def test_b3_timeouts_and_computer_players_never_replace_after_a_look() -> None:
    for seed in range(200):
        game = new_game()
        game.look("ann")
        rng = random.Random(seed)
        assert random_action(game, "ann", rng) in (KEEP_DRAWN, KEEP_HELD)
        assert computer_action(game, "ann", rng) in (KEEP_DRAWN, KEEP_HELD)


def test_b3_a_look_is_not_a_log_action() -> None:
    game = new_game()
    before = game.view(None)
    game.look("ann")
    assert game.view(None) == before and game.next() is not None
    assert game.next().expects == "draw"
    with pytest.raises(IllegalAction):
        game.apply("ann", FIGHT_ACTION)
