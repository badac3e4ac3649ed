"""Live checks accept exactly what a log can hold: an action `check` lets through survives
`parse_action(action_json(a)) == a` (a forged button must not write an unreplayable entry)."""

from __future__ import annotations

import contextlib
import random
from dataclasses import fields, replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import kobayakawa_moves as kb
from rules import losers_actions as rl
from rules.base import Game, IllegalAction
from rules.kamiza import Play
from rules.random_play import random_match
from rules.registry import GAMES

PLAYERS = {"kamiza": 4, "kobayakawa": 4, "rights-of-losers": 4}

ODD_VALUES = st.one_of(
    st.text(max_size=12),
    st.integers(-3, 20),
    st.none(),
    st.tuples(st.integers(-1, 12), st.integers(-1, 12)),
    st.lists(st.integers(0, 10), max_size=3),
    st.floats(allow_nan=False, width=16),
    st.tuples(st.text(max_size=3), st.integers(0, 4)),
    st.sampled_from(["kamiza", "shimoza", "boss", "raid", "red-7", "drawn", "held", "p1"]),
)

TEMPLATES: dict[str, list[Any]] = {
    "kamiza": [Play("boss", "kamiza")],
    "kobayakawa": [kb.KEEP_DRAWN, kb.REPLACE, kb.FIGHT_ACTION, kb.PASS_ACTION],
    "rights-of-losers": [
        rl.Play("red-7"),
        rl.Chip((0, 0)),
        rl.Build(("red-1", "red-2"), ((0, 0), (0, 1))),
        rl.Appoint("p1"),
        rl.REVERSE,
        rl.Move((0, 0), (0, 1)),
        rl.PASS,
    ],
}


def positions(game: str, seed: int) -> list[Game]:
    """A few states along one random game (start, middle, near the end)."""
    final, log = random_match(game, [f"p{i}" for i in range(PLAYERS[game])], seed)
    cls = type(final)
    out = []
    for cut in (0, len(log["actions"]) // 3, (2 * len(log["actions"])) // 3):
        state = cls.create(log["players"], log.get("options"), log["setup"])
        for entry in log["actions"][:cut]:
            body = {k: v for k, v in entry.items() if k != "player"}
            state.apply(entry["player"], cls.parse_action(body))
        out.append(state)
    return out


def forged(rng: random.Random, state: Game, odd: list[Any]) -> list[Any]:
    """Legal actions, and copies of legal and template actions with one field forged."""
    nxt = state.next()
    legal = state.legal_actions(nxt.player) if nxt else []
    base = rng.sample(legal, min(4, len(legal))) + TEMPLATES[state.name]
    out = list(base)
    for action in base:
        for f in fields(action):
            for value in odd:
                with contextlib.suppress(TypeError):
                    out.append(replace(action, **{f.name: value}))
    return out


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    odd=st.lists(ODD_VALUES, min_size=1, max_size=6),
)
def test_g2_every_action_the_live_check_accepts_round_trips_through_the_log(
    game: str, seed: int, odd: list[Any]
) -> None:
    rng = random.Random(seed)
    for state in positions(game, seed):
        nxt = state.next()
        if nxt is None:
            continue
        cls = type(state)
        for action in forged(rng, state, odd):
            for player in {nxt.player, *rng.sample(state.players, 1)}:
                try:
                    state.check(player, action)
                except IllegalAction:
                    continue
                entry = cls.action_json(action)
                assert cls.parse_action(entry) == action, (game, player, action)


def test_k3_a_play_to_an_area_that_does_not_exist_is_refused() -> None:
    state = positions("kamiza", 3)[0]
    player = state.next().player
    card = state.hands[player][0]
    for area in ("floor", "", "Kamiza", None, 1):
        try:
            state.check(player, Play(card, area))  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert exc.rule == "K-3"
        else:
            raise AssertionError(f"area {area!r} accepted")
