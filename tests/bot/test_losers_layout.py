"""Rights of Losers' messages laid out (Components V2): the trick's table board, the closed trick
and the final standings, read as Discord would get them. Every layout here is judged by
`bot.layout.check` and by the fake Discord's own checkers, and must fit without giving way
(no text folded into "… and N more", no seat line lost)."""

from __future__ import annotations

import random
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from bot.layout import as_text
from bot.layout.board import compose, controls_of, layout_of
from bot.layout.limits import MAX_COMPONENTS, MAX_TEXT, text_length
from bot.layout.payload import (
    ACTION_ROW,
    BUTTON,
    MEDIA_GALLERY,
    SEPARATOR,
    TEXT_DISPLAY,
    kind,
    payload,
    walk,
)
from bot.losers import board_image, menus, render
from bot.losers.presenter import STORY, LosersPresenter, trick_over
from bot.pictures import standings_card
from bot.runtime.lobby import bot_seat, human_seat
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables.delivery import with_toggle
from bot.tables.messages import seat_colour
from data.store import ResultRow, Seat
from rules.agents import computer_action, random_action
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from rules.losers_board import TRICKS
from tests.bot.fakes import (
    FakeBot,
    container_kinds,
    custom_ids,
    galleries,
    layout_accepted,
    whole,
)
from tests.bot.test_losers_presenter import Ledger

# The longest names Discord allows a member to show (32 characters), in Japanese.
LONG_NAMES = ("花" * 32, "鳥" * 32, "風" * 32, "月" * 32, "雪" * 32)


def seated(seats: list[Seat], seed: int, presenter: Any = None) -> Table:
    players = [s.player for s in seats]
    return Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=seats,
        state=start(new_header("rights-of-losers", players, {}, seed=seed)),
        seq=0,
        ledger=Ledger(),
        presenter=presenter,
        timing=Timing(turn_seconds=3600),
    )


def members(names: tuple[str, ...]) -> list[Seat]:
    return [human_seat(i, name) for i, name in enumerate(names, start=1)]


def rules_of(table: Table) -> RightsOfLosers:
    state = table.state
    assert isinstance(state, RightsOfLosers)
    return state


def act(table: Table, agent: Any, rng: random.Random) -> list[render.StoryEvent] | None:
    """One action chosen by `agent`, its story kept as the presenter keeps it (`STORY`, the
    trick's so far, emptied when a trick is over); the story of the trick it closed, if any."""
    state = rules_of(table)
    nxt = state.next()
    assert nxt is not None
    events = state.apply(nxt.player, agent(state, nxt.player, rng))
    table.seq += 1
    story: list[render.StoryEvent] = table.memory.get(STORY)
    story.extend(e for e in events if isinstance(e, render.STORY))
    if trick_over(events) is None:
        return None
    table.memory.set(STORY, [])
    return story


def table_view(presenter: LosersPresenter, table: Table, lang: str) -> discord.ui.LayoutView:
    view = presenter.table_message(table, table.moment(None), lang)["view"]
    assert isinstance(view, discord.ui.LayoutView)
    return view


def closed_view(
    presenter: LosersPresenter,
    table: Table,
    story: list[render.StoryEvent],
    trick: int,
    lang: str,
) -> discord.ui.LayoutView:
    """The trick's message as `close_table` edits it: its story on top, only the "?"."""
    text, why, board = presenter.closed_trick(table, story, trick, lang)
    board.note(text)
    board.controls = controls_of(why)
    return compose(board)


def hand_views(table: Table, lang: str) -> list[discord.ui.LayoutView]:
    """Every seat's private menu as it is laid out (`bot.tables.hands`), DM toggle included."""
    return [
        layout_of(
            *with_toggle(menus.menu(table, seat, lang), table.game_id, False, lang), lang=lang
        )
        for seat in table.seats.values()
    ]


# -- one table, read closely -----------------------------------------------------------------------


async def mid_trick(players: int = 4, seed: int = 2) -> tuple[LosersPresenter, Table, FakeBot]:
    """A table in its third trick, two cards down, its message posted as the bot posts it."""
    bot = FakeBot()
    presenter = LosersPresenter(bot)
    table = seated(members(("ann", "ben", "cho", "dev", "eve")[:players]), seed, presenter)
    state, rng = rules_of(table), random.Random(seed)
    while state.trick_number < 3:
        act(table, computer_action, rng)
    await presenter.post_table(table, table.moment(None), "en")
    while len(state.trick) < 2:
        act(table, computer_action, rng)
    return presenter, table, bot


