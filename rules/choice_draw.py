"""`Random.choice`'s draw without its two Python calls, for random playouts.

A random playout draws once per play, and `rng.choice(legal)` spends more on its calls (`choice`,
then `_randbelow`) than on the draw itself. `draw_below` makes the same draw from the same
generator state: CPython draws `getrandbits(n.bit_length())` until below n. That is an
implementation detail, so `draws_like_choice` checks it once against `Random.choice`; if a Python
ever draws otherwise, the caller keeps `rng.choice` and every seeded log stays as it was.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


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


class RandomlyPlayed(Protocol):
    """What `random_action` reads of a game (every `rules.base.Game` has it)."""

    @property
    def draws_from_table(self) -> bool: ...

    def legal_actions(self, player: str) -> Sequence[Any]: ...


# Games whose class sets `draws_from_table` keep `draw_table` up to date for the player to act:
# (player, picks, bits), where `picks[rng.getrandbits(bits)]` is the action
# `rng.choice(game.legal_actions(player))` picks from the very same draws (None: draw again), for
# a generator of the class CHOICE_RANDOM (the one checked at import to draw so). A random playout
# draws once per action: read here, the table spares it a call into the game.


def random_action(game: RandomlyPlayed, player: str, rng: random.Random) -> Any:
    """A uniformly random legal action (what the table plays for a player who ran out of time).

    It lives here, beside the draws it copies, so that `rules.base` (the default `playout`) and
    `rules.agents` both use it without importing each other."""
    if type(rng) is CHOICE_RANDOM and game.draws_from_table:
        who, picks, bits = game.draw_table  # type: ignore[attr-defined]  # those games have it
        if who == player:
            action = picks[rng.getrandbits(bits)]
            while action is None:
                action = picks[rng.getrandbits(bits)]
            return action
    chooser = getattr(game, "random_action", None)
    if chooser is not None:
        return chooser(player, rng)
    return rng.choice(game.legal_actions(player))
