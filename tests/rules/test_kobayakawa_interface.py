"""The typed interface of Kobayakawa on seeded random positions: observation (G-3), clone,
determinize; and the replay shortcut, the copied random draws and the deck check."""

from __future__ import annotations

import copy
import json
import random
from collections import OrderedDict
from collections.abc import Iterator

import pytest

from rules.base import InvalidSetup
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_state import KobayakawaState
from rules.kobayakawa_tables import CARDS, checked_decks, shuffled_deck
from rules.log import LogError, apply_entry, load, new_header, start
from rules.random_play import random_match

NAMES = ["ann", "ben", "cho", "dev", "eve", "fay"]


def positions(count: int, seed: int = 0) -> Iterator[tuple[Kobayakawa, random.Random]]:
    """Seeded random positions of 3-6 player games: any phase, over, sometimes a look (B-3)."""
    rng = random.Random(seed)
    for _ in range(count):
        game = start(
            new_header("kobayakawa", NAMES[: rng.randint(3, 6)], seed=rng.randrange(2**32))
        )
        assert isinstance(game, Kobayakawa)
        for _ in range(rng.randrange(60)):
            nxt = game.next()
            if nxt is None:
                break
            game.apply(nxt.player, game.random_action(nxt.player, rng))
        nxt = game.next()
        if nxt is not None and nxt.expects == "draw" and rng.random() < 0.3:
            game.look(nxt.player)
        yield game, rng


def every_view(game: Kobayakawa) -> list[object]:
    return [game.observation(p) for p in [None, *game.players]] + [game.details(), game.next()]


def play_out(game: Kobayakawa, rng: random.Random) -> None:
    while (nxt := game.next()) is not None:
        game.apply(nxt.player, rng.choice(game.legal_actions(nxt.player)))


# -- observation -----------------------------------------------------------------------------------


def test_g3_view_is_the_observation_and_shows_only_the_players_own_card() -> None:
    for game, _ in positions(60):
        spectator = game.observation(None)
        assert spectator.card is None and spectator.drawn is None and spectator.you is None
        for player in [None, *game.players, "zed"]:
            seen = game.observation(player)
            assert game.view(player) == seen.view()
            public = {k: v for k, v in seen.view().items() if k not in ("you", "card")}
            assert public == {k: v for k, v in spectator.view().items() if k not in ("you", "card")}
            if player in game.order and not game.over and player not in game.out:
                assert seen.card == game.cards[player]
            if seen.drawn is not None:
                assert game.has_looked(player) and seen.drawn == game.drawn_card(player)


def test_g3_choices_in_the_view_are_the_rounds_public_actions() -> None:
    for game, _ in positions(40, seed=1):
        choices = game.view(None)["choices"]
        assert len(choices) == (game.turn if game.phase == "draw" else len(game.order)) + (
            game.turn if game.phase == "fight" else len(game.order) if game.over else 0
        )
        assert [c["player"] for c in choices if c["action"] == "draw"] == list(game.discards)


# -- clone -----------------------------------------------------------------------------------------


def test_clone_is_independent_both_ways() -> None:
    for game, rng in positions(60, seed=2):
        before = every_view(game)
        twin = game.clone()
        assert every_view(twin) == before
        play_out(twin, random.Random(rng.random()))
        assert every_view(game) == before
        other = game.clone()
        play_out(game, rng)
        assert every_view(other) == before
        assert copy.deepcopy(other).view(None) == other.view(None)


# -- determinize -----------------------------------------------------------------------------------


def test_determinize_keeps_the_players_observation_and_plays_on() -> None:
    for game, rng in positions(80, seed=3):
        before = every_view(game)
        for player in game.players:
            drawn = game.determinize(player, rng)
            assert drawn.observation(player) == game.observation(player)
            assert drawn.next() == game.next() and drawn.details() == game.details()
            assert every_view(game) == before  # the game itself is untouched
            for deck in drawn.decks:
                assert sorted(deck) == list(CARDS)
            # The round's deck matches the copy: dealt cards, the first Kobayakawa, the pile.
            n = len(drawn.order)
            dealt = drawn.decks[drawn.round - 1]
            assert dealt[:n] == tuple(drawn.cards[p] for p in drawn.order)
            assert dealt[n] == drawn.kobayakawa_history[0] and dealt[n + 1 :] == drawn.pile
            play_out(drawn, rng)
            assert drawn.over and len(drawn.decks) >= drawn.round


def test_determinize_draws_only_what_the_player_cannot_see() -> None:
    game = start(new_header("kobayakawa", NAMES[:4], seed=11))
    rng = random.Random(5)
    for _ in range(3):  # three draws
        game.apply(game.next().player, game.legal_actions(game.next().player)[1])
    player = game.order[0]
    seen_cards = {
        game.cards[player],
        *game.discards.values(),
        *game.kobayakawa_history,
    }
    hidden = sorted(c for c in CARDS if c not in seen_cards)
    others = [p for p in game.order if p != player]
    worlds = set()
    for _ in range(40):
        drawn = game.determinize(player, rng)
        assert drawn.cards[player] == game.cards[player]
        rest = [drawn.cards[p] for p in others] + list(drawn.pile[drawn.pile_top :])
        assert sorted(rest) == hidden
        assert drawn.decks[0][: len(game.order)] == tuple(drawn.cards[p] for p in game.order)
        worlds.add(tuple(rest))
    assert len(worlds) > 20  # really drawn at random
    assert game.determinize(player, random.Random(1)).decks[1:] != game.decks[1:]


