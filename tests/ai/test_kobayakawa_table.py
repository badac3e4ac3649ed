"""Kobayakawa's CFR table: it loads, covers what random games reach, and trains reproducibly."""

from __future__ import annotations

import random

from positions import random_positions

from ai import decide
from ai.kobayakawa_abstraction import draw_key, fight_key, keep_key, observed_key
from ai.kobayakawa_cfr import TABLE_PATH, train
from ai.kobayakawa_table import TABLE, TableAgent
from ai.levels import EasyAgent

CARDS = range(1, 16)


def test_the_shipped_table_loads_with_probabilities() -> None:
    assert TABLE_PATH.stat().st_size < 600_000  # small enough to ship in the package
    assert TABLE
    assert all(0.0 <= p <= 1.0 for p in TABLE.values())


def test_the_table_holds_every_abstract_set_of_three_and_four_players() -> None:
    missing = []
    for players in (3, 4):
        for kobayakawa in CARDS:
            for card in CARDS:
                if card == kobayakawa:
                    continue
                for seat in range(players):
                    missing.append(draw_key(players, seat, card, kobayakawa))
                    missing += [
                        fight_key(players, seat, fought, card, kobayakawa)
                        for fought in range(seat + 1)
                    ]
                if card < 15:
                    missing += [
                        keep_key(players, card, high, kobayakawa)
                        for high in range(card + 1, 16)
                        if high != kobayakawa
                    ]
    missing = [key for key in missing if key not in TABLE]
    assert not missing, missing[:10]


def test_the_table_agent_plays_legal_actions_from_table_sets_in_random_games() -> None:
    agent = TableAgent("hard", EasyAgent())
    rng = random.Random(3)
    for state, player in random_positions("kobayakawa", 600, 17):
        key = observed_key(state.observation(player), player)
        assert key in TABLE, key
        action = decide(state, player, agent, rng)
        assert action in state.legal_actions(player)
        state.check(player, action)


def test_training_is_deterministic_for_a_seed() -> None:
    assert train(300, seed=5) == train(300, seed=5)
    assert train(300, seed=5) != train(300, seed=6)
