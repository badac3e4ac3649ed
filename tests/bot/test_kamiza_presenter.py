"""KAMIZA's public messages (bot/kamiza/presenter.py, render.py) as a fake bot records them: real
tables and ledger, real presenter, seeded matches; only the Discord client is replaced."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.kamiza import boards, render
from bot.kamiza.presenter import KamizaPresenter
from bot.layout import as_text
from bot.layout.board import compose
from bot.layout.payload import payload
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from data.backends import open_ledger
from data.ratings import competition_ranks
from rules.kamiza import Kamiza, Play
from tests.bot.fakes import (
    FakeBot,
    FakeInteraction,
    Posted,
    accepted,
    block,
    custom_ids,
    embed_strings,
    following,
    galleries,
    heading,
    is_title,
)
from tests.bot.test_kamiza_hand_view import (
    CLASSIC,
    LANGS,
    LOCALE,
    Line,
    at,
    card_counts,
    card_mentions,
    find_line,
    kamiza,
    policeman_bribes,
    seat_line,
)
from tests.bot.test_runtime import GUILD

ADVANCED = {"advanced": True}
NAMES = {"a": "Ann", "b": "Ben", "c": "Cho"}


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


@pytest.fixture
async def presented(ledger):
    """`presented(lang)`: a manager whose KAMIZA tables post through a fake bot in `lang`."""
    made: list[TableManager] = []

    def make(lang: str) -> tuple[TableManager, FakeBot]:
        bot = FakeBot(LOCALE[lang])
        manager = TableManager(
            ledger,
            {"kamiza": KamizaPresenter(bot)},
            Defaults(turn_seconds=3600, lobby_seconds=600),
        )
        made.append(manager)
        return manager, bot

    yield make
    for manager in made:
        await manager.shutdown()


def presenter_of(table: Table) -> KamizaPresenter:
    assert isinstance(table.presenter, KamizaPresenter)
    return table.presenter


def from_the_start(line: Line) -> Line:
    """The same match from its start (the test commits the plays itself)."""
    return Line(line.humans, line.options, line.seed, ())


async def opened(manager: TableManager, monkeypatch: pytest.MonkeyPatch, line: Line) -> Table:
    """`seat_line`, with everything it had to show shown."""
    table = await seat_line(manager, monkeypatch, line)
    await table.outbox.drain()
    return table


async def play(table: Table, bot: FakeBot, player: str, action: Play, cause: str = "player"):
    """Commit one play and return its events and what the presenter posted for it (but the
    turn pings: `bot.tables.presenting.MessagePresenter.turn`, tested on their own)."""
    before = len(bot.posted)
    events = await table.act(player, action, cause=cause)
    await table.outbox.drain()
    return events, [p for p in bot.posted[before:] if not p.is_ping]


def only_why(view: discord.ui.LayoutView | None) -> bool:
    """A closed round's buttons: only the "?" of the rules that decided it, nothing to play."""
    ids = custom_ids(view)
    return bool(ids) and all(i.startswith("g:why:") for i in ids)


def strings(posted: Posted) -> list[str]:
    return [posted.text]


def mention(table: Table, player: str, lang: str) -> str:
    """How the table names a member: their mention, with the honorific in Japanese."""
    return t(lang, "table.member_name", mention=f"<@{table.seats[player].user_id}>")


def seat_lines(text: str, lang: str) -> list[str]:
    """A laid-out table's seat lines, in seating order."""
    return block(text, t(lang, "kamiza.table.seats"))


def face_up(state: Kamiza, viewer: str | None) -> list[str]:
    """The cards on the table `viewer` may see: their own and the advanced start player's."""
    return [
        p.card
        for p in state.plays
        if p.player == viewer or (state.advanced and p.player == state.start_player)
    ]


def assert_shows_only(
    strings: Sequence[str], lang: str, state: Kamiza, visible: list[str], times: int = 1
) -> None:
    """`strings` name exactly the `visible` cards, each `times` times (a laid-out table names a
    face-up card twice: on its player's seat line and in its area)."""
    expected = {c: visible.count(c) * times for c in state.cards}
    assert card_mentions(strings, lang, state.cards) == expected
    assert card_counts(strings, lang, state.cards) == expected


