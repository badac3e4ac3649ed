"""Property tests over random legal KAMIZA matches (seeded), and G-1..G-3."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import IllegalAction
from rules.kamiza import ALL_CARDS, AREAS, Kamiza, Play
from rules.log import load, new_header, replay, result, start

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None)
matches = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from([3, 4]),
    st.sampled_from(["second", "classic"]),
    st.booleans(),
)


def random_match(seed: int, n: int, edition: str, advanced: bool) -> tuple[Kamiza, dict, list]:
    rng = random.Random(seed)
    players = ["ann", "ben", "cho", "dev"][:n]
    log = new_header("kamiza", players, {"edition": edition, "advanced": advanced}, seed=seed)
    game = start(log)
    events = []
    while (nxt := game.next()) is not None:
        action = rng.choice(game.legal_actions(nxt.player))
        events.extend(game.apply(nxt.player, action))
        log["actions"].append({"player": nxt.player, **action.to_json()})
    return game, log, events


@SETTINGS
@given(matches)
def test_k2_random_matches_finish_in_nine_rounds_or_fewer_after_drop_out(args) -> None:
    game, _, events = random_match(*args)
    rounds = sum(1 for e in events if e.kind == "round_scored")
    if game.dropped and len(game.active_players()) < 2:
        assert rounds <= 9
    else:
        assert rounds == 9
    assert game.over and game.winners()
    assert not set(game.winners()) & set(game.dropped)


@SETTINGS
@given(matches)
def test_k2_no_card_is_played_twice_in_a_game(args) -> None:
    _, _, events = random_match(*args)
    per_game: dict[tuple[int, str], list[str]] = {}
    for revealed in (e for e in events if e.kind == "round_revealed"):
        for play in revealed.plays:
            per_game.setdefault((revealed.game, play.player), []).append(play.card)
    for cards in per_game.values():
        assert len(cards) == len(set(cards)) <= 3


@SETTINGS
@given(matches)
def test_g3_views_never_show_another_players_face_down_card(args) -> None:
    _, log, _ = random_match(*args)
    advanced = log["options"]["advanced"]
    replayed = start(log)
    for entry in log["actions"]:
        for viewer in replayed.players:
            view = replayed.view(viewer)
            for placed in view["table"]:
                own = placed["player"] == viewer
                start_face_up = advanced and placed["player"] == replayed.start_player
                assert (placed["card"] is not None) == (own or start_face_up)
            assert view["hand"] == list(replayed.hands[viewer])
        spectator = replayed.view(None)
        assert spectator["hand"] is None
        assert all(
            (p["card"] is not None) == (advanced and p["player"] == replayed.start_player)
            for p in spectator["table"]
        )
        replayed.apply(entry["player"], Play(entry["card"], entry["area"]))


@SETTINGS
@given(matches)
def test_g1_log_of_random_match_replays_to_same_scores_and_winners(args) -> None:
    game, log, _ = random_match(*args)
    answer = replay(json.loads(json.dumps(log)))
    assert answer["over"] is True and answer["next"] is None
    assert answer["scores"] == game.scores()
    assert answer["winners"] == game.winners()


@SETTINGS
@given(
    matches,
    st.integers(min_value=0, max_value=40),
    st.sampled_from(sorted(ALL_CARDS)),
    st.sampled_from(AREAS),
    st.sampled_from(["ann", "ben", "cho", "dev", "eve"]),
)
def test_g2_illegal_action_changes_nothing(args, cut: int, card: str, area: str, who: str) -> None:
    _, log, _ = random_match(*args)
    partial = load({**log, "actions": log["actions"][: min(cut, len(log["actions"]))]})
    before = copy.deepcopy(partial.__dict__)
    views = {p: partial.view(p) for p in partial.players}
    legal = who in partial.to_act() and Play(card, area) in partial.legal_actions(who)
    if legal:
        return
    with pytest.raises(IllegalAction) as err:
        partial.apply(who, Play(card, area))
    assert err.value.rule.startswith("K-")
    assert partial.__dict__ == before
    assert {p: partial.view(p) for p in partial.players} == views


def test_g1_same_seed_same_header_and_seating_is_drawn() -> None:
    a = new_header("kamiza", ["ann", "ben", "cho", "dev"], seed=42)
    b = new_header("kamiza", ["ann", "ben", "cho", "dev"], seed=42)
    assert a == b and a["setup"]["seed"] == 42
    seatings = {
        tuple(new_header("kamiza", ["ann", "ben", "cho", "dev"], seed=s)["players"])
        for s in range(30)
    }
    assert len(seatings) > 5


def test_g2_check_refuses_like_apply_without_changing_anything() -> None:
    game = start(new_header("kamiza", ["ann", "ben", "cho"], seed=7))
    nxt = game.next().player
    other = next(p for p in game.players if p != nxt)
    before = result(game)
    with pytest.raises(IllegalAction):
        game.check(other, Play("boss", "kamiza"))
    game.check(nxt, Play("boss", "kamiza"))
    assert result(game) == before
