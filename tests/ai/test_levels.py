"""Every level plays legal moves only, and decides from what its player sees (issue 18)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from positions import GAME_NAMES, random_positions

from ai import LEVELS, LOOK, Agent, decide, info_set, make_agent
from rules.base import Game

# `hard` at a fixed iteration count: reproducible, and quick enough for many positions.
HARD_ITERATIONS = 24
POSITIONS = {"random": 1000, "easy": 1000, "normal": 40, "hard": 40}


def agent(level: str, game: str) -> Agent:
    return make_agent(level, game, iterations=HARD_ITERATIONS)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_actions_in_random_positions(game: str, level: str) -> None:
    player_agent = agent(level, game)
    rng = random.Random(7)
    seed = GAME_NAMES.index(game) * 10 + LEVELS.index(level)
    for state, player in random_positions(game, POSITIONS[level], seed):
        action = decide(state, player, player_agent, rng)
        assert action in state.legal_actions(player), (level, action)
        state.check(player, action)  # also as written to a log


@pytest.mark.parametrize("game", ["kamiza", "kobayakawa"])  # the games with the house rule
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_actions_when_choices_are_made_at_once(
    game: str, level: str
) -> None:
    """H-1, H-2: in a step every chooser may act, and a choice is kept aside; the search's quick
    moves for the others must keep to that too."""
    player_agent = agent(level, game)
    rng = random.Random(11)
    count = POSITIONS[level] // 2
    positions = random_positions(game, count, LEVELS.index(level), {"simultaneous": True})
    for state, player in positions:
        action = decide(state, player, player_agent, rng)
        assert action in state.legal_actions(player), (level, action)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_same_observation_same_decision_for_the_same_seed(game: str, level: str) -> None:
    """Two states that give the player the same observation (both drawn from a real one) give
    the same decision from the same seed: the agent cannot read anything else."""
    player_agent = agent(level, game)
    differed = 0
    for index, (state, player) in enumerate(random_positions(game, POSITIONS[level] // 5, 11)):
        first = state.determinize(player, random.Random(index))
        second = state.determinize(player, random.Random(index + 1000))
        assert first.observation(player) == second.observation(player)
        differed += first.observation(None) != second.observation(None) or any(
            first.observation(p) != second.observation(p) for p in state.players if p != player
        )
        one = player_agent.act(info_set(first, player), random.Random(index))
        two = player_agent.act(info_set(second, player), random.Random(index))
        assert one == two, (level, index)
        if one is not LOOK:
            assert one in state.legal_actions(player)
    assert differed, "the pairs never differed in anything hidden: the test proves nothing"


def test_an_info_set_holds_no_state() -> None:
    state, player = next(random_positions("kamiza", 1, 3))
    info = info_set(state, player)
    for field in dataclasses.fields(info):
        if not field.name.startswith("_"):
            assert not isinstance(getattr(info, field.name), Game), field.name
    assert info.observation == state.observation(player)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_hard_with_iterations_is_reproducible(game: str) -> None:
    hard = agent("hard", game)
    for state, player in random_positions(game, 3, 5):
        info = info_set(state, player)
        assert hard.act(info, random.Random(1)) == hard.act(info, random.Random(1))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_agent("grandmaster", "kamiza")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_determinize_reads_only_the_observation(game: str) -> None:
    """Two states with the same observation for `player` give the very same sample from the
    same seed: every player's observation equal, and the same game played out from it."""
    for index, (state, player) in enumerate(random_positions(game, 150, 23)):
        first = state.determinize(player, random.Random(index))
        second = state.determinize(player, random.Random(index + 1000))
        one = first.determinize(player, random.Random(7))
        two = second.determinize(player, random.Random(7))
        for seat in (*state.players, None):
            assert one.observation(seat) == two.observation(seat), (index, seat)
        one.playout(random.Random(3))
        two.playout(random.Random(3))
        assert one.result() == two.result()


def test_a_game_without_its_own_policy_gets_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game added later (the tests' High card) plays at every level: random playouts, and
    `easy` falls back to random legal actions when the game has no heuristic."""
    from games.highcard.rules import HighCard

    from rules.log import new_header, start
    from rules.registry import GAMES

    monkeypatch.setitem(GAMES, HighCard.name, HighCard)
    for level in LEVELS:
        state = start(new_header(HighCard.name, ["a", "b", "c"], seed=1))
        player_agent = agent(level, HighCard.name)
        rng = random.Random(2)
        while (nxt := state.next()) is not None:
            action = decide(state, nxt.player, player_agent, rng)
            state.apply(nxt.player, action)
        assert state.winners()
