"""Computer players for Kobayakawa and Rights of Losers: legal, not foolish, blind to secrets."""

from __future__ import annotations

import random
import time

import pytest
from losers_helpers import FOUR, new_game, nth, place_chips, play_trick, put

from rules.agents import computer_action, random_action
from rules.base import Game
from rules.kamiza import Kamiza
from rules.kamiza_agent import kamiza_policy
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_agent import kobayakawa_policy
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_DRAWN, KEEP_HELD, PASS_ACTION, REPLACE
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from rules.losers_actions import Build, Chip, Play
from rules.losers_agent import losers_policy
from rules.losers_board import CARD_NUMBER, TOUCHING, spot_index


def test_every_game_plays_its_own_policy() -> None:
    """`computer_action` dispatches to the game's own policy (`Game.computer_action`)."""
    policies = (
        (Kamiza, kamiza_policy),
        (Kobayakawa, kobayakawa_policy),
        (RightsOfLosers, losers_policy),
    )
    for cls, policy in policies:
        assert cls.computer_action is not Game.computer_action
        for seed in range(20):
            state = start(new_header(cls.name, ["a", "b", "c", "d"], seed=seed))
            player = state.next().player
            chosen = computer_action(state, player, random.Random(seed))
            assert chosen == policy(state, player, random.Random(seed))


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_name", "sizes", "games"),
    [("kobayakawa", range(3, 7), 15), ("rights-of-losers", range(3, 6), 6)],
)
def test_computer_players_finish_many_games_with_legal_actions(
    game_name: str, sizes: range, games: int
) -> None:
    for size in sizes:
        for seed in range(games):
            players = [f"p{i}" for i in range(size)]
            game = start(new_header(game_name, players, seed=1000 * size + seed))
            rng = random.Random(seed)
            steps = 0
            while (nxt := game.next()) is not None:
                action = computer_action(game, nxt.player, rng)
                if game_name == "kobayakawa" or not isinstance(action, Build):
                    assert action in game.legal_actions(nxt.player)
                game.check(nxt.player, action)
                game.apply(nxt.player, action)
                steps += 1
                assert steps < 1000
            assert game.winners()


