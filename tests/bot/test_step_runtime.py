"""The table runtime in a step of choices made at the same time (RULES.md H-1 to H-3): one clock
for the step, computers choosing at once, members told once when the step opens, choices made
in the same instant each recorded once and the reveal made once, after the last."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.runtime.manager import TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from rules.agents import random_action
from rules.log import replay
from tests.bot.test_runtime import CHANNEL, GUILD, Recorder, ledger, make_manager, until

__all__ = ["ledger"]  # the fixture


async def open_step_table(
    manager: TableManager, humans: int, bots: int = 0, advanced: bool = False
) -> Table[Any]:
    place = Place(GUILD, CHANNEL, None)
    manager.reserve(place.home)
    options = {"simultaneous": True, "advanced": advanced}
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="host", options=options, bots=bots
    )
    for uid in range(2, humans + 1):
        await lobby.join(uid, f"user{uid}")
    return await manager.start(lobby, 1)


def members(table: Table[Any]) -> list[str]:
    return [p for p, seat in table.seats.items() if not seat.is_bot]


async def test_h1_computers_choose_at_once_and_members_are_told_once_when_the_step_opens(
    ledger,
) -> None:
    recorder = Recorder()
    steps: list[tuple[str, ...]] = []
    original = recorder.turn

    async def turn(table: Table[Any], moment: Any) -> None:
        steps.append(moment.step_of)
        await original(table, moment)

    recorder.turn = turn  # type: ignore[method-assign]
    manager = make_manager(ledger, recorder)
    table = await open_step_table(manager, humans=2, bots=2)
    humans = members(table)
    # the two computer seats choose without waiting for anyone
    await until(lambda: set(table.state.next().players) == set(humans), recorder)
    assert table.state.observation(humans[0]).chosen == tuple(
        p for p in table.state.players if p not in humans
    )
    await table.outbox.drain()
    assert [s for s in steps if s] == [tuple(p for p in table.state.order if p in humans)]
    assert all(moment_turn is None for (moment_turn,) in recorder.named("turn"))  # no one's turn
    # both members choose in the same instant: each recorded once, one reveal, after the last
    rng = random.Random(1)
    plays = {p: random_action(table.state, p, rng) for p in humans}
    await asyncio.gather(*(table.act(p, plays[p]) for p in humans))
    await table.outbox.drain()
    reveals = [args for args in recorder.named("events") if "round_revealed" in args[1]]
    assert len(reveals) == 1
    record = await ledger.get_game(table.game_id)
    firsts = record.actions[:4]
    assert sorted(a["player"] for a in firsts) == sorted(table.state.players)
    # the next step opened: the members are told again, once
    await until(lambda: len([s for s in steps if s]) == 2, recorder)


async def test_h3_the_steps_clock_runs_for_those_who_have_not_chosen(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=0.6)
    table = await open_step_table(manager, humans=3)
    first = table.state.next().players[0]
    await asyncio.sleep(0.2)
    await table.act(first, table.state.legal_actions(first)[0])  # one chooses: no new clock
    await until(lambda: table.state.round_number() == 2, recorder, timeout=5)
    timeouts = [args[0] for args in recorder.named("events") if args[2] == "timeout"]
    assert sorted(timeouts) == sorted(p for p in table.state.players if p != first)
    assert sorted(p for (p,) in recorder.named("reminder")) == sorted(timeouts)
    record = await ledger.get_game(table.game_id)
    assert replay(record.log())["next"]["players"]  # the second round is a step again
    await table.stop()


async def test_h1_advanced_start_player_plays_first_then_the_step(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_step_table(manager, humans=4, advanced=True)
    nxt = table.state.next()
    assert nxt.players == () and nxt.player == table.state.start_player
    await table.act(nxt.player, table.state.legal_actions(nxt.player)[0])
    step = table.state.next()
    assert len(step.players) == 3 and table.state.start_player not in step.players
    await table.stop()
