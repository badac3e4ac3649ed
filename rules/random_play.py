"""Random legal play, for property tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from rules.agents import random_action
from rules.base import AnyGame
from rules.log import new_header, start


def random_match(
    game: str, players: list[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[AnyGame, dict[str, Any]]:
    """Play a whole game with uniformly random legal actions; returns the state and its log."""
    rng = random.Random(seed)
    log = new_header(game, players, options, seed=rng.randrange(2**32))
    state = start(log)
    actions = log["actions"]
    while (nxt := state.next()) is not None:
        action = random_action(state, nxt.player, rng)
        state.apply(nxt.player, action)
        actions.append({"player": nxt.player, **action.to_json()})
    return state, log
