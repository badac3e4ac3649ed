"""Kobayakawa `hard`: a best response to `normal`, computed exactly at each bet.

`normal` is the CFR table, purified: a fixed, known and nearly deterministic strategy. At a fight
decision (B-4) `hard` weighs every way the others may hold the unseen cards by the chance that the
table made the choices seen this round (`ai.kobayakawa_model`: the discards, the replacements, the
bets before), plays the later players' bets as the table would with those cards, and fights when
that is worth more than passing. What a round is worth: the kamons won or lost, but in round 7
(the last, B-8) the share of the match win the final standings give, so that a leader does not
risk its lead and a player behind fights for the win rather than for kamons.

No search: a bet is weighed exactly at a table of three or four (the same whatever the seed),
on a sample of the ways at five or six; a few milliseconds a decision.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.infoset import LOOK, Agent, InfoSet
from ai.kobayakawa_abstraction import observed_key
from ai.kobayakawa_model import active_order, assignments, fight_chance, likelihoods
from ai.kobayakawa_response import RESPONSE_PATH
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_DRAWN, KEEP_HELD, PASS_ACTION, REPLACE
from rules.kobayakawa_tables import DRAW, FIGHT, ROUNDS  # round 7 doubles the stakes


@dataclass(frozen=True, slots=True)
class Showdown:
    """One round's fight phase from `player`'s turn on, with the others' cards assumed."""

    player: str
    active: list[str]
    kobayakawa: int
    last_round: bool
    take: int  # the centre's kamons the winner gets (B-6)

    def bet(self, player: str, kamons: dict[str, int]) -> int:
        """B-4: what `player` bets to fight (round 7: 2, or 1 if that is all)."""
        return min(2 if self.last_round else 1, kamons[player])

    def settle(
        self,
        cards: dict[str, int],
        later: list[str],
        fighters: list[str],
        pot: int,
        kamons: dict[str, int],
    ) -> float:
        """`player`'s expected worth once the `later` players bet as `normal` does."""
        if not later:
            return self.worth(cards, fighters, pot, kamons)
        other, rest = later[0], later[1:]
        seat = self.active.index(other)
        chance = fight_chance(len(self.active), seat, len(fighters), cards[other], self.kobayakawa)
        value = 0.0
        if chance > 0.0:
            bet = self.bet(other, kamons)
            after = {**kamons, other: kamons[other] - bet}
            value += chance * self.settle(cards, rest, [*fighters, other], pot + bet, after)
        if chance < 1.0:
            value += (1.0 - chance) * self.settle(cards, rest, fighters, pot, kamons)
        return value

    def worth(
        self, cards: dict[str, int], fighters: list[str], pot: int, kamons: dict[str, int]
    ) -> float:
        """The round's end (B-5, B-6) for `player`: kamons held, or in round 7 the share of the
        match win (B-8)."""
        final = dict(kamons)
        if fighters:
            winner = showdown_winner(fighters, cards, self.kobayakawa)
            final[winner] += pot + self.take
        if not self.last_round:
            return float(final[self.player])
        best = max(final.values())
        if final[self.player] != best:
            return 0.0
        return 1.0 / sum(1 for held in final.values() if held == best)


def showdown_winner(fighters: list[str], cards: dict[str, int], kobayakawa: int) -> str:
    """B-5: the lowest card adds the Kobayakawa; the first fighter in turn order wins a tie."""
    if len(fighters) == 1:
        return fighters[0]
    low = min(cards[p] for p in fighters)
    best, winner = -1, fighters[0]
    for p in fighters:
        total = cards[p] + kobayakawa if cards[p] == low else cards[p]
        if total > best:
            best, winner = total, p
    return winner


def fight_values(seen: Any, player: str, rng: random.Random) -> tuple[float, float]:
    """`player`'s expected worth of fighting and of passing now (the fight phase, B-4)."""
    active = active_order(seen)
    last_round = seen.round == ROUNDS
    take = min(2 if last_round else 1, seen.centre)
    table = Showdown(player, active, seen.kobayakawa, last_round, take)
    later = active[active.index(player) + 1 :]
    before = [p for p in seen.bets]  # the fighters so far, in turn order
    kamons = dict(seen.kamons)
    bet = table.bet(player, kamons)
    fought = {**kamons, player: kamons[player] - bet}
    fight = passed = total = 0.0
    for cards, weight in assignments(likelihoods(seen, player), rng):
        cards[player] = seen.card
        fight += weight * table.settle(cards, later, [*before, player], seen.pot + bet, fought)
        passed += weight * table.settle(cards, later, before, seen.pot, kamons)
        total += weight
    return fight / total, passed / total


@dataclass(frozen=True, slots=True)
class BestResponseAgent:
    """`hard`: each bet by `fight_values`; the draw turn by `draws` (a table agent)."""

    level: str
    draws: Agent

    def act(self, info: InfoSet, rng: random.Random) -> Any:
        seen = info.observation
        legal = info.legal_actions
        if seen.phase == FIGHT and not seen.simultaneous and FIGHT_ACTION in legal:
            fight, passed = fight_values(seen, info.player, rng)
            return FIGHT_ACTION if fight > passed else PASS_ACTION
        if seen.phase == DRAW:
            move = RESPONSE.get(observed_key(seen, info.player))
            looking = seen.drawn is not None or info.can_look
            if move is not None and looking:
                return _draw_move(seen, legal, first=bool(move))
        return self.draws.act(info, rng)


def _draw_move(seen: Any, legal: tuple[Any, ...], *, first: bool) -> Any:
    """The draw turn's move from a response table's choice (`first`: replace the Kobayakawa
    before looking; keep the lower card once looked)."""
    if seen.drawn is None:
        return REPLACE if first and REPLACE in legal else LOOK
    keep = min(seen.card, seen.drawn) if first else max(seen.card, seen.drawn)
    return KEEP_DRAWN if keep == seen.drawn else KEEP_HELD


def load_response(path: Path = RESPONSE_PATH) -> dict[str, int]:
    """The draw table trained against `normal` (`ai.kobayakawa_response`); empty if absent."""
    if not path.exists():
        return {}
    table: dict[str, int] = json.loads(path.read_text(encoding="utf-8"))
    return table


RESPONSE = load_response()
