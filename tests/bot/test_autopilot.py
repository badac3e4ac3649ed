"""Timeouts and autopilot without Discord: the computer players' policy, at the table's pace,
and the note of what was played for whom (`Table.away`), kept across a restart."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.runtime.thinking as thinking_module
from ai import decide, make_agent
from ai.workers import agent_answer
from bot.runtime.table import AWAY_NOTE, Table
from data.backends import open_ledger
from rules.log import load, new_header, parse_entry
from tests.bot.test_runtime import Recorder, make_manager, open_and_start, until


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


class SlowDisplay(Recorder):
    """A presenter whose every move takes `seconds` to show (a thread under rate limits); it
    notes when each move was shown."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.shown: list[float] = []

    async def events(
        self, table: Table, player: str, events: Sequence[Any], cause: str, moment: Any
    ) -> None:
        await asyncio.sleep(self.seconds)
        self.shown.append(time.monotonic())
        await super().events(table, player, events, cause, moment)


def policy_spy(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record every move the computer players' policy chose, and at which level (and let it
    choose)."""
    chosen: list[Any] = []

    def spy(game: Any, player: str, level: str, budget_ms: float, seed: int) -> Any:
        action = agent_answer(game, player, level, budget_ms, seed)
        chosen.append((player, action, level))
        return action

    monkeypatch.setattr(thinking_module, "agent_answer", spy)
    return chosen


async def test_timeouts_and_autopilot_play_the_computer_players_policy(ledger, monkeypatch) -> None:
    chosen = policy_spy(monkeypatch)
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=0.05)
    table = await open_and_start(manager, humans=3)
    await until(lambda: table.closed, recorder, timeout=30)
    record = await ledger.get_game(table.game_id)
    played = [parse_entry(table.state, entry) for entry in record.actions]
    # every move, timed out or on autopilot, is the policy's, at `normal`
    assert played == [(player, action) for player, action, _ in chosen]
    assert {level for *_, level in chosen} == {"normal"}
    causes = [args[2] for args in recorder.named("events")]
    assert causes.count("timeout") == 6 and causes.count("autopilot") == len(played) - 6


async def test_autopilot_plays_bot_delay_after_the_previous_move_was_shown(ledger) -> None:
    """A slow thread does not let the table run ahead: each computer or autopilot move is
    committed `bot_delay` after the one before was shown, not after it was committed."""
    display, delay = 0.08, 0.1
    presenter = SlowDisplay(display)
    manager = make_manager(ledger, presenter, turn_seconds=0.2, bot_delay=delay)
    table = await open_and_start(manager, humans=1, bots=2)
    committed: list[float] = []
    append = ledger.append_action

    async def timed(*args: Any) -> bool:
        committed.append(time.monotonic())
        return await append(*args)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(ledger, "append_action", timed)
    try:
        await until(lambda: table.closed or len(presenter.shown) >= 12, presenter, timeout=30)
    finally:
        await table.stop()
        monkeypatch.undo()
    causes = [args[2] for args in presenter.named("events")]
    assert "autopilot" in causes and set(causes) <= {"bot", "timeout", "autopilot"}
    for index, cause in enumerate(causes[1:], start=1):
        if cause != "timeout":  # a timeout waits a whole turn anyway
            assert committed[index] - presenter.shown[index - 1] >= delay - 0.01, index


async def test_what_was_played_for_a_member_is_noted_once_and_survives_a_restart(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=0.05)
    table = await open_and_start(manager, humans=3)
    first = table.state.next().player
    await until(lambda: first in table.away, recorder)
    since = table.away[first]
    await manager.shutdown()
    record = await ledger.get_game(table.game_id)
    assert record.actions[since]["player"] == first  # the first move the table made for them
    assert (await ledger.notes(table.game_id))[AWAY_NOTE][first] == since

    second = make_manager(ledger, Recorder(), turn_seconds=3600)
    await second.restore()
    again = second.get(table.game_id)
    assert isinstance(again, Table) and again.away.get(first) == since
    assert await again.returned(first) == since
    assert await again.returned(first) is None  # told once
    assert first not in (await ledger.notes(table.game_id))[AWAY_NOTE]
    await second.shutdown()


async def test_a_member_who_plays_themself_is_not_noted(ledger) -> None:
    manager = make_manager(ledger, Recorder(), turn_seconds=3600)
    table = await open_and_start(manager, humans=3)
    nxt = table.state.next().player
    await table.act(nxt, table.state.legal_actions(nxt)[0])
    assert table.away == {} and await table.returned(nxt) is None
    await manager.shutdown()


@pytest.mark.parametrize(
    ("game", "seats"), [("kamiza", 4), ("kobayakawa", 6), ("rights-of-losers", 5)]
)
def test_the_policy_answers_within_a_second(game: str, seats: int) -> None:
    """When a worker fails, the table waits on `normal` in its event loop: every decision of a
    seeded game at the largest table is quick (well under 50 ms, `ai.levels`)."""
    state = load(new_header(game, [str(i) for i in range(1, seats + 1)], seed=1))
    rng, slowest = random.Random(1), 0.0
    normal = make_agent("normal", game)
    while (nxt := state.next()) is not None:
        began = time.perf_counter()
        action = decide(state, nxt.player, normal, rng)
        slowest = max(slowest, time.perf_counter() - began)
        state.apply(nxt.player, action)
    assert slowest < 1.0
