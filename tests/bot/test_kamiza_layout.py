"""KAMIZA's messages laid out (Components V2): the round's table board, the reveal and the final
standings, read as Discord would get them. Every layout here is judged by `bot.layout.check` and
by the fake Discord's own checkers, and must fit without giving way (no text folded into
"… and N more", no seat line merged away); no public layout names a face-down card (G-3)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from bot.kamiza import boards, render
from bot.kamiza.hand import HAND
from bot.kamiza.presenter import KamizaPresenter
from bot.layout import as_text
from bot.layout.board import compose, layout_of
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
from bot.pictures import standings_card
from bot.runtime.lobby import bot_seat, human_seat
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables.delivery import with_toggle
from bot.tables.messages import seat_colour
from bot.tables.reasons import reveal_view
from data.store import ResultRow, Seat
from rules.agents import computer_action, random_action
from rules.base import Event
from rules.kamiza import Kamiza
from rules.log import new_header, start
from tests.bot.fakes import (
    FakeBot,
    block,
    container_kinds,
    custom_ids,
    galleries,
    layout_accepted,
    whole,
)
from tests.bot.test_kamiza_hand_view import card_mentions
from tests.bot.test_losers_presenter import Ledger

# The longest names Discord allows a member to show (32 characters), in Japanese.
LONG_NAMES = ("花" * 32, "鳥" * 32, "風" * 32, "月" * 32)
EDITIONS = ("second", "classic")


def seated(seats: Sequence[Seat], options: dict[str, Any], seed: int, lang: str = "en") -> Table:
    players = [s.player for s in seats]
    return Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=seats,
        state=start(new_header("kamiza", players, options, seed=seed)),
        seq=0,
        ledger=Ledger(),
        presenter=KamizaPresenter(FakeBot(lang)),
        timing=Timing(turn_seconds=3600),
    )


def members(names: Sequence[str]) -> list[Seat]:
    return [human_seat(i, name) for i, name in enumerate(names, start=1)]


def rules_of(table: Table) -> Kamiza:
    state = table.state
    assert isinstance(state, Kamiza)
    return state


def presenter_of(table: Table) -> KamizaPresenter:
    assert isinstance(table.presenter, KamizaPresenter)
    return table.presenter


def act(table: Table, agent: Any, rng: random.Random) -> list[Event]:
    """One action chosen by `agent`; its events."""
    state = rules_of(table)
    nxt = state.next()
    assert nxt is not None
    events = list(state.apply(nxt.player, agent(state, nxt.player, rng)))
    table.seq += 1
    return events


def revealed(events: Sequence[Event]) -> bool:
    return any(e.kind == "round_revealed" for e in events)


def table_view(table: Table, lang: str) -> discord.ui.LayoutView:
    """The round's table message as the bot posts it (turn line, accent, buttons)."""
    view = presenter_of(table).table_message(table, table.moment(None), lang)["view"]
    assert isinstance(view, discord.ui.LayoutView)
    return view


def seen_by(table: Table, viewer: str | None, lang: str) -> discord.ui.LayoutView:
    """The table as `viewer` may see it (None: anyone), laid out."""
    return compose(presenter_of(table).table_board(table, lang, viewer))


def reveal_layout(table: Table, events: list[Event], lang: str) -> discord.ui.LayoutView:
    """The reveal as the bot posts it: the board and the "?" of its rules."""
    name = lambda p: presenter_of(table).seat_name(table, p)  # noqa: E731
    board = boards.reveal_board(events, lang, name)
    assert board is not None
    why = reveal_view(table.game_id, events)
    board.controls = list(why.children) if why else []
    return compose(board)


def hand_views(table: Table, lang: str) -> list[discord.ui.LayoutView]:
    """Every seat's private menu as it is laid out (`bot.tables.hands`), DM toggle included."""
    return [
        layout_of(
            *with_toggle(HAND.message(table, seat, lang), table.game_id, False, lang), lang=lang
        )
        for seat in table.seats.values()
    ]


