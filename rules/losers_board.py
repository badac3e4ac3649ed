"""Rights of Losers: cards, the field, the chip lattice and the final judgement.

RULES.md R-1 (cards), R-2 (the 5x5 field), R-3 (the 9x9 chip lattice), R-6 (who gets each
card) and R-7 (scores and the winner). Cells and spots are handled as flat indexes here:
cell `[r, c]` is `r * 5 + c`, spot `[y, x]` is `y * 9 + x`; cell `[r, c]` sits on spot
`[2r, 2c]`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.base import InvalidSetup
from rules.losers_quick import quick_init

# -- cards and chips ------------------------------------------------------------------------

SUITS = ("red", "yellow", "green", "blue", "purple")
CARD_IDS = tuple(f"{suit}-{number}" for suit in SUITS for number in range(1, 11))
CARD_SUIT = {card: card.rsplit("-", 1)[0] for card in CARD_IDS}
CARD_NUMBER = {card: int(card.rsplit("-", 1)[1]) for card in CARD_IDS}
# Display order of a hand: by suit, then number.
CARD_ORDER = {card: i for i, card in enumerate(CARD_IDS)}
HAND_SIZE = 10
CHIPS_PER_PLAYER = 10
TRICKS = 10
CARDS_BUILT_PER_TRICK = 2
LAND_BONUS = 10


def check_hands(players: Sequence[str], hands: Any) -> dict[str, list[str]]:
    """R-1: a deal of 10 distinct card ids to exactly the players, no card dealt twice."""
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
# TOUCHED_BY[spot]: the cells whose card that spot touches.
TOUCHED_BY = tuple(
    tuple(cell for cell in range(GRID * GRID) if any(s == spot for s, _ in TOUCHING[cell]))
    for spot in range(LATTICE * LATTICE)
)

# -- who gets each card ---------------------------------------------------------------------

MOST = "most"
ON_CARD = "on_card"
EDGES = "edge"
TIE = "tie"
NO_CHIPS = "no_chips"


@quick_init
@dataclass(frozen=True, slots=True)
class CardOwner:
    """The judgement of one card (R-6): `by` says what decided it (`most`, `on_card`, `edge`),
    or why nobody gets it (`tie`, `no_chips`)."""

    cell: tuple[int, int]
    card: str
    owner: str | None
    by: str

    def to_json(self) -> dict[str, object]:
        return {"cell": list(self.cell), "card": self.card, "owner": self.owner, "by": self.by}


# Bitmask tables over the 81 spots, so that judging a card is a few integer operations.
SPOT_BIT = tuple(1 << spot for spot in range(LATTICE * LATTICE))
TOUCH_MASK = tuple(sum(SPOT_BIT[s] for s, _ in TOUCHING[cell]) for cell in range(GRID * GRID))
ON_MASK = tuple(sum(SPOT_BIT[s] for s, i in TOUCHING[cell] if i == ON) for cell in CELLS_RANGE)
EDGE_MASK = tuple(sum(SPOT_BIT[s] for s, i in TOUCHING[cell] if i == EDGE) for cell in CELLS_RANGE)


def chip_masks(chips: Mapping[int, str]) -> dict[str, int]:
    """Each player's chips as one bitmask over the spots (only players with a chip down)."""
    masks: dict[str, int] = {}
    for spot, player in chips.items():
        masks[player] = masks.get(player, 0) | SPOT_BIT[spot]
    return masks


def judge_masked(cell: int, masks: Mapping[str, int]) -> tuple[str | None, str]:
    """R-6 for the card on `cell`, the chips given as `chip_masks`.

    Players are compared by (chips on the touching spots, chips on the card, edge chips); only
    the best key counts, so the tie-breaks compare the players tied for most chips only. The key
    is packed into one integer, count * 32 + on * 8 + edges (on <= 1, edges <= 4), so that
    comparing integers compares the keys in that order.
    """
    touch, on, edge = TOUCH_MASK[cell], ON_MASK[cell], EDGE_MASK[cell]
    best = second = -1
    owner: str | None = None
    for player, mask in masks.items():
        here = mask & touch
        if not here:
            continue
        key = here.bit_count() * 32 + (8 if mask & on else 0) + (mask & edge).bit_count()
        if key > best:
            best, second, owner = key, best, player
        elif key > second:
            second = key
    if owner is None:
        return None, NO_CHIPS
    if second < 0:
        return owner, MOST
    if best == second:
        return None, TIE
    if best >> 5 != second >> 5:
        return owner, MOST
    return owner, ON_CARD if best & 8 != second & 8 else EDGES


def judge_card(cell: int, chips: Mapping[int, str]) -> tuple[str | None, str]:
    """R-6 for the card on `cell`: (owner or None, what decided it); see `judge_masked`."""
    masks: dict[str, int] = {}
    for spot, _ in TOUCHING[cell]:
        player = chips.get(spot)
        if player is not None:
            masks[player] = masks.get(player, 0) | SPOT_BIT[spot]
    return judge_masked(cell, masks)


def judge_field(field: Sequence[str | None], chips: Mapping[int, str]) -> list[CardOwner]:
    """R-6 for every card on the field, in row-major order of their cells."""
    masks = chip_masks(chips)
    owners = []
    for cell, card in enumerate(field):
        if card is not None:
            owner, by = judge_masked(cell, masks)
            owners.append(CardOwner(CELLS[cell], card, owner, by))
    return owners


# -- scores and the winner ------------------------------------------------------------------


def land_counts(players: Sequence[str], owners: Sequence[CardOwner]) -> dict[str, int]:
    """The land-for-sale cards each player gets."""
    land = dict.fromkeys(players, 0)
    for judged in owners:
        if judged.card == LAND and judged.owner is not None:
            land[judged.owner] += 1
    return land


def final_scores(players: Sequence[str], owners: Sequence[CardOwner]) -> dict[str, int]:
    """R-7: building numbers, plus 10 to every player with the most land cards (at least 1)."""
    scores = dict.fromkeys(players, 0)
    for judged in owners:
        if judged.card != LAND and judged.owner is not None:
            scores[judged.owner] += CARD_NUMBER[judged.card]
    land = land_counts(players, owners)
    most = max(land.values())
    if most >= 1:
        for player, count in land.items():
            if count == most:
                scores[player] += LAND_BONUS
    return scores


def rank(
    players: Sequence[str], scores: Mapping[str, int], chips_left: Mapping[str, int]
) -> list[list[str]]:
    """R-7: best first by points, then fewest unplaced chips; equal keys share a group."""
    groups: list[list[str]] = []
    last: tuple[int, int] | None = None
    for player in sorted(players, key=lambda p: (-scores[p], chips_left[p])):
        key = (-scores[player], chips_left[player])
        if groups and key == last:
            groups[-1].append(player)
        else:
            groups.append([player])
        last = key
    return groups


def tie_break(
    players: Sequence[str], scores: Mapping[str, int], chips_left: Mapping[str, int]
) -> str | None:
    """R-7 for a tie on points: "chips" when the fewest unplaced chips made one winner,
    "shared" when the win is shared; None when the points alone decided."""
    best = max(scores.values())
    if sum(1 for p in players if scores[p] == best) < 2:
        return None
    return "shared" if len(rank(players, scores, chips_left)[0]) > 1 else "chips"
