"""`Random.choice`'s draw without its two Python calls, for random playouts.

A random playout draws once per play, and `rng.choice(legal)` spends more on its calls (`choice`,
then `_randbelow`) than on the draw itself. `draw_below` makes the same draw from the same
generator state: CPython draws `getrandbits(n.bit_length())` until below n. That is an
implementation detail, so `draws_like_choice` checks it once against `Random.choice`; if a Python
ever draws otherwise, the caller keeps `rng.choice` and every seeded log stays as it was.
"""

from __future__ import annotations

import random


def draw_below(rng: random.Random, n: int) -> int:
    """An index in range(n), exactly as `rng.choice` of a sequence of length n draws it (n > 0)."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def draws_like_choice() -> bool:
    """Whether `draw_below` consumes and returns exactly what `Random.choice` does, here."""
    ours, theirs = random.Random(20240601), random.Random(20240601)
    for n in (1, 2, 3, 4, 5, 6, 7, 8) * 64:
        if draw_below(ours, n) != theirs.choice(range(n)):
            return False
    return ours.getstate() == theirs.getstate()


# The generator class whose draws `draw_below` and the tables built on it (a game's `draw_table`,
# `rules.agents.random_action`) copy; None when this Python draws otherwise: then every caller
# keeps `rng.choice`, and every seeded log stays as it was.
CHOICE_RANDOM: type[random.Random] | None = random.Random if draws_like_choice() else None
