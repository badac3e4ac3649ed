"""A thousand tables on one process (issue 20): what each idle table keeps, and the work a click
or an action costs whatever the number of tables (found by id, each moment drawn once)."""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.games import registry
from bot.runtime import collector, heap
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.tables import lookup
from data.backends import open_ledger
from rules.agents import random_action
from rules.kamiza import Kamiza
from rules.kamiza_moves import Holding, holding
from rules.log import new_header, start
from tests.bench_idle_tables import make_manager, open_table
from tests.bot.fakes import FakeBot, FakeInteraction

GAMES = ("kamiza", "kobayakawa", "rights-of-losers")


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def tables_of(manager: TableManager) -> list[Table[Any]]:
    return [item for item in manager.live() if isinstance(item, Table)]


# -- what an idle table keeps ----------------------------------------------------------------------


async def test_an_idle_kamiza_table_keeps_little(ledger) -> None:
    """Traced Python allocations per idle 4-player table, started and waiting for a member (RSS
    is the benchmark's, `tests/bench_idle_tables.py`): about 20 KB; 148 KB when every member's
    16 hands were made with the table."""
    manager = make_manager(ledger, "kamiza")
    await open_table(manager, "kamiza", 0)  # warm: imports, caches, the ledger
    count = 20
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for number in range(1, 1 + count):
            await open_table(manager, "kamiza", number)
        gc.collect()
        grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
    finally:
        tracemalloc.stop()
    assert grown / count < 40_000, f"{grown / count:,.0f} B per idle table"
    await manager.shutdown()


async def test_an_idle_table_keeps_no_task_and_no_queue(ledger) -> None:
    manager = make_manager(ledger, "kamiza")
    await open_table(manager, "kamiza", 0)
    (table,) = tables_of(manager)
    worker = table.outbox._worker
    assert worker is None or worker.done()
    assert table.outbox._jobs is None
    await manager.shutdown()


def test_a_members_hands_are_made_as_the_game_reaches_them() -> None:
    player = f"member-{id(object())}"  # never seen before: its Holdings are all new
    full = holding(player, ("boss", "underboss", "hitman", "policeman"))
    assert not full.made and not full.moves and full.move_draw == ((), 0)
    moves = full.make().moves  # with the Holdings one play leads to, not made themselves
    assert full.made and len(moves) == 8
    after = next(iter(moves.values()))[0]
    assert isinstance(after, Holding) and len(after.hand) == 3 and not after.made
    assert len(after.make().moves) == 6 and after.move_draw[1] == full.move_draw[1] - 1


def test_a_new_kamiza_table_makes_the_hand_on_turn_only() -> None:
    players = [f"new-member-{id(object())}-{n}" for n in range(4)]
    state = start(new_header(Kamiza.name, players, {}, seed=1))
    nxt = state.next()
    assert nxt is not None
    made = {p for p in players if holding(p, state._holdings[p].hand).made}
    assert made == {nxt.player}
    rng = random.Random(2)
    state.apply(nxt.player, random_action(state, nxt.player, rng))  # the next one's turn
    after = state.next()
    assert after is not None and holding(after.player, state._holdings[after.player].hand).made


def test_malloc_arenas_are_limited_unless_the_operator_chose(monkeypatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert heap.limit_arenas() is False  # theirs stands
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    maps = Path("/proc/self/maps")
    if not maps.exists() or "libc.so.6" not in maps.read_text():
        pytest.skip("not glibc")
    assert heap.limit_arenas() is True


# -- finding a click's table -----------------------------------------------------------------------


async def test_a_clicks_table_is_found_without_reading_the_others(ledger, monkeypatch) -> None:
    manager = make_manager(ledger, "kamiza")
    for number in range(3):
        await open_table(manager, "kamiza", number)
    wanted = tables_of(manager)[1]

    def every_table() -> list[Any]:
        raise AssertionError("a lookup read every table")

    monkeypatch.setattr(manager, "live", every_table)
    click = FakeInteraction(manager, wanted.host_id, wanted.place.guild_id)
    assert lookup.table(click, wanted.game_id) is wanted  # by its custom id's game id
    at_home = FakeInteraction(manager, wanted.host_id, wanted.place.guild_id, wanted.place.home)
    assert lookup.here(at_home, "kamiza") is wanted  # a command typed in its thread
    manager.check_room(wanted.place.guild_id, 999)  # a server's limits: its own tables only
    monkeypatch.undo()
    await manager.shutdown()


async def test_a_servers_tables_are_counted_from_its_own_index(ledger) -> None:
    manager = make_manager(ledger, "kamiza")
    for number in range(3):
        await open_table(manager, "kamiza", number)
    table = tables_of(manager)[0]
    guild = table.place.guild_id
    assert manager.in_guild(guild) == [table]
    await table.cancel("cancel.by_user")
    await table.outbox.drain()
    assert manager.in_guild(guild) == [] and guild not in manager._by_guild
    assert len(manager._by_guild) == 2
    await manager.shutdown()


# -- each moment drawn once ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_the_table_is_drawn_once_for_each_moment(ledger, monkeypatch, game) -> None:
    """A whole match: the table message is rendered once per state it shows (and once for each
    round's closing picture), never twice for one; so no cache by state is needed."""
    presenter = registry.spec_of(game).presenter(FakeBot())
    drawn: Counter[tuple[Any, ...]] = Counter()
    real = type(presenter).table_board

    def counted(self: Any, table: Any, lang: str, viewer: Any = None, at: Any = None) -> Any:
        drawn[None if at is None else at.seq, viewer, None if at is None else at.closing] += 1
        return real(self, table, lang, viewer, at)

    monkeypatch.setattr(type(presenter), "table_board", counted)
    defaults = Defaults(turn_seconds=3_600, lobby_seconds=3_600, bot_delay=0.0)
    manager = TableManager(ledger, {game: presenter}, defaults)
    place = Place(1, 2, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game=game, place=place, host_id=1, host_name="h", options={}, bots=0
    )
    for user in (2, 3, 4):
        await lobby.join(user, f"member{user}")
    table = await manager.start(lobby, 1)
    rng = random.Random(1)
    while (nxt := table.state.next()) is not None:
        player = nxt.players[0] if nxt.players else nxt.player
        await table.act(player, random_action(table.state, player, rng))
    await table.outbox.drain()
    assert drawn and max(drawn.values()) == 1, [key for key, n in drawn.items() if n > 1]
    assert len(drawn) >= table.seq  # every action's state was shown


def test_the_bot_collects_less_often_and_freezes_what_starting_made(monkeypatch) -> None:
    done: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(gc, "set_threshold", lambda *args: done.append(("threshold", args)))
    monkeypatch.setattr(gc, "collect", lambda *args: done.append(("collect", args)))
    monkeypatch.setattr(gc, "freeze", lambda: done.append(("freeze", ())))
    collector.collect_less()
    collector.settled()
    young, middle, full = done[0][1]
    assert young > 700 and middle >= 10 and full >= 10  # less often than Python's defaults
    assert [what for what, _ in done] == ["threshold", "collect", "freeze"]
