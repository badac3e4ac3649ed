"""A check shared by the games with the house rule of choices made at once (RULES.md H-1, H-2):
a choice changes no one else's view but the mark that the chooser has chosen."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from rules.agents import random_action


def unmarked(seen: Any) -> Any:
    """An observation without the marks a choice may change: who chose, who waits."""
    return dataclasses.replace(seen, chosen=(), waiting_for=(), to_act=None)


def assert_a_choice_shows_only_its_mark(
    game: Any, players: Sequence[str], rng: random.Random, depth: int
) -> None:
    """Play `depth` random actions at most, then, if a step awaits two or more, have one of
    them choose: every other view is unchanged but for the marks."""
    for _ in range(depth):
        nxt = game.next()
        if nxt is None:
            return
        game.apply(nxt.player, random_action(game, nxt.player, rng))
    nxt = game.next()
    if nxt is None or len(nxt.players) < 2:
        return
    player = rng.choice(nxt.players)
    before = {v: game.observation(v) for v in (None, *players) if v != player}
    game.apply(player, random_action(game, player, rng))
    for viewer, seen in before.items():
        assert unmarked(game.observation(viewer)) == unmarked(seen), viewer
