"""B-3 across a restart, with the real menu handlers, table runtime and ledger: a player who
pressed Draw can only keep, and so can the autopilot acting for them once the bot is back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.kobayakawa import hand
from bot.kobayakawa.presenter import SEEN_DRAW, KobayakawaPresenter
from bot.runtime import thinking as thinking_module
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.storage import remember
from bot.runtime.table import Table
from bot.tables.presenting import MessagePresenter
from data.backends import open_ledger
from rules.kobayakawa_moves import KEEP_DRAWN, KEEP_HELD, REPLACE
from tests.bot.fakes import FakeInteraction

GUILD, CHANNEL = 10, 20


class SilentPresenter(KobayakawaPresenter):
    """Kobayakawa's presenter with nothing sent to Discord (its restore step runs as ever)."""

    def __init__(self) -> None:
        super().__init__(None)  # type: ignore[arg-type]  # never reaches Discord

    async def events(self, *args: Any) -> None: ...
    async def turn(self, *args: Any) -> None: ...
    async def reminder(self, *args: Any) -> None: ...
    async def autopilot_changed(self, *args: Any) -> None: ...
    async def finished(self, *args: Any) -> None: ...
    async def cancelled(self, *args: Any) -> None: ...
    async def lobby_changed(self, *args: Any) -> None: ...
    async def lobby_closed(self, *args: Any) -> None: ...


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


@pytest.fixture
def opened(monkeypatch) -> list[tuple[bool, list[Any]]]:
    """Each table shown: whether restored, and what its player to act may do at that moment."""
    shown: list[tuple[bool, list[Any]]] = []

    async def table_opened(
        self: MessagePresenter, table: Table, restored: bool, moment: Any
    ) -> None:
        nxt = table.state.next()
        shown.append((restored, table.state.legal_actions(nxt.player) if nxt else []))

    monkeypatch.setattr(MessagePresenter, "table_opened", table_opened)
    return shown


def manager(ledger: Any) -> TableManager:
    defaults = Defaults(turn_seconds=60, lobby_seconds=600, bot_delay=0.0)
    return TableManager(ledger, {"kobayakawa": SilentPresenter()}, defaults)


async def start_table(tables: TableManager) -> Table:
    place = Place(GUILD, CHANNEL, None)
    tables.reserve(place.home)
    lobby = await tables.open_lobby(
        game="kobayakawa", place=place, host_id=1, host_name="one", options={}, bots=0
    )
    for uid in (2, 3):
        await lobby.join(uid, f"user{uid}")
    return await tables.start(lobby, 1)


async def press_draw(tables: TableManager, table: Table) -> str:
    """The player to draw presses Draw on their menu; who they are."""
    player = table.state.next().player
    click = FakeInteraction(tables, table.seats[player].user_id, GUILD)
    await hand.draw(click, table.game_id, [str(table.seq)])
    assert any("You drew" in text for text in click.texts()), click.texts()
    return player


async def test_b3_after_a_restart_the_menu_offers_only_keeping(ledger, opened) -> None:
    first = manager(ledger)
    table = await start_table(first)
    player = await press_draw(first, table)
    assert table.state.legal_actions(player) == [KEEP_DRAWN, KEEP_HELD]
    await first.shutdown()

    second = manager(ledger)
    assert await second.restore() == (0, 1)
    again = second.get(table.game_id)
    assert isinstance(again, Table) and again.notes[SEEN_DRAW] == [player, 0]
    await again.outbox.drain()
    assert opened[-1] == (True, [KEEP_DRAWN, KEEP_HELD])
    assert again.state.has_looked(player)
    # The menu from before the restart, and a new one, offer keeping only; Replace is refused.
    click = FakeInteraction(second, again.seats[player].user_id, GUILD)
    await hand.show_again(click, again.game_id, [])
    texts = click.texts()
    assert any("You drew" in text for text in texts), texts
    replace = FakeInteraction(second, again.seats[player].user_id, GUILD)
    await hand.replace(replace, again.game_id, ["0"])
    assert again.seq == 0 and again.state.has_looked(player)
    await second.shutdown()


async def test_b3_after_a_restart_the_autopilot_keeps_too(ledger, opened, monkeypatch) -> None:
    first = manager(ledger)
    table = await start_table(first)
    player = await press_draw(first, table)
    await remember(ledger, table.game_id, "autopilot", [player])  # they had gone away
    await first.shutdown()

    def replace_if_allowed(state: Any, who: str, *level_budget_seed: Any) -> Any:
        legal = state.legal_actions(who)
        return REPLACE if REPLACE in legal else legal[0]

    monkeypatch.setattr(thinking_module, "agent_answer", replace_if_allowed)
    second = manager(ledger)
    await second.restore()
    again = second.get(table.game_id)
    assert isinstance(again, Table) and player in again.autopilot
    for _ in range(200):  # the autopilot acts at once (no delay)
        if again.seq:
            break
        await asyncio.sleep(0.01)
    record = await ledger.get_game(table.game_id)
    assert record.actions[0] == {"player": player, "action": "draw", "keep": "drawn"}
    await second.shutdown()
