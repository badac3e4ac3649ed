"""The end of a game survives a restart: a thread's pending archive and a rematch offer nobody
answered are kept in the ledger and taken up again at startup (`ending.resume_archives`,
`end_buttons.resume_offers`). Real ledger and manager; Discord's side recorded."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from bot.runtime.lobby import Lobby
from bot.runtime.place import Place
from bot.tables import end_buttons, ending
from tests.bot import test_end_buttons as ends
from tests.bot.fakes import FakeBot
from tests.bot.test_end_buttons import BEN, CY, HOST, THREAD, finished
from tests.bot.test_runtime import GUILD

# The fixtures of the end buttons' tests: a ledger, a manager, a client, no offer left behind.
ledger, manager, bot, no_offers_left = ends.ledger, ends.manager, ends.bot, ends.no_offers_left


class Threads(FakeBot):
    """A client whose threads are real `discord.Thread` objects that record being archived."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: dict[int, discord.Thread] = {}
        self.archived: asyncio.Queue[int] = asyncio.Queue()

    def thread(self, thread_id: int) -> discord.Thread:
        thread = discord.Thread.__new__(discord.Thread)
        thread.id, thread.archived = thread_id, False
        self.threads[thread_id] = thread
        return thread

    def get_channel(self, channel_id: int) -> discord.Thread | None:
        return self.threads.get(channel_id)


async def archives_left(ledger, count: int) -> list[int]:
    """The games whose archive is still noted, once there are `count` of them."""
    while len(noted := await ledger.noted_games(ending.ARCHIVE_NOTE)) != count:
        await asyncio.sleep(0.01)
    return [game for game, _ in noted]


@pytest.fixture
def threads(monkeypatch, manager) -> Threads:
    client = Threads()
    client.tables = manager

    async def edit(thread: discord.Thread, *, archived: bool) -> None:
        thread.archived = archived
        client.archived.put_nowait(thread.id)

    monkeypatch.setattr(discord.Thread, "edit", edit)
    return client


async def test_a_past_due_archive_is_done_at_startup_and_a_later_one_waits(threads, ledger):
    overdue, later = await finished(ledger), await finished(ledger)
    await ledger.set_note(overdue, ending.ARCHIVE_NOTE, {"due": time.time() - 30})
    await ledger.set_note(later, ending.ARCHIVE_NOTE, {"due": time.time() + 0.3})
    threads.thread(THREAD)  # both games were played in THREAD: the first archive closes it
    assert await ending.resume_archives(threads, ledger) == 2
    assert await asyncio.wait_for(threads.archived.get(), 1) == THREAD
    assert await asyncio.wait_for(archives_left(ledger, 1), 1) == [later]
    # The later one finds the thread archived already: no second edit.
    assert await asyncio.wait_for(archives_left(ledger, 0), 1) == []
    assert threads.archived.empty()


async def test_the_grace_period_is_noted_and_a_new_table_there_keeps_the_thread_open(
    threads,
    ledger,
    manager,
) -> None:
    first = await finished(ledger)
    threads.thread(THREAD)
    before = time.time()
    await ending.archive_later(threads, ledger, Place(GUILD, 2, THREAD), first, 60)
    [(game, note)] = await ledger.noted_games(ending.ARCHIVE_NOTE)
    assert game == first and before + 60 <= note["due"] <= time.time() + 60
    await end_buttons.resume_offers(threads, ledger)  # no offer: nothing opens
    assert manager.at(THREAD) is None

    await ledger.set_note(first, ending.ARCHIVE_NOTE, {"due": time.time() - 1})  # a restart
    record = await ledger.get_game(first)
    await manager.open_rematch(record, [])  # a lobby lives in the thread now
    assert await ending.resume_archives(threads, ledger) == 1
    await asyncio.wait_for(archives_left(ledger, 0), 1)
    assert threads.archived.empty() and not threads.threads[THREAD].archived


async def test_an_unanswered_offer_opens_its_lobby_at_startup(bot, manager, ledger):
    first = await finished(ledger)
    until = time.time() - 1  # the window passed while the bot was away
    note = {"in": [HOST, BEN], "until": until, "message": 5, "done": False}
    await ledger.set_note(first, end_buttons.REMATCH_NOTE, note)
    assert await end_buttons.resume_offers(bot, ledger) == 1
    while manager.at(THREAD) is None:
        await asyncio.sleep(0.01)
    lobby = manager.at(THREAD)
    assert isinstance(lobby, Lobby)
    assert [s.user_id for s in lobby.seats] == [HOST, BEN, None]  # cy missed the window
    while not (await ledger.notes(first))[end_buttons.REMATCH_NOTE]["done"]:
        await asyncio.sleep(0.01)
    assert await end_buttons.resume_offers(bot, ledger) == 0  # done: never opened twice
    [told] = [p for p in bot.posted if p.kind == "edit" and p.message_id == 5]
    assert f"<@{CY}>" in told.content


async def test_an_offer_still_open_at_startup_waits_for_its_window(bot, manager, ledger):
    first = await finished(ledger)
    note = {"in": [HOST], "until": time.time() + 60, "message": 5, "done": False}
    await ledger.set_note(first, end_buttons.REMATCH_NOTE, note)
    assert await end_buttons.resume_offers(bot, ledger) == 1
    offer = end_buttons.OFFERS[first]
    assert offer.joined == [HOST] and offer.timer is not None and not offer.timer.done()
    assert THREAD in ending.KEEP_OPEN and manager.at(THREAD) is None
    assert await end_buttons.resume_offers(bot, ledger) == 0  # already in memory
