"""KAMIZA's computer player: legal and not foolish, never clever (K-4, K-9)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from rules.kamiza_moves import Play


class KamizaTable(Protocol):
    """What the policy reads of a game (`rules.kamiza.Kamiza`, whose `computer_action` it is):
    typed so, this module stays below the game's and the game imports it like any other."""

    @property
    def wanted(self) -> Mapping[str, int]: ...
    def legal_actions(self, player: str) -> list[Play]: ...


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


def kamiza_policy(game: KamizaTable, player: str, rng: random.Random) -> Play:
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
