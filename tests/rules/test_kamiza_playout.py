"""KAMIZA's own `playout`: the step loop's very game in every setup, from every kind of state.

`test_playout.py` checks every game with its default options; KAMIZA's quicker loop also runs the
classic edition's squeals (K-5), the advanced rule's face-up card (K-3) and drop-outs (K-10)
without making events, so here each setup is played through, and from every position of a match:
as it stands, determinized, cloned, and rebuilt from its log.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from kamiza_helpers import SETUPS

from rules.agents import random_action
from rules.kamiza import Kamiza
from rules.log import load, new_header, start

PLAYERS = ["ann", "ben", "cho", "dev"]


def new_log(seed: int, n: int, edition: str, advanced: bool) -> dict[str, Any]:
    options = {"edition": edition, "advanced": advanced}
    return new_header("kamiza", PLAYERS[:n], options, seed=seed)


def step_loop(game: Kamiza, rng: random.Random) -> list[str]:
    """`Game.playout`'s own loop; the kinds of the events it made."""
    kinds = []
    while (nxt := game.next()) is not None:
        kinds += [e.kind for e in game.apply(nxt.player, random_action(game, nxt.player, rng))]
    return kinds


def assert_same_end(quick: Kamiza, stepped: Kamiza) -> None:
    assert quick.over and stepped.over
    assert quick.result() == stepped.result()
    for viewer in (None, "nobody", *stepped.players):
        assert quick.observation(viewer) == stepped.observation(viewer)
    assert quick.details() == stepped.details()
    assert vars(quick) == vars(stepped)  # every field, also those no view shows


def assert_plays_like_the_step_loop(origin: Kamiza, seed: int) -> list[str]:
    """Play `origin` out both ways, on clones, from equal generators; the step loop's events."""
    before = origin.observation(None)
    quick, stepped = origin.clone(), origin.clone()
    quick_rng, step_rng = random.Random(seed), random.Random(seed)
    quick.playout(quick_rng)
    kinds = step_loop(stepped, step_rng)
    assert_same_end(quick, stepped)
    assert quick_rng.getstate() == step_rng.getstate()
    assert origin.observation(None) == before
    return kinds


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_playout_of_whole_matches_in_every_setup(n: int, edition: str, advanced: bool) -> None:
    seen: set[str] = set()
    for seed in range(150):
        game = start(new_log(seed, n, edition, advanced))
        assert isinstance(game, Kamiza)
        seen.update(assert_plays_like_the_step_loop(game, seed))
    # The rules the events-free path must carry out were met: K-10 chips, K-5 squeals.
    assert {"round_scored", "game_ended", "match_ended"} <= seen
    assert ("wanted" in seen) == (edition == "second")
    assert ("squealed" in seen) == (edition == "classic")


@pytest.mark.parametrize("n", [3, 4])
def test_playout_of_matches_with_drop_outs(n: int) -> None:
    """K-10: about one random match in a hundred has a drop-out; play on until three had one."""
    drop_outs = 0
    for seed in range(3000):
        game = start(new_log(seed, n, "second", seed % 2 == 0))
        assert isinstance(game, Kamiza)
        drop_outs += "dropped_out" in assert_plays_like_the_step_loop(game, seed)
        if drop_outs == 3:
            return
    pytest.fail(f"only {drop_outs} of 3000 random matches had a drop-out")


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_playout_from_every_position_as_is_determinized_and_replayed(
    n: int, edition: str, advanced: bool
) -> None:
    for seed in range(3):
        log = new_log(seed, n, edition, advanced)
        game = start(log)
        assert isinstance(game, Kamiza)
        rng = random.Random(seed)
        count = 0
        while (nxt := game.next()) is not None:
            assert_plays_like_the_step_loop(game, seed * 1000 + count)
            hidden = game.determinize(nxt.player, random.Random(count))
            assert_plays_like_the_step_loop(hidden, seed * 1000 + count)
            replayed = load({**log, "actions": log["actions"][:count]})
            assert isinstance(replayed, Kamiza)
            assert_plays_like_the_step_loop(replayed, seed * 1000 + count)
            action = random_action(game, nxt.player, rng)
            game.apply(nxt.player, action)
            log["actions"].append({"player": nxt.player, **action.to_json()})
            count += 1
        assert_plays_like_the_step_loop(game, seed)  # over: neither draws


class OtherRandom(random.Random):
    """A generator whose draws the draw tables do not copy: `playout` takes the step loop."""


def test_playout_with_another_generator_class_is_still_the_step_loops_game() -> None:
    for seed in range(20):
        quick, stepped = (start(new_log(seed, 4, "classic", False)) for _ in range(2))
        assert isinstance(quick, Kamiza) and isinstance(stepped, Kamiza)
        quick_rng, step_rng = OtherRandom(seed), OtherRandom(seed)
        quick.playout(quick_rng)
        step_loop(stepped, step_rng)
        assert_same_end(quick, stepped)
        assert quick_rng.getstate() == step_rng.getstate()
