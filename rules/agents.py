"""Computer players and random play, for every game: pure functions of a state and an RNG.

A game's own policy is its `Game.computer_action` (each in its `rules/<game>_agent.py`); a game
without one plays uniformly random legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from rules.base import AnyGame
from rules.choice_draw import CHOICE_RANDOM

# Games whose class sets `draws_from_table` keep `draw_table` up to date for the player to act:
# (player, picks, bits), where `picks[rng.getrandbits(bits)]` is the action
# `rng.choice(game.legal_actions(player))` picks from the very same draws (None: draw again), for
# a generator of the class CHOICE_RANDOM (the one checked at import to draw so). A random playout
# draws once per action: read here, the table spares it a call into the game.


def random_action(game: AnyGame, player: str, rng: random.Random) -> Any:
    """A uniformly random legal action (what the table plays for a player who ran out of time)."""
    if type(rng) is CHOICE_RANDOM and game.draws_from_table:
        who, picks, bits = game.draw_table  # type: ignore[attr-defined]  # those games have it
        if who == player:
            action = picks[rng.getrandbits(bits)]
            while action is None:
                action = picks[rng.getrandbits(bits)]
            return action
    chooser = getattr(game, "random_action", None)
    if chooser is not None:
        return chooser(player, rng)
    return rng.choice(game.legal_actions(player))


def computer_action(game: AnyGame, player: str, rng: random.Random) -> Any:
    """What a computer player does now: the game's own policy, else a random legal action."""
    chosen = game.computer_action(player, rng)
    return random_action(game, player, rng) if chosen is None else chosen
