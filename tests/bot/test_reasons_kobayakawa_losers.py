"""Kobayakawa's showdown (B-5..B-8) and Rights of Losers' closed trick (R-4, R-5) say why, with
the rule's id, in English and Japanese. Every situation is played through the rules engine."""

from __future__ import annotations

from collections.abc import Callable

from bot.kobayakawa.boards import showdown_board
from bot.layout import as_text
from bot.layout.board import compose
from bot.losers.render import STORY, recap
from rules.base import Event
from rules.losers import RightsOfLosers
from tests.rules.losers_helpers import new_game as new_losers
from tests.rules.losers_helpers import place_chips, play_trick, settle, suit
from tests.rules.test_kobayakawa import P4, deck, new_game, play_round


def showdown_text(events: list[Event], lang: str) -> str:
    board = showdown_board(events, lang, lambda p: p)
    assert board is not None, "these events end no round"
    return as_text(compose(board))


def trick_text(events: list[Event], lang: str) -> str:
    return recap([e for e in events if isinstance(e, STORY)], 1, lang, lambda p: p)


def assert_says(
    text_of: Callable[[list[Event], str], str], events: list[Event], rule: str, en: str, ja: str
) -> None:
    """The message, in each language, holds the clause `words (rule)`."""
    for lang, words in (("en", en), ("ja", ja)):
        text = text_of(events, lang)
        assert f"{words} ({rule})" in text, f"{lang}: {words!r} ({rule}) not in\n{text}"


# -- Kobayakawa --------------------------------------------------------------------------------


def test_b5_and_b6_the_highest_total_wins_and_takes_the_bets() -> None:
    game = new_game([deck(12, 8, 14, 7)] * 7)  # ben's 8 + the Kobayakawa 7 = 15 beats 14
    events = play_round(game, {"ann", "ben", "cho"})
    assert_says(
        showdown_text,
        events,
        "B-5",
        "the lowest card adds the Kobayakawa; the highest total wins",
        "一番低いカードに小早川を足し、合計が最も高い人の勝ち",
    )
    assert_says(
        showdown_text,
        events,
        "B-6",
        "the winner takes the bets and 1 from the centre, and starts the next round",
        "勝者は賭けと中央の1枚を取り、次のラウンドのスタートプレイヤーになる",
    )


def test_b5_a_tie_goes_to_the_fighter_closest_clockwise_to_the_start_player() -> None:
    game = new_game([deck(15, 8, 1, 7)] * 7)  # ann 15, ben 8 + 7 = 15
    events = play_round(game, {"ann", "ben"})
    assert_says(
        showdown_text,
        events,
        "B-5",
        "equal totals: the fighter closest clockwise to the start player wins",
        "同点：スタートプレイヤーから時計回りで最も近い人の勝ち",
    )


def test_b5_a_lone_fighter_wins_without_showing() -> None:
    game = new_game([deck(1, 14, 15, 13)] * 7)
    events = play_round(game, {"ann"})
    assert_says(
        showdown_text,
        events,
        "B-5",
        "a lone fighter wins without showing the card",
        "勝負した人が一人なら、カードを見せずに勝ち",
    )


def test_b6_nobody_fought_the_centre_goes_to_the_box() -> None:
    game = new_game([deck()] * 7)
    events = play_round(game)
    assert_says(
        showdown_text,
        events,
        "B-6",
        "nobody fought: the centre kamons go back to the box and the start player stays",
        "誰も勝負しない：中央の家紋は箱に戻り、スタートプレイヤーはそのまま",
    )


def test_b7_a_player_with_no_kamons_is_out_and_too_few_players_end_the_game() -> None:
    game = new_game([deck(15, 1, 2, 3)] * 4 + [deck(4, 5, 6, 7, 8)] * 3, P4)
    for _ in range(4):  # dev loses to ann four times
        events = play_round(game, {"ann", "dev"})
    assert_says(
        showdown_text, events, "B-7", "a player with 0 kamons is out", "家紋が0枚になった人は脱落"
    )
    game = new_game([deck(15, 1, 2, 3)] * 7)
    for _ in range(4):  # ben and cho lose to ann four times
        events = play_round(game, {"ann", "ben", "cho"})
    assert game.over
    assert_says(showdown_text, events, "B-7", "fewer than 2 players are left", "残りが2人未満")


def test_b8_after_round_seven_the_most_kamons_win() -> None:
    game = new_game([deck()] * 7)
    for _ in range(7):
        events = play_round(game)
    assert game.over
    assert_says(
        showdown_text,
        events,
        "B-8",
        "after round 7 the most kamons win",
        "第7ラウンドの後、家紋が最も多い人の勝ち",
    )


# -- Rights of Losers --------------------------------------------------------------------------

FIRST = {"ann": "red-1", "ben": "yellow-1", "cho": "green-1", "dev": "blue-1"}


def whole_trick(game: RightsOfLosers, cards: dict[str, str]) -> list[Event]:
    return play_trick(game, cards) + settle(game)


def test_r4_the_highest_of_the_led_suit_wins_and_r5_the_rest_leave_the_game() -> None:
    game = new_losers()
    events = whole_trick(game, FIRST)  # nobody can follow red: ann's red-1 wins
    assert_says(
        trick_text,
        events,
        "R-4",
        "the highest card of the led suit wins; other suits never win",
        "台札のスートで一番大きいカードの勝ち；他のスートは勝てない",
    )
    assert_says(
        trick_text,
        events,
        "R-5",
        "the winner builds 2 of the trick's cards; the others leave the game",
        "勝者はトリックのカード2枚を建て、残りはゲームから除かれる",
    )


def test_r4_reversed_the_lowest_of_the_led_suit_wins() -> None:
    mixed = {
        "ann": suit("red")[:5] + suit("yellow")[:5],
        "ben": suit("red")[5:] + suit("yellow")[5:],
        "cho": suit("green"),
        "dev": suit("blue"),
    }
    game = new_losers(mixed)
    play_trick(game, {"ann": "red-1", "ben": "red-6", "cho": "green-1", "dev": "blue-1"})
    settle(game, {"action": "reverse"})
    events = play_trick(
        game, {"ben": "yellow-10", "cho": "green-2", "dev": "blue-2", "ann": "yellow-1"}
    )
    assert_says(
        trick_text,
        events,
        "R-4",
        "the strength is reversed: the lowest card of the led suit wins",
        "強さが逆転中：台札のスートで一番小さいカードの勝ち",
    )


def test_r5_a_loser_without_chips_or_without_a_free_spot_puts_none() -> None:
    game = new_losers()
    game.chips_left["cho"] = 0
    events = play_trick(game, FIRST) + place_chips(game)
    assert_says(
        trick_text,
        events,
        "R-5",
        "a loser with no chips left puts none",
        "チップの残っていない敗者は置かない",
    )
    game = new_losers()
    spots = sorted(game.open)
    for spot in spots[:-1]:
        game.chips[spot] = "ann"
    game.open = {spots[-1]}
    events = play_trick(game, FIRST) + place_chips(game)
    assert_says(
        trick_text,
        events,
        "R-5",
        "no free spot touches a card on the field",
        "場のカードに接する空きスポットがない",
    )
