"""Computer players: legal and not foolish, never clever. Pure functions of a state and an RNG."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.base import Game
from rules.kamiza import Kamiza, Play

Policy = Callable[[Any, str, random.Random], Any]

# KAMIZA: how much a computer player likes each (card, area); 0 never (K-4: a Boss or Corrupt
# Policeman in shimoza only throws points away).
_KAMIZA_TASTE = {
    ("boss", "kamiza"): 4.0,
    ("boss", "shimoza"): 0.0,
    ("underboss", "kamiza"): 1.0,
    ("underboss", "shimoza"): 3.0,
    ("hitman", "kamiza"): 2.0,
    ("hitman", "shimoza"): 1.5,
    ("policeman", "kamiza"): 1.5,
    ("policeman", "shimoza"): 0.0,
    ("raid", "kamiza"): 1.0,
    ("raid", "shimoza"): 1.0,
}


def kamiza_policy(game: Kamiza, player: str, rng: random.Random) -> Play:
    """Weighted choice that keeps the Boss for kamiza and spares a policeman near the third chip."""
    legal = game.legal_actions(player)
    weights = []
    for play in legal:
        weight = _KAMIZA_TASTE[play.card, play.area]
        if play.card == "policeman" and game.wanted[player] >= 2:
            weight = 0.1
        weights.append(weight)
    if not any(weights):
        return rng.choice(legal)
    return rng.choices(legal, weights=weights)[0]


POLICIES: dict[str, Policy] = {Kamiza.name: kamiza_policy}


def random_action(game: Game, player: str, rng: random.Random) -> Any:
    """A uniformly random legal action (what the table plays for a player who ran out of time)."""
    chooser = getattr(game, "random_action", None)
    if chooser is not None:
        return chooser(player, rng)
    return rng.choice(game.legal_actions(player))


def computer_action(game: Game, player: str, rng: random.Random) -> Any:
    """What a computer player does now; falls back to a random legal action."""
    policy = POLICIES.get(game.name)
    if policy is None:
        return random_action(game, player, rng)
    return policy(game, player, rng)
