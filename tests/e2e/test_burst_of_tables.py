"""Issue #20: a burst of tables opening earns no 429 under Discord's rate limits
(`fakediscord.rate_limits`: 50 requests a second for the token, a bucket per route and channel
announced in the answers' headers), and no table waits on a call that never comes.

Two bursts the benchmarks met (`tests/bench_tables.py --rate-limits`): many tables opened in one
channel (their threads are created from its messages, a bucket of 5 per 5 s, where discord.py's
own buckets let 7 go in a window once some waited), and many tables opened at once across servers
while the requests reach Discord late and together (a busy Discord, a congested network, the
bot's own event loop lagging: the global limit counts requests where they arrive)."""

from __future__ import annotations

import asyncio

import pytest
from fakediscord import FakeUser
from fakediscord.rate_limits import RateLimits
from fakediscord.state import Channel
from kamiza_play import open_table

pytestmark = pytest.mark.e2e


def general_of(state, guild_id: int) -> Channel:
    channels = state.channels.values()
    return next(c for c in channels if c.guild_id == guild_id and c.name == "general")


def assert_no_429(state, bot) -> None:
    limits = state.rate_limits
    refused = [f"{r.scope} {r.route}" for r in limits.refused]
    assert limits.total == 0, refused
    assert not state.failed_requests(), state.failed_requests()[:5]
    assert "rate limited" not in bot.log


async def open_tables(state, places: list[Channel], patience: float, apart: float = 0.0) -> None:
    """A host for each place runs `/kamiza start` there, `apart` seconds after the previous
    one; each gets a thread and its lobby."""

    async def host_opens(i: int, where: Channel) -> tuple[Channel, object]:
        host = FakeUser(state, state.add_user(f"host{i}"))
        await asyncio.sleep(i * apart)
        return await open_table(host, patience=patience, where=where)

    opened = await asyncio.gather(*(host_opens(i, where) for i, where in enumerate(places)))
    assert len({thread.id for thread, _ in opened}) == len(places)


async def test_a_dozen_tables_opened_in_one_channel_within_three_seconds_earn_no_429(
    fake_discord, launch_bot
):
    state = fake_discord.state
    bot = await launch_bot(LOG_LEVEL="WARNING")  # as a bot runs (discord.py's 429s are warnings)
    state.rate_limits = RateLimits()
    # Hosts a quarter of a second apart: those who come once the first window's 5 threads are
    # spent all wait for its end (discord.py then let 7 go in the next window).
    await open_tables(state, [state.general] * 12, patience=20, apart=0.25)  # 5, 5, 2: 10 s
    assert_no_429(state, bot)
    threads = state.requests_to("POST /channels/{channel_id}/messages/{message_id}/threads")
    assert len(threads) == 12


async def test_sixty_tables_opened_at_once_while_requests_arrive_late_earn_no_429(
    fake_discord, launch_bot
):
    state = fake_discord.state
    generals = [general_of(state, state.add_guild(f"server {n}")) for n in range(60)]
    bot = await launch_bot()  # the servers come in its READY
    state.rate_limits = RateLimits()
    state.in_transit = asyncio.Event()  # the threads' requests reach Discord 1.5 s late, together
    asyncio.get_running_loop().call_later(1.5, state.in_transit.set)
    await open_tables(state, generals, patience=15)
    assert_no_429(state, bot)
