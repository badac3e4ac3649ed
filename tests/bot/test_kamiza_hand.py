"""KAMIZA's private hand (bot/kamiza/hand.py) with real handlers, a real table and ledger."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.kamiza import hand
from bot.runtime.table import Table
from data.backends import open_ledger
from rules.agents import random_action
from rules.log import replay
from tests.bot.fakes import FakeInteraction
from tests.bot.test_runtime import GUILD, Recorder, make_manager, open_and_start


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


async def play_until_a_game_ends_with_its_next_starter(table: Table, seed: int) -> bool:
    """Play until the player to act will end a game and then start the next one."""
    rng = random.Random(seed)
    while (nxt := table.state.next()) is not None:
        probe = table.state.clone()
        action = random_action(probe, nxt.player, rng)
        before = probe.position()[0]
        probe.apply(nxt.player, action)
        after = probe.next()
        if after is not None and probe.position()[0] != before and after.player == nxt.player:
            return True
        await table.act(nxt.player, action)
    return False


async def test_k2_a_double_click_that_ends_a_game_plays_once(ledger) -> None:
    """Two clicks on one area button: the first ends the game, the player starts the next one;
    the second click must not be committed to the new game with the refilled hand."""
    for seed in range(200):
        manager = make_manager(ledger, Recorder())
        table = await open_and_start(manager, humans=3, home=1000 + seed)
        if await play_until_a_game_ends_with_its_next_starter(table, seed):
            break
        await table.outbox.drain()
    else:
        pytest.fail("no position found where one player ends a game and starts the next")
    player = table.state.next().player
    seat = table.seats[player]
    card = table.state.hands[player][0]
    key = hand.round_key(table.state)
    seq = table.seq
    clicks = [FakeInteraction(manager, seat.user_id, GUILD) for _ in range(2)]
    await asyncio.gather(
        *(hand.play(c, table.game_id, [key, card, "kamiza"]) for c in clicks),
        return_exceptions=False,
    )
    assert table.seq == seq + 1
    record = await ledger.get_game(table.game_id)
    assert len(record.actions) == seq + 1
    replay(record.log())  # the ledger still replays
    answers = [a for c in clicks for a in c.texts()]
    assert any("face down" in a for a in answers)
    await table.stop()