def face_up(state: Kamiza, viewer: str | None) -> list[str]:
    """The cards on the table `viewer` may see: their own (a choice kept aside included, H-1)
    and the advanced start player's."""
    seen = [
        p.card
        for p in state.plays
        if p.player == viewer or (state.advanced and p.player == state.start_player)
    ]
    choice = state.choice_of(viewer)
    return seen if choice is None else [*seen, choice.card]


def shows_only(text: str, lang: str, state: Kamiza, visible: list[str]) -> bool:
    """G-3: the laid-out table names exactly the `visible` cards, each twice (its seat line and
    its area), and no other card."""
    return card_mentions([text], lang, state.cards) == {
        c: 2 * visible.count(c) for c in state.cards
    }


# -- one table, read closely -----------------------------------------------------------------------


def mid_round(players: int = 4, options: dict[str, Any] | None = None, seed: int = 2) -> Table:
    """A table in game 2, round 2, two cards down."""
    table = seated(members(("ann", "ben", "cho", "dev")[:players]), options or {}, seed)
    state, rng = rules_of(table), random.Random(seed)
    while state.position() < (2, 2) or len(state.plays) < 2:
        act(table, computer_action, rng)
    return table


def test_the_table_board_reads_title_options_seats_then_the_areas() -> None:
    table = mid_round()
    state = rules_of(table)
    view = table_view(table, "en")
    sent = layout_accepted(view)
    # title, turn, the edition; the seats' heading and a line per seat; kamiza, shimoza; the
    # footer; one row of buttons
    assert container_kinds(sent) == [
        *[TEXT_DISPLAY] * 4,
        *[TEXT_DISPLAY] * len(state.players),
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        ACTION_ROW,
    ]
    every = list(walk(sent))
    buttons = [c for c in every if kind(c) == BUTTON]
    assert len(every) == 1 + 4 + len(state.players) + 3 + 1 + len(buttons) <= MAX_COMPONENTS
    assert text_length(every) < 1200  # a table, not a wall of text (at most 4,000)
    text = whole(view, "en")
    lines = text.splitlines()
    assert lines[0] == "### " + t("en", "kamiza.table.title", game=2, round=2)
    assert lines[2] == t("en", "kamiza.table.edition", edition="second generation")
    presenter = presenter_of(table)
    seats = block(text, t("en", "kamiza.table.seats"))
    played = {p.player for p in state.plays}
    to_act = state.next().player
    for line, player in zip(seats, state.players, strict=True):  # in seating order
        assert line.startswith(presenter.seat_name(table, player))
        assert ("⭐" in line) == (player == state.start_player)
        assert ("▶️ to play" in line) == (player == to_act)
        assert ("✓ has played 🂠" in line) == (player in played)
        assert f"**{state.totals[player]}** pts" in line
        assert f"{len(state.hands[player])} in hand" in line
    for area in ("kamiza", "shimoza"):
        shown = block(text, t("en", f"kamiza.table.area_{area}"))
        expected = [
            f"🂠 · {presenter.seat_name(table, p.player)}" for p in state.plays if p.area == area
        ]
        assert shown == (expected or ["—"])
    assert f"-# {t('en', 'kamiza.table.footer')}" in lines


def test_the_accent_is_the_colour_of_the_seat_to_act() -> None:
    """The seat's colour (`seat_colour` of its place at the table, as every game colours it),
    whoever the round's seating puts first; with nobody to act, the game's colour."""
    colours = set()
    for seed in range(4):
        table = mid_round(seed=seed)
        to_act = rules_of(table).next().player
        (container,) = layout_accepted(table_view(table, "en"))
        colour = seat_colour(list(table.seats).index(to_act)).value
        assert container["accent_color"] == colour
        colours.add(colour)
    assert len(colours) > 1  # not one colour for every turn
    table = mid_round(3)
    presenter, moment = presenter_of(table), table.moment(None)
    closing = compose(presenter.table_board(table, "en", at=replace(moment, closing=True)))
    assert layout_accepted(closing)[0]["accent_color"] == render.COLOUR.value


