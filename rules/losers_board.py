"""Rights of Losers: cards, the field, the chip lattice and the final judgement.

RULES.md R-1 (cards), R-2 (the 5x5 field), R-3 (the 9x9 chip lattice), R-6 (who gets each
card) and R-7 (scores and the winner). Cells and spots are handled as flat indexes here:
cell `[r, c]` is `r * 5 + c`, spot `[y, x]` is `y * 9 + x`; cell `[r, c]` sits on spot
`[2r, 2c]`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import starmap
from typing import Any

from rules.base import InvalidSetup
from rules.losers_quick import quick_init

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


# R-6 compares the players chipped around a card by (chips around it, chips on it, edge chips).
# That key is packed into one integer, count * 32 + on * 8 + edges (on <= 1, edges <= 4), so that
# comparing integers compares the keys in that order; and as the parts never carry into each
# other, the key is a sum over the player's chips of what each adds: 32, plus 8 on the card or 1
# on an edge (INFLUENCE_WEIGHT).
INFLUENCE_WEIGHT = {ON: 32 + 8, EDGE: 32 + 1, CORNER: 32}
# WEIGHED[cell]: (spot, weight) of every spot touching the card on that cell.
WEIGHED = tuple(
    tuple((spot, INFLUENCE_WEIGHT[influence]) for spot, influence in TOUCHING[cell])
    for cell in CELLS_RANGE
)
# WEIGHING[spot]: (cell, weight) of every cell whose card that spot touches.
WEIGHING = tuple(
    tuple((cell, weight) for cell in CELLS_RANGE for s, weight in WEIGHED[cell] if s == spot)
    for spot in range(LATTICE * LATTICE)
)


def verdict(best: int, second: int, owner: str | None) -> tuple[str | None, str]:
    """R-6 from the two best keys around a card (0: nobody) and the owner of the best: only the
    best key counts, so the tie-breaks compare the players tied for most chips only."""
    if not best:
        return None, NO_CHIPS
    if not second:
        return owner, MOST
    if best == second:
        return None, TIE
    if best >> 5 != second >> 5:
        return owner, MOST
    return owner, ON_CARD if best & 8 != second & 8 else EDGES


def judge_card(cell: int, chips: Mapping[int, str]) -> tuple[str | None, str]:
    """R-6 for the card on `cell`: (owner or None, what decided it); see `verdict`."""
    keys: dict[str, int] = {}
    for spot, weight in WEIGHED[cell]:
        player = chips.get(spot)
        if player is not None:
            keys[player] = keys.get(player, 0) + weight
    best = second = 0
    owner: str | None = None
    for player, key in keys.items():
        if key > best:
            best, second, owner = key, best, player
        elif key > second:
            second = key
    return verdict(best, second, owner)


# LANES[spot]: the weights of a chip on that spot for every cell, cell i's in bits 16i..16i+15
# (a key stays below 301: 9 spots touch a card), and how to read the cells' keys back.
LANES = tuple(
    sum(weight << (16 * cell) for cell, weight in WEIGHING[spot]) for spot in range(len(WEIGHING))
)
LANE_BYTES = 2 * len(CELLS)
UNPACK_LANES = struct.Struct(f"<{len(CELLS)}H").unpack

# A card's judgement as plain values, the fields of its `CardOwner`: (cell, card, owner, by).
Judged = tuple[tuple[int, int], str, str | None, str]


def judgements(field: Sequence[str | None], chips: Mapping[int, str]) -> list[Judged]:
    """R-6 for every card on the field, in row-major order of their cells, as plain tuples (a
    playout's final tally needs no `CardOwner` objects, which cost more to make than to judge).

    Each player's keys for all the cells are summed chip by chip first, each cell's key in its
    own 16 bits of one integer (`LANES`): a chip adds to every card it touches in one addition.
    Then each card compares the players' keys."""
    summed: dict[str, int] = {}
    get = summed.get
    for spot, player in chips.items():
        summed[player] = get(player, 0) + LANES[spot]
    players = [
        (player, UNPACK_LANES(lanes.to_bytes(LANE_BYTES, "little")))
        for player, lanes in summed.items()
    ]
    judged: list[Judged] = []
    for cell, card in enumerate(field):
        if card is not None:
            best = second = 0
            owner: str | None = None
            for player, keys in players:
                key = keys[cell]
                if key > best:
                    best, second, owner = key, best, player
                elif key > second:
                    second = key
            # A card around which one player alone has chips is theirs: no need to ask `verdict`.
            if second:
                owner, by = verdict(best, second, owner)
            else:
                by = MOST if best else NO_CHIPS
            judged.append((CELLS[cell], card, owner, by))
    return judged


def judge_field(field: Sequence[str | None], chips: Mapping[int, str]) -> list[CardOwner]:
    """R-6 for every card on the field, in row-major order of their cells."""
    return list(starmap(CardOwner, judgements(field, chips)))


# -- scores and the winner ------------------------------------------------------------------


def land_counts(players: Sequence[str], owners: Sequence[CardOwner]) -> dict[str, int]:
    """The land-for-sale cards each player gets."""
    return scores_and_land(players, owners)[1]


def final_scores(players: Sequence[str], owners: Sequence[CardOwner]) -> dict[str, int]:
    """R-7: building numbers, plus 10 to every player with the most land cards (at least 1)."""
    return scores_and_land(players, owners)[0]


def scores_and_land(
    players: Sequence[str], owners: Iterable[CardOwner]
) -> tuple[dict[str, int], dict[str, int]]:
    """`final_scores` and `land_counts` at once (one pass over the cards)."""
    return tally(players, ((owned.cell, owned.card, owned.owner, owned.by) for owned in owners))


def tally(
    players: Sequence[str], judged: Iterable[Judged]
) -> tuple[dict[str, int], dict[str, int]]:
    """R-7 from the cards' `judgements`: each player's points, and land cards."""
    scores = dict.fromkeys(players, 0)
    land = dict.fromkeys(players, 0)
    for _, card, owner, _ in judged:
        if owner is not None:
            if card == LAND:
                land[owner] += 1
            else:
                scores[owner] += CARD_NUMBER[card]
    add_land_bonus(scores, land)
    return scores, land


def add_land_bonus(scores: dict[str, int], land: Mapping[str, int]) -> None:
    """R-7: 10 more to every player who has the most land cards, if that is at least 1."""
    most = max(land.values())
    if most >= 1:
        for player, count in land.items():
            if count == most:
                scores[player] += LAND_BONUS


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
    players: Sequence[str],
    scores: Mapping[str, int],
    chips_left: Mapping[str, int],
    ranking: Sequence[Sequence[str]] | None = None,
) -> str | None:
    """R-7 for a tie on points: "chips" when the fewest unplaced chips made one winner,
    "shared" when the win is shared; None when the points alone decided. `ranking`: the
    players' `rank`, if it is known already."""
    points = [scores[p] for p in players]
    if points.count(max(points)) < 2:
        return None
    if ranking is None:
        ranking = rank(players, scores, chips_left)
    return "shared" if len(ranking[0]) > 1 else "chips"
