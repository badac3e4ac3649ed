"""A few seconds' memory of what every page asks again: whether a server is on the web, a
season's ranked board. A change (a server turned off, a member hidden, a finished game) shows
within `SECONDS`; in exchange a busy site reads each board once per period, not per request."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
SECONDS = 5.0


class Fresh(Generic[T]):
    """Values by key, each kept `seconds` after it was read; the oldest go past `size`."""

    def __init__(self, seconds: float = SECONDS, size: int = 1024) -> None:
        self._seconds, self._size = seconds, size
        self._kept: OrderedDict[Hashable, tuple[float, T]] = OrderedDict()

    async def get(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        now = time.monotonic()
        kept = self._kept.get(key)
        if kept is not None and now - kept[0] < self._seconds:
            return kept[1]
        value = await read()
        self._kept[key] = (now, value)
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return value
