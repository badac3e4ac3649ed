"""Rights of Losers: who gets each card (RULES.md R-6), then scores and the winner (R-7).

The field's cells and the lattice's spots are `rules.losers_board`'s flat indexes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import starmap

from rules.losers_board import (
    CARD_NUMBER,
    CELLS,
    CELLS_RANGE,
    CORNER,
    EDGE,
    LAND,
    LAND_BONUS,
    LATTICE,
    ON,
    TOUCHING,
)
from rules.losers_quick import quick_init

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
