"""Clicks whose custom id was forged or comes from another server change nothing and are
answered privately, with a warning in the log and no traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import bot.kamiza.hand
import bot.kobayakawa.hand
import bot.losers.hand
import bot.tables.lobby_buttons
import bot.tables.rules_pages  # noqa: F401  (registers the verbs)
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.tables.buttons import BUTTONS
from data.backends import open_ledger
from tests.bot.fakes import FakeInteraction
from tests.bot.test_runtime import GUILD, Recorder

STALE = "no longer does anything"


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


async def started(manager: TableManager, game: str, guild: int = GUILD):
    place = Place(guild, 500 + len(manager.live()), None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game=game, place=place, host_id=1, host_name="host", options={}, bots=0
    )
    for uid in (2, 3):
        await lobby.join(uid, f"user{uid}")
    return await manager.start(lobby, 1)


@pytest.fixture
async def manager(ledger):
    recorder = Recorder()
    tables = TableManager(
        ledger,
        {"kamiza": recorder, "kobayakawa": recorder},
        Defaults(turn_seconds=3600, lobby_seconds=600, bot_delay=0.0),
    )
    yield tables
    await tables.shutdown()


async def test_a_forged_custom_id_is_a_warning_and_the_stale_answer(manager, caplog) -> None:
    kamiza = await started(manager, "kamiza")
    kobayakawa = await started(manager, "kobayakawa")
    kz_user = kamiza.seats[kamiza.state.next().player].user_id
    kb_user = kobayakawa.seats[kobayakawa.state.next().player].user_id
    forged = [
        (kz_user, f"g:kzp:{kamiza.game_id}:1.1:boss"),  # the area is missing
        (kz_user, f"g:kzc:{kamiza.game_id}"),
        (kb_user, f"g:kbk:{kobayakawa.game_id}:0"),  # which card to keep is missing
        (kb_user, f"g:kbk:{kobayakawa.game_id}:0:sideways"),
        (kb_user, f"g:kbd:{kobayakawa.game_id}:zero"),
        (kb_user, "g:rules:0:kamiza:two"),
        (kb_user, "g:rules:0:no-such-game:1"),
    ]
    caplog.set_level(logging.WARNING)
    for user, custom in forged:
        click = FakeInteraction(manager, user, GUILD)
        await BUTTONS.dispatch(click, custom)
        assert [STALE in text for text in click.texts()] == [True], custom
    assert kamiza.seq == 0 and kobayakawa.seq == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert len([r for r in caplog.records if "malformed custom id" in r.getMessage()]) == 7


async def test_a_table_answers_only_clicks_from_its_own_server(manager, ledger) -> None:
    table = await started(manager, "kamiza")
    admin_elsewhere = FakeInteraction(manager, 99, GUILD + 1, manage_guild=True)
    await BUTTONS.dispatch(admin_elsewhere, f"g:cancel_yes:{table.game_id}")
    assert not table.closed
    assert (await ledger.get_game(table.game_id)).status == "running"
    assert "over or was cancelled" in admin_elsewhere.texts()[0]  # as if there were no table
    player = table.state.next().player
    seated_elsewhere = FakeInteraction(manager, table.seats[player].user_id, GUILD + 1)
    card = table.state.hands[player][0]
    await BUTTONS.dispatch(seated_elsewhere, f"g:kzp:{table.game_id}:1.1:{card}:kamiza")
    assert table.seq == 0
    admin_here = FakeInteraction(manager, 99, GUILD, manage_guild=True)
    await BUTTONS.dispatch(admin_here, f"g:cancel_yes:{table.game_id}")
    assert table.closed
