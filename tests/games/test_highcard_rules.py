"""High card, the tests' own game (tests/games/highcard/rules.py): its rules HC-1..HC-4 and G-3,
the `Game` interface, and its logs through `rules.log` once `rules.registry` knows it."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import log as rules_log
from rules.agents import computer_action, random_action
from rules.base import IllegalAction, InvalidSetup, MalformedAction
from rules.random_play import random_match
from rules.registry import GAMES
from tests.games.highcard.rules import (
    DECK,
    CardPut,
    GameEnded,
    HighCard,
    Put,
    Revealed,
)

PLAYERS = ["ann", "ben", "cho"]
# ann wins round 1 (13), ben round 2 (12), cho round 3 (11): a three-way tie at 1 point each.
TIED = {"ann": [13, 1, 2], "ben": [12, 10, 3], "cho": [11, 4, 5]}


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`rules.registry` knows high card for this test only (other tests list the games)."""
    monkeypatch.setitem(GAMES, HighCard.name, HighCard)
    yield


def new_game(hands: dict[str, list[int]] | None = None) -> HighCard:
    return HighCard.create(PLAYERS, None, {"hands": hands or TIED})


def play(game: HighCard, *cards: int) -> list:
    """Put `cards` in turn, whoever is to act; every event."""
    events = []
    for card in cards:
        nxt = game.next()
        assert nxt is not None
        events += game.apply(nxt.player, Put(card))
    return events


# -- HC-1: players and the deal --


@pytest.mark.parametrize("count", [2, 3, 4])
def test_h1_the_deal_gives_three_cards_each_from_one_deck(count: int) -> None:
    players = [*PLAYERS, "dev"][:count]
    setup = HighCard.draw_setup(players, {}, random.Random(count))
    hands = setup["hands"]
    assert set(hands) == set(players)
    dealt = [card for hand in hands.values() for card in hand]
    assert all(len(hand) == 3 for hand in hands.values())
    assert len(set(dealt)) == len(dealt) == 3 * count and set(dealt) <= set(DECK)
    game = HighCard.create(players, {}, setup)
    assert game.players == tuple(players) and game.next() is not None


def test_h1_the_deal_is_drawn_from_the_rng() -> None:
    one = HighCard.draw_setup(PLAYERS, {}, random.Random(5))
    assert one == HighCard.draw_setup(PLAYERS, {}, random.Random(5))
    assert any(HighCard.draw_setup(PLAYERS, {}, random.Random(seed)) != one for seed in range(6, 9))


@pytest.mark.parametrize(
    ("players", "options", "setup"),
    [
        (["ann"], None, {"hands": {"ann": [1, 2, 3]}}),
        (
            ["a", "b", "c", "d", "e"],
            None,
            {"hands": {p: [i * 2 + 1, i * 2 + 2, 13] for i, p in enumerate("abcde")}},
        ),
        (["ann", "ann"], None, {"hands": {"ann": [1, 2, 3]}}),
        ("ann,ben", None, {"hands": {}}),
        (PLAYERS, None, {}),
        (PLAYERS, None, {"hands": [[13, 1, 2], [12, 3, 4], [11, 5, 6]]}),
        (PLAYERS, None, {"hands": {"ann": [13, 1, 2], "ben": [12, 3, 4]}}),
        (PLAYERS, None, {"hands": {**TIED, "dev": [7, 8, 9]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, 6, 7]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, 0]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, 14]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, True]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, 6.0]}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": "11 5 6"}}),
        (PLAYERS, None, {"hands": {**TIED, "cho": [11, 5, 1]}}),  # ann holds the 1
        (PLAYERS, None, {"hands": {**TIED, "cho": [5, 5, 6]}}),
        (PLAYERS, {"rounds": 5}, {"hands": TIED}),
        (PLAYERS, None, ["hands"]),
    ],
)
def test_h1_create_refuses_a_bad_setup(players, options, setup) -> None:
    with pytest.raises(InvalidSetup):
        HighCard.create(players, options, setup)


def test_h1_the_log_seed_and_other_setup_keys_are_kept_and_ignored(registered: None) -> None:
    header = rules_log.new_header("high-card", PLAYERS, seed=42)
    assert set(header["setup"]) == {"hands", "seed"} and header["setup"]["seed"] == 42
    assert sorted(header["players"]) == sorted(PLAYERS)
    game = rules_log.start(header)
    assert isinstance(game, HighCard) and not game.over
    assert rules_log.new_header("high-card", PLAYERS, seed=42) == header  # G-1


# -- HC-2: turns --


def test_h2_every_player_puts_in_seat_order_each_round() -> None:
    game = new_game()
    turns = []
    for card in (13, 12, 11, 1, 10, 4, 2, 3, 5):
        nxt = game.next()
        assert nxt is not None and nxt.expects == "put"
        turns.append(nxt.player)
        assert game.legal_actions(nxt.player) == [Put(c) for c in sorted(game.hands[nxt.player])]
        assert all(game.legal_actions(p) == [] for p in PLAYERS if p != nxt.player)
        game.apply(nxt.player, Put(card))
    assert turns == PLAYERS * 3
    assert game.next() is None and game.legal_actions("ann") == []


