"""Rights of Losers: events with few different values, made once and shared.

Making an event (a Python `__init__` that fills each slot of a frozen dataclass through its
descriptor) costs more than looking it up in a small table, and some events take only a few
values game after game: a trick started (by whom, why, reversed or not), a chip turn skipped, a
pass. They are frozen values compared by value, without mutable parts, so sharing one changes
nothing a caller sees. (Events with many values, a card played in a given trick say, are made
afresh: measured, a lookup in a table that large saves nothing.)
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
