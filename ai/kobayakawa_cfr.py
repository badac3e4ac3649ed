"""Kobayakawa's strategy table, trained offline: `python -m ai train-kobayakawa`.

Counterfactual regret minimisation (Zinkevich et al. 2007) with external sampling (Lanctot et
al. 2009) over one round of the game (B-2..B-6) and the abstract information sets of
`ai.kobayakawa_abstraction`. An iteration shuffles one deck; each player in turn is the
traverser: every move of theirs is tried, the others' sampled from their current strategy.
Regrets are floored at zero and later iterations weigh more in the average (as in CFR+), which
converges in far fewer iterations. A round's payoff is the kamons it wins or loses: a fighter
bets 1, the winner takes every bet and 1 from the centre (round 7: 2 and 2, the same game
scaled). The average strategy, the probability of each set's first move rounded to 3 places,
is written to `TABLE_PATH` (shipped in the package, read by `ai.kobayakawa_table`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ai.kobayakawa_abstraction import draw_key, fight_key, keep_key

TABLE_PATH = Path(__file__).with_name("kobayakawa_cfr.json")
CARDS = tuple(range(1, 16))
# Iterations per table size, relative to `iterations`: four players is the arena's table, three
# and two follow as players go out (B-7); five and six are rarer tables.
TABLE_WEIGHTS = {2: 0.3, 3: 0.7, 4: 1.0, 5: 0.4, 6: 0.4}
TRAINING_ITERATIONS = 80_000  # the shipped table's: about 5 minutes on one core


class Trainer:
    """Regrets and the weighted strategy sums of every abstract information set met."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.regrets: dict[str, list[float]] = {}
        self.sums: dict[str, list[float]] = {}
        self.weight = 1.0

    def strategy(self, key: str) -> tuple[float, float]:
        """Regret matching: each move in proportion to its positive regret (even if none)."""
        regret = self.regrets.get(key)
        if regret is None:
            self.regrets[key] = [0.0, 0.0]
            return 0.5, 0.5
        first, second = regret
        total = first + second
        if total <= 0:
            return 0.5, 0.5
        return first / total, second / total

    def learn(self, key: str, first: float, second: float, value: float) -> None:
        regret = self.regrets[key]
        regret[0] = max(0.0, regret[0] + first - value)
        regret[1] = max(0.0, regret[1] + second - value)

    def observe(self, key: str, strategy: tuple[float, float]) -> None:
        """An opponent's visit: add its current strategy to the average, weighted."""
        sums = self.sums.get(key)
        if sums is None:
            sums = self.sums[key] = [0.0, 0.0]
        sums[0] += self.weight * strategy[0]
        sums[1] += self.weight * strategy[1]

    def iterate(self, players: int) -> None:
        deck = list(CARDS)
        self.rng.shuffle(deck)
        hands, kobayakawa, pile = deck[:players], deck[players], deck[players + 1 :]
        for traverser in range(players):
            self._walk(hands, kobayakawa, pile, 0, 0, (), traverser)

    def _walk(
        self,
        hands: list[int],
        kobayakawa: int,
        pile: list[int],
        top: int,
        turn: int,
        fighters: tuple[int, ...],
        traverser: int,
    ) -> float:
        """The traverser's expected payoff from `turn` on (draw turns 0..n-1, fights n..2n-1)."""
        n = len(hands)
        if turn < n:
            return self._draw(hands, kobayakawa, pile, top, turn, traverser)
        if turn < 2 * n:
            seat = turn - n
            key = fight_key(n, seat, len(fighters), hands[seat], kobayakawa)
            strategy = self.strategy(key)
            fight = (*fighters, seat)
            if seat != traverser:
                self.observe(key, strategy)
                chosen = fight if self.rng.random() < strategy[0] else fighters
                return self._walk(hands, kobayakawa, pile, top, turn + 1, chosen, traverser)
            fought = self._walk(hands, kobayakawa, pile, top, turn + 1, fight, traverser)
            passed = self._walk(hands, kobayakawa, pile, top, turn + 1, fighters, traverser)
            value = strategy[0] * fought + strategy[1] * passed
            self.learn(key, fought, passed, value)
            return value
        return payoff(hands, kobayakawa, fighters, traverser)

    def _draw(
        self,
        hands: list[int],
        kobayakawa: int,
        pile: list[int],
        top: int,
        seat: int,
        traverser: int,
    ) -> float:
        n = len(hands)
        key = draw_key(n, seat, hands[seat], kobayakawa)
        strategy = self.strategy(key)
        drawn = pile[top]
        low, high = min(hands[seat], drawn), max(hands[seat], drawn)
        keep = keep_key(n, low, high, kobayakawa)
        keeping = self.strategy(keep)
        if seat != traverser:
            self.observe(key, strategy)
            if self.rng.random() < strategy[0]:
                return self._walk(hands, drawn, pile, top + 1, seat + 1, (), traverser)
            self.observe(keep, keeping)
            kept = low if self.rng.random() < keeping[0] else high
            return self._walk(
                with_card(hands, seat, kept), kobayakawa, pile, top + 1, seat + 1, (), traverser
            )
        replaced = self._walk(hands, drawn, pile, top + 1, seat + 1, (), traverser)
        kept_low = self._walk(
            with_card(hands, seat, low), kobayakawa, pile, top + 1, seat + 1, (), traverser
        )
        kept_high = self._walk(
            with_card(hands, seat, high), kobayakawa, pile, top + 1, seat + 1, (), traverser
        )
        looked = keeping[0] * kept_low + keeping[1] * kept_high
        self.learn(keep, kept_low, kept_high, looked)
        value = strategy[0] * replaced + strategy[1] * looked
        self.learn(key, replaced, looked, value)
        return value

    def table(self) -> dict[str, float]:
        """The average strategy: each set's probability of its first move."""
        table = {}
        for key, (first, second) in sorted(self.sums.items()):
            total = first + second
            if total > 0:
                table[key] = round(first / total, 3)
        return table


def with_card(hands: list[int], seat: int, card: int) -> list[int]:
    changed = hands.copy()
    changed[seat] = card
    return changed


def payoff(hands: list[int], kobayakawa: int, fighters: tuple[int, ...], player: int) -> float:
    """The kamons `player` wins (B-5, B-6; bets of 1, 1 from the centre): fighters are in seat
    order, clockwise from the start player, who wins a tie."""
    if player not in fighters:
        return 0.0
    if len(fighters) == 1:
        return 1.0
    totals = [hands[seat] for seat in fighters]
    lowest = totals.index(min(totals))
    totals[lowest] += kobayakawa
    winner = fighters[totals.index(max(totals))]
    return float(len(fighters)) if winner == player else -1.0


def schedule(iterations: int, rng: random.Random) -> list[int]:
    """The table size of each training round, shuffled: `iterations` of four players and the
    other sizes in proportion (`TABLE_WEIGHTS`)."""
    sizes = [
        players
        for players, weight in TABLE_WEIGHTS.items()
        for _ in range(max(1, round(weight * iterations)))
    ]
    rng.shuffle(sizes)
    return sizes


def train(iterations: int, seed: int = 1) -> dict[str, float]:
    """The table after `iterations` rounds of four players (and the other sizes in proportion);
    the same for the same arguments."""
    trainer = Trainer(seed)
    for done, players in enumerate(schedule(iterations, trainer.rng), start=1):
        trainer.weight = float(done)  # later iterations weigh more in the average
        trainer.iterate(players)
    return trainer.table()


def write_table(table: dict[str, float], path: Path = TABLE_PATH) -> None:
    path.write_text(json.dumps(table, separators=(",", ":")) + "\n", encoding="utf-8")
