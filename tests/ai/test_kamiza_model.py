"""KAMIZA `hard`'s model of the table: `normal`'s counted choices, played and believed."""

from __future__ import annotations

import random

import pytest
from positions import random_positions

from ai import info_set
from ai.kamiza_model import (
    _COUNTS,
    model_play_out,
    model_step,
    pooled_sampler,
    probabilities,
)
from ai.kamiza_training import count_choices
from rules.log import new_header, start


def test_the_shipped_counts_cover_the_usual_contexts() -> None:
    assert len(_COUNTS) > 100
    full = ("boss", "underboss", "hitman", "policeman")
    chances = probabilities((full, 0, 0, False))
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances["boss", "shimoza"] == 0  # K-4: never counted, never in `easy`'s tastes


def test_counting_is_reproducible() -> None:
    assert count_choices(1, 5) == count_choices(1, 5)


@pytest.mark.parametrize("edition", ["second", "classic"])
def test_model_playouts_finish_without_a_boss_in_shimoza(edition: str) -> None:
    for seed in range(10):
        game = start(new_header("kamiza", ["a", "b", "c", "d"], {"edition": edition}, seed=seed))
        model_play_out(game, random.Random(seed))
        assert game.over
        record = game.observation(None).last_round
        assert record is not None
        assert not any(p.card == "boss" and p.area == "shimoza" for p in record.plays)


def test_a_model_step_is_a_legal_play() -> None:
    for state, player in random_positions("kamiza", 30, 3):
        before = len(state.plays)
        hand = state.hands[player]
        model_step(state, player, random.Random(1))
        if state.plays and len(state.plays) == before + 1:
            assert state.plays[-1].card in hand


def test_pooled_samples_give_the_searcher_the_same_observation() -> None:
    for state, player in random_positions("kamiza", 30, 4):
        info = info_set(state, player)
        sample = pooled_sampler(info, random.Random(2))
        for seed in range(5):
            drawn = sample(random.Random(seed))
            assert drawn.observation(player) == info.observation
            assert drawn is not sample(random.Random(seed))  # a copy each time: played on
