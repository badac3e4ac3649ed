"""KAMIZA's computer player: legal and not foolish, never clever (K-4, K-9)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.kamiza import Kamiza, Play  # the policy runs inside Kamiza.computer_action


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


# -- Kobayakawa ------------------------------------------------------------------------------------
# Only the player's observation is read (G-3): their own card, the Kobayakawa, the public
# discards and bets. The drawn card is read only after deciding to draw, as the bot's "Draw →
# keep which?" menu shows it; once the player has looked at it (B-3), replacing is out.