async def test_the_table_board_reads_title_field_seats_then_the_trick() -> None:
    presenter, table, _ = await mid_trick()
    state = rules_of(table)
    view = table_view(presenter, table, "en")
    sent = layout_accepted(view)
    kinds = container_kinds(sent)
    # title, turn, what to do; the picture and who would get what; a line per seat; the trick
    # after a rule; the footer; one row of buttons
    assert kinds == [
        *[TEXT_DISPLAY] * 3,
        MEDIA_GALLERY,
        TEXT_DISPLAY,
        *[TEXT_DISPLAY] * len(state.players),
        SEPARATOR,
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        ACTION_ROW,
    ]
    every = list(walk(sent))
    assert len(every) == 1 + len(kinds) + 2 <= MAX_COMPONENTS  # and the row's two buttons
    assert text_length(every) < 1500  # a table, not a wall of text (at most 4,000)
    text = whole(view, "en")
    lines = text.splitlines()
    assert lines[0] == "### " + t("en", "losers.table.title", trick=3, tricks=TRICKS)
    to_act = state.next().player
    for seat, player in enumerate(state.players):
        (line,) = [x for x in lines if x.startswith(render.SEAT_MARK[seat] + " ")]
        assert line.startswith(f"{render.SEAT_MARK[seat]} {presenter.seat_name(table, player)} · ")
        played = player in {p for p, _ in state.trick}
        assert ("▶ to play" in line) == (player == to_act)
        assert ("✓ played" in line) == played
    # the trick so far, after the rule: its two cards, by whom
    trick = text.split("———\n", 1)[1]
    assert trick.startswith(f"**{t('en', 'losers.table.trick', trick=3)}**")
    for player, card in state.trick:
        assert f"{render.card('en', card)} · {presenter.seat_name(table, player)}" in trick


async def test_the_accent_is_the_colour_of_the_seat_to_act_on_the_picture() -> None:
    presenter, table, _ = await mid_trick(5, seed=3)
    state = rules_of(table)
    (container,) = layout_accepted(table_view(presenter, table, "en"))
    seat = state.players.index(state.next().player)
    assert container["accent_color"] == seat_colour(seat).value
    assert seat_colour(seat).to_rgb() == board_image.PLAYER_COLOURS[seat]


async def test_the_live_buttons_are_the_hand_im_back_and_the_rules() -> None:
    presenter, table, _ = await mid_trick()
    view = table_view(presenter, table, "en")
    assert [c.split(":")[1] for c in custom_ids(view)] == ["hand", "why"]
    assert not any(c.get("disabled") for c in walk(payload(view)) if kind(c) == BUTTON)
    table.autopilot.add(rules_of(table).players[1])
    view = table_view(presenter, table, "en")
    assert [c.split(":")[1] for c in custom_ids(view)] == ["hand", "back", "why"]
    assert t("en", "table.on_autopilot") in as_text(view)


async def test_the_gallery_shows_the_uploaded_picture_described_as_drawn() -> None:
    presenter, table, bot = await mid_trick()
    (posted,) = [p for p in bot.posted if p.kwargs.get("file")]
    file = posted.kwargs["file"]
    assert file.description and "start of trick 3 of 10" in file.description
    # two cards later, the edit still shows that picture with the words it was uploaded with
    (items,) = galleries(layout_accepted(table_view(presenter, table, "en")))
    assert items == [("attachment://field.png", file.description)]
    assert f"[image: {file.description}]" in as_text(table_view(presenter, table, "en"))


async def test_a_closed_trick_keeps_its_picture_and_tells_its_story() -> None:
    presenter, table, bot = await mid_trick()
    rng = random.Random(1)
    while (story := act(table, computer_action, rng)) is None:
        pass
    description = bot.posted[-1].kwargs["file"].description
    view = closed_view(presenter, table, story, 3, "en")
    sent = layout_accepted(view)
    ((item,),) = galleries(sent)
    assert item == (
        "attachment://field.png",
        description,
    )  # the picture as uploaded, at the trick's start
    assert [c.split(":")[1] for c in custom_ids(view)] == ["why"]  # nothing left to play
    lines = whole(view, "en").splitlines()
    assert lines[1] == t("en", "losers.table.closed", trick=3)
    told = [render.story_line(e, "en", lambda p: presenter.seat_name(table, p)) for e in story]
    assert len(story) >= 3 and all(any(x.startswith(line) for x in lines) for line in told)


