"""The playout policies: quick loops that play the very game the step loop would."""

from __future__ import annotations

import random

import pytest
from positions import GAME_NAMES

from ai.rollout import POLICIES, losers_play_out, losers_policy, play_out, rewards
from rules.log import new_header, start


@pytest.mark.parametrize("seed", range(8))
def test_losers_quick_playout_is_the_step_loop_with_its_policy(seed: int) -> None:
    game = start(new_header("rights-of-losers", ["a", "b", "c", "d"], seed=seed))
    quick, stepped = game.clone(), game.clone()
    losers_play_out(quick, random.Random(seed))
    rng = random.Random(seed)
    while (nxt := stepped.next()) is not None:
        stepped.apply(nxt.player, losers_policy(stepped, nxt.player, rng))
    assert quick.result() == stepped.result()
    assert quick.observation(None) == stepped.observation(None)


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_policy_playouts_finish_and_reward_in_range(game_name: str) -> None:
    for seed in range(5):
        game = start(new_header(game_name, ["a", "b", "c"], seed=seed))
        play_out(game, POLICIES[game_name], random.Random(seed))
        assert game.over
        worth = rewards(game)
        assert set(worth) == set(game.players)
        assert all(0 <= value <= 1 for value in worth.values())
        best = max(worth, key=worth.__getitem__)
        assert best in game.winners()


def test_kamiza_quick_playout_keeps_boss_out_of_shimoza() -> None:
    """The quick loop draws `easy`'s weights: a Boss never goes to shimoza (K-4)."""
    for seed in range(20):
        game = start(new_header("kamiza", ["a", "b", "c", "d"], seed=seed))
        play_out(game, POLICIES["kamiza"], random.Random(seed))
        assert game.over
        record = game.observation(None).last_round
        assert record is not None
        assert not any(p.card == "boss" and p.area == "shimoza" for p in record.plays)
