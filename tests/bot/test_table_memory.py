"""What a presenter keeps per table (`Table.memory`): it lives with the table, is dropped when the
table ends or is set aside, and a restart rebuilds it from the log (Rights of Losers' trick
story, the one presenter that keeps something)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.losers.presenter import STORY, LosersPresenter, story_of
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.memory import Memory, Slot
from bot.runtime.place import Place
from bot.runtime.table import Table
from data.backends import open_ledger
from rules.agents import random_action
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from tests.bot.fakes import FakeBot
from tests.bot.test_losers_presenter import make_table
from tests.bot.test_runtime import Recorder, make_manager, open_and_start

GUILD, CHANNEL = 10, 20
NOTE: Slot[list[str]] = Slot("note", list)


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def test_a_slot_starts_fresh_for_each_table_and_keeps_what_is_set() -> None:
    first, second = Memory(), Memory()
    first.get(NOTE).append("said")
    assert first.get(NOTE) == ["said"] and second.get(NOTE) == []
    second.set(NOTE, ["other"])
    assert first.get(NOTE) == ["said"]
    first.clear()
    assert not first and first.get(NOTE) == []


async def test_memory_is_dropped_once_a_cancelled_table_has_said_everything(ledger) -> None:
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    table.memory.get(NOTE).append("kept while the table runs")
    await table.cancel("table.cancelled_by_host")
    await table.outbox.drain()
    assert not table.memory


async def test_memory_is_dropped_when_a_finished_table_has_said_everything(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=3)
    rng = random.Random(3)
    while (nxt := table.state.next()) is not None:
        table.memory.get(NOTE).append(nxt.player)
        await table.act(nxt.player, random_action(table.state, nxt.player, rng))
    await table.outbox.drain()
    assert recorder.named("finished") and not table.memory


async def test_a_restored_table_is_recalled_before_it_is_shown(ledger) -> None:
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    rng = random.Random(5)
    for _ in range(4):
        nxt = table.state.next().player
        await table.act(nxt, random_action(table.state, nxt, rng))
    await manager.shutdown()
    assert not table.memory  # shut down: nothing of it stays in this process
    recorder = Recorder()
    second = make_manager(ledger, recorder)
    assert await second.restore() == (0, 1)
    await second.get(table.game_id).outbox.drain()
    assert [name for name, _ in recorder.calls][:2] == ["recall", "table_opened"]
    assert recorder.named("recall") == [(4,)]  # the whole log, before anything is shown
    await second.shutdown()


# -- Rights of Losers: the trick's story ------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_story_replayed_from_the_log_is_the_one_told_live(seed: int) -> None:
    """After every action, `story_of` the log so far is what the presenter has told of the
    trick: a restart at any moment goes on with the same story."""
    presenter = LosersPresenter(FakeBot())
    table = make_table(4, seed, presenter)
    header = new_header(RightsOfLosers.name, list(table.seats), {}, seed=seed)
    assert start(header).view(None) == table.state.view(None)  # the table's own log header
    rng, actions, told = random.Random(seed), [], 0
    while (nxt := table.state.next()) is not None:
        action = random_action(table.state, nxt.player, rng)
        actions.append({"player": nxt.player, **RightsOfLosers.action_json(action)})
        events = table.state.apply(nxt.player, action)
        table.seq += 1
        await presenter.events(table, nxt.player, events, "player", table.moment(None))
        live = table.memory.get(STORY)
        assert story_of({**header, "actions": actions}) == live
        told += bool(live)
    assert told  # some moments had a story to rebuild


async def test_a_restarted_losers_table_goes_on_with_the_trick_story(ledger) -> None:
    defaults = Defaults(turn_seconds=3600, lobby_seconds=600, bot_delay=0.0)
    first = TableManager(ledger, {RightsOfLosers.name: LosersPresenter(FakeBot())}, defaults)
    place = Place(GUILD, CHANNEL, None)
    first.reserve(place.home)
    lobby = await first.open_lobby(
        game=RightsOfLosers.name, place=place, host_id=1, host_name="h", options={}, bots=0
    )
    for uid in (2, 3):
        await lobby.join(uid, f"user{uid}")
    table = await first.start(lobby, 1)
    rng = random.Random(11)
    while not table.memory.get(STORY) or len(table.memory.get(STORY)) < 2:
        nxt = table.state.next()
        assert nxt is not None, "the game ended before a trick had a story"
        await table.act(nxt.player, random_action(table.state, nxt.player, rng))
        await table.outbox.drain()
    before = list(table.memory.get(STORY))
    await first.shutdown()

    second = TableManager(ledger, {RightsOfLosers.name: LosersPresenter(FakeBot())}, defaults)
    assert await second.restore() == (0, 1)
    again = second.get(table.game_id)
    assert isinstance(again, Table) and again.memory.get(STORY) == before
    await second.shutdown()
