"""KAMIZA's reveal says why: each outcome's clause names its rule (K-2, K-4..K-13), in English
and Japanese. Every situation is played through the rules engine; the rule id and the case come
from its events, the bot only words them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.kamiza.boards import reveal_board
from bot.layout import as_text
from bot.layout.board import compose
from rules.base import Event
from rules.kamiza import Kamiza
from tests.rules.kamiza_helpers import FOUR, new_match, play_round


class Says(NamedTuple):
    """A reason clause expected in a reveal: the rule id and its words in each language."""

    rule: str
    en: str
    ja: str


def reveal_text(events: list[Event], lang: str) -> str:
    board = reveal_board(events, lang, lambda p: p)
    assert board is not None, "these events reveal no round"
    return as_text(compose(board))


def assert_says(events: list[Event], *expected: Says) -> None:
    """The reveal, in each language, holds each clause `words (rule)`."""
    for says in expected:
        for lang, words in (("en", says.en), ("ja", says.ja)):
            text = reveal_text(events, lang)
            assert f"{words} ({says.rule})" in text, f"{lang}: {words!r} not in\n{text}"


def fill_round(game: Kamiza, plays: dict[str, str]) -> list[Event]:
    """One round: the players in `plays` play those; everyone else their first card to
    shimoza (where it cannot touch kamiza's judging)."""
    order = [p for p in game.order if p not in game.dropped]
    return play_round(game, {p: plays.get(p, f"{game.hands[p][0]}@shimoza") for p in order})


WANTED = Says(
    "K-10",
    "a Corrupt Policeman whose owner gained points earns a WANTED chip",
    "持ち主が得点した悪徳警官はWANTEDチップを1枚もらう",
)

# One round each, red, blue, green and purple playing `plays` ("card@area"), then the clauses
# the reveal must say ([rule id, English, Japanese]); each case's id names its rule id and case.
ROUNDS = [
    pytest.param(
        row["edition"], tuple(row["plays"]), [Says(*says) for says in row["says"]], id=row["id"]
    )
    for row in json.loads((Path(__file__).parent / "reasons_kamiza_rounds.json").read_text("utf-8"))
]


@pytest.mark.parametrize(("edition", "plays", "expected"), ROUNDS)
def test_k4_to_k12_each_outcome_of_a_round_names_its_rule(
    edition: str, plays: tuple[str, ...], expected: list[Says]
) -> None:
    game = new_match(edition=edition)
    events = play_round(game, dict(zip(FOUR, plays, strict=True)))
    assert_says(events, *expected)


def test_k10_three_wanted_chips_drop_a_player_out() -> None:
    game = new_match()
    events: list[Event] = []
    while not game.dropped:  # blue bribes red's Boss in the first round of every game
        events = fill_round(game, {"red": "boss@kamiza", "blue": "policeman@kamiza"})
        assert_says(events, WANTED)
        if not game.dropped:
            fill_round(game, {})
            fill_round(game, {})
    assert game.dropped == ["blue"] and game.game_index == 2
    assert_says(
        events, Says("K-10", "3 WANTED chips: out of the match", "WANTEDチップ3枚：マッチから脱落")
    )


def test_k2_a_game_is_three_rounds() -> None:
    game = new_match()
    fill_round(game, {})
    fill_round(game, {})
    events = fill_round(game, {})
    assert_says(
        events,
        Says(
            "K-2",
            "a game is 3 rounds; then every card goes back to hand",
            "1ゲームは3ラウンド；終わると全カードが手札に戻る",
        ),
    )


def play_match(first: dict[str, str]) -> list[Event]:
    """A match to its end: `first` in its first round, then every card to shimoza; the events
    of its last round."""
    game = new_match()
    events = fill_round(game, first)
    while not game.over:
        events = fill_round(game, {})
    assert "The match is over." in reveal_text(events, "en")
    return events


def test_k13_the_highest_total_wins_and_equal_totals_and_cards_share_the_win() -> None:
    assert_says(
        play_match({"red": "boss@kamiza"}),
        Says("K-13", "the highest total after 3 games wins", "3ゲーム後の合計点が最も高い人の勝ち"),
    )
    assert_says(
        play_match({}),  # every player plays the same cards: all tied
        Says(
            "K-13",
            "equal totals and equal unplayed cards: a shared win",
            "同点で出さなかったカードも同じ：勝ちを分け合う",
        ),
    )
