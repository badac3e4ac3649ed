"""Events to JSON (`rules.plain`) give exactly what `dataclasses.asdict` gives, faster."""

from __future__ import annotations

import dataclasses

import pytest

from rules.log import apply_entry, start
from rules.plain import plain
from rules.random_play import random_match


@pytest.mark.parametrize("game", ["kamiza", "kobayakawa", "rights-of-losers"])
def test_every_event_of_random_games_is_its_asdict(game: str) -> None:
    compared = 0
    for seed in range(6):
        _, log = random_match(game, ["ann", "ben", "cho", "dev"], seed)
        state = start(log)
        for entry in log["actions"]:
            for event in apply_entry(state, entry):
                assert repr(plain(event)) == repr(dataclasses.asdict(event)), event
                compared += 1
    assert compared > 100