@pytest.mark.parametrize(
    ("player", "action", "rule"),
    [
        ("ben", Put(12), "HC-2"),  # not ben's turn
        ("dev", Put(7), "HC-2"),  # not seated
        ("ann", Put(12), "HC-2"),  # ben's card
        ("ann", Put(7), "HC-2"),  # nobody's card
        ("ann", {"action": "put", "card": 13}, "HC-2"),  # not an action object
        ("ann", Put(True), "HC-2"),  # type: ignore[arg-type]
    ],
)
def test_g2_a_refusal_names_the_rule_and_changes_nothing(player, action, rule) -> None:
    game = new_game()
    before = game.view(None), game.view("ann"), game.hands.copy()
    with pytest.raises(IllegalAction) as refused:
        game.apply(player, action)
    assert refused.value.rule == rule
    with pytest.raises(IllegalAction):
        game.check(player, action)
    assert (game.view(None), game.view("ann"), game.hands) == before


def test_h4_nothing_is_played_after_the_end() -> None:
    game = new_game()
    play(game, 13, 12, 11, 1, 10, 4, 2, 3, 5)
    with pytest.raises(IllegalAction) as refused:
        game.apply("ann", Put(2))
    assert refused.value.rule == "HC-4"


def test_parse_action_reads_the_log_shape_and_refuses_others() -> None:
    assert HighCard.parse_action({"action": "put", "card": 7}) == Put(7)
    assert HighCard.action_json(Put(7)) == {"action": "put", "card": 7}
    for bad in (
        {"action": "put"},
        {"card": 7},
        {"action": "put", "card": 7, "extra": 1},
        {"action": "play", "card": 7},
        {"action": "put", "card": "7"},
        {"action": "put", "card": True},
        {"action": "put", "card": 0},
        {"action": "put", "card": 14},
        ["put", 7],
    ):
        with pytest.raises(MalformedAction):
            HighCard.parse_action(bad)  # type: ignore[arg-type]


# -- HC-3, HC-4: the reveal and the end --


def test_h3_the_reveal_shows_every_card_and_the_highest_wins_the_round() -> None:
    game = new_game()
    first = play(game, 13)
    assert first == [CardPut(1, "ann", 13)]
    events = play(game, 12, 11)
    assert events[0] == CardPut(1, "ben", 12) and events[1] == CardPut(1, "cho", 11)
    reveal = events[2]
    assert reveal == Revealed(1, (("ann", 13), ("ben", 12), ("cho", 11)), "ann")
    assert reveal.to_json() == {
        "type": "revealed",
        "round": 1,
        "cards": {"ann": 13, "ben": 12, "cho": 11},
        "winner": "ann",
    }
    assert game.scores() == {"ann": 1, "ben": 0, "cho": 0} and game.round == 2
    assert game.winners() == [] and game.put == {}


def test_h4_equal_points_share_the_win() -> None:
    game = new_game()
    events = play(game, 13, 12, 11, 1, 10, 4, 2, 3, 5)
    assert [e.winner for e in events if isinstance(e, Revealed)] == ["ann", "ben", "cho"]
    assert events[-1] == GameEnded((("ann", 1), ("ben", 1), ("cho", 1)), ("ann", "ben", "cho"))
    assert game.over and game.winners() == PLAYERS and game.ranking() == [PLAYERS]
    assert game.result().winners == tuple(PLAYERS) and game.result().tie_break is None


def test_h4_the_most_points_win_alone() -> None:
    game = new_game({"ann": [13, 12, 1], "ben": [11, 2, 3], "cho": [10, 4, 5]})
    events = play(game, 13, 11, 10, 12, 2, 4, 1, 3, 5)
    assert events[-1] == GameEnded((("ann", 2), ("ben", 0), ("cho", 1)), ("ann",))
    assert game.winners() == ["ann"] and game.ranking() == [["ann"], ["cho"], ["ben"]]
    assert game.round == 3 and game.details() == {"round": 3}


# -- G-3: who sees what ----------------------------------------------------------------------------


def test_g3_a_put_card_is_hidden_until_the_reveal() -> None:
    game = new_game()
    (put,) = play(game, 13)
    assert HighCard.public_event(put) == {"type": "card_put", "round": 1, "player": "ann"}
    assert game.observation("ann").your_card == 13
    for other in ("ben", "cho", None, "stranger"):
        seen = game.observation(other)
        assert seen.put == ("ann",) and seen.your_card is None
        assert "13" not in json.dumps(seen.view())  # no reveal yet: the 13 is nowhere
    assert game.observation(None).hand == () and game.observation("stranger").you is None
    assert game.observation("ben").hand == (3, 10, 12)
    events = play(game, 12, 11)
    assert HighCard.public_event(events[-1]) == events[-1].to_json()