async def test_the_final_standings_show_field_and_card_in_one_gallery() -> None:
    bot = FakeBot()
    presenter = LosersPresenter(bot)
    table = seated(members(("ann", "ben", "cho")), 1, presenter)
    state, rng = rules_of(table), random.Random(1)
    while not state.over:
        act(table, computer_action, rng)
    points = state.result().scores
    results = [
        ResultRow(p, int(p), table.seats[p].display_name, False, points[p], i + 1, i == 0)
        for i, p in enumerate(sorted(state.players, key=lambda p: -points[p]))
    ]
    await presenter.finished(table, results)
    final = bot.posted[-1]
    field, card = final.kwargs["files"]
    assert (field.filename, card.filename) == (render.PICTURE, standings_card.FILENAME)
    sent = layout_accepted(final.view)
    (items,) = galleries(sent)
    assert items == [
        ("attachment://field.png", field.description),
        ("attachment://standings.png", card.description),
    ]
    assert "end of the game" in field.description
    assert all(table.seats[p].display_name in card.description for p in state.players)


# -- the largest table -----------------------------------------------------------------------------


async def test_the_largest_table_fits_in_its_last_trick() -> None:
    """5 players with the longest Japanese names, on autopilot, through the last trick."""
    presenter = LosersPresenter(FakeBot("ja"))
    table = seated(members(LONG_NAMES), 5, presenter)
    state, rng = rules_of(table), random.Random(5)
    table.autopilot.update(state.players)  # every seat marked, "I'm back" on the table
    while state.trick_number < TRICKS:
        act(table, random_action, rng)
    longest = 0
    while not state.over:
        view = table_view(presenter, table, "ja")
        sent = layout_accepted(view)
        longest = max(longest, text_length(list(walk(sent))))
        text = whole(view, "ja")
        assert all(f"{mark} " in text for mark in render.SEAT_MARK)
        for menu in hand_views(table, "ja"):
            layout_accepted(menu)
            whole(menu, "ja")
        last = act(table, random_action, rng)
        if state.over:
            closed = closed_view(presenter, table, last or [], TRICKS, "ja")
            layout_accepted(closed)
            whole(closed, "ja")
    assert longest <= MAX_TEXT


# -- any table -------------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[Table, str]:
    """A table of 3 to 5 seats (members with the longest names, or computers), some on
    autopilot, after random legal actions to a random depth."""
    players = draw(st.integers(3, 5))
    seats = [
        bot_seat(i) if draw(st.booleans()) else human_seat(i, LONG_NAMES[i - 1])
        for i in range(1, players + 1)
    ]
    lang = draw(st.sampled_from(["en", "ja"]))
    table = seated(seats, draw(st.integers(0, 10_000)), LosersPresenter(FakeBot(lang)))
    state, rng = rules_of(table), random.Random(draw(st.integers(0, 10_000)))
    depth = draw(st.integers(0, 120))
    while depth and not state.over:
        act(table, random_action, rng)
        depth -= 1
    table.autopilot.update(draw(st.sets(st.sampled_from(state.players))))
    return table, lang


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_no_table_closed_trick_or_menu_ever_gives_way(drawn: tuple[Table, str]) -> None:
    table, lang = drawn
    presenter = table.presenter
    assert isinstance(presenter, LosersPresenter)
    state = rules_of(table)
    if not state.over:
        view = table_view(presenter, table, lang)
        layout_accepted(view)
        text = whole(view, lang)
        assert all(f"\n{render.SEAT_MARK[i]} " in text for i in range(len(state.players)))
    closed = closed_view(presenter, table, table.memory.get(STORY), state.trick_number, lang)
    layout_accepted(closed)
    whole(closed, lang)
    for menu in hand_views(table, lang):
        layout_accepted(menu)
        whole(menu, lang)