# -- G-3: the table before the reveal ------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("humans", "options"), [(3, {}), (4, CLASSIC), (3, ADVANCED), (4, {**CLASSIC, **ADVANCED})]
)
async def test_g3_the_table_never_shows_a_face_down_card_of_another(
    presented, monkeypatch, lang, humans, options
) -> None:
    """Every public message of a whole match, and the table as each player and a spectator
    would ask for it, name no face-down card but the viewer's own (K-3: the advanced start
    player's card is face up for all)."""
    manager, bot = presented(lang)
    line = find_line(lambda s: s.finished, humans=humans, options=options)
    table = await opened(manager, monkeypatch, from_the_start(line))
    presenter = presenter_of(table)
    state = kamiza(table)
    table_message = table.message_ids["table"]
    for player, action in line.plays:
        events, posted = await play(table, bot, player, action)
        for message in posted:
            accepted(message)
        revealed = next((e for e in events if e.kind == "round_revealed"), None)
        if revealed is not None:
            closed, reveal, after = posted
            assert (closed.kind, closed.message_id) == ("edit", table_message)
            assert only_why(closed.view) and closed.content is None
            said = t(lang, "kamiza.table.round_over", game=revealed.game, round=revealed.round)
            assert closed.text.splitlines()[1] == said and "<@" not in said
            assert t(lang, "kamiza.table.to_play") not in closed.text  # nobody to act
            assert reveal.kind == "send"
            title = t(lang, "kamiza.reveal.title", game=revealed.game, round=revealed.round)
            assert heading(reveal.view) == title
            if state.finished:
                assert heading(after.view) == t(lang, "kamiza.end.title")
                continue
            assert after.kind == "send" and not state.plays  # a fresh table for the new round
            assert_shows_only(strings(after), lang, state, [])
            table_message = table.message_ids["table"]
            assert after.message_id == table_message
            continue
        [edit] = posted
        assert (edit.kind, edit.message_id) == ("edit", table_message)
        to_play = t(
            lang,
            "table.member_name",
            mention=f"**{table.seats[state.next().player].display_name}**",
        )
        assert edit.text.splitlines()[1] == t(lang, "table.turn_now", player=to_play)
        assert_shows_only(strings(edit), lang, state, face_up(state, None), times=2)
        rows = seat_lines(edit.text, lang)
        for row, p in zip(rows, state.players, strict=True):  # in seating order
            assert row.startswith(mention(table, p, lang)) and f"**{state.totals[p]}**" in row
            to_act = p == state.next().player
            assert (t(lang, "kamiza.table.to_play") in row) == to_act
        for viewer in [*state.players, None]:
            embed = presenter.table_embed(table, lang, viewer)  # what /kamiza status shows
            assert_shows_only(embed_strings(embed), lang, state, face_up(state, viewer))
            laid_out = as_text(compose(presenter.table_board(table, lang, viewer)))
            assert_shows_only([laid_out], lang, state, face_up(state, viewer), times=2)
    assert table.closed


@pytest.mark.parametrize("lang", LANGS)
async def test_g3_status_shows_the_asker_their_own_card_and_a_spectator_none(
    presented, monkeypatch, lang
) -> None:
    manager, _ = presented(lang)
    table = await opened(manager, monkeypatch, find_line(at(1, 1, played=2), humans=4))
    state = kamiza(table)
    presenter = presenter_of(table)
    for player in state.players:
        asked = FakeInteraction(manager, table.seats[player].user_id, GUILD, locale=LOCALE[lang])
        await presenter.show_status(asked, table)
        [answer] = asked.answers
        assert answer.ephemeral
        assert_shows_only(embed_strings(answer.embed), lang, state, face_up(state, player))
    stranger = FakeInteraction(manager, 99, GUILD, locale=LOCALE[lang])
    await presenter.show_status(stranger, table)
    [answer] = stranger.answers
    assert answer.ephemeral
    assert_shows_only(embed_strings(answer.embed), lang, state, [])
    await table.stop()


