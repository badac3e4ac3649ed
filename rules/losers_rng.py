"""Rights of Losers: random draws exactly as `random.Random` makes them, without its calls.

G-1: a seed must replay the same random game (`rules.random_play.random_match`), so a random
action must take the very draws it always took: `rng.shuffle` for the deck, `rng.choice`,
`rng.sample(..., 2)` and `rng.randrange` for actions. In CPython all of them come down to
`Random._randbelow`, which draws `getrandbits(n.bit_length())` until the result is below n;
a playout spends more on those Python calls (`choice`, then `_randbelow`) than on the bits.

`COPIED_RANDOM` is `random.Random` when a check at import finds the copies below drawing exactly
as this Python's `random` does, else None; the copies are used only for an RNG of exactly that
class (a subclass may draw otherwise), and callers ask the RNG's own methods in every other case.
The hottest callers inline `below` (a call costs as much as the draw): they read `WIDTH`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
Bits = Callable[[int], int]  # `random.Random.getrandbits`

# `sample(items, 2)` draws from a pool (copied by `two_below`) for up to this many items, else
# by a set.
POOLED = 21
# WIDTH[n]: how many bits `_randbelow(n)` draws at a time (n.bit_length(), as a table lookup).
WIDTH = tuple(n.bit_length() for n in range(128))
_WIDEST = len(WIDTH)


# The swaps of `shuffle`, last position first: (position, how many positions it may swap with,
# the bits `_randbelow` draws for that many). n items take the last n - 1 of them.
_SWAPS = tuple((i, i + 1, WIDTH[i + 1]) for i in range(len(WIDTH) - 2, 0, -1))


def below(rng: random.Random, n: int) -> int:
    """An index in range(n) (n > 0), as `rng.randrange(n)` or `rng.choice` of n items draws it,
    for an exact `random.Random`."""
    bits = rng.getrandbits
    width = n.bit_length()
    j = bits(width)
    while j >= n:
        j = bits(width)
    return j


def pick(rng: random.Random, bits: Bits | None, items: Sequence[T]) -> T:
    """`rng.choice(items)`: drawn here through `bits`, the RNG's own `getrandbits`, when its draws
    may be copied (`random_action` and playouts hand it over), else (None) by the RNG."""
    n = len(items)
    if bits is not None and 0 < n < _WIDEST:
        width = WIDTH[n]
        j = bits(width)
        while j >= n:
            j = bits(width)
        return items[j]
    return rng.choice(items)


def two_below(rng: random.Random, n: int) -> tuple[int, int]:
    """The indexes of the items `rng.sample(items, 2)` picks among n items (2 <= n <= 21), for an
    exact `random.Random`."""
    bits = rng.getrandbits
    width = WIDTH[n]
    i = bits(width)
    while i >= n:
        i = bits(width)
    # `sample` keeps a pool: the second pick is among the others, the last item standing in
    # for the first pick.
    rest = n - 1
    width = WIDTH[rest]
    j = bits(width)
    while j >= rest:
        j = bits(width)
    return i, rest if j == i else j


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """A copy of `items` shuffled exactly as `rng.shuffle` shuffles it."""
    if type(rng) is COPIED_RANDOM and 0 < len(items) < len(WIDTH):
        return _copied_shuffle(rng, items)
    deck = list(items)
    rng.shuffle(deck)
    return deck


def pair(rng: random.Random, items: Sequence[T]) -> tuple[T, T]:
    """`rng.sample(items, 2)` as a tuple."""
    if type(rng) is COPIED_RANDOM and 2 <= len(items) <= POOLED:
        return _copied_pair(rng, items)
    first, second = rng.sample(items, 2)
    return first, second


def _copied_shuffle(rng: random.Random, items: Sequence[T]) -> list[T]:
    deck = list(items)
    bits = rng.getrandbits
    for i, bound, width in _SWAPS[len(_SWAPS) + 1 - len(deck) :]:
        j = bits(width)
        while j >= bound:
            j = bits(width)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _copied_pair(rng: random.Random, items: Sequence[T]) -> tuple[T, T]:
    i, j = two_below(rng, len(items))
    return items[i], items[j]


def _copies_draw_as_random() -> bool:
    """Whether the copies above draw exactly what `random.Random`'s methods draw here."""
    ours, theirs = random.Random(2024), random.Random(2024)
    for _ in range(64):
        deck = list(range(50))
        theirs.shuffle(deck)
        if _copied_shuffle(ours, range(50)) != deck:
            return False
        for n in (1, 2, 3, 5, 8, 17, 20, 21, 100):
            if below(ours, n) != theirs.randrange(n) or below(ours, n) != theirs.choice(range(n)):
                return False
            items = list(range(max(2, min(n, 21))))
            if list(_copied_pair(ours, items)) != theirs.sample(items, 2):
                return False
    return ours.getstate() == theirs.getstate()


COPIED_RANDOM: type[random.Random] | None = random.Random if _copies_draw_as_random() else None
