"""Kobayakawa with the house rule `simultaneous`: RULES.md H-2 and H-3.

The fight phase is chosen at the same time; the draw phase stays clockwise; B-5's tie-break is
by seat, never by the order choices were made.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from step_views import assert_a_choice_shows_only_its_mark, unmarked

from rules.agents import random_action
from rules.base import IllegalAction
from rules.kobayakawa import FIGHT, Kobayakawa
from rules.kobayakawa_moves import FIGHT_ACTION, PASS_ACTION, Showdown
from rules.log import load, new_header, start

PLAYERS = ["ann", "ben", "cho", "dev"]


def game_of(seed: int, n: int = 4, simultaneous: bool = True) -> Kobayakawa:
    options = {"simultaneous": True} if simultaneous else {}
    game = start(new_header("kobayakawa", PLAYERS[:n], options, seed=seed))
    assert isinstance(game, Kobayakawa)
    return game


def to_fights(game: Kobayakawa, rng: random.Random) -> list[dict[str, Any]]:
    """Play the draw phase at random; the log entries made."""
    entries = []
    while (nxt := game.next()) is not None and game.phase != FIGHT:
        action = random_action(game, nxt.player, rng)
        game.apply(nxt.player, action)
        entries.append({"player": nxt.player, **Kobayakawa.action_json(action)})
    return entries


def test_h2_the_draw_phase_stays_clockwise_the_fight_phase_is_at_once() -> None:
    game = game_of(1)
    first = game.next()
    assert first is not None and first.players == () and first.expects == "draw"
    to_fights(game, random.Random(1))
    step = game.next()
    assert step is not None and step.expects == FIGHT and list(step.players) == list(game.order)
    assert all(game.legal_actions(p) == [FIGHT_ACTION, PASS_ACTION] for p in game.order)
    last = step.players[-1]
    events = game.apply(last, PASS_ACTION)
    assert [e.kind for e in events] == ["choice_made"] and events[0].because().rule == "H-2"
    assert Kobayakawa.public_event(events[0]) == {"type": "choice_made", "player": last}


def test_h2_nobody_learns_a_fight_or_a_pass_before_all_have_chosen() -> None:
    game = game_of(2)
    rng = random.Random(2)
    to_fights(game, rng)
    choosers = list(game.next().players)  # type: ignore[union-attr]
    rng.shuffle(choosers)
    for player in choosers[:-1]:
        before = {v: game.observation(v) for v in (None, *PLAYERS) if v != player}
        game.apply(player, FIGHT_ACTION)
        for viewer, seen in before.items():
            assert unmarked(game.observation(viewer)) == unmarked(seen), viewer
        own = game.observation(player)
        assert own.my_choice == "fight" and own.kamons == before[None].kamons  # no bet shown
        assert player in game.observation(None).chosen


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 6))
def test_h2_no_other_view_changes_but_the_mark(seed: int, n: int) -> None:
    players = [*PLAYERS, "eve", "fay"][:n]
    game = start(new_header("kobayakawa", players, {"simultaneous": True}, seed=seed))
    rng = random.Random(seed)
    assert_a_choice_shows_only_its_mark(game, players, rng, rng.randrange(40))


def tied_showdown() -> tuple[int, list[dict[str, Any]]]:
    """A seed whose first round, with everyone fighting, ends in a tie between two fighters."""
    for seed in range(3000):
        game = game_of(seed, simultaneous=False)
        entries = to_fights(game, random.Random(seed))
        events = []
        for player in list(game.order):
            events = game.apply(player, FIGHT_ACTION)
        showdown = next(e for e in events if isinstance(e, Showdown))
        best = max(showdown.totals.values())
        if [p for p in showdown.totals if showdown.totals[p] == best][1:]:
            return seed, entries
    raise AssertionError("no tie found")


def test_h2_b5_a_tie_goes_by_seat_when_the_later_seat_chose_first() -> None:
    seed, draws = tied_showdown()
    game = game_of(seed)
    for entry in draws:
        fields = {k: v for k, v in entry.items() if k != "player"}
        game.apply(entry["player"], Kobayakawa.parse_action(fields))
    order = list(game.order)
    events = []
    for player in reversed(order):  # the later seats choose first
        events = game.apply(player, FIGHT_ACTION)
    showdown = next(e for e in events if isinstance(e, Showdown))
    best = max(showdown.totals.values())
    tied = [p for p in order if showdown.totals.get(p) == best]
    assert len(tied) >= 2 and showdown.winner == tied[0]  # closest clockwise to the start
    assert showdown.why == "tie_closest_to_start"
    fought = [e.player for e in events if e.kind == "fought"]
    assert fought == order  # the bets are made clockwise, whoever chose first


def test_h3_a_fight_or_pass_once_chosen_stays() -> None:
    game = game_of(3)
    to_fights(game, random.Random(3))
    player = game.next().player  # type: ignore[union-attr]
    game.apply(player, PASS_ACTION)
    with pytest.raises(IllegalAction) as refused:
        game.apply(player, FIGHT_ACTION)
    assert refused.value.rule == "H-3"
    assert game.observation(player).my_choice == "pass"


def test_h2_logs_replay_and_determinize_keeps_own_choice() -> None:
    game = game_of(4)
    rng = random.Random(4)
    header = new_header("kobayakawa", PLAYERS, {"simultaneous": True}, seed=4)
    entries = to_fights(game, rng)
    choosers = list(reversed(game.next().players))  # type: ignore[union-attr]
    for player in choosers[:2]:
        game.apply(player, FIGHT_ACTION)
        entries.append({"player": player, "action": "fight"})
    replayed = load({**header, "actions": entries})
    for viewer in (None, *PLAYERS):
        assert replayed.observation(viewer) == game.observation(viewer)
    nxt = game.next()
    assert nxt is not None and nxt.to_json()["players"] == [
        p for p in game.order if p not in choosers[:2]
    ]
    for seed in range(10):
        twin = game.determinize(choosers[0], random.Random(seed))
        assert twin.observation(choosers[0]) == game.observation(choosers[0])


def test_h2_playout_is_the_step_loops_game_mid_step() -> None:
    for seed in range(8):
        game = game_of(seed)
        rng = random.Random(seed)
        to_fights(game, rng)
        first = game.next().player  # type: ignore[union-attr]
        game.apply(first, FIGHT_ACTION)
        quick, stepped = game.clone(), game.clone()
        quick.playout(random.Random(seed))
        step_rng = random.Random(seed)
        while (nxt := stepped.next()) is not None:
            stepped.apply(nxt.player, random_action(stepped, nxt.player, step_rng))
        assert quick.result() == stepped.result()


def test_h2_the_option_is_checked() -> None:
    assert Kobayakawa.normalise_options({"simultaneous": False}) == {}
    assert Kobayakawa.normalise_options({"simultaneous": True}) == {"simultaneous": True}
    with pytest.raises(Exception, match="simultaneous"):
        Kobayakawa.normalise_options({"simultaneous": 1})