# -- the reveal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_every_reveal_names_each_card_played_where_and_by_whom_and_the_scoring(
    presented, monkeypatch, lang
) -> None:
    manager, bot = presented(lang)
    line = find_line(lambda s: s.finished, humans=4)
    table = await opened(manager, monkeypatch, from_the_start(line))
    reveals = 0
    for player, action in line.plays:
        events, posted = await play(table, bot, player, action)
        revealed = next((e for e in events if e.kind == "round_revealed"), None)
        if revealed is None:
            continue
        reveals += 1
        reveal = posted[1]  # after the round's table message, closed
        assert heading(reveal.view) == t(
            lang, "kamiza.reveal.title", game=revealed.game, round=revealed.round
        )
        text = reveal.text
        for area in ("kamiza", "shimoza"):
            shown = block(text, t(lang, f"kamiza.table.area_{area}"))
            lines = [
                f"{render.card(lang, p.card)} · {mention(table, p.player, lang)}"
                for p in revealed.plays
                if p.area == area
            ]
            assert shown == (lines or ["—"])
        scored = next(e for e in events if e.kind == "round_scored")
        [points] = block(text, t(lang, "kamiza.reveal.points"))
        [totals] = block(text, t(lang, "kamiza.reveal.totals"))
        assert points.split(" · ") == [
            f"{mention(table, p, lang)} +{n}" for p, n in scored.points.items()
        ]
        assert totals.split(" · ") == [
            f"{mention(table, p, lang)} {n}" for p, n in scored.totals.items()
        ]
        assert sorted(scored.points) == sorted(p.player for p in revealed.plays)
        assert block(text, t(lang, "kamiza.reveal.judging"))
    assert reveals == 9


def judged(options: dict[str, Any], plays: Sequence[tuple[str, str]], lang: str = "en"):
    """Ann, Ben and Cho (Ann starts) play one round; its reveal, laid out, as text."""
    game = Kamiza.create(list(NAMES), options, {"start_player": "a"})
    events: list[Any] = []
    for player, (card, area) in zip(NAMES, plays, strict=True):
        events = list(game.apply(player, Play(card, area)))
    board = boards.reveal_board(events, lang, NAMES.__getitem__)
    assert board is not None
    return as_text(compose(board))


def judging(text: str, lang: str = "en") -> list[str]:
    """The judging's steps, each without its reason clause (test_reasons_kamiza.py checks those)."""
    lines = block(text, t(lang, "kamiza.reveal.judging"))
    return [line.split(" — *")[0] for line in lines]


def test_k8_the_hit_is_told_and_scores_four() -> None:
    embed = judged({}, [("boss", "kamiza"), ("hitman", "kamiza"), ("underboss", "shimoza")])
    assert "🔫 Ben's Hitman takes out Ann's Boss and scores 4!" in judging(embed)
    assert "🪑 Ben's 🔫 Hitman sits in kamiza: 4." in judging(embed)
    assert block(embed, "Points this round") == ["Ann +0 · Ben +4 · Cho +2"]
    ja = judged({}, [("boss", "kamiza"), ("hitman", "kamiza"), ("underboss", "shimoza")], "ja")
    assert "🔫 Benの鉄砲玉がAnnの組長を討ち取り、4点！" in judging(ja, "ja")


def test_k9_k10_a_bribe_then_its_wanted_chip() -> None:
    embed = judged({}, [("boss", "kamiza"), ("policeman", "kamiza"), ("hitman", "shimoza")])
    steps = judging(embed)
    bribe = "💰 Ben's Corrupt Policeman takes a bribe from Ann's 👑 Boss: 2 each."
    wanted = "🚔 Ben gets a WANTED chip (1/3)."
    assert steps.index(bribe) < steps.index(wanted)
    assert block(embed, "Points this round") == ["Ann +2 · Ben +2 · Cho +1"]


