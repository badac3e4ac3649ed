"""Readable names for the cells and chip spots of the Rights of Losers field.

Cell `[r, c]` is named by its column letter and row number, as on the field picture: `[0, 0]` is
"A1", `[2, 3]` is "D3". A lattice spot `[y, x]` (RULES.md R-3) is named by the cells it touches
first: "card B3" (on a card), "edge B3|B4" (between two cells, in reading order), "corner B3/C4"
(where four cells meet: the top-left and the bottom-right one). Only the word before the cells is
language-dependent; callers pass their own words (`words={"card": ..., "edge": ..., "corner":
...}`), and `parse_spot` reads a name with or without that word, so the cell part alone
(`spot_code`) makes a language-free select-menu value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

COLUMNS = "ABCDE"
GRID = 5
LATTICE = 2 * GRID - 1
ENGLISH_WORDS: Mapping[str, str] = {"card": "card", "edge": "edge", "corner": "corner"}
MENU_LIMIT = 25  # Discord: options in one select menu

Coord = tuple[int, int]

_CELL = re.compile(r"([A-Ea-e])([1-5])")
_CODE = re.compile(r"^([A-Ea-e][1-5])(?:([|/])([A-Ea-e][1-5]))?$")


def cell_name(cell: Sequence[int]) -> str:
    """The name of the cell `[r, c]`, "A1" to "E5"."""
    r, c = _checked(cell, GRID)
    return f"{COLUMNS[c]}{r + 1}"


def parse_cell(text: str) -> Coord:
    """The cell `(r, c)` named by "A1".."E5" (any case, spaces ignored); ValueError otherwise."""
    match = _CELL.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not a cell name: {text!r}")
    return int(match.group(2)) - 1, COLUMNS.index(match.group(1).upper())


def spot_kind(spot: Sequence[int]) -> str:
    """Where the spot `[y, x]` lies on the field: "card", "edge" or "corner"."""
    y, x = _checked(spot, LATTICE)
    return ("card", "edge", "corner")[y % 2 + x % 2]


def spot_cells(spot: Sequence[int]) -> tuple[Coord, ...]:
    """The cells named in the spot's name: one (card), two (edge) or two (corner: TL and BR)."""
    y, x = _checked(spot, LATTICE)
    top, left = y // 2, x // 2
    if y % 2 == 0 and x % 2 == 0:
        return ((top, left),)
    return ((top, left), ((y + 1) // 2, (x + 1) // 2))


def spot_code(spot: Sequence[int]) -> str:
    """The cell part of a spot's name, without any word: "B3", "B3|B4", "B3/C4"."""
    kind = spot_kind(spot)
    names = [cell_name(cell) for cell in spot_cells(spot)]
    if kind == "card":
        return names[0]
    return ("|" if kind == "edge" else "/").join(names)


def spot_name(spot: Sequence[int], words: Mapping[str, str] | None = None) -> str:
    """The spot's name, e.g. "card B3", "edge B3|B4", "corner B3/C4" (words default English)."""
    word = (words or ENGLISH_WORDS)[spot_kind(spot)]
    return f"{word} {spot_code(spot)}"


def parse_spot(text: str, words: Mapping[str, str] | None = None) -> Coord:
    """The spot `(y, x)` of a name made by `spot_name` (with these words) or `spot_code`.

    The word, when present, must be the one for the kind of spot the cells describe.
    """
    if not isinstance(text, str):
        raise ValueError(f"not a spot name: {text!r}")
    parts = text.strip().rsplit(None, 1)
    word = parts[0].strip().casefold() if len(parts) == 2 else None
    match = _CODE.match(parts[-1]) if parts else None
    if match is None:
        raise ValueError(f"not a spot name: {text!r}")
    first = parse_cell(match.group(1))
    if match.group(2) is None:
        spot, kind = (2 * first[0], 2 * first[1]), "card"
    else:
        second = parse_cell(match.group(3))
        dr, dc = second[0] - first[0], second[1] - first[1]
        if match.group(2) == "|" and (dr, dc) in ((0, 1), (1, 0)):
            spot, kind = (first[0] + second[0], first[1] + second[1]), "edge"
        elif match.group(2) == "/" and (dr, dc) == (1, 1):
            spot, kind = (2 * first[0] + 1, 2 * first[1] + 1), "corner"
        else:
            raise ValueError(f"not a spot name: {text!r}")
    if word is not None and word != (words or ENGLISH_WORDS)[kind].casefold():
        raise ValueError(f"not a spot name: {text!r}")
    return spot


def chunk_options(
    spots: Iterable[Sequence[int]], size: int = MENU_LIMIT
) -> list[tuple[str, list[Coord]]]:
    """Split spots into select-menu groups of at most `size` (reading order, even sizes).

    Each group comes with its range label, e.g. "A1-B5": from the first cell of its first spot
    to the last cell of its last spot (a single cell: just "C3").
    """
    if size < 1:
        raise ValueError("size must be at least 1")
    ordered = sorted({_checked(spot, LATTICE) for spot in spots})
    if not ordered:
        return []
    count = math.ceil(len(ordered) / size)
    base, extra = divmod(len(ordered), count)
    groups: list[tuple[str, list[Coord]]] = []
    start = 0
    for index in range(count):
        end = start + base + (1 if index < extra else 0)
        group = ordered[start:end]
        first = cell_name(spot_cells(group[0])[0])
        last = cell_name(spot_cells(group[-1])[-1])
        groups.append((first if first == last else f"{first}-{last}", group))
        start = end
    return groups


def _checked(pair: Sequence[int], size: int) -> Coord:
    if (
        not isinstance(pair, tuple | list)
        or len(pair) != 2
        or not all(type(v) is int and 0 <= v < size for v in pair)
    ):
        raise ValueError(f"not a coordinate from 0 to {size - 1}: {pair!r}")
    return pair[0], pair[1]
