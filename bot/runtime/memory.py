"""What a presenter remembers about one table between calls, kept by the table itself.

The runtime owns it: it lives and dies with its table (dropped once the table's last message is
out), so nothing of an ended or set-aside table stays behind in a presenter that serves many
tables. Each fact has a typed `Slot`, declared once by the presenter that keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class Slot(Generic[T]):
    """One kind of fact a presenter keeps per table; `fresh` makes its value for a new table."""

    def __init__(self, name: str, fresh: Callable[[], T]) -> None:
        self.name = name
        self.fresh = fresh

    def __repr__(self) -> str:
        return f"Slot({self.name!r})"


class Memory:
    """A table's presenter facts, by slot."""

    def __init__(self) -> None:
        self._values: dict[Slot[Any], Any] = {}

    def get(self, slot: Slot[T]) -> T:
        """The slot's value, made fresh on first use."""
        if slot not in self._values:
            self._values[slot] = slot.fresh()
        # Only `set` and `fresh`, both typed by the slot, ever store a slot's value.
        return cast(T, self._values[slot])

    def set(self, slot: Slot[T], value: T) -> None:
        self._values[slot] = value

    def clear(self) -> None:
        self._values.clear()

    def __bool__(self) -> bool:
        return bool(self._values)
