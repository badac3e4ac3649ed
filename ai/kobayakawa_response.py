"""Kobayakawa `hard`'s draw table, trained offline: `python -m ai train-kobayakawa --hard`.

A best response to `normal` over one round (B-2..B-6): the others play exactly the purified CFR
table (`ai.kobayakawa_model`'s chances), one seat learns. Each iteration shuffles a deck and
takes each seat in turn as the learner: every move of its is tried, the others' moves and the
pile are sampled, as in the CFR training (`ai.kobayakawa_cfr`, external sampling). Instead of
regrets, the learner sums each move's sampled value per abstract set (the others' strategy is
fixed, so these sums estimate the move's value against `normal`) and plays its better move so
far at the sets further down the round. A round is worth the kamons it wins or loses.

The learner's sets are `normal`'s (`ai.kobayakawa_abstraction`) for the draw and the keep; its
fight sets also say which of the players before it fought (not only how many). What is written
(`RESPONSE_PATH`, read by `ai.kobayakawa_hard`) is the draw and keep sets' better move: 1 for the
first move (replace; keep the lower), 0 for the second. `hard` makes its bets by exact
computation at the table, so the fight sets only serve the training.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ai.kobayakawa_abstraction import draw_key, keep_key
from ai.kobayakawa_cfr import CARDS, payoff, schedule, with_card
from ai.kobayakawa_model import fight_chance, keep_low_chance, replace_chance

RESPONSE_PATH = Path(__file__).with_name("kobayakawa_hard.json")
RESPONSE_ITERATIONS = 200_000
# A set met fewer times than this in the training is left to `normal`'s table: its two sums are
# mostly noise.
MET_ENOUGH = 50


class ResponseTrainer:
    """The summed values of the learner's two moves in each abstract set met."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.values: dict[str, list[float]] = {}

    def better_first(self, key: str, default: float) -> bool:
        """Whether the learner plays the set's first move: the better so far, or as `normal`
        would (`default`, its chance of the first move) in a set not met yet."""
        sums = self.values.get(key)
        if sums is None:
            return self.rng.random() < default
        return sums[0] > sums[1]

    def learn(self, key: str, first: float, second: float) -> None:
        sums = self.values.get(key)
        if sums is None:
            sums = self.values[key] = [0.0, 0.0, 0.0]
        sums[0] += first
        sums[1] += second
        sums[2] += 1

    def iterate(self, players: int) -> None:
        deck = list(CARDS)
        self.rng.shuffle(deck)
        hands, kobayakawa, pile = deck[:players], deck[players], deck[players + 1 :]
        for learner in range(players):
            self._draw(hands, kobayakawa, pile, 0, 0, learner)

    def _draw(
        self, hands: list[int], kobayakawa: int, pile: list[int], top: int, seat: int, learner: int
    ) -> float:
        """The learner's value from `seat`'s draw turn on."""
        n = len(hands)
        if seat == n:
            return self._fight(hands, kobayakawa, 0, (), learner)
        card, drawn = hands[seat], pile[top]
        low, high = min(card, drawn), max(card, drawn)
        key = draw_key(n, seat, card, kobayakawa)
        keep = keep_key(n, low, high, kobayakawa)
        if seat != learner:
            if self.rng.random() < replace_chance(n, seat, card, kobayakawa):
                return self._draw(hands, drawn, pile, top + 1, seat + 1, learner)
            kept = low if self.rng.random() < keep_low_chance(n, low, high, kobayakawa) else high
            return self._draw(
                with_card(hands, seat, kept), kobayakawa, pile, top + 1, seat + 1, learner
            )
        replaced = self._draw(hands, drawn, pile, top + 1, seat + 1, learner)
        kept_low = self._draw(
            with_card(hands, seat, low), kobayakawa, pile, top + 1, seat + 1, learner
        )
        kept_high = self._draw(
            with_card(hands, seat, high), kobayakawa, pile, top + 1, seat + 1, learner
        )
        self.learn(keep, kept_low, kept_high)
        default = keep_low_chance(n, low, high, kobayakawa)
        looked = kept_low if self.better_first(keep, default) else kept_high
        self.learn(key, replaced, looked)
        default = replace_chance(n, seat, card, kobayakawa)
        return replaced if self.better_first(key, default) else looked

    def _fight(
        self,
        hands: list[int],
        kobayakawa: int,
        seat: int,
        fighters: tuple[int, ...],
        learner: int,
    ) -> float:
        """The learner's value from `seat`'s bet on (B-4)."""
        n = len(hands)
        if seat == n:
            return payoff(hands, kobayakawa, fighters, learner)
        card = hands[seat]
        fight = (*fighters, seat)
        if seat != learner:
            chance = fight_chance(n, seat, len(fighters), card, kobayakawa)
            chosen = fight if self.rng.random() < chance else fighters
            return self._fight(hands, kobayakawa, seat + 1, chosen, learner)
        mask = sum(1 << before for before in fighters)
        key = f"b{n}.{seat}.{mask}.{card}.{kobayakawa}"
        fought = self._fight(hands, kobayakawa, seat + 1, fight, learner)
        passed = self._fight(hands, kobayakawa, seat + 1, fighters, learner)
        self.learn(key, fought, passed)
        default = fight_chance(n, seat, len(fighters), card, kobayakawa)
        return fought if self.better_first(key, default) else passed

    def table(self) -> dict[str, int]:
        """The draw and keep sets' better move (1 the first, 0 the second), for the sets met
        often enough to tell (`hard` plays the others as `normal` does)."""
        return {
            key: int(first > second)
            for key, (first, second, met) in sorted(self.values.items())
            if key[0] in "dk" and met >= MET_ENOUGH
        }


def train_response(iterations: int, seed: int = 1) -> dict[str, int]:
    """The table after `iterations` rounds of four players (other sizes in proportion, as the
    CFR training); the same for the same arguments."""
    trainer = ResponseTrainer(seed)
    for players in schedule(iterations, trainer.rng):
        trainer.iterate(players)
    return trainer.table()


def write_response(table: dict[str, int], path: Path = RESPONSE_PATH) -> None:
    path.write_text(json.dumps(table, separators=(",", ":")) + "\n", encoding="utf-8")
