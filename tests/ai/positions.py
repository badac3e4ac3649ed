"""Random positions of every game, for the computer players' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules.agents import random_action
from rules.base import AnyGame
from rules.log import new_header, start

GAME_NAMES = ("kamiza", "kobayakawa", "rights-of-losers")


def random_positions(
    game: str, count: int, seed: int, options: dict[str, object] | None = None
) -> Iterator[tuple[AnyGame, str]]:
    """`count` positions (state, player to act) reached by random play from seeded games; in
    Kobayakawa some draw turns have looked at the drawn card (B-3). In a step of choices made
    at the same time (the house rule `simultaneous`), any of those still to choose acts."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        players = [f"p{i}" for i in range(rng.choice((3, 4)))]
        state = start(new_header(game, players, options, seed=rng.randrange(2**32)))
        steps = rng.randrange(120)
        while (nxt := state.next()) is not None and steps > 0:
            state.apply(nxt.player, random_action(state, nxt.player, rng))
            steps -= 1
        if nxt is None:
            continue
        looks = getattr(state, "look", None)
        if looks is not None and nxt.expects == "draw" and rng.random() < 0.4:
            looks(nxt.player)
        yield state, rng.choice(nxt.players) if nxt.players else nxt.player
        made += 1
