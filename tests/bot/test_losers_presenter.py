"""Rights of Losers' public messages through a fake bot, and the typed boundary they read: the
table and its picture come from the public observation only (G-3), a menu from its reader's own,
and the events are told apart by their classes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, get_args

import pytest
from fakediscord.components_v2 import check_layout
from fakediscord.server import validate_components

from bot.i18n import t, text
from bot.layout import as_text, check
from bot.layout.board import compose
from bot.layout.payload import payload
from bot.losers import boards, menus, render
from bot.losers.presenter import LosersPresenter
from bot.runtime.lobby import BOT_PREFIX, bot_seat, human_seat
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables.presenting import TABLE_MESSAGE
from data.store import GuildSettings, MemberPrefs
from rules.agents import computer_action, random_action
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from rules.losers_board import TRICKS
from rules.losers_events import CardPlayed, GameOver, LosersEvent, TrickStarted, TrickWon
from tests.bot.fakes import FakeBot, Posted, custom_ids, embed_strings
from tests.bot.threads import off_the_loop, threads_running

NAMES = {"1": "ann", "2": "ben", "3": "cho", "4": "dev", "5": "eve"}
HAND_BUTTON = "g:hand:7"  # "Your hand", on every live table message of game 7


class Ledger:
    """Accepts every write (the ledger is tested on its own); knows no stored game."""

    async def get_game(self, game_id: int) -> None:
        return None

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings()

    async def member_prefs(self, user_id: int) -> MemberPrefs:
        return MemberPrefs()  # every member on private menus

    async def claim_dm_failure(self, user_id: int) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        async def accepted(*args: Any, **kwargs: Any) -> bool:
            return True

        return accepted


def make_table(players: int, seed: int, presenter: Any = None) -> Table:
    ids = list(NAMES)[:players]
    return Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=[human_seat(int(p), NAMES[p]) for p in ids],
        state=start(new_header("rights-of-losers", ids, {}, seed=seed)),
        seq=0,
        ledger=Ledger(),
        presenter=presenter,
        timing=Timing(turn_seconds=3600),
    )


def rules_of(table: Table) -> RightsOfLosers:
    state = table.state
    assert isinstance(state, RightsOfLosers)
    return state


async def played_through(players: int, seed: int, agent: Any, locale: str = "en-US") -> Any:
    """A seeded game from its first table message to its final standings, as the bot posts it."""
    bot = FakeBot(locale)
    presenter = LosersPresenter(bot)
    table = make_table(players, seed, presenter)
    state, rng = rules_of(table), random.Random(seed)
    await presenter.post_table(table, table.moment(None), presenter.lang(table))
    while (nxt := state.next()) is not None:
        events = state.apply(nxt.player, agent(state, nxt.player, rng))
        table.seq += 1
        await presenter.events(table, nxt.player, events, "action", table.moment(None))
    await presenter.finished(table, [])
    return table, bot


def closed_tricks(posted: list[Posted]) -> list[Posted]:
    """The edits that close a trick's table message: its story instead of the table, and no
    button to play (no "Your hand")."""
    return [p for p in posted if p.kind == "edit" and HAND_BUTTON not in custom_ids(p.view)]


def accepted(view: Any) -> None:
    """What Discord (and the fake Discord) accepts, laid out."""
    check(view)
    sent = payload(view)
    validate_components(sent, v2=True)
    check_layout(sent, v2=True)


def table_messages(posted: list[Posted]) -> list[Posted]:
    """The messages that upload a picture: each trick's table, and the final standings."""
    return [
        p for p in posted if p.kind == "send" and (p.kwargs.get("file") or p.kwargs.get("files"))
    ]


# -- the whole game, as posted ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
async def test_each_trick_has_its_message_closed_with_its_story(players: int, seed: int) -> None:
    table, bot = await played_through(players, seed, computer_action)
    tables = table_messages(bot.posted)
    assert len(tables) == TRICKS + 1  # one per trick, and the final standings
    closed = closed_tricks(bot.posted)
    assert [p.message_id for p in closed] == [p.message_id for p in tables[:TRICKS]]
    for trick, message in enumerate(closed, start=1):
        title, text = message.text.split("\n", 1)
        assert title == "### " + t("en", "losers.table.title", trick=trick, tricks=TRICKS)
        assert text.startswith(t("en", "losers.table.closed", trick=trick))
        assert f" won trick {trick} with " in text  # the TrickWon event, in words
        assert "{" not in text and "losers." not in text
        # the picture stays, described as drawn when the trick began
        assert (
            f"[image: Picture of the Rights of Losers field at the start of trick {trick} " in text
        )
        accepted(message.view)
    for post in tables[:TRICKS]:
        accepted(post.view)
        assert post.kwargs["file"].filename == render.PICTURE
    accepted(tables[-1].view)
    assert [f.filename for f in tables[-1].kwargs["files"]] == [render.PICTURE]  # no results
    assert TABLE_MESSAGE not in table.message_ids  # the last trick's message was closed


