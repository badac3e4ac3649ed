"""Computer players and random play, for every game: pure functions of a state and an RNG.

A game's own policy is its `Game.computer_action` (each in its `rules/<game>_agent.py`); a game
without one plays uniformly random legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from rules.base import AnyGame
from rules.choice_draw import random_action

__all__ = ["computer_action", "random_action"]  # random_action: rules.choice_draw


def computer_action(game: AnyGame, player: str, rng: random.Random) -> Any:
    """What a computer player does now: the game's own policy, else a random legal action."""
    chosen = game.computer_action(player, rng)
    return random_action(game, player, rng) if chosen is None else chosen