def test_k5_a_lone_raid_squeals_and_the_raider_starts() -> None:
    plays = [("raid", "kamiza"), ("boss", "kamiza"), ("underboss", "shimoza")]
    embed = judged(CLASSIC, plays)
    assert judging(embed) == [
        "🚨 Ann played the only Police raid: someone squealed! Nobody scores this round."
    ]
    assert block(embed, "Totals") == ["Ann 0 · Ben 0 · Cho 0"]
    assert following(embed) == [
        "Ann squealed and starts game 1, round 2. — *the squealer starts the next round (K-5)*"
    ]
    ja = judged(CLASSIC, plays, "ja")
    assert following(ja) == [
        "タレコミをしたAnnが第1ゲーム第2ラウンドのスタートプレイヤーです。"
        " — *タレコミをした人が次のラウンドのスタートプレイヤー (K-5)*"
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_k4_k6_the_bluff_is_removed_before_the_pair_cancels(lang) -> None:
    """Steps come in the order of RULES.md (K-4 before K-6), not in the order judged."""
    embed = judged(
        {}, [("boss", "shimoza"), ("underboss", "kamiza"), ("underboss", "kamiza")], lang
    )
    boss, underboss = render.card(lang, "boss"), render.card(lang, "underboss")
    removed, cancelled = judging(embed, lang)
    assert removed == t(lang, "kamiza.step.wrong_area", player="Ann", card=boss)
    assert cancelled == t(
        lang,
        "kamiza.step.cancelled",
        card=underboss,
        area=render.area(lang, "kamiza"),
        players="Ben, Cho",
    )


def test_a_card_put_down_reveals_nothing() -> None:
    game = Kamiza.create(list(NAMES), {}, {"start_player": "a"})
    assert boards.reveal_board(game.apply("a", Play("boss", "kamiza")), "en", NAMES.get) is None


# -- the end -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("tie", [None, "chicken", "shared"])
async def test_k13_final_standings_in_ranking_order_with_scores_and_the_tie_break(
    presented, monkeypatch, lang, tie
) -> None:
    manager, bot = presented(lang)
    line = find_line(lambda s: s.finished and not s.dropped and s.tie_break_used() == tie)
    table = await opened(manager, monkeypatch, Line(3, {}, line.seed, line.plays[:-1]))
    state = kamiza(table)
    events, posted = await play(table, bot, *line.plays[-1])
    assert [e.kind for e in events][-1] == "match_ended"
    # the round's table closed, the last reveal, then the standings: no table for a new round
    closed, reveal, standings = posted
    assert closed.kind == "edit" and only_why(closed.kwargs["view"])
    assert heading(reveal.view) == t(lang, "kamiza.reveal.title", game=3, round=3)
    accepted(standings)
    assert heading(standings.view) == t(lang, "kamiza.end.title")
    [card] = standings.kwargs["files"]  # the standings card, its alt text naming every player
    assert card.filename == "standings.png"
    assert galleries(payload(standings.view)) == [
        [("attachment://standings.png", card.description)]
    ]
    assert f"[image: {card.description}]" in standings.text.splitlines()  # read out in its place
    assert all(table.seats[p].display_name in card.description for p in state.players)
    ranks = competition_ranks(state.ranking())
    lines = block(standings.text)
    listed = [next(p for p in state.players if mention(table, p, lang) in x) for x in lines]
    assert sorted(listed) == sorted(state.players)  # each player once
    assert [ranks[p] for p in listed] == sorted(ranks.values())  # best first, ties together
    for p, shown in zip(listed, lines, strict=True):
        crown = "🏆 " if p in state.winners() else ""
        mine = t(
            lang,
            "results.line",
            rank=ranks[p],
            crown=crown,
            player=mention(table, p, lang),
            score=state.totals[p],
        )
        assert shown.startswith(mine)
    titles = [line for line in standings.text.splitlines() if is_title(line)]
    if tie is None:
        assert titles == []  # nobody dropped out and no tie: standings alone
    else:
        assert titles == [f"**{t(lang, f'kamiza.end.tie_{tie}')}**"]
        kept = block(standings.text, t(lang, f"kamiza.end.tie_{tie}"))
        for p, card in state.unplayed.items():
            assert f"{mention(table, p, lang)} {render.card(lang, card)}" in kept
    footer = t(lang, "kamiza.end.footer", game_id=table.game_id)
    assert f"-# {footer}" in standings.text.splitlines()


@pytest.mark.parametrize("lang", LANGS)
async def test_k10_a_dropped_player_is_marked_then_ranked_last_and_named_at_the_end(
    presented, monkeypatch, lang
) -> None:
    manager, bot = presented(lang)
    line = find_line(lambda s: s.finished and len(s.dropped) == 1, policy=policeman_bribes)
    dropped_at = next(
        i
        for i in range(len(line.plays) + 1)
        if Line(3, {}, line.seed, line.plays[:i]).state().dropped
    )
    assert dropped_at < len(line.plays)  # out before the last round: still shown at the table
    table = await opened(manager, monkeypatch, Line(3, {}, line.seed, line.plays[:dropped_at]))
    state = kamiza(table)
    [out] = state.dropped
    shown = as_text(compose(presenter_of(table).table_board(table, lang)))
    row = next(x for x in seat_lines(shown, lang) if x.startswith(mention(table, out, lang)))
    assert t(lang, "kamiza.table.dropped") in row
    posted: list[Posted] = []
    for player, action in line.plays[dropped_at:]:
        posted = (await play(table, bot, player, action))[1]
    standings = posted[-1]
    assert heading(standings.view) == t(lang, "kamiza.end.title")
    assert mention(table, out, lang) in block(standings.text)[-1]
    dropped = block(standings.text, t(lang, "kamiza.end.dropped"))
    assert dropped == [mention(table, out, lang)]


# -- options, timeouts, the hand -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "en", "ja"),
    [
        ({}, "Edition: second generation", "版：第二世代"),
        ({"edition": "second"}, "Edition: second generation", "版：第二世代"),
        (CLASSIC, "Edition: classic", "版：クラシック版"),
        (
            {"edition": "classic", "advanced": True},
            "Edition: classic\nAdvanced: the start player plays face up",
            "版：クラシック版\n上級ルール：スタートプレイヤーは表向きで出す",
        ),
        (
            {"edition": "second", "advanced": True},
            "Edition: second generation\nAdvanced: the start player plays face up",
            "版：第二世代\n上級ルール：スタートプレイヤーは表向きで出す",
        ),
    ],
)
def test_options_text_names_the_edition_and_the_advanced_rule(options, en, ja) -> None:
    presenter = KamizaPresenter(FakeBot())
    assert presenter.options_text(options, "en") == en
    assert presenter.options_text(options, "ja") == ja