def test_the_live_buttons_are_the_hand_for_everyone_im_back_and_the_rules() -> None:
    table = mid_round()
    view = table_view(table, "en")
    assert [c.split(":")[1] for c in custom_ids(view)] == ["hand", "why"]
    assert not any(c.get("disabled") for c in walk(payload(view)) if kind(c) == BUTTON)
    assert "[Your hand]" in as_text(view)  # everyone's: each opens their own hand privately
    away = rules_of(table).players[1]
    table.autopilot.add(away)
    view = table_view(table, "en")
    assert [c.split(":")[1] for c in custom_ids(view)] == ["hand", "back", "why"]
    [line] = [x for x in as_text(view).splitlines() if x.startswith(f"<@{away}>")]
    assert t("en", "table.on_autopilot") in line
    table.autopilot.clear()
    assert "back" not in [c.split(":")[1] for c in custom_ids(table_view(table, "en"))]


def test_the_advanced_start_players_card_is_face_up_for_everyone_and_no_other() -> None:
    table = mid_round(options={"advanced": True})
    state = rules_of(table)
    public = whole(seen_by(table, None, "en"), "en")
    assert shows_only(public, "en", state, face_up(state, None))
    [first] = [p for p in state.plays if p.player == state.start_player]
    assert f"{render.card('en', first.card)} · <@{first.player}>" in public
    for viewer in state.players:
        mine = whole(seen_by(table, viewer, "en"), "en")
        assert shows_only(mine, "en", state, face_up(state, viewer))


def test_with_choices_made_at_once_every_seat_still_choosing_is_to_play() -> None:
    """H-1: the seats that have chosen show a face-down card (their own to themselves), every
    seat still choosing is to play."""
    table = seated(members(("ann", "ben", "cho", "dev")), {"simultaneous": True}, 3)
    state, rng = rules_of(table), random.Random(3)
    act(table, random_action, rng)
    act(table, random_action, rng)
    chosen, choosing = state.has_chosen(), state.choosing()
    assert len(chosen) == 2 and len(choosing) == 2
    presenter = presenter_of(table)
    for viewer in [None, *state.players]:
        text = whole(seen_by(table, viewer, "en"), "en")
        assert shows_only(text, "en", state, face_up(state, viewer))
        for line in block(text, t("en", "kamiza.table.seats")):
            [player] = [p for p in state.players if line.startswith(presenter.seat_name(table, p))]
            assert ("▶️ to play" in line) == (player in choosing)
            choice = state.choice_of(player)
            mine = render.card("en", choice.card) if choice and player == viewer else "🂠"
            assert (f"✓ has played {mine}" in line) == (player in chosen)


def test_the_reveal_reads_areas_a_rule_the_steps_points_totals_and_what_follows() -> None:
    table = seated(members(("ann", "ben", "cho", "dev")), {}, 3)
    rng = random.Random(3)
    events = act(table, computer_action, rng)
    while not revealed(events):
        events = act(table, computer_action, rng)
    view = reveal_layout(table, events, "en")
    sent = layout_accepted(view)
    # title; kamiza, shimoza; a rule; judging, points, totals; a rule; what follows; the "?"
    assert container_kinds(sent) == [
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        SEPARATOR,
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        TEXT_DISPLAY,
        SEPARATOR,
        TEXT_DISPLAY,
        ACTION_ROW,
    ]
    assert [c.split(":")[1] for c in custom_ids(view)] == ["why"]  # nothing to play
    text = whole(view, "en")
    assert text.splitlines()[0] == "### " + t("en", "kamiza.reveal.title", game=1, round=1)
    steps = block(text, t("en", "kamiza.reveal.judging"))
    assert steps and all(" — *" in step and step.endswith(")*") for step in steps)  # each why


