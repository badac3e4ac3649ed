"""Kobayakawa's quick `playout` (`rules.kobayakawa_turns`) against the step loop, field by field:
every seat count, any point of a round, after a look (B-3), a setup short of decks (B-2),
determinized and cloned states, and generators whose draws it does not copy."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.agents import random_action
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_state import KobayakawaState
from rules.kobayakawa_tables import shuffled_deck
from rules.log import new_header, start

NAMES = ["ann", "ben", "cho", "dev", "eve", "fay"]
# What a quiet round end keeps for later (`last_result` builds the same events from it), and the
# flag that makes it quiet: compared through `last_result` instead.
LAZY = {"_last_result", "_last_round", "_quiet"}


def step_loop(game: Kobayakawa, rng: random.Random) -> None:
    while (nxt := game.next()) is not None:
        game.apply(nxt.player, random_action(game, nxt.player, rng))


def fields(game: Kobayakawa) -> dict[str, Any]:
    """Every slot of the state but the lazy ones, and the last round's events."""
    found = {name: getattr(game, name) for name in KobayakawaState.__slots__ if name not in LAZY}
    return {**found, "last_result": game.last_result, "quiet": game._quiet}


def assert_same_game(quick: Kobayakawa, stepped: Kobayakawa) -> None:
    assert fields(quick) == fields(stepped)
    assert quick.result() == stepped.result()
    for viewer in (None, *stepped.players):
        assert quick.observation(viewer) == stepped.observation(viewer)


def fresh(seats: int, seed: int) -> Kobayakawa:
    game = start(new_header("kobayakawa", NAMES[:seats], seed=seed))
    assert isinstance(game, Kobayakawa)
    return game


def positions(count: int, seed: int) -> Iterator[Kobayakawa]:
    """Games of 3 to 6 players cut after any number of random actions, over ones included."""
    rng = random.Random(seed)
    for _ in range(count):
        game = fresh(rng.randint(3, 6), rng.randrange(2**32))
        for _ in range(rng.randrange(70)):
            nxt = game.next()
            if nxt is None:
                break
            game.apply(nxt.player, random_action(game, nxt.player, rng))
        yield game


def race(origin: Kobayakawa, seed: int, kind: type[random.Random] = random.Random) -> None:
    """Play `origin`'s clones out both ways from the same draws; `origin` stays as it was."""
    before = fields(origin)
    quick, stepped = origin.clone(), origin.clone()
    quick_rng, step_rng = kind(seed), kind(seed)
    quick.playout(quick_rng)
    step_loop(stepped, step_rng)
    assert_same_game(quick, stepped)
    assert quick_rng.getstate() == step_rng.getstate()
    assert fields(origin) == before


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_playout_from_the_start_is_the_step_loops_game_field_by_field(seats: int) -> None:
    for seed in range(150):
        race(fresh(seats, seed), seed)


def test_playout_from_any_point_of_a_round_and_from_determinized_states() -> None:
    for index, game in enumerate(positions(300, seed=11)):
        race(game, index)
        nxt = game.next()
        if nxt is not None:
            race(game.determinize(nxt.player, random.Random(index)), index)


def test_playout_after_a_look_keeps_the_keep_only_draw_and_then_plays_on() -> None:
    looked = 0
    for index, game in enumerate(positions(200, seed=12)):
        nxt = game.next()
        if nxt is None or nxt.expects != "draw":
            continue
        game.look(nxt.player)  # B-3: only the two keeps are left for this turn
        looked += 1
        race(game, index)
    assert looked > 50


def test_playout_draws_as_the_step_loop_for_a_generator_it_does_not_copy() -> None:
    class Counting(random.Random):
        """Another class: its draws go through `random.Random`'s own methods."""

    for index, game in enumerate(positions(40, seed=13)):
        race(game, index, Counting)


def test_playout_stops_where_the_step_loop_does_when_a_deck_is_missing() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        decks = [shuffled_deck(rng) for _ in range(1 + seed % 6)]  # B-2: rounds left out
        players = NAMES[: 3 + seed % 4]
        game = Kobayakawa.create(players, None, {"start_player": players[0], "decks": decks})
        quick, stepped = game.clone(), game.clone()
        quick_rng, step_rng = random.Random(seed), random.Random(seed)
        with pytest.raises(IndexError):
            quick.playout(quick_rng)
        with pytest.raises(IndexError):  # nothing to draw from: `rng.choice([])`
            step_loop(stepped, step_rng)
        assert quick.waiting_for_deck and stepped.waiting_for_deck
        assert_same_game(quick, stepped)
        assert quick_rng.getstate() == step_rng.getstate()