@pytest.mark.parametrize("game_name", ["kobayakawa", "rights-of-losers"])
def test_computer_players_beat_random_players(game_name: str) -> None:
    """Not foolish: two computer players against two random ones win most games."""
    won = 0.0
    for seed in range(40):
        game = start(new_header(game_name, ["c0", "c1", "r0", "r1"], seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            chooser = computer_action if nxt.player.startswith("c") else random_action
            game.apply(nxt.player, chooser(game, nxt.player, rng))
        winners = game.winners()
        won += sum(1 for w in winners if w.startswith("c")) / len(winners)
    assert won >= 24


def test_losers_policy_is_fast() -> None:
    game = start(new_header("rights-of-losers", ["a", "b", "c", "d", "e"], seed=5))
    rng = random.Random(5)
    slowest = 0.0
    while (nxt := game.next()) is not None:
        began = time.perf_counter()
        action = losers_policy(game, nxt.player, rng)
        slowest = max(slowest, time.perf_counter() - began)
        game.apply(nxt.player, action)
    assert slowest < 0.25  # the bot calls it within a second; it takes a few milliseconds


# -- Kobayakawa behaviour --------------------------------------------------------------------------


def deck(first: list[int]) -> list[int]:
    """`first`, then the rest of the cards 1 to 15 in order."""
    return first + [c for c in range(1, 16) if c not in first]


def kobayakawa_game(
    first: list[int], later: list[int] | None = None, rounds: int = 1
) -> Kobayakawa:
    """Three players a, b, c; round 1 deals `first` (a, b, c, the Kobayakawa, the pile...)."""
    decks = [deck(first)] + [deck(later or [])] * (rounds - 1)
    return Kobayakawa.create(["a", "b", "c"], None, {"start_player": "a", "decks": decks})


@pytest.mark.parametrize(("held", "drawn"), [(7, 12), (12, 7), (9, 14), (14, 6), (5, 13)])
def test_kobayakawa_keeps_the_higher_card_under_a_low_kobayakawa(held: int, drawn: int) -> None:
    # a holds `held`; b and c hold 1 and 2; the Kobayakawa is 3; a would draw `drawn`.
    game = kobayakawa_game([held, 1, 2, 3, drawn])
    keep = KEEP_DRAWN if drawn > held else KEEP_HELD
    actions = [kobayakawa_policy(game, "a", random.Random(seed)) for seed in range(60)]
    assert set(actions) <= {keep, REPLACE}
    assert actions.count(keep) >= 45


def test_kobayakawa_sometimes_keeps_a_low_card_under_a_high_kobayakawa() -> None:
    game = kobayakawa_game([1, 4, 5, 14, 9])
    actions = {kobayakawa_policy(game, "a", random.Random(seed)) for seed in range(60)}
    assert KEEP_HELD in actions  # the 1 takes the 14 if anyone fights
    assert KEEP_DRAWN in actions


def test_kobayakawa_sometimes_replaces_a_low_kobayakawa_with_a_low_card() -> None:
    game = kobayakawa_game([2, 10, 11, 3, 9])
    actions = [kobayakawa_policy(game, "a", random.Random(seed)) for seed in range(60)]
    assert 10 <= actions.count(REPLACE) <= 50


def to_fight_phase(game: Kobayakawa) -> None:
    while game.phase == "draw":
        game.apply(game.next().player, KEEP_HELD)


@pytest.mark.parametrize(
    ("cards", "fights"),
    [
        ([15, 4, 5, 2], True),  # the highest card
        ([1, 8, 9, 14], True),  # the lowest card takes a high Kobayakawa
        ([8, 6, 12, 2], False),  # a middling card under a low Kobayakawa
    ],
)
def test_kobayakawa_fights_with_high_or_low_cards_and_passes_middling(
    cards: list[int], fights: bool
) -> None:
    game = kobayakawa_game(cards)
    to_fight_phase(game)
    assert game.next().player == "a"
    expected = FIGHT_ACTION if fights else PASS_ACTION
    actions = [kobayakawa_policy(game, "a", random.Random(seed)) for seed in range(20)]
    assert actions.count(expected) >= 18


def test_kobayakawa_does_not_bet_a_middling_card_in_the_last_round() -> None:
    # Rounds 2-7: a holds 8, the Kobayakawa is 1.
    game = kobayakawa_game([1, 2, 3, 4], later=[8, 2, 3, 1], rounds=7)
    for _ in range(6):  # rounds 1-6: everybody keeps their card and passes
        to_fight_phase(game)
        while game.phase == "fight":
            game.apply(game.next().player, PASS_ACTION)
    assert game.round == 7
    to_fight_phase(game)
    assert game.next().player == "a"
    assert (game.cards["a"], game.kobayakawa, game.stake("a")) == (8, 1, 2)
    for seed in range(20):
        assert kobayakawa_policy(game, "a", random.Random(seed)) == PASS_ACTION


def test_kobayakawa_policy_ignores_other_players_cards_and_the_deck() -> None:
    for seed in range(40):
        game = start(new_header("kobayakawa", ["a", "b", "c", "d"], seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            player = nxt.player
            other = game.clone()
            hidden = [p for p in other.order if p != player]
            # Swap another player's card with a card deep in the pile (never the next draw).
            deep = len(other.pile) - 1
            if hidden and deep > other.pile_top:
                pile = list(other.pile)
                victim = hidden[seed % len(hidden)]
                other.cards[victim], pile[deep] = pile[deep], other.cards[victim]
                other.pile = tuple(pile)
                assert other.view(player) == game.view(player)
                action = kobayakawa_policy(game, player, random.Random(seed))
                assert kobayakawa_policy(other, player, random.Random(seed)) == action
            game.apply(player, computer_action(game, player, rng))


# -- Rights of Losers behaviour --------------------------------------------------------------------


def test_losers_policy_builds_the_two_highest_cards_of_the_trick() -> None:
    builds = 0
    for seed in range(8):
        game = start(new_header("rights-of-losers", ["a", "b", "c", "d"], seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            action = losers_policy(game, nxt.player, rng)
            if isinstance(action, Build):
                numbers = sorted((CARD_NUMBER[c] for c in game.won), reverse=True)
                assert sorted((CARD_NUMBER[c] for c in action.cards), reverse=True) == numbers[:2]
                builds += 1
            game.apply(nxt.player, action)
    assert builds == 80


def test_losers_policy_builds_beside_its_own_chips() -> None:
    game = new_game()
    # Ann leads red and wins: the others cannot follow.
    play_trick(game, {"ann": "red-9", "ben": "yellow-3", "cho": "green-7", "dev": "blue-1"})
    put(game, {(2, 2): "ann", (4, 6): "ben"})  # ann on card [1, 1], ben on card [2, 3]
    game.chip_queue.clear()
    game.phase = "build"
    action = losers_policy(game, "ann", random.Random(1))
    assert isinstance(action, Build)
    assert action.cards == ("red-9", "green-7")
    # The highest card goes on ann's cell; the other not on ben's.
    assert action.at[0] == (1, 1)
    assert action.at[1] != (2, 3)


def test_losers_chip_takes_back_a_contested_high_building_from_the_card() -> None:
    game = new_game()
    play_trick(game, nth(9))
    game.chip_queue.clear()
    game.phase = "build"
    game.apply("ann", Build(("red-9", "yellow-9"), ((1, 1), (3, 3))))
    game.apply("ann", game.legal_actions("ann")[-1])  # pass
    put(game, {(2, 3): "dev", (6, 5): "cho", (5, 6): "cho"})  # dev on an edge of [1, 1]
    play_trick(game, nth(1))  # ann leads red-1 and wins; ben puts the first chip
    assert game.next().player == "ben"
    action = losers_policy(game, "ben", random.Random(2))
    assert isinstance(action, Chip)
    assert action.at == (2, 2)  # on the 9 itself: it beats dev's edge chip


def test_losers_chip_goes_next_to_valuable_cards() -> None:
    for seed in range(10):
        game = start(new_header("rights-of-losers", ["a", "b", "c"], seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            action = losers_policy(game, nxt.player, rng)
            if isinstance(action, Chip):
                spot = spot_index(action.at)
                cards = [
                    game.field[cell]
                    for cell in range(25)
                    if any(s == spot for s, _ in TOUCHING[cell]) and game.field[cell]
                ]
                assert cards  # legal, and so touching a card
            game.apply(nxt.player, action)


def test_losers_policy_wins_a_valuable_trick_cheaply_and_dumps_otherwise() -> None:
    hands = {
        "ann": [f"red-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)],
        "ben": [f"yellow-{n}" for n in range(1, 11)],
        "cho": [f"green-{n}" for n in range(1, 11)],
        "dev": [f"blue-{n}" for n in range(1, 11)],
    }
    game = new_game(hands, lead="ann")
    # Ann leads with nothing at stake: she dumps her weakest card.
    assert losers_policy(game, "ann", random.Random(0)) == Play("red-1")


def last_to_play_a_valuable_trick() -> RightsOfLosers:
    """ben leads yellow-9, cho and dev cannot follow (green-10, blue-8); ann, last, holds
    yellow-2 and yellow-10."""
    hands = {
        "ann": ["yellow-2", "yellow-10", *(f"red-{n}" for n in range(1, 9))],
        "ben": [*(f"yellow-{n}" for n in (1, 3, 4, 5, 6, 7, 8, 9)), "red-9", "red-10"],
        "cho": [f"green-{n}" for n in range(1, 11)],
        "dev": [f"blue-{n}" for n in range(1, 11)],
    }
    game = new_game(hands, lead="ben")
    for player, card in (("ben", "yellow-9"), ("cho", "green-10"), ("dev", "blue-8")):
        game.apply(player, Play(card))
    return game


def test_losers_policy_wins_a_valuable_trick_when_it_can_build_beside_its_chips() -> None:
    game = last_to_play_a_valuable_trick()
    put(game, {(2, 2): "ann"})  # ann's chip on the empty cell [1, 1]
    assert losers_policy(game, "ann", random.Random(0)) == Play("yellow-10")


def test_losers_policy_loses_a_trick_it_cannot_use() -> None:
    game = last_to_play_a_valuable_trick()  # no chip of ann's anywhere: losing gives her one
    assert losers_policy(game, "ann", random.Random(0)) == Play("yellow-2")


def test_losers_policy_ignores_other_players_hands() -> None:
    for seed in range(12):
        game = start(new_header("rights-of-losers", ["a", "b", "c", "d"], seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            player = nxt.player
            others = [p for p in game.players if p != player]
            one, two = others[seed % 3], others[(seed + 1) % 3]
            other = game.clone()
            if other.hands[one] and other.hands[two]:
                # Swap a card between two other players' hands: same sizes, same public table.
                a, b = other.hands[one][0], other.hands[two][-1]
                other.hands[one][0], other.hands[two][-1] = b, a
                assert other.view(player) == game.view(player)
                action = losers_policy(game, player, random.Random(seed))
                assert losers_policy(other, player, random.Random(seed)) == action
            game.apply(player, computer_action(game, player, rng))


def test_losers_policy_mostly_passes_as_the_winner_without_a_worthwhile_move() -> None:
    game = new_game()
    play_trick(game, nth(9))  # ann wins; she has no chip on the field to move
    place_chips(game)
    game.apply("ann", losers_policy(game, "ann", random.Random(0)))
    assert game.phase == "choice"
    choices = [type(losers_policy(game, "ann", random.Random(seed))).__name__ for seed in range(60)]
    assert choices.count("Pass") >= 40
    assert {"Pass", "Appoint"} <= set(choices) <= {"Pass", "Reverse", "Appoint"}


def test_losers_policy_winner_choices_over_whole_games() -> None:
    choices: dict[str, int] = {}
    for seed in range(10):
        game = start(new_header("rights-of-losers", list(FOUR), seed=seed))
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            action = losers_policy(game, nxt.player, rng)
            if nxt.expects == "choice":
                name = type(action).__name__
                choices[name] = choices.get(name, 0) + 1
            game.apply(nxt.player, action)
    assert sum(choices.values()) == 100
    # Pass, or move a chip when that swings a lot; sometimes reverse or appoint.
    assert choices.get("Pass", 0) + choices.get("Move", 0) >= 70
    assert set(choices) <= {"Pass", "Reverse", "Appoint", "Move"}
