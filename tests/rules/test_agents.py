"""Computer players are legal and do not throw their Boss away."""

from __future__ import annotations

import random

import pytest

from rules.agents import computer_action, random_action
from rules.log import new_header, start
from rules.registry import GAMES


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(5))
def test_computer_players_finish_games_with_legal_actions(game_name: str, seed: int) -> None:
    cls = GAMES[game_name]
    players = [f"p{i}" for i in range(cls.min_players)]
    game = start(new_header(game_name, players, seed=seed))
    rng = random.Random(seed)
    steps = 0
    while (nxt := game.next()) is not None:
        chooser = computer_action if steps % 2 else random_action
        action = chooser(game, nxt.player, rng)
        game.apply(nxt.player, action)
        steps += 1
        assert steps < 10_000
    assert game.winners()


def test_k4_computer_player_never_sends_boss_or_policeman_to_shimoza() -> None:
    rng = random.Random(3)
    for seed in range(30):
        game = start(new_header("kamiza", ["a", "b", "c", "d"], seed=seed))
        while (nxt := game.next()) is not None:
            play = computer_action(game, nxt.player, rng)
            assert not (play.card in ("boss", "policeman") and play.area == "shimoza")
            game.apply(nxt.player, play)
