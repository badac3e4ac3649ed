"""Rights of Losers: dealing the hidden cards again, consistently with what the table showed.

A player sees their own hand and every card played (R-4, G-3). The other hands, and the cards
nobody was dealt (R-1: 50 cards, 10 per player), are the cards that player has not seen. One
more thing is public: a player who did not follow the led suit holds none of it (R-4), for the
rest of the game. `deal_hidden` hands the unseen cards out again at random under those voids.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules.losers_board import CARD_SUIT, SUITS

_SUIT_BIT = {suit: 1 << i for i, suit in enumerate(SUITS)}
_ALL_SUITS = (1 << len(SUITS)) - 1
_SUBSETS = tuple(range(1, _ALL_SUITS + 1))  # every non-empty set of suits, as bitmasks
# The suits (indexes into SUITS) of each of _SUBSETS: Hall's check runs on every card placed
# under voids, and summing over precomputed indexes made a search's samples about 3x quicker.
_SUBSET_SUITS = tuple(tuple(i for i in range(len(SUITS)) if subset >> i & 1) for subset in _SUBSETS)


def void_mask(voids: frozenset[str]) -> int:
    """The suits a player may still hold, as a bitmask over SUITS."""
    mask = _ALL_SUITS
    for suit in voids:
        mask &= ~_SUIT_BIT[suit]
    return mask


def deal_hidden(
    unseen: Sequence[str],
    sizes: Mapping[str, int],
    voids: Mapping[str, frozenset[str]],
    rng: random.Random,
) -> dict[str, list[str]]:
    """New hands of `sizes[p]` cards for each player p, drawn from `unseen`, where no player gets
    a suit of `voids[p]`; the cards left over are the undealt ones.

    The cards are taken in random order and each goes to a holder (a player, or the undealt
    pile) with a probability proportional to the room left in that hand: without voids this is
    exactly a uniform deal. With voids, a holder is skipped when giving it the card would leave
    the remaining cards impossible to place (Hall's condition over the five suits), so the deal
    never needs to start over. `unseen` must admit at least one such deal (the real one does).
    """
    holders = list(sizes)
    room = [sizes[p] for p in holders]
    allowed = [void_mask(voids.get(p, frozenset())) for p in holders]
    spare = len(unseen) - sum(room)
    if spare < 0:
        raise ValueError("more hidden cards in hands than unseen cards")
    # The undealt pile takes any suit.
    room.append(spare)
    allowed.append(_ALL_SUITS)
    cards = list(unseen)
    rng.shuffle(cards)
    constrained = any(mask != _ALL_SUITS for mask in allowed)
    need = [0] * len(SUITS)
    # For each of _SUBSETS, the holders that may take one of its suits (fixed for the deal).
    takers = [tuple(h for h, mask in enumerate(allowed) if mask & subset) for subset in _SUBSETS]
    if constrained:
        for card in cards:
            need[SUITS.index(CARD_SUIT[card])] += 1
    hands: list[list[str]] = [[] for _ in holders]
    for card in cards:
        suit = _SUIT_BIT[CARD_SUIT[card]]
        options = [h for h, mask in enumerate(allowed) if mask & suit and room[h]]
        if constrained:
            need[SUITS.index(CARD_SUIT[card])] -= 1
        while True:
            weights = [room[h] for h in options]
            holder = rng.choices(options, weights)[0] if len(options) > 1 else options[0]
            room[holder] -= 1
            if not constrained or len(options) == 1 or _placeable(need, room, takers):
                break
            room[holder] += 1
            options.remove(holder)
        if holder < len(holders):
            hands[holder].append(card)
    return dict(zip(holders, hands, strict=True))


def _placeable(need: Sequence[int], room: Sequence[int], takers: Sequence[Sequence[int]]) -> bool:
    """Hall's condition: every set of suits fits in the room of the holders that take any of
    them. `need[i]` counts the cards of SUITS[i] still to place; `takers[k]`, the holders that
    take a suit of _SUBSETS[k]."""
    for suits, holders in zip(_SUBSET_SUITS, takers, strict=True):
        cards = 0
        for i in suits:
            cards += need[i]
        if cards:
            fits = 0
            for h in holders:
                fits += room[h]
            if cards > fits:
                return False
    return True