def uploads(posted: list[Posted]) -> list[Any]:
    """Every file a presenter uploaded: sent with a message or put on an edit."""
    files = [p.kwargs["file"] for p in posted if p.kwargs.get("file") is not None]
    files += [f for p in posted for f in p.kwargs.get("files") or []]
    return files + [f for p in posted for f in p.kwargs.get("attachments") or []]


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (5, 12)])
async def test_the_picture_is_uploaded_once_per_trick_with_alt_text(
    players: int, seed: int
) -> None:
    _, bot = await played_through(players, seed, computer_action)
    files = uploads(bot.posted)
    edits = [p for p in bot.posted if p.kind == "edit"]
    assert len(edits) > 3 * TRICKS  # many actions edited the table messages...
    assert len(files) == TRICKS + 1  # ...but only each trick's first message and the end uploaded
    for trick, file in enumerate(files, start=1):
        assert file.description and len(file.description) <= 1024
        assert "{" not in file.description and "losers." not in file.description
        if trick <= TRICKS:
            assert f"trick {trick} of {TRICKS}" in file.description
    assert "end of the game" in files[-1].description


async def test_the_table_message_carries_a_short_summary_not_the_whole_grid() -> None:
    _, bot = await played_through(4, 5, computer_action)
    sent = [p for p in bot.posted if p.view is not None and HAND_BUTTON in custom_ids(p.view)]
    assert len(sent) > 3 * TRICKS  # every table message, posted or edited
    field = text("en", "losers.glance.field").split("{")[0]
    for post in sent:
        shown = post.text
        assert "A1:" not in shown and "E5:" not in shown  # no cell-by-cell dump
        (summary,) = [line for line in shown.splitlines() if line.startswith(field)]
        assert len(summary) < 700


async def test_the_picture_is_drawn_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn_in = threads_running(monkeypatch, render, "picture")
    presenter = LosersPresenter(FakeBot())
    table = make_table(3, seed=1, presenter=presenter)
    await presenter.post_table(table, table.moment(None), "en")
    assert off_the_loop(drawn_in)


def with_computers(wanted: Callable[[RightsOfLosers], bool]) -> tuple[LosersPresenter, Table]:
    """A table of ann and the lobby's Bot 1 and Bot 2, at the first seating drawn that is
    `wanted`."""
    seats = [human_seat(1, "ann"), bot_seat(1), bot_seat(2)]
    for seed in range(1, 40):
        state = start(new_header("rights-of-losers", [s.player for s in seats], {}, seed=seed))
        if wanted(state):
            break
    else:
        raise AssertionError("no seating drawn is the one wanted")
    presenter = LosersPresenter(FakeBot())
    table = Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=seats,
        state=state,
        seq=0,
        ledger=Ledger(),
        presenter=presenter,
        timing=Timing(turn_seconds=3600),
    )
    return presenter, table


async def test_computers_are_named_by_their_seat_in_play() -> None:
    # a seating where the lobby's Bot 1 does not sit first
    presenter, table = with_computers(lambda state: state.players[0] == bot_seat(2).player)
    state = rules_of(table)
    names = presenter.names(table)
    first = state.players[0]  # seat ①, a computer
    assert names[first] == "Bot 1" and presenter.seat_name(table, first) == "🤖 Bot 1"
    assert names["1"] == "ann"
    for seat_number, player in enumerate(state.players, start=1):
        if player != "1":
            assert names[player] == f"Bot {seat_number}"
    rows = presenter.table_embed(table, "en").fields[-1].value  # /losers status
    assert "① 🤖 Bot 1 ·" in rows
    board = as_text(compose(presenter.table_board(table, "en")))
    assert "\n① 🤖 Bot 1 ·" in board
    to_play = f"{presenter.seat_name(table, state.next().player)} · ▶ to play ·"
    assert to_play in board
    assert menus.seat_label(table, first, "ja") == "ボット1"
    table.levels = {first: "hard"}  # a level chosen in the lobby goes with the seat's name
    assert presenter.seat_name(table, first) == "🤖 Bot 1 (hard)"


def computer_out_of_lobby_order(state: RightsOfLosers) -> bool:
    """A computer is to act whose seat in play is not its number in the lobby."""
    to_act = state.next()
    assert to_act is not None
    number = to_act.player.removeprefix(BOT_PREFIX)
    return number != to_act.player and state.players.index(to_act.player) + 1 != int(number)


