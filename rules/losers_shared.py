"""Rights of Losers: values that recur game after game, made once and shared.

A random playout makes some 150 events and judgements, and making one (a Python `__init__` that
fills each slot of a frozen dataclass through its descriptor) costs several dictionary lookups;
yet most of them recur with the same fields in game after game: a player's card in a given
trick, a chip put down with so many chips left, a trick started, a card's owner. They are frozen
values compared by value, without mutable parts, so sharing one changes nothing a caller sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

V = TypeVar("V")

# A table is emptied when it holds this many values: its memory stays bounded whatever player
# names come by, and it fills again with what is being played now.
LIMIT = 1 << 13


class Shared(dict[tuple[Any, ...], V]):
    """`table[fields]`: the value `make(*fields)`, made on the first lookup of those fields."""

    def __init__(self, make: Callable[..., V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, fields: tuple[Any, ...]) -> V:
        if len(self) >= LIMIT:
            self.clear()
        value = self[fields] = self.make(*fields)
        return value