async def test_the_lobby_shows_the_tables_options(presented) -> None:
    manager, bot = presented("en")
    manager.reserve(900)
    lobby = await manager.open_lobby(
        game="kamiza",
        place=Place(GUILD, 900, None),
        host_id=1,
        host_name="host",
        options={"edition": "classic", "advanced": True},
        bots=0,
    )
    await lobby.outbox.drain()
    lobby_text = bot.posted[-1].text
    assert block(lobby_text, "Options") == [
        "Edition: classic",
        "Advanced: the start player plays face up",
    ]


@pytest.mark.parametrize("lang", LANGS)
async def test_a_timeout_note_names_the_player_it_played_for(presented, monkeypatch, lang) -> None:
    manager, bot = presented(lang)
    line = find_line(lambda s: s.position() == (1, 2) and not s.plays)
    table = await opened(manager, monkeypatch, from_the_start(line))
    first, *rest = line.plays
    _, posted = await play(table, bot, *first, cause="timeout")
    note = t(lang, "table.timed_out", player=mention(table, first[0], lang))
    assert [(m.kind, m.content) for m in posted] == [("send", note), ("edit", None)]
    assert note not in posted[1].text  # told once
    for player, action in rest[:-1]:
        await play(table, bot, player, action)
    last = rest[-1]
    _, posted = await play(table, bot, *last, cause="timeout")
    reveal = posted[1]  # the round's end (its table closed first): the note comes with the reveal
    timed_out = t(lang, "table.timed_out", player=mention(table, last[0], lang))
    assert reveal.text.splitlines()[1] == timed_out  # right under its title
    assert heading(reveal.view) == t(lang, "kamiza.reveal.title", game=1, round=1)
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_your_hand_is_private_and_offers_the_cards_to_the_seat_to_act(
    presented, monkeypatch, lang
) -> None:
    manager, _ = presented(lang)
    table = await opened(manager, monkeypatch, find_line(at(1, 1)))
    state = kamiza(table)
    player = state.next().player
    asked = FakeInteraction(manager, table.seats[player].user_id, GUILD, locale=LOCALE[lang])
    await presenter_of(table).show_hand(asked, table, table.seats[player])
    [answer] = asked.answers
    assert answer.ephemeral and answer.kind == "message"
    assert custom_ids(answer.view) == [
        *(f"g:kzc:{table.game_id}:1.1:{c}" for c in state.hands[player]),
        f"g:dm:{table.game_id}:on",  # the hand menu's toggle: by DM from here
    ]
    await table.stop()