def test_determinize_after_a_game_ended_keeps_the_revealed_cards() -> None:
    game, _ = random_match("kobayakawa", NAMES[:4], 3)
    assert isinstance(game, Kobayakawa)
    shown = next(e for e in game.last_result if e.kind == "showdown")
    for player in game.players:
        drawn = game.determinize(player, random.Random(2))
        assert drawn.observation(player) == game.observation(player)
        for fighter, card in shown.cards.items():
            assert drawn.cards[fighter] == card


def test_determinize_while_the_next_round_has_no_deck() -> None:
    game = Kobayakawa.create(NAMES[:3], None, {"start_player": "ann", "decks": [list(CARDS)]})
    for _ in range(6):  # everyone keeps their card, then everyone passes
        nxt = game.next()
        game.apply(nxt.player, game.legal_actions(nxt.player)[1])
    assert game.waiting_for_deck
    drawn = game.determinize("ben", random.Random(1))
    assert drawn.observation("ben") == game.observation("ben") and drawn.waiting_for_deck
    assert drawn.legal_actions("ann") == [] and drawn.decks == (CARDS,)


# -- the replay shortcut (fast_forward) ------------------------------------------------------------


def test_replay_shortcut_gives_the_same_state_as_applying_each_entry() -> None:
    rng = random.Random(4)
    for seed in range(40):
        _, log = random_match("kobayakawa", NAMES[: 3 + seed % 4], seed)
        log = json.loads(json.dumps(log))
        for cut in (len(log["actions"]), rng.randrange(len(log["actions"]))):
            part = {**log, "actions": log["actions"][:cut]}
            fast = load(part)
            slow = start(part)
            for entry in part["actions"]:
                apply_entry(slow, entry)
            assert every_view(fast) == every_view(slow)
            assert fast.last_result == slow.last_result
            assert [e.to_json() for e in fast.last_result] == [
                e.to_json() for e in slow.last_result
            ]


def test_replay_shortcut_stops_where_the_general_checks_name_the_fault() -> None:
    _, log = random_match("kobayakawa", NAMES[:4], 9)
    bad = [
        {"player": "zed", "action": "pass"},
        {"player": log["actions"][5]["player"], "action": "draw", "keep": "both"},
        {"player": log["actions"][5]["player"], "action": "draw"},
        {"player": log["actions"][5]["player"], "action": "fight", "keep": "held"},
        {"action": "pass"},
        ["pass"],
        {"player": ["ann"], "action": "pass"},
        {"player": log["actions"][4]["player"], "action": "pass"},
    ]
    for entry in bad:
        broken = copy.deepcopy(log)
        broken["actions"][5] = entry
        with pytest.raises(LogError) as err:
            load(broken)
        assert err.value.index == 5
        game = start(broken)
        assert isinstance(game, KobayakawaState)
        assert game.fast_forward(broken["actions"], 0) == 5
        assert game.fast_forward(broken["actions"], 5) == 5
    # An unusual but legal entry goes through apply_entry; the quick path takes over after it.
    odd = copy.deepcopy(log)
    odd["actions"][3] = OrderedDict(odd["actions"][3])
    assert start(odd).fast_forward(odd["actions"], 0) == 3
    assert every_view(load(odd)) == every_view(load(log))


# -- random draws and setups -----------------------------------------------------------------------


class CountingRandom(random.Random):
    """A subclass: its own draws are asked for, never copied."""


@pytest.mark.parametrize("kind", [random.Random, CountingRandom])
def test_g1_decks_and_random_actions_are_drawn_as_random_draws_them(kind: type) -> None:
    for seed in range(100):
        ours, theirs = kind(seed), random.Random(seed)
        deck = list(CARDS)
        theirs.shuffle(deck)
        assert shuffled_deck(ours) == deck
        assert ours.getstate() == theirs.getstate()
    for game, rng in positions(40, seed=5):
        nxt = game.next()
        if nxt is None:
            continue
        state = rng.getstate()
        twin = kind()
        twin.setstate(state)
        assert game.random_action(nxt.player, rng) == twin.choice(game.legal_actions(nxt.player))
        assert rng.getstate() == twin.getstate()


def test_b2_a_deck_changed_after_it_was_checked_is_checked_again() -> None:
    header = new_header("kobayakawa", NAMES[:3], seed=1)
    decks = header["setup"]["decks"]
    start(header)
    one = decks[2].index(1)
    for bad in (True, 1.0, 16):
        decks[2][one] = bad
        with pytest.raises(LogError) as err:
            start(header)
        assert "decks[2]" in err.value.reason
        with pytest.raises(InvalidSetup):
            checked_decks(decks)
    decks[2][one] = 1
    assert start(header).decks[2] == tuple(decks[2])
    decks[3] = list(reversed(decks[3]))
    assert start(header).decks[3] == tuple(decks[3])
    decks[4].append(16)
    with pytest.raises(LogError):
        start(header)


def test_b5_every_showdown_judge_agrees() -> None:
    # The round's end judges with its own code (`_showdown`, and `_winner` when replaying);
    # `judge_fight` is the plain statement of B-5 the computer players use.
    from rules.kobayakawa_moves import judge_fight
    from rules.kobayakawa_round import _showdown, _winner

    rng = random.Random(6)
    for _ in range(3000):
        fighters = tuple(rng.sample(NAMES, rng.randint(1, 6)))
        cards = dict(zip(fighters, rng.sample(range(1, 16), len(fighters)), strict=True))
        kobayakawa = rng.choice([c for c in range(1, 16) if c not in cards.values()])
        judged = judge_fight(fighters, cards, kobayakawa)
        showdown = _showdown(3, fighters, cards, kobayakawa)
        assert (showdown.winner, showdown.why, showdown.lowest, showdown.totals) == (
            judged.winner,
            judged.why,
            judged.lowest,
            judged.totals,
        )
        assert showdown.cards == ({} if len(fighters) == 1 else cards)
        assert _winner(fighters, cards, kobayakawa) == judged.winner