async def test_the_final_standings_show_the_card_inside_the_board() -> None:
    table = seated(members(("ann", "ben", "cho")), {}, 1)
    state, rng = rules_of(table), random.Random(1)
    while not state.over:
        act(table, computer_action, rng)
    ranked = sorted(state.players, key=lambda p: -state.totals[p])
    results = [
        ResultRow(p, int(p), table.seats[p].display_name, False, state.totals[p], i + 1, i == 0)
        for i, p in enumerate(ranked)
    ]
    presenter = presenter_of(table)
    await presenter.finished(table, results)
    final = presenter.bot.posted[-1]
    (card,) = final.kwargs["files"]
    assert card.filename == standings_card.FILENAME
    sent = layout_accepted(final.view)
    assert MEDIA_GALLERY in container_kinds(sent)
    assert galleries(sent) == [[("attachment://standings.png", card.description)]]
    assert [c.split(":")[1] for c in custom_ids(final.view)] == ["rematch", "board"]


# -- the largest table -----------------------------------------------------------------------------


def test_the_largest_table_fits_to_the_last_round() -> None:
    """4 members with the longest Japanese names, all on autopilot, second edition with the
    advanced rule, through a whole match: every table (public and each seat's), every reveal and
    every hand menu fits whole."""
    table = seated(members(LONG_NAMES), {"advanced": True}, 5, "ja")
    state, rng = rules_of(table), random.Random(5)
    table.autopilot.update(state.players)  # every seat marked, "I'm back" on the table
    longest = 0
    while not state.over:
        view = table_view(table, "ja")
        longest = max(longest, text_length(list(walk(layout_accepted(view)))))
        whole(view, "ja")
        for viewer in [None, *state.players]:
            whole(seen_by(table, viewer, "ja"), "ja")
        for menu in hand_views(table, "ja"):
            layout_accepted(menu)
            whole(menu, "ja")
        events = act(table, random_action, rng)
        if revealed(events):
            reveal = reveal_layout(table, events, "ja")
            layout_accepted(reveal)
            whole(reveal, "ja")
    assert 0 < longest <= MAX_TEXT


# -- any table -------------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[Table, str, list[Event]]:
    """A table of 3 or 4 seats (members with the longest names, or computers), either edition,
    advanced or not, simultaneous or not, some on autopilot, after random legal actions to a
    random depth; with the events of its last action."""
    players = draw(st.integers(3, 4))
    seats = [
        bot_seat(i) if draw(st.booleans()) else human_seat(i, LONG_NAMES[i - 1])
        for i in range(1, players + 1)
    ]
    options = {
        "edition": draw(st.sampled_from(EDITIONS)),
        "advanced": draw(st.booleans()),
        "simultaneous": draw(st.booleans()),  # the house rule H-1: several seats to play at once
    }
    lang = draw(st.sampled_from(["en", "ja"]))
    table = seated(seats, options, draw(st.integers(0, 10_000)), lang)
    state, rng = rules_of(table), random.Random(draw(st.integers(0, 10_000)))
    depth = draw(st.integers(0, 36))
    events: list[Event] = []
    while depth and not state.over:
        events = act(table, random_action, rng)
        depth -= 1
    table.autopilot.update(draw(st.sets(st.sampled_from(state.players))))
    return table, lang, events


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_no_table_reveal_or_menu_ever_gives_way_or_shows_a_face_down_card(
    drawn: tuple[Table, str, list[Event]],
) -> None:
    table, lang, events = drawn
    state = rules_of(table)
    if not state.over:
        view = table_view(table, lang)
        layout_accepted(view)
        text = whole(view, lang)
        assert len(block(text, t(lang, "kamiza.table.seats"))) == len(state.players)
        assert shows_only(text, lang, state, face_up(state, None))  # G-3
    for viewer in [None, *state.players]:
        view = seen_by(table, viewer, lang)
        layout_accepted(view)
        assert shows_only(whole(view, lang), lang, state, face_up(state, viewer))
    if revealed(events):
        reveal = reveal_layout(table, events, lang)
        layout_accepted(reveal)
        whole(reveal, lang)
    for menu in hand_views(table, lang):
        layout_accepted(menu)
        whole(menu, lang)
