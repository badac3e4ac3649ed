"""Rights of Losers: cards, the field and the chip lattice.

RULES.md R-1 (cards), R-2 (the 5x5 field) and R-3 (the 9x9 chip lattice); who gets each card
and the scores (R-6, R-7) are `rules.losers_judgement`'s. Cells and spots are flat indexes here:
cell `[r, c]` is `r * 5 + c`, spot `[y, x]` is `y * 9 + x`; cell `[r, c]` sits on spot
`[2r, 2c]`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import InvalidSetup

# -- cards and chips ------------------------------------------------------------------------

SUITS = ("red", "yellow", "green", "blue", "purple")
CARD_IDS = tuple(f"{suit}-{number}" for suit in SUITS for number in range(1, 11))
CARD_SUIT = {card: card.rsplit("-", 1)[0] for card in CARD_IDS}
CARD_NUMBER = {card: int(card.rsplit("-", 1)[1]) for card in CARD_IDS}
# OF_SUIT_OF[card](other): whether `other` is of the suit of `card` (for `filter`).
OF_SUIT_OF = {
    card: frozenset(other for other in CARD_IDS if CARD_SUIT[other] == CARD_SUIT[card]).__contains__
    for card in CARD_IDS
}
# Display order of a hand: by suit, then number.
CARD_ORDER = {card: i for i, card in enumerate(CARD_IDS)}
HAND_SIZE = 10
CHIPS_PER_PLAYER = 10
TRICKS = 10
CARDS_BUILT_PER_TRICK = 2
LAND_BONUS = 10


def check_hands(players: Sequence[str], hands: Any) -> Mapping[str, Sequence[str]]:
    """R-1: a deal of 10 distinct card ids to exactly the players, no card dealt twice; returns
    the hands by player (`hands` itself when it is a dict of lists)."""
    if type(hands) is dict and len(hands) == len(players):
        # A setup as JSON or `draw_setup` writes it, checked at once: 10 per player, all the
        # cards distinct card ids. Anything else is left to the checks below, which name it.
        dealt: set[str] = set()
        for player in players:
            hand = hands.get(player)
            if type(hand) is not list or len(hand) != HAND_SIZE:
                break
            try:
                dealt.update(hand)
            except TypeError:  # a list or an object among the cards: not a card id
                break
        else:
            if len(dealt) == HAND_SIZE * len(players) and dealt <= _CARD_SET:
                return hands
    return _checked_hands(players, hands)


def _checked_hands(players: Sequence[str], hands: Any) -> dict[str, list[str]]:
    """`check_hands` for any value, refusing what is wrong with the first error found."""
    if not isinstance(hands, Mapping) or set(hands) != set(players):
        raise InvalidSetup("setup.hands must give a hand to exactly the players (R-1)")
    dealt: set[str] = set()
    for player in players:
        hand = hands[player]
        if not _is_hand(hand):
            raise InvalidSetup(f"setup.hands.{player} must be {HAND_SIZE} distinct card ids (R-1)")
        twice = dealt.intersection(hand)
        if twice:
            raise InvalidSetup(f"card {min(twice)} is dealt twice (R-1)")
        dealt.update(hand)
    return {p: list(hands[p]) for p in players}


_CARD_SET = frozenset(CARD_IDS)


def _is_hand(hand: Any) -> bool:
    """10 distinct card ids, as a JSON list (or a tuple)."""
    if not isinstance(hand, list | tuple) or len(hand) != HAND_SIZE:
        return False
    try:
        cards = set(hand)
    except TypeError:  # a list or an object among the cards: not a card id
        return False
    # Only strings equal card ids (JSON has no other value that could).
    return len(cards) == HAND_SIZE and cards <= _CARD_SET


# -- field and lattice --------------------------------------------------------------

GRID = 5
LATTICE = 2 * GRID - 1
LAND = "land"
LAND_CELLS = ((0, 0), (0, 4), (4, 0), (4, 4), (2, 2))
LAND_INDEXES = frozenset(r * GRID + c for r, c in LAND_CELLS)
CELLS = tuple((r, c) for r in range(GRID) for c in range(GRID))
SPOTS = tuple((y, x) for y in range(LATTICE) for x in range(LATTICE))
BUILDING_INDEXES = tuple(i for i in range(GRID * GRID) if i not in LAND_INDEXES)
CELLS_RANGE = range(GRID * GRID)

# Influence of a spot on a card: on the card, on one of its edges, at one of its corners.
ON, EDGE, CORNER = 0, 1, 2


def cell_index(cell: object) -> int | None:
    """The flat index of a cell `[r, c]`, or None if it is not a cell of the field (R-2)."""
    return _index(cell, GRID)


def spot_index(spot: object) -> int | None:
    """The flat index of a lattice spot `[y, x]`, or None if it is off the lattice (R-3)."""
    return _index(spot, LATTICE)


# The field's and the lattice's own coordinate tuples, by identity: actions made by the rules
# (shared chips and moves, random builds, parsed logs) carry these very tuples, so their index is
# one dictionary lookup. The tuples live as long as CELLS and SPOTS, so an id is never reused.
_CELL_BY_ID = {id(cell): i for i, cell in enumerate(CELLS)}
_SPOT_BY_ID = {id(spot): i for i, spot in enumerate(SPOTS)}


def cell_of(cell: object) -> int | None:
    """`cell_index`, at once for the tuples of CELLS."""
    index = _CELL_BY_ID.get(id(cell))
    return _index(cell, GRID) if index is None else index


def spot_of(spot: object) -> int | None:
    """`spot_index`, at once for the tuples of SPOTS."""
    index = _SPOT_BY_ID.get(id(spot))
    return _index(spot, LATTICE) if index is None else index


def _index(pair: object, size: int) -> int | None:
    if not isinstance(pair, tuple | list) or len(pair) != 2:
        return None
    a, b = pair
    if type(a) is not int or type(b) is not int or not (0 <= a < size and 0 <= b < size):
        return None
    return a * size + b


def _touching(cell: int) -> tuple[tuple[int, int], ...]:
    """(spot, influence) of every lattice spot that touches the card on `cell` (R-3)."""
    r, c = CELLS[cell]
    spots = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            y, x = 2 * r + dy, 2 * c + dx
            if 0 <= y < LATTICE and 0 <= x < LATTICE:
                spots.append((y * LATTICE + x, (dy != 0) + (dx != 0)))
    return tuple(spots)


# TOUCHING[cell]: the spots touching a card on that cell, with their influence.
TOUCHING = tuple(_touching(cell) for cell in range(GRID * GRID))
# AROUND[cell]: the same spots as bits of one number (bit s: spot s).
AROUND = tuple(sum(1 << spot for spot, _ in touching) for touching in TOUCHING)


def touched(field: Sequence[str | None]) -> int:
    """R-3: the spots touching a card on the field, as bits (bit s: spot s)."""
    spots = 0
    for cell, card in enumerate(field):
        if card is not None:
            spots |= AROUND[cell]
    return spots


# TOUCHED_BY[spot]: the cells whose card that spot touches.
TOUCHED_BY = tuple(
    tuple(cell for cell in range(GRID * GRID) if any(s == spot for s, _ in TOUCHING[cell]))
    for spot in range(LATTICE * LATTICE)
)


def chip_masks(players: Sequence[str], chips: Mapping[int, str]) -> dict[str, int]:
    """Each player's chips as one number: bit s set for a chip on spot s."""
    masks = dict.fromkeys(players, 0)
    for spot, player in chips.items():
        masks[player] |= 1 << spot
    return masks


def spots_of(mask: int) -> tuple[int, ...]:
    """The spots of the bits set in `mask`, in order."""
    spots = []
    while mask:
        low = mask & -mask
        spots.append(low.bit_length() - 1)
        mask ^= low
    return tuple(spots)


def nth_spot(mask: int, n: int) -> int:
    """The spot of the (n+1)-th lowest bit set in `mask` (one of `chip_masks`)."""
    for _ in range(n):
        mask &= mask - 1  # the lowest bit off
    return (mask & -mask).bit_length() - 1
