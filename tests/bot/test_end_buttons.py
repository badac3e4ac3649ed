"""The end of a game, shared by every game: the rematch (seats kept, the host confirms, members
opt in once, a lobby linked to the first game), the Leaderboard button, `/… status` in a
finished thread, and the texts of the standings and the announcement. Real handlers, a real
ledger and manager; Discord's side recorded (`tests.bot.fakes`)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import discord
import pytest

from bot.i18n import t
from bot.layout.board import Board, Text
from bot.runtime.lobby import COMPUTERS_NOTE, Lobby
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables import end_buttons, ending
from bot.tables.buttons import BUTTONS
from bot.tables.presenting import MessagePresenter
from data.store import ResultRow
from rules.base import AnyGame
from rules.log import load
from tests.bot import test_kamiza_hand_view as hand_view
from tests.bot.fakes import FakeBot, FakeInteraction, custom_ids
from tests.bot.test_runtime import GUILD
from tests.data.test_ledger_game_ends import finish

THREAD = 40
HOST, BEN, CY, STRANGER = 1, 2, 3, 99


ledger, manager = hand_view.ledger, hand_view.manager  # the usual fixtures: a ledger, a manager


@pytest.fixture(autouse=True)
async def no_offers_left():
    """Each test starts and ends with no rematch offered (the offers live in the process)."""
    yield
    for offer in list(end_buttons.OFFERS.values()):
        if offer.timer is not None:
            offer.timer.cancel()
    end_buttons.OFFERS.clear()
    ending.KEEP_OPEN.clear()


@pytest.fixture
def bot(manager) -> FakeBot:
    client = FakeBot()
    client.tables = manager
    client.settings = SimpleNamespace(rematch_seconds=60)
    return client


async def finished(ledger, players=("1", "2", "3", "bot-1"), guild: int = GUILD) -> int:
    """A finished KAMIZA game in thread THREAD, hosted by HOST, its computer seat "hard"."""
    gid = await finish(ledger, list(players), thread=THREAD, guild=guild)
    await ledger.set_note(gid, COMPUTERS_NOTE, ["hard"])
    await ledger.set_note(gid, "messages", {ending.RESULT_MESSAGE: 777})
    return gid


async def click(bot: FakeBot, user: int, custom: str, guild: int = GUILD) -> FakeInteraction:
    interaction = FakeInteraction(bot.tables, user, guild, channel_id=THREAD)
    interaction.client = bot
    await BUTTONS.dispatch(interaction, custom)
    return interaction


async def test_a_rematch_keeps_the_seats_and_is_linked_to_the_first_game(manager, ledger):
    first = await finished(ledger)
    record = await ledger.get_game(first)
    lobby = await manager.open_rematch(record, [BEN, STRANGER, BEN])
    assert [s.user_id for s in lobby.seats] == [HOST, BEN, None]  # cy's seat is free
    assert [c.level for c in lobby.computers] == ["hard"]  # the computer keeps its level
    assert lobby.host_id == HOST and lobby.place.thread_id == THREAD
    assert manager.at(THREAD) is lobby
    rematch = await ledger.get_game(lobby.game_id)
    assert rematch.rematch_of == first and rematch.options == record.options
    assert (await ledger.notes(lobby.game_id))[COMPUTERS_NOTE] == ["hard"]


async def test_the_host_confirms_members_opt_in_once_and_the_lobby_opens(bot, manager, ledger):
    first = await finished(ledger)
    refused = await click(bot, BEN, f"g:rematch:{first}")
    assert refused.texts() == [t("en", "end.rematch_host_only")]
    asked = await click(bot, HOST, f"g:rematch:{first}")
    [answer] = asked.answers
    assert answer.ephemeral and custom_ids(answer.view) == [f"g:rematch_ok:{first}"]
    assert "rematch" not in await ledger.notes(first)  # asking changes nothing

    confirmed = await click(bot, HOST, f"g:rematch_ok:{first}")
    assert confirmed.texts() == [t("en", "end.rematch_asked")]
    [offer] = [p for p in bot.posted if p.kind == "send"]
    assert f"<@{BEN}>" in offer.content and f"<@{CY}>" in offer.content
    assert custom_ids(offer.view) == [f"g:rematch_in:{first}"]
    note = (await ledger.notes(first))["rematch"]
    assert note["in"] == [HOST] and note["message"] == offer.message_id and not note["done"]
    again = await click(bot, HOST, f"g:rematch_ok:{first}")
    assert again.texts() == [t("en", "end.rematch_offered")]

    assert (await click(bot, STRANGER, f"g:rematch_in:{first}")).texts() == [
        t("en", "end.rematch_not_seated")
    ]
    assert (await click(bot, BEN, f"g:rematch_in:{first}")).texts() == [
        t("en", "end.rematch_in_ok")
    ]
    assert (await click(bot, BEN, f"g:rematch_in:{first}")).texts() == [
        t("en", "end.rematch_already_in")
    ]
    assert (await ledger.notes(first))["rematch"]["in"] == [HOST, BEN]
    assert manager.at(THREAD) is None  # cy may still opt in

    await click(bot, CY, f"g:rematch_in:{first}")  # the last member: it opens at once
    lobby = manager.at(THREAD)
    assert isinstance(lobby, Lobby)
    assert [s.user_id for s in lobby.seats] == [HOST, BEN, CY, None]
    assert (await ledger.get_game(lobby.game_id)).rematch_of == first
    assert (await ledger.notes(first))["rematch"]["done"] is True
    told = [p for p in bot.posted if p.kind == "edit" and p.message_id == offer.message_id]
    assert told and told[-1].content == t(
        "en", "end.rematch_opened", game_id=lobby.game_id, players=""
    )
    late = await click(bot, CY, f"g:rematch_in:{first}")
    assert late.texts() == [t("en", "end.rematch_over")]
    assert (await click(bot, HOST, f"g:rematch:{first}")).texts() == [
        t("en", "end.rematch_offered")
    ]


async def test_an_offer_outlives_a_restart_and_opens_once_its_window_passed(bot, manager, ledger):
    first = await finished(ledger)
    await ledger.set_note(
        first, "rematch", {"in": [HOST], "until": time.time() - 1, "message": 5, "done": False}
    )
    late = await click(bot, BEN, f"g:rematch_in:{first}")  # no offer in memory: a restart
    assert late.texts() == [t("en", "end.rematch_over")]
    told = await asyncio.wait_for(_edits_of(bot, 5), 2)  # the offer's message, after the lobby
    lobby = manager.at(THREAD)
    assert isinstance(lobby, Lobby)
    assert [s.user_id for s in lobby.seats] == [HOST, None]  # ben and cy missed the window
    assert f"<@{BEN}>" in told[-1].content and f"<@{CY}>" in told[-1].content
    assert (await ledger.notes(first))["rematch"]["done"] is True


async def _edits_of(bot: FakeBot, message_id: int) -> list:
    while not (found := [p for p in bot.posted if p.kind == "edit" and p.message_id == message_id]):
        await asyncio.sleep(0.01)
    return found


async def test_clicks_on_a_game_not_finished_here_change_nothing(bot, manager, ledger):
    elsewhere = await finished(ledger, guild=GUILD + 1)
    running = await ledger.create_game(
        game="kamiza", options={}, guild_id=GUILD, channel_id=2, thread_id=41, host_id=HOST
    )
    for gid in (elsewhere, running, 12345):
        for verb in ("rematch", "rematch_ok", "board"):
            answered = await click(bot, HOST, f"g:{verb}:{gid}")
            assert answered.texts() == [t("en", "error.table_closed")], (verb, gid)
    assert manager.live() == [] and "rematch" not in await ledger.notes(elsewhere)


async def test_the_leaderboard_button_shows_the_games_season_privately(bot, ledger):
    first = await finished(ledger, players=("1", "2", "3"))
    shown = await click(bot, CY, f"g:board:{first}")
    [answer] = shown.answers
    assert answer.ephemeral and answer.embed is not None
    assert str(CY) in answer.embed.description or "user3" in answer.embed.description


async def test_status_in_a_finished_thread_links_its_result(bot, ledger):
    first = await finished(ledger)
    asked = FakeInteraction(bot.tables, CY, GUILD, channel_id=THREAD)
    assert await end_buttons.status_after_end(asked, "kamiza")
    link = ending.jump_url(GUILD, THREAD, 777)
    assert asked.texts() == [t("en", "end.status_over", game_id=first, link=link)]
    other_game = FakeInteraction(bot.tables, CY, GUILD, channel_id=THREAD)
    assert not await end_buttons.status_after_end(other_game, "kobayakawa")
    nowhere = FakeInteraction(bot.tables, CY, GUILD, channel_id=9)
    assert not await end_buttons.status_after_end(nowhere, "kamiza")
    assert not other_game.answers and not nowhere.answers


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_standings_say_why_a_game_is_unrated_and_the_announcement_who_won(lang):
    board = Board(title="standings")
    ending.unrated_text(board, None, lang)
    assert board.parts == []
    ending.unrated_text(board, "computer_seats", lang)
    assert board.parts == [Text((t(lang, "end.unrated_computer_seats"),), t(lang, "end.unrated"))]
    rows = [
        ResultRow("1", 1, "ann", False, 5, 1, True),
        ResultRow("2", 2, "ben", False, 5, 1, True),
        ResultRow("bot-1", None, "Bot 1", True, 2, 3, False),
    ]
    text = ending.announcement_text(lang, "KAMIZA", rows, lambda p: f"<{p}>", "LINK")
    assert text == t(lang, "end.announce", game="KAMIZA", winners="<1>, <2>", link="LINK")
    assert custom_ids(ending.end_view(7, lang)) == ["g:rematch:7", "g:board:7"]


class Standings(MessagePresenter[AnyGame]):
    """The shared part of every game's presenter, as `finished` uses it."""

    game = "kamiza"


