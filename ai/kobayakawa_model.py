"""What `normal` (the CFR table, purified) holds, read off what it did: Kobayakawa's posterior.

`normal` plays a fixed, known strategy (`ai.kobayakawa_table`), so the cards the others hold
can be weighed exactly: every way of giving the unseen cards to the others is as likely a priori
(a shuffled deck), and each is weighted by the chance that the table, holding those cards, made
the draws, replacements, fights and passes seen this round. A drawing player's two cards (the
one kept, and the discard everyone saw) came either way round, as likely. The table's moves are
purified (nearly certain), so a floor keeps every assignment possible: a human, or a table
that is not `normal`, may do what it never does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from itertools import permutations
from math import perm
from typing import Any

from ai.kobayakawa_abstraction import draw_key, fight_key, keep_key
from ai.kobayakawa_table import PURIFY, TABLE, _sharpened
from rules.kobayakawa_moves import Drew, Fought, KobayakawaReplaced, Passed

CARDS = frozenset(range(1, 16))
# The least chance given to a move the table does not play: a surprise lowers an assignment's
# weight a lot, never to nothing.
FLOOR = 0.02
# Four players leave at most 9 cards unseen at a bet: 504 ways for three others, weighed exactly.
# Five or six players may leave thousands (and later players' mixed bets multiply the work):
# a sample keeps a decision within the budget (issue 18: p99 <= 300 ms).
EXACT_UP_TO = 720
SAMPLED = 240


def replace_chance(players: int, seat: int, card: int, kobayakawa: int) -> float:
    """P(`normal` replaces the Kobayakawa unseen) holding `card` (`table_policy`'s default)."""
    return _sharpened(TABLE.get(draw_key(players, seat, card, kobayakawa), 0.0), PURIFY)


def keep_low_chance(players: int, low: int, high: int, kobayakawa: int) -> float:
    return _sharpened(TABLE.get(keep_key(players, low, high, kobayakawa), 0.0), PURIFY)


def fight_chance(players: int, seat: int, fought: int, card: int, kobayakawa: int) -> float:
    return _sharpened(TABLE.get(fight_key(players, seat, fought, card, kobayakawa), 0.5), PURIFY)


def _soft(chance: float) -> float:
    return min(1.0 - FLOOR, max(FLOOR, chance))


def active_order(seen: Any) -> list[str]:
    """The players still in, in this round's order (clockwise from the start player)."""
    return [p for p in seen.order if p not in seen.out]


def unseen_cards(seen: Any) -> list[int]:
    """The cards `seen`'s player has not seen this round: the others' and the pile's."""
    known = {seen.card, *seen.kobayakawa_history, *seen.discards.values()}
    if seen.drawn is not None:
        known.add(seen.drawn)
    return sorted(CARDS - known)


def likelihoods(seen: Any, player: str) -> dict[str, dict[int, float]]:
    """For each other player still in: card -> the chance of their choices this round, had
    they held it (up to a factor the same for every card)."""
    active = active_order(seen)
    players = len(active)
    unseen = unseen_cards(seen)
    weights = {p: dict.fromkeys(unseen, 1.0) for p in active if p != player}
    kobayakawa = seen.kobayakawa_history[0] if seen.kobayakawa_history else seen.kobayakawa
    fought = 0
    for choice in seen.choices:
        other = choice.player
        table = weights.get(other)
        if table is not None:
            seat = active.index(other)
            if isinstance(choice, KobayakawaReplaced):
                for card in unseen:
                    table[card] *= _soft(replace_chance(players, seat, card, choice.previous))
            elif isinstance(choice, Drew):
                _weigh_draw(table, players, seat, choice.discarded, kobayakawa)
            elif isinstance(choice, (Fought, Passed)):
                fights = isinstance(choice, Fought)
                for card in unseen:
                    chance = _soft(fight_chance(players, seat, fought, card, seen.kobayakawa))
                    table[card] *= chance if fights else 1.0 - chance
        if isinstance(choice, KobayakawaReplaced):
            kobayakawa = choice.kobayakawa
        elif isinstance(choice, Fought):
            fought += 1
    return weights


def _weigh_draw(
    table: dict[int, float], players: int, seat: int, discarded: int, kobayakawa: int
) -> None:
    """A draw that discarded `discarded`: the kept card was held or drawn, as likely."""
    looked_away = 1.0 - replace_chance(players, seat, discarded, kobayakawa)
    for card in table:
        low, high = min(card, discarded), max(card, discarded)
        keep_low = keep_low_chance(players, low, high, kobayakawa)
        looked = looked_away + 1.0 - replace_chance(players, seat, card, kobayakawa)
        table[card] *= max(FLOOR, looked) * _soft(keep_low if card == low else 1.0 - keep_low)


def assignments(
    weights: dict[str, dict[int, float]], rng: random.Random
) -> Iterator[tuple[dict[str, int], float]]:
    """Every way of giving the others distinct unseen cards, with its (unnormalised) weight;
    at a table of five or six, where there may be thousands, `SAMPLED` of them drawn with `rng`
    (uniformly: the weights still apply)."""
    others = list(weights)
    if not others:
        yield {}, 1.0
        return
    cards = sorted(next(iter(weights.values())))
    every: Iterable[tuple[int, ...]] = permutations(cards, len(others))
    if perm(len(cards), len(others)) > EXACT_UP_TO:
        every = (tuple(rng.sample(cards, len(others))) for _ in range(SAMPLED))
    for chosen in every:
        weight = 1.0
        for other, card in zip(others, chosen, strict=True):
            weight *= weights[other][card]
            if weight == 0.0:
                break
        if weight > 0.0:
            yield dict(zip(others, chosen, strict=True)), weight
