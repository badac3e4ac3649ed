"""KAMIZA with the house rule `simultaneous`: RULES.md H-1 and H-3 (LOG_FORMAT.md's `players`).

Every player still in chooses at the same time; nobody learns another's choice, nor the order of
choices, until the last; then the round is judged as usual, by seat, never by who chose first.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from step_views import assert_a_choice_shows_only_its_mark, unmarked
from test_kamiza_playout import assert_plays_like_the_step_loop, step_loop
from test_replay_cli import run_replay

from rules.agents import random_action
from rules.base import IllegalAction
from rules.kamiza import Kamiza
from rules.kamiza_moves import Play
from rules.log import apply_entry, load, new_header, start

PLAYERS = ["ann", "ben", "cho", "dev"]


def match(seed: int = 1, n: int = 4, **options: Any) -> Kamiza:
    header = new_header("kamiza", PLAYERS[:n], {"simultaneous": True, **options}, seed=seed)
    game = start(header)
    assert isinstance(game, Kamiza)
    return game


def choose_all(game: Kamiza, order: list[str], rng: random.Random) -> dict[str, Play]:
    chosen = {p: random_action(game, p, rng) for p in game.next().players}  # type: ignore[union-attr]
    for player in order:
        game.apply(player, chosen[player])
    return chosen


def test_h1_every_player_still_in_chooses_at_once_in_any_order() -> None:
    game = match()
    nxt = game.next()
    assert nxt is not None and set(nxt.players) == set(PLAYERS) and nxt.player == nxt.players[0]
    assert list(nxt.players) == list(game.order)  # clockwise from the start player
    assert all(game.legal_actions(p) for p in PLAYERS)
    last = nxt.players[-1]
    events = game.apply(last, random_action(game, last, random.Random(1)))  # the last seat first
    assert [e.kind for e in events] == ["choice_made"] and events[0].because().rule == "H-1"
    assert last not in game.next().players and game.legal_actions(last) == []  # type: ignore[union-attr]


def test_h1_nobody_learns_anything_of_a_choice_but_that_it_was_made() -> None:
    game = match(seed=5)
    rng = random.Random(5)
    choosers = list(game.next().players)  # type: ignore[union-attr]
    rng.shuffle(choosers)
    for index, player in enumerate(choosers[:-1]):
        before = {v: game.observation(v) for v in (None, *PLAYERS) if v != player}
        action = random_action(game, player, rng)
        events = game.apply(player, action)
        public = [Kamiza.public_event(e) for e in events]
        assert public == [{"type": "choice_made", "player": player}]  # no card, no area
        for viewer, seen in before.items():
            now = game.observation(viewer)
            assert unmarked(now) == unmarked(seen), viewer
            assert set(now.chosen) == set(choosers[: index + 1])
            assert list(now.chosen) == [p for p in PLAYERS if p in now.chosen]  # seat order
        own = game.observation(player)
        assert any(c.player == player and c.card == action.card for c in own.table)
        assert action.card not in (own.hand or ())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.sampled_from(["second", "classic"]))
def test_h1_no_other_view_changes_but_the_mark_at_any_point(
    seed: int, advanced: bool, edition: str
) -> None:
    game = match(seed=seed, advanced=advanced, edition=edition)
    rng = random.Random(seed)
    assert_a_choice_shows_only_its_mark(game, PLAYERS, rng, rng.randrange(60))


def test_h1_judged_by_seat_never_by_the_order_of_choices() -> None:
    results = []
    for order in itertools.permutations(PLAYERS):
        game = match(seed=11)
        events = []
        rng = random.Random(3)  # the same choices every time, made in another order
        chosen = {p: random_action(game, p, rng) for p in game.next().players}  # type: ignore[union-attr]
        for player in order:
            events = game.apply(player, chosen[player])
        revealed = [e for e in events if e.kind != "choice_made"]
        results.append((revealed, game.observation(None), game.totals))
    assert all(result == results[0] for result in results)
    plays = [e for e in results[0][0] if e.kind == "card_placed"]
    assert [e.player for e in plays] == list(match(seed=11).order)  # clockwise from the start


def test_h1_with_advanced_the_start_player_plays_first_face_up() -> None:
    game = match(seed=2, advanced=True)
    first = game.next()
    assert first is not None and first.players == () and first.player == game.start_player
    others = [p for p in game.order if p != game.start_player]
    assert all(game.legal_actions(p) == [] for p in others)
    events = game.apply(first.player, random_action(game, first.player, random.Random(2)))
    assert [e.kind for e in events] == ["card_placed"] and events[0].face_up
    step = game.next()
    assert step is not None and list(step.players) == others
    with pytest.raises(IllegalAction) as refused:
        game.apply(game.start_player, game.legal_actions(others[0])[0])
    assert refused.value.rule == "H-1"


def test_h3_a_choice_once_made_cannot_be_taken_back() -> None:
    game = match(seed=4)
    player = game.next().player  # type: ignore[union-attr]
    first = random_action(game, player, random.Random(4))
    game.apply(player, first)
    before = game.observation(player)
    other = Play(next(c for c in game.hands[player] if c != first.card), first.area)
    with pytest.raises(IllegalAction) as refused:
        game.apply(player, other)
    assert refused.value.rule == "H-3"
    with pytest.raises(IllegalAction):
        game.check(player, first)
    assert game.observation(player) == before


def test_h1_a_log_lists_choices_in_the_order_made_and_replays() -> None:
    game = match(seed=8)
    header = new_header("kamiza", PLAYERS, {"simultaneous": True}, seed=8)
    log = {**header, "actions": []}
    rng = random.Random(8)
    order = list(reversed(game.next().players))  # type: ignore[union-attr]
    chosen = choose_all(game, order, rng)
    log["actions"] = [{"player": p, **chosen[p].to_json()} for p in order]
    replayed = load(log)
    assert replayed.observation(None) == game.observation(None)
    # mid-step, `replay` names everyone who still has to choose (LOG_FORMAT.md)
    half = {**log, "actions": log["actions"][:2]}
    done = run_replay(half)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)["next"]
    waiting = [p for p in game.order if p not in order[:2]]
    assert shown == {"player": waiting[0], "expects": "play", "players": waiting}


def test_h1_determinize_keeps_ones_own_choice_and_draws_the_others() -> None:
    game = match(seed=6)
    rng = random.Random(6)
    choosers = list(game.next().players)  # type: ignore[union-attr]
    for player in choosers[:3]:
        game.apply(player, random_action(game, player, rng))
    viewer = choosers[0]
    for seed in range(20):
        twin = game.determinize(viewer, random.Random(seed))
        assert twin.observation(viewer) == game.observation(viewer)
        assert twin.choice_of(viewer) == game.choice_of(viewer)
        for other in choosers[1:3]:
            pick = twin.choice_of(other)
            assert pick is not None and pick.card in game.hands[other]  # a card they hold
        last = choosers[3]
        twin.apply(last, twin.legal_actions(last)[0])  # the step completes on the sample
        assert twin.next() is not None or twin.over


@pytest.mark.parametrize("advanced", [False, True])
def test_h1_playout_is_the_step_loops_game_from_any_point_of_a_step(advanced: bool) -> None:
    for seed in range(6):
        game = match(seed=seed, advanced=advanced)
        rng = random.Random(seed)
        for _ in range(rng.randrange(30)):  # a match is 36 choices: some are left
            nxt = game.next()
            assert nxt is not None
            game.apply(nxt.player, random_action(game, nxt.player, rng))
        kinds = assert_plays_like_the_step_loop(game, seed)
        assert "choice_made" in kinds


def test_h1_a_random_simultaneous_match_plays_the_game_of_a_match_in_turn() -> None:
    """Random choices are drawn clockwise from each hand as random plays are: same game."""
    for seed in range(4):
        together, in_turn = match(seed=seed), start(new_header("kamiza", PLAYERS, {}, seed=seed))
        step_loop(together, random.Random(seed))
        step_loop(in_turn, random.Random(seed))
        assert together.result() == in_turn.result()


def test_h1_the_option_is_checked_and_absent_when_off() -> None:
    assert Kamiza.normalise_options({"simultaneous": False}) == {
        "edition": "second",
        "advanced": False,
    }
    assert Kamiza.normalise_options({"simultaneous": True})["simultaneous"] is True
    with pytest.raises(Exception, match="simultaneous"):
        Kamiza.normalise_options({"simultaneous": "yes"})
    entry = {"player": "ann", "card": "boss", "area": "kamiza"}
    game = match(seed=9)
    apply_entry(game, entry)
    assert game.has_chosen() == ("ann",)