async def test_the_standings_edit_the_announcement_and_archive_only_the_tables_own_thread(
    ledger, monkeypatch
):
    archived: list[tuple[int, float]] = []
    noted_after_posts: list[int] = []  # how many messages were out when the archive was noted
    timed: list[float] = []

    async def note_archive(ledger, place, gid, seconds) -> float:
        archived.append((place.home, seconds))
        noted_after_posts.append(len(client.posted))
        return 1000.0 + seconds

    monkeypatch.setattr(ending, "note_archive", note_archive)
    monkeypatch.setattr(
        ending, "archive_at", lambda bot, ledger, place, gid, due: timed.append(due)
    )
    client = FakeBot()
    presenter = Standings(client)
    record = await ledger.get_game(await finished(ledger))
    table = Table(
        game_id=record.id,
        place=Place(GUILD, 2, THREAD),
        host_id=HOST,
        seats=record.seats,
        state=load(record.log()),
        seq=len(record.actions),
        ledger=ledger,
        presenter=presenter,
        timing=Timing(),
    )
    await presenter.post_results(table, record.results, discord.Embed(title="standings"))
    [standings] = client.posted
    assert custom_ids(standings.view) == [f"g:rematch:{record.id}", f"g:board:{record.id}"]
    assert t("en", "end.unrated_computer_seats") in standings.text.splitlines()
    assert archived == []  # `/start` typed in a thread: not the bot's thread to archive

    table.message_ids[ending.ANNOUNCEMENT] = 555
    await presenter.post_results(table, record.results, discord.Embed(title="standings"))
    result = client.posted[-2].message_id
    [edited] = [p for p in client.posted if p.kind == "edit"]
    assert (edited.channel_id, edited.message_id) == (2, 555)
    assert ending.jump_url(GUILD, THREAD, result) in edited.content
    assert archived == [(THREAD, ending.DEFAULT_ARCHIVE_SECONDS)]
    # noted before the standings went out: a bot killed once they are seen still archives
    assert noted_after_posts == [len(client.posted) - 2]
    assert timed == [1000.0 + ending.DEFAULT_ARCHIVE_SECONDS]
