"""`Game.playout(rng)`, a search's rollout, plays exactly the game of the step loop.

The step loop is `apply(p, rules.agents.random_action(state, p, rng))` until the game is over; a
game may override `playout` with a quicker loop that builds no events. Either way the same RNG
must make the same draws and reach the same end (G-1): the same result, the same views for every
seat and for spectators, and the RNG left in the same state.
"""

from __future__ import annotations

import random

import pytest

from rules.agents import random_action
from rules.base import AnyGame, IllegalAction
from rules.log import new_header, start
from rules.registry import game_class

GAMES = ["kamiza", "kobayakawa", "rights-of-losers"]
SEEDS = range(60)


def step_loop(state: AnyGame, rng: random.Random) -> None:
    while (nxt := state.next()) is not None:
        state.apply(nxt.player, random_action(state, nxt.player, rng))


def fresh(game: str, seats: int, seed: int) -> AnyGame:
    players = [f"p{i}" for i in range(seats)]
    return start(new_header(game, players, seed=seed))


def assert_same_end(game: AnyGame, reference: AnyGame) -> None:
    assert game.next() is None and reference.next() is None
    assert game.result() == reference.result()
    assert game.details() == reference.details()  # the replay's extra facts too
    for viewer in (None, *reference.players):
        assert game.observation(viewer) == reference.observation(viewer)


def seat_counts(game: str) -> list[int]:
    cls = game_class(game)
    return list(range(cls.min_players, cls.max_players + 1))


class OwnRandom(random.Random):
    """A subclass of Random: games may copy only Random's own draws, so this one is asked."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("rng_class", "seeds"), [(random.Random, SEEDS), (OwnRandom, range(10))])
def test_playout_from_the_start_is_the_step_loops_game(
    game: str, rng_class: type[random.Random], seeds: range
) -> None:
    for seats in seat_counts(game):
        for seed in seeds:
            quick, stepped = fresh(game, seats, seed), fresh(game, seats, seed)
            quick_rng, step_rng = rng_class(seed), rng_class(seed)
            quick.playout(quick_rng)
            step_loop(stepped, step_rng)
            assert_same_end(quick, stepped)
            assert quick_rng.getstate() == step_rng.getstate(), (seats, seed)


@pytest.mark.parametrize("game", GAMES)
def test_playout_from_the_middle_of_a_game_and_from_a_determinized_state(game: str) -> None:
    rng = random.Random(7)
    for seed in SEEDS:
        seats = seat_counts(game)[seed % len(seat_counts(game))]
        state = fresh(game, seats, seed)
        for _ in range(rng.randrange(60)):
            nxt = state.next()
            if nxt is None:
                break
            state.apply(nxt.player, random_action(state, nxt.player, rng))
        if (nxt := state.next()) is None:
            continue
        for origin in (state, state.determinize(nxt.player, random.Random(seed))):
            before = origin.observation(None)
            quick, stepped = origin.clone(), origin.clone()
            quick_rng, step_rng = random.Random(seed), random.Random(seed)
            quick.playout(quick_rng)
            step_loop(stepped, step_rng)
            assert_same_end(quick, stepped)
            assert quick_rng.getstate() == step_rng.getstate()
            assert origin.observation(None) == before  # the clone played, not the original


@pytest.mark.parametrize("game", GAMES)
def test_playout_of_a_finished_game_does_nothing(game: str) -> None:
    state = fresh(game, game_class(game).bench_players, 3)
    state.playout(random.Random(3))
    end, rng = state.result(), random.Random(4)
    draws = rng.getstate()
    state.playout(rng)
    assert state.result() == end and rng.getstate() == draws


@pytest.mark.parametrize("game", GAMES)
def test_a_drawn_action_is_not_trusted_after_a_playout(game: str) -> None:
    state = fresh(game, game_class(game).bench_players, 5)
    nxt = state.next()
    assert nxt is not None
    drawn = random_action(state, nxt.player, random.Random(5))
    state.playout(random.Random(6))
    with pytest.raises(IllegalAction):
        state.apply(nxt.player, drawn)
