"""KAMIZA and Kobayakawa random play: the draw tables `rules.agents.random_action` reads, the
setup draws, and the logs a seed gives (G-1: the same seed, the same log, as ever)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.agents import random_action
from rules.base import AnyGame, IllegalAction
from rules.kamiza import Kamiza, Play
from rules.kamiza_moves import PLAYS, holding
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_tables import CARDS, chosen, seating, shuffled_decks
from rules.log import load, new_header, start
from rules.random_play import random_match

PLAYERS = ["ann", "ben", "cho", "dev", "eve"]

# sha256 of the JSON logs (sorted keys, no spaces) of `random_match` for seeds 0..29, recorded
# with the engines of 06bca01 and of the commit before the draw tables: the same seed must give
# the same log whatever the engine does inside.
PINNED = [
    ("kamiza", 4, None, "2b72ba8cab89005f6eacfb0c691738f55dbc7c05f4cafb7225d93b20d50d7cbb"),
    (
        "kamiza",
        3,
        {"edition": "classic", "advanced": True},
        "2eab6f56561c6c76889825df2c33ee06acc9b10f9c331d4683e4dc7b86e581ad",
    ),
    ("kobayakawa", 4, None, "cc497790123d70d0b29827da1ddad5b7aa5be56c5fb743fb8b6ce95b9bd2ed06"),
    ("kobayakawa", 5, None, "225afc640c31e51af6a116c2e3ecdfee7d58cd579074a1e29c9cc61827f1a8e9"),
]


@pytest.mark.parametrize(("game", "count", "options", "digest"), PINNED)
def test_g1_random_match_logs_are_pinned(
    game: str, count: int, options: dict[str, Any] | None, digest: str
) -> None:
    logs = hashlib.sha256()
    for seed in range(30):
        _, log = random_match(game, PLAYERS[:count], seed, options)
        logs.update(json.dumps(log, sort_keys=True, separators=(",", ":")).encode())
    assert logs.hexdigest() == digest


def test_g1_one_pinned_log_in_full() -> None:
    _, log = random_match("kamiza", PLAYERS[:4], 7)
    assert log["setup"] == {"start_player": "cho", "seed": 647892279}
    assert log["actions"][:2] == [
        {"player": "cho", "card": "boss", "area": "kamiza"},
        {"player": "dev", "card": "boss", "area": "shimoza"},
    ]
    assert len(log["actions"]) == 36
    _, log = random_match("kobayakawa", PLAYERS[:4], 7)
    assert log["setup"]["start_player"] == "ann"
    assert log["setup"]["decks"][0] == [15, 12, 8, 1, 13, 9, 14, 3, 2, 11, 10, 7, 4, 6, 5]
    assert log["actions"][:2] == [
        {"player": "ann", "action": "kobayakawa"},
        {"player": "ben", "action": "draw", "keep": "drawn"},
    ]
    assert len(log["actions"]) == 56


def positions(game: str, count: int, seed: int) -> Iterator[AnyGame]:
    """Every position of a random game, the end included."""
    rng = random.Random(seed)
    state = start(new_header(game, PLAYERS[:count], seed=seed))
    while (nxt := state.next()) is not None:
        yield state
        state.apply(nxt.player, random_action(state, nxt.player, rng))
    yield state


class OtherRandom(random.Random):
    """A subclass: its draws are asked for, never copied from the draw table."""


@pytest.mark.parametrize("game", ["kamiza", "kobayakawa"])
@pytest.mark.parametrize("kind", [random.Random, OtherRandom])
def test_agents_random_action_draws_as_choice_of_the_legal_actions(game: str, kind: type) -> None:
    for seed in range(6):
        for state in positions(game, 3 + seed % 2, seed):
            nxt = state.next()
            if nxt is None:
                assert state.draw_table[1] == ()  # type: ignore[attr-defined]  # both games
                continue
            assert state.draw_table[0] == nxt.player  # type: ignore[attr-defined]  # both games
            ours, theirs = kind(seed), random.Random(seed)
            action = random_action(state, nxt.player, ours)
            assert action == theirs.choice(state.legal_actions(nxt.player))
            assert ours.getstate() == theirs.getstate()
            assert action in state.legal_actions(nxt.player)


@pytest.mark.parametrize("game", ["kamiza", "kobayakawa"])
def test_agents_random_action_for_a_player_not_on_turn_is_refused_as_ever(game: str) -> None:
    state = start(new_header(game, PLAYERS[:3], seed=3))
    nxt = state.next()
    assert nxt is not None
    waiting = next(p for p in state.players if p != nxt.player)
    with pytest.raises(IndexError):  # rng.choice of no legal action
        random_action(state, waiting, random.Random(0))


def test_b3_the_draw_table_after_looking_offers_only_keeping() -> None:
    game = start(new_header("kobayakawa", PLAYERS[:4], seed=11))
    assert isinstance(game, Kobayakawa)
    nxt = game.next()
    assert nxt is not None
    game.look(nxt.player)
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        action = random_action(game, nxt.player, ours)
        assert action == theirs.choice(game.legal_actions(nxt.player))
        assert action.to_json()["action"] == "draw"


def test_b2_setup_draws_are_random_draws() -> None:
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        decks = [list(CARDS) for _ in range(seed % 8)]
        for deck in decks:
            theirs.shuffle(deck)
        assert shuffled_decks(ours, seed % 8) == decks
        options = PLAYERS[: 3 + seed % 3]
        assert chosen(ours, options) == theirs.choice(options)
        assert ours.getstate() == theirs.getstate()


def test_b3_each_order_has_its_turns_made_once() -> None:
    seats = seating(PLAYERS[:4])
    order = seats.rotation["cho"]
    draws, fights = seats.turns(order)
    assert seats.turns(order) == (draws, fights) and seats.turns(order)[0] is draws
    assert [turn[0] for turn in draws] == [turn[0] for turn in fights] == list(order)
    assert [turn[1].expects for turn in draws] == ["draw"] * 4
    assert [turn[1].expects for turn in fights] == ["fight"] * 4
    assert all(turn[2][0] == turn[0] for turn in draws + fights)


def test_k2_hands_are_read_from_the_holdings_and_cannot_be_changed_from_outside() -> None:
    game = start(new_header("kamiza", PLAYERS[:3], seed=5))
    assert isinstance(game, Kamiza)
    nxt = game.next()
    assert nxt is not None
    player = nxt.player
    play = game.legal_actions(player)[0]
    game.apply(player, play)
    assert play.card not in game.hands[player]
    game.hands[player] = game.cards  # a copy: the state keeps its own
    assert play.card not in game.hands[player]
    while (nxt := game.next()) is not None and nxt.player != player:
        game.apply(nxt.player, game.legal_actions(nxt.player)[0])
    with pytest.raises(IllegalAction) as err:
        game.apply(player, Play(play.card, play.area))
    assert err.value.rule == "K-2"


def test_k3_a_holding_is_shared_and_knows_each_legal_play() -> None:
    held = holding("ann", ("boss", "hitman"))
    assert holding("ann", ("boss", "hitman")) is held
    assert copy.deepcopy(held) is held and copy.copy(held) is held
    player, picks, bits = held.draw
    assert player == "ann" and bits == 3 and len(picks) == 8
    assert [p for p in picks if p is not None] == [
        PLAYS["boss", "kamiza"],
        PLAYS["boss", "shimoza"],
        PLAYS["hitman", "kamiza"],
        PLAYS["hitman", "shimoza"],
    ]
    after, played, placed, face_up, _ = held.moves[id(PLAYS["hitman", "shimoza"])]
    assert after is holding("ann", ("boss",))
    assert played[0].card == placed.card == face_up.card == "hitman"
    assert not placed.face_up and face_up.face_up
    assert id(Play("hitman", "shimoza")) not in held.moves  # an equal copy: the long way


def test_k3_an_equal_play_made_elsewhere_is_carried_out_the_long_way() -> None:
    log = random_match("kamiza", PLAYERS[:4], 21)[1]
    game = start(log)
    for entry in log["actions"]:
        game.apply(entry["player"], Play(entry["card"], entry["area"]))  # never the shared ones
    replayed = load(log)
    assert game.result() == replayed.result() and game.view(None) == replayed.view(None)