async def test_the_turn_line_names_a_computer_by_its_seat_in_play() -> None:
    presenter, table = with_computers(computer_out_of_lobby_order)
    state = rules_of(table)
    to_act = state.next().player
    lobby_number = to_act.removeprefix(BOT_PREFIX)
    table.levels = {to_act: "hard"}
    seat_number = state.players.index(to_act) + 1
    by_seat = f"🤖 Bot {seat_number} (hard)"
    assert presenter.seat_name(table, to_act) == by_seat
    message = as_text(presenter.table_message(table, table.moment(None), "en")["view"])
    assert t("en", "table.turn_now", player=by_seat) in message
    assert f"Bot {lobby_number} (hard) to play" not in message
    assert presenter.plain_name(table, "1", "en") == "**ann**"  # a member: in bold, no ping


async def test_the_final_standings_name_the_land_and_the_tie_break() -> None:
    # Seed 85 with three players ends with two players on 34 points: the chips decide.
    table, bot = await played_through(3, 85, random_action)
    result = rules_of(table).result()
    assert result.tie_break == "chips"
    shown = bot.posted[-1].text
    assert f"**{t('en', 'losers.end.land')}**" in shown
    assert t("en", "losers.end.tie_chips") in shown
    assert text("en", "losers.summary.final").split("{")[0] in shown


async def test_the_final_standings_in_japanese_fit_discord() -> None:
    _, bot = await played_through(4, 4, random_action, locale="ja")
    final = bot.posted[-1]
    accepted(final.view)
    assert t("ja", "losers.end.tie_chips") in final.text


# -- G-3: what each message may know ---------------------------------------------------------------


def other_hands(state: RightsOfLosers, player: str, seed: int) -> RightsOfLosers:
    """The same table with every hand but `player`'s dealt again (what `player` cannot tell
    apart); asserts that some hidden hand really changed."""
    twin = state.determinize(player, random.Random(seed))
    assert twin.observation(player) == state.observation(player)
    assert any(twin.hands[p] != state.hands[p] for p in state.players if p != player)
    return twin


def picture_bytes(presenter: LosersPresenter, table: Table) -> bytes:
    file = presenter.picture(table, "en")
    data = file.fp.read()
    assert isinstance(data, bytes)
    return data


@pytest.mark.parametrize("tricks", [1, 4, 8])
async def test_the_public_table_shows_no_hidden_hand(tricks: int) -> None:
    presenter = LosersPresenter(FakeBot())
    table = make_table(4, seed=tricks)
    state, rng = rules_of(table), random.Random(tricks)
    while (nxt := state.next()) is not None and state.trick_number <= tricks:
        state.apply(nxt.player, computer_action(state, nxt.player, rng))
    embed, png = presenter.table_embed(table, "en").to_dict(), picture_bytes(presenter, table)
    board = as_text(compose(presenter.table_board(table, "en")))
    table.state = other_hands(state, state.players[0], seed=tricks)
    assert presenter.table_embed(table, "en").to_dict() == embed
    assert as_text(compose(presenter.table_board(table, "en"))) == board
    assert picture_bytes(presenter, table) == png


async def test_a_menu_shows_its_reader_and_nobody_else() -> None:
    table = make_table(4, seed=5)
    state, rng = rules_of(table), random.Random(5)
    for _ in range(37):  # into the fourth trick
        nxt = state.next()
        assert nxt is not None
        state.apply(nxt.player, computer_action(state, nxt.player, rng))
        table.seq += 1
    for seat in table.seats.values():
        table.state = state
        embed, view = menus.menu(table, seat, "en")
        shown = (embed.to_dict(), view.to_components() if view else None)
        table.state = other_hands(state, seat.player, seed=int(seat.player))
        again, view = menus.menu(table, seat, "en")
        assert (again.to_dict(), view.to_components() if view else None) == shown


# -- the events, by class --------------------------------------------------------------------------


def test_the_story_tells_every_event_but_the_plays_and_the_trick_and_game_markers() -> None:
    untold = {TrickStarted, CardPlayed, GameOver}
    assert set(render.STORY) == set(get_args(LosersEvent)) - untold
    assert set(get_args(render.StoryEvent)) == set(render.STORY)


def test_the_table_leaves_the_won_trick_to_the_trick_block() -> None:
    table = make_table(3, seed=3)
    state, rng = rules_of(table), random.Random(3)
    story: list[render.StoryEvent] = []
    while state.trick_number == 1:
        nxt = state.next()
        assert nxt is not None
        events = state.apply(nxt.player, computer_action(state, nxt.player, rng))
        story += [e for e in events if isinstance(e, render.STORY)]
    won = next(e for e in story if isinstance(e, TrickWon))
    shown = boards.Shown(state.observation(None), NAMES.__getitem__, NAMES, story)
    board = as_text(compose(boards.table_board(shown, "en")))
    for told in ("\n".join(embed_strings(boards.table_embed(shown, "en"))), board):
        assert render.story_line(won, "en", NAMES.__getitem__) not in told
        others = [e for e in story if not isinstance(e, TrickWon)]
        assert others and all(render.story_line(e, "en", NAMES.__getitem__) in told for e in others)
    assert render.story_line(others[0], "en", NAMES.__getitem__) in board.split("———")[1]
