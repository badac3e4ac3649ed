"""Kobayakawa played from the CFR table (`ai.kobayakawa_cfr`), read once at import.

Each decision looks up its abstract information set (`ai.kobayakawa_abstraction`) and draws a
move with the table's probability; a set the training never met is left to `fallback` (the
`easy` heuristic). Microseconds a decision, and a function of the observation and the RNG only.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from ai.infoset import LOOK, Agent, InfoSet
from ai.kobayakawa_abstraction import draw_key, fight_key, keep_key, observed_key
from ai.kobayakawa_cfr import TABLE_PATH
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_DRAWN, KEEP_HELD, PASS_ACTION, REPLACE


def load_table() -> dict[str, float]:
    """The shipped table: abstract information set -> probability of its first move."""
    table: dict[str, float] = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    return table


TABLE = load_table()
# Moves the table plays less often than this are dropped (the other is played): measured
# against three `easy`, 400 games, the table agent won 29.0 % as trained, 32.4 % purified at 0.2
# and 31.5 % at 0.5 (always the likelier move).
PURIFY = 0.2


@dataclass(frozen=True, slots=True)
class TableAgent:
    """The CFR strategy. `purify`: a move the table plays less often than this is dropped
    (the other is played), a common remedy for the noise of a sampled training."""

    level: str
    fallback: Agent
    purify: float = PURIFY

    def act(self, info: InfoSet, rng: random.Random) -> Any:
        seen = info.observation
        first = self._probability(observed_key(seen, info.player))
        legal = info.legal_actions
        unseen_draw = seen.phase == "draw" and seen.drawn is None and not info.can_look
        if first is None or unseen_draw:  # a set never trained, or a draw it cannot look at
            return self.fallback.act(info, rng)
        play_first = rng.random() < first
        if seen.phase != "draw":
            return FIGHT_ACTION if play_first and FIGHT_ACTION in legal else PASS_ACTION
        if seen.drawn is None:
            return REPLACE if play_first and REPLACE in legal else LOOK
        card, drawn = seen.card, seen.drawn
        keep = min(card, drawn) if play_first else max(card, drawn)
        return KEEP_DRAWN if keep == drawn else KEEP_HELD

    def _probability(self, key: str) -> float | None:
        first = TABLE.get(key)
        return None if first is None else _sharpened(first, self.purify)


def _sharpened(first: float, purify: float) -> float:
    if first < purify:
        return 0.0
    if first > 1 - purify:
        return 1.0
    return first


def table_policy(state: Any, player: str, rng: random.Random) -> Any:
    """The table agent's move read off a search's sample (`ai.rollout`'s Kobayakawa policy): in
    the playouts of `hard`'s search, everyone plays as `normal` does."""
    active = [p for p in state.order if p not in state.out]
    players, seat = len(active), active.index(player)
    card, kobayakawa = state.cards[player], state.kobayakawa
    if state.phase == "draw":
        drawn = state.looked_card(player)
        if drawn is None:
            first = TABLE.get(draw_key(players, seat, card, kobayakawa), 0.0)
            if rng.random() < _sharpened(first, PURIFY):
                return REPLACE
            drawn = state.drawn_card(player)
        low, high = min(card, drawn), max(card, drawn)
        first = TABLE.get(keep_key(players, low, high, kobayakawa), 0.0)
        keep = low if rng.random() < _sharpened(first, PURIFY) else high
        return KEEP_DRAWN if keep == drawn else KEEP_HELD
    bets = state.bets
    fought = sum(1 for p in active[:seat] if p in bets)
    first = TABLE.get(fight_key(players, seat, fought, card, kobayakawa), 0.5)
    return FIGHT_ACTION if rng.random() < _sharpened(first, PURIFY) else PASS_ACTION
