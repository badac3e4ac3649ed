"""Chip spots grouped for select menus: by the card they touch, the spots next to the player's
own chips first.

A spot touches one to four cards (R-3); it is filed under the first card it touches in reading
order (the first cell with a card, else the first cell), so a card's spots sit together in one
menu. "Next to my chips" are the free spots touching a card that one of the player's chips
already touches: where a chip adds to the player's own count. Language-free: the labels are
card ranges ("B3", "A1-C2"); `bot.losers.menus` words them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from bot.losers.names import MENU_LIMIT, cell_name
from rules.losers_board import CELLS, TOUCHED_BY, spot_index

Coord = tuple[int, int]
CardOf = Callable[[Coord], int]


@dataclass(frozen=True)
class SpotMenu:
    mine: bool  # every spot is next to the player's chips
    cards: str  # the cards the spots touch: "B3" or "A1-C2"
    spots: tuple[Coord, ...]


def touched(spot: Coord) -> tuple[int, ...]:
    index = spot_index(spot)
    assert index is not None, spot
    return TOUCHED_BY[index]


def spot_menus(
    spots: Iterable[Sequence[int]],
    field: Sequence[str | None],
    chips: Iterable[tuple[Coord, str]],
    player: str,
    most: int,
    limit: int = MENU_LIMIT,
) -> list[SpotMenu]:
    """At most `most` menus of at most `limit` spots: next to the player's chips first, then the
    rest, each by card; when that takes too many menus, the same order cut evenly."""

    def card_of(spot: Coord) -> int:
        cells = touched(spot)
        return next((cell for cell in cells if field[cell] is not None), cells[0])

    backed = {cell for at, owner in chips if owner == player for cell in touched(at) if field[cell]}
    ordered = sorted({(s[0], s[1]) for s in spots}, key=lambda s: (card_of(s), s))
    near = [s for s in ordered if backed.intersection(touched(s))]
    rest = [s for s in ordered if s not in near]
    menus = _by_card(near, True, card_of, limit) + _by_card(rest, False, card_of, limit)
    if len(menus) <= most:
        return menus
    return _even(near + rest, len(near), card_of, limit)


def _menu(spots: list[Coord], mine: bool, card_of: CardOf) -> SpotMenu:
    first, last = cell_name(CELLS[card_of(spots[0])]), cell_name(CELLS[card_of(spots[-1])])
    return SpotMenu(mine, first if first == last else f"{first}-{last}", tuple(spots))


def _by_card(spots: list[Coord], mine: bool, card_of: CardOf, limit: int) -> list[SpotMenu]:
    """Whole cards per menu (a card has at most 9 spots), as many as fit in `limit`."""
    chunks: list[list[Coord]] = []
    for _, same_card in groupby(spots, key=card_of):
        group = list(same_card)
        if chunks and len(chunks[-1]) + len(group) <= limit:
            chunks[-1].extend(group)
        else:
            chunks.append(group)
    return [_menu(chunk, mine, card_of) for chunk in chunks]


def _even(spots: list[Coord], mine: int, card_of: CardOf, limit: int) -> list[SpotMenu]:
    count = math.ceil(len(spots) / limit)
    size = math.ceil(len(spots) / count) if count else 0
    chunks = [spots[i : i + size] for i in range(0, len(spots), size)] if size else []
    menus: list[SpotMenu] = []
    start = 0
    for chunk in chunks:
        menus.append(_menu(chunk, start + len(chunk) <= mine, card_of))
        start += len(chunk)
    return menus
