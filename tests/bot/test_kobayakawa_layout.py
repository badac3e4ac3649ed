"""Kobayakawa's messages as Components V2 boards (bot/kobayakawa/boards.py, presenter.py): what
the table, the showdown and the standings read like, which buttons are live, the accent of the
seat to act, G-3 on every board, and Discord's limits kept at the largest table and at any state
random play reaches (judged by `bot.layout` and by the fake Discord's own checkers)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord
from fakediscord.components_v2 import check_layout
from fakediscord.server import validate_components
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from bot.kobayakawa import boards
from bot.kobayakawa.hand import hand_message
from bot.layout import as_text
from bot.layout.board import compose, layout_of
from bot.layout.limits import MAX_COMPONENTS, MAX_TEXT, problems
from bot.layout.payload import TEXT_DISPLAY, payload, walk
from bot.tables.messages import seat_colour
from rules.kobayakawa import FIGHT, ROUNDS
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    NobodyFought,
    Showdown,
)
from tests.bot.fakes import custom_ids
from tests.bot.kobayakawa_tables import (
    LONG_NAMES,
    Presenter,
    dealt,
    moment,
    random_play,
    seats,
    table,
)

P4 = ["ann", "ben", "cho", "bot-1"]


def accepted(view: discord.ui.LayoutView) -> str:
    """`view` as Discord (and the fake Discord) would accept it, unfolded; its text read out."""
    sent = payload(view)
    assert problems(sent) == []
    validate_components(sent, True)
    check_layout(sent, True)
    said = as_text(view)
    for lang in ("en", "ja"):  # nothing of it had to give way ("… and N more")
        assert t(lang, "layout.more", n=1).split("1")[0].strip() not in said, said
    return said


def named(presenter: Presenter, tb: Any) -> Callable[[str], str]:
    return lambda player: presenter.seat_name(tb, player)


def size(view: discord.ui.LayoutView) -> tuple[int, int]:
    """Its components (nested ones count) and characters of text, as Discord counts them."""
    every = list(walk(payload(view)))
    text = sum(len(c.get("content") or "") for c in every if c["type"] == TEXT_DISPLAY)
    return len(every), text


def mid_round() -> Any:
    """Four seats (Ben starts; Cho on autopilot; a computer), in the fight phase of round 1:
    Ben kept his card and fights, Cho replaced the Kobayakawa and passed, the computer kept the
    card it drew and fights; Ann to act."""
    state = dealt(P4, 8, 13, 11, 4, 7, 2, 12, 14, 5, start="ben")
    for player, action in (
        ("ben", KEEP_HELD),
        ("cho", REPLACE),
        ("bot-1", KEEP_DRAWN),
        ("ann", KEEP_HELD),
        ("ben", FIGHT_ACTION),
        ("cho", PASS_ACTION),
        ("bot-1", FIGHT_ACTION),
    ):
        state.apply(player, action)
    return table(state, seats(P4, ["Ann", "Ben", "Cho", ""]), autopilot={"cho"}, seq=7)


def test_a_table_mid_round_reads_as_a_board_of_seats() -> None:
    tb = mid_round()
    view = Presenter("en", by_name=True).table_message(tb, moment(tb), "en")["view"]
    assert accepted(view).splitlines() == [
        "### Kobayakawa · Round 1/7",
        "▶️ **Ann** to play.",
        "**Fight phase:** in turn, fight (bet 1 🏵️) or pass.",
        "🏯 Kobayakawa: **12**",
        "earlier this round: 7",
        "🏵️ Centre: **8** · Pot: **2**",
        "**Seats** (⭐ starts this round)",
        "▶️ Ann · 🏵️ 4 · discarded 5 · to play",
        "✓ ⭐ Ben · 🏵️ 3 · discarded 2 · ⚔️ bet 1",
        "✓ Cho · 🏵️ 4 · 🔄 replaced the Kobayakawa · 🏳️ passed (autopilot)",
        "✓ 🤖 Bot 1 · 🏵️ 3 · discarded 11 · ⚔️ bet 1",
        "———",
        "**This round**",
        "🂠 Ben drew a card and discarded 2.",
        "🔄 Cho replaced the Kobayakawa unseen: 7 → 12.",
        "🂠 🤖 Bot 1 drew a card and discarded 11.",
        "🂠 Ann drew a card and discarded 5.",
        "— Fight phase —",
        "⚔️ Ben fights and bets 1 🏵️ (pot 1).",
        "🏳️ Cho passes.",
        "⚔️ 🤖 Bot 1 fights and bets 1 🏵️ (pot 2).",
        "-# Press “Your hand” to see your card and to act on your turn.",
        "[Your hand] [I'm back] [?]",
    ]
    [container] = payload(view)
    assert container["accent_color"] == seat_colour(P4.index("ann")).value  # the seat to act
    kinds = [c["type"] for c in container["components"]]
    # title, turn, phase, centre, heading, 4 seats, separator, history, footer, one row
    assert kinds == [10] * 9 + [14, 10, 10, 1]
    components, text = size(view)
    assert components == 17 and 600 < text < MAX_TEXT // 4  # room to spare at four seats
    # live: everyone's hand, "I'm back" for the seat on autopilot, the rules of the fight (B-4)
    assert custom_ids(view) == ["g:hand:7", "g:back:7", "g:why:7:B-4"]


def test_the_accent_follows_the_seat_to_act_and_the_buttons_the_autopilot() -> None:
    state = dealt(P4, 8, 13, 11, 4, 7)
    tb = table(state, seats(P4, ["Ann", "Ben", "Cho", ""]))
    presenter = Presenter("ja")
    for index, player in enumerate(P4):
        assert state.next().player == player
        view = presenter.table_message(tb, moment(tb), "ja")["view"]
        [container] = payload(view)
        assert container["accent_color"] == seat_colour(index).value
        said = accepted(view)
        assert said.splitlines()[0] == "### 小早川 · 第1/7ラウンド"
        mine = [line for line in said.splitlines() if line.startswith("▶️")]
        assert len(mine) == 2 and mine[1].endswith(" · 手番")  # the turn line, then the seat
        assert custom_ids(view) == ["g:hand:7", "g:why:7:B-3"]  # nobody on autopilot
        state.apply(player, KEEP_HELD)
    assert state.phase == FIGHT
    said = as_text(presenter.table_message(tb, moment(tb), "ja")["view"])
    assert said.count("✓") == 0  # a new phase: nobody has fought or passed yet


def test_h2_all_at_once_every_seat_still_choosing_is_to_play_and_no_choice_shows() -> None:
    def board_after(first: Any) -> str:
        state = dealt(P4, 8, 13, 11, 4, 7, simultaneous=True)
        for player in P4:
            state.apply(player, KEEP_HELD)
        state.apply("cho", first)  # chosen aside: nobody sees what (H-2)
        tb = table(state, seats(P4, ["Ann", "Ben", "Cho", ""]))
        return accepted(Presenter("en", by_name=True).table_message(tb, moment(tb), "en")["view"])

    said = board_after(FIGHT_ACTION)
    assert said == board_after(PASS_ACTION)
    lines = said.splitlines()
    assert lines[2] == (
        "**Fight phase:** everyone at once, fight (bet 1 🏵️) or pass; the choices show when"
        " all have chosen."
    )
    seats_read = lines[lines.index("**Seats** (⭐ starts this round)") + 1 :][:4]
    assert seats_read == [
        "▶️ ⭐ Ann · 🏵️ 4 · discarded 1 · to play",
        "▶️ Ben · 🏵️ 4 · discarded 2 · to play",
        "✓ Cho · 🏵️ 4 · discarded 3 · 🤐 has chosen",
        "▶️ 🤖 Bot 1 · 🏵️ 4 · discarded 5 · to play",
    ]


def test_g3_a_card_shows_only_on_its_holders_own_board() -> None:
    tb = mid_round()
    presenter = Presenter("en")
    public = as_text(compose(presenter.table_board(tb, "en")))
    assert "🎴" not in public and "Your card" not in public
    for player, held in (("ann", 4), ("ben", 8), ("cho", 13), ("bot-1", 14)):
        own = as_text(compose(presenter.table_board(tb, "en", viewer=player)))
        assert own.count("🎴") == 1 and f"Your card: 🎴 **{held}**" in own
    # the showdown: Cho passed, her 13 is never shown; the fighters' cards are
    events = tb.state.apply("ann", FIGHT_ACTION)
    board = boards.showdown_board(events, "en", named(presenter, tb))
    assert board is not None
    said = accepted(compose(board))
    assert "🎴 **13**" not in said and said.count("🎴") == 3
    assert "<@100>: 🎴 **4** + 🏯 12 = **16** 🏆" in said
    closed = as_text(compose(presenter.table_board(tb, "en")))
    assert "🎴" not in closed


def test_the_showdown_board_says_who_fought_with_what_and_why_each_gains() -> None:
    state = dealt(["a", "b", "c"], 5, 12, 1, 7)  # Ann 5 + 7 = 12 ties Ben's 12
    for p in "abc":
        state.apply(p, KEEP_HELD)
    state.apply("a", FIGHT_ACTION)
    state.apply("b", FIGHT_ACTION)
    events = state.apply("c", PASS_ACTION)
    board = boards.showdown_board(events, "en", str.upper)
    assert board is not None
    view = compose(board)
    assert accepted(view).splitlines() == [
        "### Round 1 · Showdown",
        "🏳️ C passes.",
        "Fighters: A, B",
        "**Revealed cards**",
        "A: 🎴 **5** + 🏯 7 = **12** 🏆",
        "B: 🎴 **12**",
        "———",
        "**Judging**",
        "A has the lowest card, 5, and adds the Kobayakawa 7: 12.",
        "🏆 A, B tie at 12; A sits closest clockwise to the start player and wins. — *equal"
        " totals: the fighter closest clockwise to the start player wins (B-5)*",
        "A takes the pot (2 🏵️) and 1 🏵️ from the centre: 6 🏵️ now, and starts the next"
        " round. — *the winner takes the bets and 1 from the centre, and starts the next round"
        " (B-6)*",
        "Round 2: A starts; the new Kobayakawa is 7.",
    ]
    assert size(view)[0] == 9 and custom_ids(view) == []  # its "?" comes with the presenter


def test_the_standings_show_the_card_inside_the_layout() -> None:
    board = boards.standings_board(["1. 🏆 Ann · 6", "2. Ben · 4"], "ja", 7)
    board.picture("attachment://standings.png", "小早川 · 最終結果：1位 Ann")
    said = accepted(compose(board)).splitlines()
    assert said == [
        "### 小早川 · 最終結果",
        "1. 🏆 Ann · 6",
        "2. Ben · 4",
        "家紋が最も多い人の勝ち。同数なら勝利を分け合います。",
        "[image: 小早川 · 最終結果：1位 Ann]",
        "-# ゲーム #7 · 台帳に記録しました",
    ]


def largest_table() -> Any:
    """Six members with 32-character Japanese names, none out, in round 7's fight phase with
    every Kobayakawa replaced and every seat but the last one bet: the longest table there is."""
    players = [f"p{n}" for n in range(6)]
    state = dealt(players, 1, 2, 3, 4, 5, 6)
    while state.round_number() < ROUNDS:  # nobody fights: nobody loses a kamon
        state.apply(state.next().player, PASS_ACTION if state.phase == FIGHT else KEEP_HELD)
    for _ in players:
        state.apply(state.next().player, REPLACE)
    for _ in players[:-1]:
        state.apply(state.next().player, FIGHT_ACTION)
    return table(state, seats(players, LONG_NAMES), autopilot=players[:3], seq=99)


def test_the_largest_table_fits_every_limit_in_both_languages() -> None:
    for lang in ("en", "ja"):
        tb = largest_table()
        presenter = Presenter(lang, by_name=True)
        view = presenter.table_message(tb, moment(tb), lang)["view"]
        said = accepted(view)
        assert all(name in said for name in LONG_NAMES)
        components, text = size(view)
        assert components <= MAX_COMPONENTS and text <= MAX_TEXT
        assert said.count("🔄") == 2 * 6  # each replacement: on its seat and in the history
        for player, seat in tb.seats.items():
            accepted(compose(presenter.table_board(tb, lang, viewer=player)))
            accepted(layout_of(*hand_message(tb, seat, lang), lang=lang))
        last = tb.state.next().player
        events = tb.state.apply(last, FIGHT_ACTION)
        board = boards.showdown_board(events, lang, named(presenter, tb))
        assert board is not None
        assert sum(name in accepted(compose(board)) for name in LONG_NAMES) == 6


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 6),
    computers=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(0, 120),
    lang=st.sampled_from(["en", "ja"]),
    simultaneous=st.booleans(),
)
def test_no_table_showdown_or_hand_menu_ever_exceeds_a_limit(
    players: int, computers: int, seed: int, depth: int, lang: str, simultaneous: bool
) -> None:
    """Random legal play, 3 to 6 seats (some computers, some on autopilot), to a random depth:
    the table (public and each seat's view), every showdown on the way and each seat's hand menu
    stay within every limit, unfolded."""
    rng = random.Random(seed)
    computers = min(computers, players - 1)
    names = [f"p{n}" for n in range(players - computers)]
    names += [f"bot-{n + 1}" for n in range(computers)]
    deck = rng.sample(range(1, 16), 15)
    state = dealt(names, *deck, start=rng.choice(names), simultaneous=simultaneous)
    tb = table(state, seats(names, LONG_NAMES[: len(names)]), autopilot=names[:1])
    presenter = Presenter(lang, by_name=True)
    ended = 0
    for seq, (_, events) in enumerate(random_play(state, rng, depth), start=1):
        tb.seq = seq
        board = boards.showdown_board(events, lang, named(presenter, tb))
        if board is not None:
            ended += 1
            accepted(compose(board))
            assert any(isinstance(e, Showdown | NobodyFought) for e in events)
    now = moment(tb)
    accepted(presenter.table_message(tb, now, lang)["view"])
    accepted(compose(presenter.table_board(tb, lang, at=replace(now, closing=True))))
    for player, seat in tb.seats.items():
        accepted(compose(presenter.table_board(tb, lang, viewer=player)))
        accepted(layout_of(*hand_message(tb, seat, lang), lang=lang))
    assert ended <= state.round_number()
