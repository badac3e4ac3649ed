"""KAMIZA's reveal says why: each outcome's clause names its rule (K-2, K-4..K-13), in English
and Japanese. Every situation is played through the rules engine; the rule id and the case come
from its events, the bot only words them."""

from __future__ import annotations

from bot.kamiza.render import reveal_embed
from rules.base import Event
from rules.kamiza import Kamiza
from tests.bot.fakes import embed_strings
from tests.rules.kamiza_helpers import new_match, play_round


def reveal_text(events: list[Event], lang: str) -> str:
    embed = reveal_embed(events, lang, lambda p: p)
    assert embed is not None, "these events reveal no round"
    return "\n".join(embed_strings(embed))


def assert_says(events: list[Event], rule: str, en: str, ja: str) -> None:
    """The reveal, in each language, holds the clause `words (rule)` on the line of its step."""
    for lang, words in (("en", en), ("ja", ja)):
        text = reveal_text(events, lang)
        assert f"{words} ({rule})" in text, f"{lang}: {words!r} ({rule}) not in\n{text}"


def fill_round(game: Kamiza, plays: dict[str, str]) -> list[Event]:
    """One round: the players in `plays` play those; everyone else their first card to
    shimoza (where it cannot touch kamiza's judging)."""
    wanted = dict(plays)
    for player in game.order:
        if player not in game.dropped:
            wanted.setdefault(player, f"{game.hands[player][0]}@shimoza")
    return play_round(game, {p: wanted[p] for p in game.order if p not in game.dropped})


def test_k4_a_boss_in_shimoza_is_removed_and_the_reveal_says_why() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@shimoza",
            "blue": "underboss@kamiza",
            "green": "hitman@shimoza",
            "purple": "hitman@kamiza",
        },
    )
    assert_says(events, "K-4", "a 👑 Boss cannot sit in shimoza", "👑 組長は下座に座れない")


def test_k5_a_lone_raid_squeals_and_its_player_starts_next() -> None:
    game = new_match(edition="classic")
    events = play_round(
        game,
        {
            "red": "raid@kamiza",
            "blue": "boss@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert_says(
        events,
        "K-5",
        "exactly one Police raid: nobody scores",
        "手入れがちょうど1枚：誰も得点しない",
    )
    assert_says(
        events,
        "K-5",
        "the squealer starts the next round",
        "タレコミをした人が次のラウンドのスタートプレイヤー",
    )


def test_k6_two_bosses_in_kamiza_cancel_and_the_reveal_says_why() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "boss@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert_says(events, "K-6", "cancelled: 2 × 👑 Boss in kamiza", "相討ち：上座に👑 組長が2枚")


def test_k7_the_underboss_loses_its_seat_to_the_higher_boss() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "underboss@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert_says(
        events,
        "K-7",
        "the higher 👑 Boss keeps the seat in kamiza",
        "上座では数字の大きい👑 組長が席を守る",
    )


def test_k8_a_lone_boss_is_hit_and_the_hitman_scores_four() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "hitman@shimoza",
            "purple": "underboss@shimoza",
        },
    )
    assert_says(
        events,
        "K-8",
        "a Boss with no Underboss beside it is hit by the Hitman",
        "若頭のいない組長は鉄砲玉に討たれる",
    )
    assert_says(events, "K-8", "a Hitman who hit scores 4", "組長を討った鉄砲玉は4点")


def test_k8_an_underboss_protects_the_boss_and_the_hit_fails() -> None:
    game = new_match()
    events = play_round(
        game,
        {
            "red": "boss@kamiza",
            "blue": "hitman@kamiza",
            "green": "underboss@kamiza",
            "purple": "hitman@shimoza",
        },
    )
    assert_says(
        events,
        "K-8",
        "an Underboss in kamiza protects the Boss, so the hit fails",
        "上座の若頭が組長を守るので、鉄砲玉は失敗する",
    )
    assert "(K-7)" in reveal_text(events, "en")  # the Underboss itself is simply outranked


def test_k9_a_policeman_takes_a_bribe_and_with_nobody_to_bribe_scores_nothing() -> None:
    game = new_match()
    events = fill_round(game, {"red": "boss@kamiza", "blue": "policeman@kamiza"})
    assert_says(
        events,
        "K-9",
        "the bribed card's points are halved, rounded down, and shared",
        "座ったカードの点を半分（切り捨て）にして分け合う",
    )
    events = fill_round(game, {"blue": "hitman@shimoza", "green": "policeman@kamiza"})
    assert_says(
        events,
        "K-9",
        "a Corrupt Policeman with nobody to bribe scores 0",
        "賄賂の相手がいない悪徳警官は0点",
    )


def test_k10_a_bribe_of_0_earns_no_wanted_chip() -> None:
    game = new_match()
    events = fill_round(game, {"red": "hitman@kamiza", "blue": "policeman@kamiza"})
    assert_says(
        events, "K-10", "bribe of 0 earns no WANTED chip", "0点の賄賂ではWANTEDチップはもらわない"
    )
    assert game.wanted["blue"] == 0


def test_k10_a_paid_policeman_earns_a_chip_and_three_chips_drop_out() -> None:
    game = new_match()
    events: list[Event] = []
    for _ in range(3):  # blue bribes red's Boss in the first round of every game
        events = fill_round(game, {"red": "boss@kamiza", "blue": "policeman@kamiza"})
        assert_says(
            events,
            "K-10",
            "a Corrupt Policeman whose owner gained points earns a WANTED chip",
            "持ち主が得点した悪徳警官はWANTEDチップを1枚もらう",
        )
        if game.dropped:
            break
        fill_round(game, {})
        fill_round(game, {})
    assert game.dropped == ["blue"]
    assert_says(
        events, "K-10", "3 WANTED chips: out of the match", "WANTEDチップ3枚：マッチから脱落"
    )


def test_k11_a_seated_card_scores_its_number() -> None:
    game = new_match()
    events = fill_round(game, {"red": "underboss@shimoza"})
    assert_says(
        events, "K-11", "a seated card scores its number", "座ったカードは自分の数字を得点する"
    )


def test_k12_and_k2_the_highest_total_starts_and_a_game_is_three_rounds() -> None:
    game = new_match()
    events = fill_round(game, {})
    assert_says(
        events,
        "K-12",
        "the highest total starts; a tie goes clockwise from the start player",
        "合計点が最も高い人がスタート；同点ならスタートプレイヤーから時計回りで先の人",
    )
    fill_round(game, {})
    events = fill_round(game, {})
    assert_says(
        events,
        "K-2",
        "a game is 3 rounds; then every card goes back to hand",
        "1ゲームは3ラウンド；終わると全カードが手札に戻る",
    )


def play_match(game: Kamiza, first: dict[str, str]) -> list[Event]:
    """The match to its end: `first` in its first round, then every card to shimoza; the
    events of its last round."""
    events = fill_round(game, first)
    while not game.over:
        events = fill_round(game, {})
    return events


def test_k13_the_highest_total_wins_and_equal_totals_and_cards_share_the_win() -> None:
    events = play_match(new_match(), {"red": "boss@kamiza"})
    assert "The match is over." in reveal_text(events, "en")
    assert_says(
        events,
        "K-13",
        "the highest total after 3 games wins",
        "3ゲーム後の合計点が最も高い人の勝ち",
    )
    events = play_match(new_match(), {})  # every player plays the same cards: all tied
    assert_says(
        events,
        "K-13",
        "equal totals and equal unplayed cards: a shared win",
        "同点で出さなかったカードも同じ：勝ちを分け合う",
    )
