"""The computer players' decisions off the event loop (`bot.runtime.thinking`): a worker pool
under a time budget, `normal` in-process when a worker is slow or dies, cancelled with its
table, shut down with the bot; a computer's LOOK marked on the real table."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest

from ai import LOOK
from ai.infoset import may_look
from bot.runtime import thinking as thinking_module
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.runtime.thinking import Thinker
from data.backends import open_ledger
from rules.base import AnyGame
from rules.log import load, new_header
from tests.bot import thinking_work
from tests.bot.test_kobayakawa_restart import SilentPresenter
from tests.bot.test_runtime import Recorder, make_manager, open_and_start, until
from tests.processes import running, still_running


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def kamiza() -> tuple[AnyGame, dict[str, Any], str]:
    """A game of KAMIZA a few moves in: its state, its log, the player to act."""
    log = {**new_header("kamiza", ["1", "2", "3", "4"], seed=7), "actions": []}
    state = load(log)
    for _ in range(3):
        nxt = state.next()
        assert nxt is not None
        action = state.legal_actions(nxt.player)[0]
        state.apply(nxt.player, action)
        log["actions"].append({"player": nxt.player, **type(state).action_json(action)})
    nxt = state.next()
    assert nxt is not None
    return state, log, nxt.player


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


async def test_a_hard_decision_runs_in_a_worker_within_its_budget() -> None:
    thinker = Thinker(1, think_ms=60)
    thinker.start()
    try:
        state, log, player = kamiza()
        await thinker.decide(state, log, player, "normal", 1, "game 1")  # the worker is up
        began = time.perf_counter()
        action = await thinker.decide(state, log, player, "hard", 2, "game 1")
        took = time.perf_counter() - began
        assert action in state.legal_actions(player)
        assert took < (60 + thinker.margin_ms) / 1000
        # A fresh pool (a process to start: a busy machine may take its time).
        where = Thinker(1, think_ms=60, margin_ms=10_000, work=thinking_work.where)
        pid = await where.decide(state, log, player, "hard", 3, "game 1")
        where.close()
        assert isinstance(pid, int) and pid != os.getpid()  # not on the event loop's process
    finally:
        thinker.close()


async def test_a_slow_worker_costs_one_decision_normal_in_process_and_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    thinker = Thinker(1, think_ms=20, margin_ms=200, work=thinking_work.sleepy)
    thinker.start()
    try:
        state, log, player = kamiza()
        began = time.perf_counter()
        # Two tables ask at once: the second waits behind the first in the one worker, and
        # neither waits for the sleepy worker past the deadline.
        moves = await asyncio.gather(
            thinker.decide(state, log, player, "hard", 1, "game 1"),
            thinker.decide(state, log, player, "hard", 2, "game 2"),
        )
        took = time.perf_counter() - began
        assert all(move in state.legal_actions(player) for move in moves)
        assert took < 1.5, took  # the worker sleeps 3 s
        said = warnings(caplog)
        assert len(said) == 2 and all("normal decides" in line for line in said), said
        assert {line.split(":")[0] for line in said} == {"game 1", "game 2"}
    finally:
        thinker.close()


async def test_a_crashed_worker_falls_back_to_normal_and_the_pool_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The margin is no matter here: however slowly the worker starts, it dies first.
    thinker = Thinker(1, think_ms=50, margin_ms=10_000, work=thinking_work.crash)
    try:
        state, log, player = kamiza()
        move = await thinker.decide(state, log, player, "hard", 1, "game 1")
        assert move in state.legal_actions(player)
        said = warnings(caplog)
        assert len(said) == 1 and "died" in said[0], said
        thinker._work = thinking_work.where  # the next decisions find a working pool
        pid = await thinker.decide(state, log, player, "hard", 2, "game 1")
        assert isinstance(pid, int) and pid != os.getpid()
        assert len(warnings(caplog)) == 1
    finally:
        thinker.close()


async def test_the_pool_shuts_down_with_the_bot(ledger) -> None:
    thinker = Thinker(1, think_ms=50)
    manager = make_manager(ledger, Recorder())
    manager.thinker = thinker
    thinker.start()
    state, log, player = kamiza()
    await thinker.decide(state, log, player, "normal", 1, "game 1")
    pool = thinker._pool
    assert pool is not None
    pids = [process.pid for process in pool._processes.values()]
    assert pids and all(running(pid) for pid in pids)
    await manager.shutdown()
    # Judged from /proc: the executor's own thread reaps the killed workers, and a handle's
    # is_alive() racing it may still say True (waitpid then fails with ECHILD).
    assert still_running(pids, 20) == []
    # A decision asked after the shutdown (a task that was already running) is made in-process.
    assert await thinker.decide(state, log, player, "normal", 2, "game 1") in state.legal_actions(
        player
    )


async def test_a_table_that_ends_cancels_its_computers_decision(
    ledger, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    manager.thinker = Thinker(1, think_ms=5000, work=thinking_work.slowish)
    try:
        table = await open_and_start(manager, humans=1, bots=2)
        while not table.seats[table.state.next().player].is_bot:  # a computer's turn
            nxt = table.state.next()
            await table.act(nxt.player, table.state.legal_actions(nxt.player)[0])
        clock = table._clock
        assert clock is not None
        await asyncio.sleep(0.3)  # the worker is thinking
        seq = table.seq
        await table.cancel("cancel.by_user")
        await asyncio.sleep(1.5)  # the worker's answer would have come by now
        assert clock.done() and table.seq == seq
        record = await ledger.get_game(table.game_id)
        assert record.status == "cancelled" and len(record.actions) == seq
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    finally:
        await manager.shutdown()


async def test_levels_go_to_their_seats_and_timeouts_play_normal(ledger, monkeypatch) -> None:
    asked: list[tuple[str, str]] = []
    answer = thinking_module.agent_answer

    def spy(state: Any, player: str, level: str, budget_ms: float, seed: int) -> Any:
        asked.append((player, level))
        return answer(state, player, "random", budget_ms, seed)  # quick

    monkeypatch.setattr(thinking_module, "agent_answer", spy)
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=0.05)
    lobby = await open_lobby_of_two_computers(manager)
    await lobby.set_level(1, False, 2, "hard")
    await lobby.set_level(1, False, 1, "easy")
    table = await manager.start(lobby, 1)
    assert table.levels == {"bot-1": "easy", "bot-2": "hard"}
    await until(lambda: table.closed, recorder, timeout=30)
    assert {level for player, level in asked if player == "bot-1"} == {"easy"}
    assert {level for player, level in asked if player == "bot-2"} == {"hard"}
    assert {level for player, level in asked if not player.startswith("bot-")} == {"normal"}


async def open_lobby_of_two_computers(manager: Any) -> Any:
    manager.reserve(20)
    lobby = await manager.open_lobby(
        game="kamiza", place=Place(10, 20, None), host_id=1, host_name="host", options={}, bots=2
    )
    await lobby.join(2, "user2")
    return lobby


async def test_a_computers_look_is_marked_on_the_table_as_draw_marks_it(
    ledger, monkeypatch
) -> None:
    """Kobayakawa, B-3: an agent that answers LOOK has the look noted in the ledger (the
    presenter's `mark_seen_draw`, as the Draw button does) before it keeps a card."""
    looks: list[tuple[str, int, bool]] = []
    answer = thinking_module.agent_answer

    def look_first(state: Any, player: str, level: str, budget_ms: float, seed: int) -> Any:
        if may_look(state, player):
            return LOOK
        return answer(state, player, "random", budget_ms, seed)

    presenter = SilentPresenter()
    mark = presenter.mark_seen_draw

    async def marking(table: Table, player: str, seq: int) -> Any:
        card = await mark(table, player, seq)
        looks.append((player, seq, table.state.has_looked(player)))
        return card

    monkeypatch.setattr(thinking_module, "agent_answer", look_first)
    monkeypatch.setattr(presenter, "mark_seen_draw", marking)
    manager = TableManager(
        ledger, {"kobayakawa": presenter}, Defaults(turn_seconds=60, bot_delay=0.0)
    )
    manager.reserve(20)
    lobby = await manager.open_lobby(
        game="kobayakawa", place=Place(10, 20, None), host_id=1, host_name="h", options={}, bots=2
    )
    table = await manager.start(lobby, 1)
    try:
        for _ in range(500):
            if looks and table.seq > looks[0][1]:
                break
            nxt = table.state.next()
            if nxt is not None and not table.seats[nxt.player].is_bot and nxt.player == "1":
                await table.act(nxt.player, table.state.legal_actions(nxt.player)[0])
            await asyncio.sleep(0.01)
        assert looks, "no computer drew"
        player, seq, looked = looks[0]
        assert looked and player.startswith("bot-")
        notes = await ledger.notes(table.game_id)
        assert notes["seen_draw"][0].startswith("bot-")
        record = await ledger.get_game(table.game_id)
        kept = record.actions[seq]
        assert kept["player"] == player and kept["action"] == "draw"
    finally:
        await manager.shutdown()
