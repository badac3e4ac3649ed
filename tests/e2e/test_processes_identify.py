"""Processes of one bot take turns to start their gateway sessions: Discord starts one session
per bucket every 5 seconds and refuses (op 9) an IDENTIFY that comes sooner. Two processes
started at the same moment on one PostgreSQL ledger IDENTIFY 5 s apart, none refused; the fake
Discord refuses an IDENTIFY closer than 4 s after the last session start (a second's slack for
a loaded machine's sending delay)."""

from __future__ import annotations

import asyncio

import pytest

pytestmark = pytest.mark.e2e


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_two_processes_started_together_identify_in_turns(fake_discord, launch_bot, pg_url):
    state = fake_discord.state
    state.add_guild("far away", shard=(1, 2))
    state.identify_spacing = 4.0
    shared = {"DATABASE_URL": pg_url, "SHARD_COUNT": "2", "IDENTIFY_SPACING_SECONDS": "5"}
    first, second = await asyncio.gather(
        launch_bot(wait=False, **shared, SHARD_IDS="0"),
        launch_bot(wait=False, **shared, SHARD_IDS="1"),
    )
    try:
        await state.wait_for(lambda: state.connected_shards() == {0, 1}, 60, "both connected")
    except TimeoutError:
        logs = f"{first.log[-4000:]}\n{second.log[-4000:]}"
        raise AssertionError(f"{state.identifies}\n{logs}") from None
    assert state.refused_identifies == []
    starts = [identify.at for identify in state.session_starts]
    assert len(starts) == 2 and starts[1] - starts[0] >= 4.0
    for bot in (first, second):
        assert "Traceback" not in bot.log, bot.log