def test_determinize_keeps_the_observation_and_deals_the_unseen_cards() -> None:
    game = new_game()
    play(game, 13, 12, 11, 1)  # round 2: ann has put her 1
    rng = random.Random(3)
    for player in PLAYERS:
        before = game.view(player), copy.deepcopy(game.hands), dict(game.put)
        for _ in range(20):
            drawn = game.determinize(player, rng)
            assert drawn.observation(player) == game.observation(player)
            held = [c for hand in drawn.hands.values() for c in hand] + list(drawn.put.values())
            revealed = [13, 12, 11]
            assert len(set(held + revealed)) == len(held) + 3 and set(held) <= set(DECK)
            assert {p: len(h) for p, h in drawn.hands.items()} == {"ann": 1, "ben": 2, "cho": 2}
            assert list(drawn.put) == ["ann"]
            while (nxt := drawn.next()) is not None:  # the drawn state plays to its end
                drawn.apply(nxt.player, random_action(drawn, nxt.player, rng))
        assert (game.view(player), game.hands, game.put) == before


def test_clone_is_independent() -> None:
    game = new_game()
    play(game, 13)
    twin = game.clone()
    play(twin, 12, 11, 1)
    assert game.hands["ben"] == (12, 10, 3) and game.put == {"ann": 13}
    assert game.scores() == {"ann": 0, "ben": 0, "cho": 0} and twin.scores()["ann"] == 1
    deep = copy.deepcopy(game)
    assert deep.view("ann") == game.view("ann")


def test_a_computer_seat_plays_a_legal_card() -> None:
    game = new_game()
    rng = random.Random(1)
    while (nxt := game.next()) is not None:
        action = computer_action(game, nxt.player, rng)
        assert action in game.legal_actions(nxt.player)
        game.apply(nxt.player, action)
    assert game.over


# -- logs, once registered -------------------------------------------------------------------------


def test_logs_replay_through_rules_log_once_registered(registered: None) -> None:
    state, log = random_match("high-card", PLAYERS, 7)
    assert random_match("high-card", PLAYERS, 7)[1] == log  # the same seed, the same log
    text = json.loads(json.dumps(log))
    replayed = rules_log.load(text)
    assert isinstance(replayed, HighCard) and replayed.over
    assert replayed.view(None) == state.view(None)
    answer = rules_log.replay(text)
    assert answer == {
        "game": "high-card",
        "over": True,
        "scores": state.scores(),
        "winners": state.winners(),
        "next": None,
        "round": 3,
    }
    bad = {**text, "actions": [*text["actions"][:4], {**text["actions"][5]}]}
    with pytest.raises(rules_log.LogError) as refused:
        rules_log.load(bad)
    assert refused.value.index == 4


def test_an_unregistered_game_is_unknown_to_the_logs() -> None:
    assert HighCard.name not in GAMES  # the fixture's registration did not leak
    with pytest.raises(InvalidSetup):
        rules_log.new_header("high-card", PLAYERS)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(2, 4))
def test_random_play_property(seed: int, count: int) -> None:
    """Whole games of random legal play: every invariant of HC-1..HC-4 and G-3 holds, and each
    log replays to the same game and to a public record that hides every face-down card."""
    players = ["p1", "p2", "p3", "p4"][:count]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(GAMES, HighCard.name, HighCard)
        state, log = random_match("high-card", players, seed)
        replayed = rules_log.load(json.loads(json.dumps(log)))
        record = rules_log.public_record(log)
    assert len(log["actions"]) == 3 * count and state.over
    assert sum(state.scores().values()) == 3 and state.winners()
    best = max(state.scores().values())
    assert state.winners() == [p for p in state.players if state.scores()[p] == best]
    assert replayed.result() == state.result()
    hands = log["setup"]["hands"]
    for reveal in state.reveals:
        cards = dict(reveal.cards)
        assert set(cards) == set(players) and cards[reveal.winner] == max(cards.values())
        assert all(cards[p] in hands[p] for p in players)
    assert record == json.loads(json.dumps(record))
    for step in record["steps"]:
        for event in step["events"]:
            if event["type"] == "card_put":
                assert set(event) == {"type", "round", "player"}
    assert record["result"] == {"scores": state.scores(), "winners": state.winners()}
    # Replaying step by step: each player's observation survives a determinization.
    game = HighCard.create(log["players"], log["options"], log["setup"])
    rng = random.Random(seed)
    for entry in log["actions"]:
        for player in players:
            assert game.determinize(player, rng).observation(player) == game.observation(player)
        fields = {k: v for k, v in entry.items() if k != "player"}
        action = HighCard.parse_action(fields)
        game.check(entry["player"], action)
        game.apply(entry["player"], action)
    assert game.result() == state.result()
