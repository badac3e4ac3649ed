"""The process-wide budget of bot-token calls (`bot.call_budget`): Discord's global limit kept
whatever the burst, a turn ping before a reminder before a cosmetic edit, nobody starved, a
bounded line, and interaction responses never spent from it."""

from __future__ import annotations

import asyncio
import contextlib

import discord
import pytest

from bot.call_budget import CallBudget, Priority, TooManyCalls, at_priority, limit_calls


async def test_a_burst_is_granted_at_the_rate_and_never_above_fifty_a_second():
    budget = CallBudget(rate=40, burst=8)
    loop = asyncio.get_running_loop()
    times: list[float] = []

    async def call() -> None:
        await budget.acquire()
        times.append(loop.time())
        budget.settle()  # answered at once

    await asyncio.gather(*(call() for _ in range(70)))
    assert len(times) == 70
    for i, at in enumerate(times):  # any one second holds at most burst + rate calls
        assert sum(1 for t in times[i:] if t - at < 1.0) <= 48
    assert times[-1] - times[0] >= (70 - 8) / 40 - 0.05


async def test_processes_sharing_the_token_spend_their_shards_share_together_under_fifty():
    """Two processes of two shards each out of four: 20 a second after a burst of 4 each, so
    both at full tilt stay under Discord's 50 a second for the token."""
    shares = [CallBudget.share(2 / 4), CallBudget.share(2 / 4)]
    assert [(b.rate, b.burst, b.ceiling) for b in shares] == [(20.0, 4, 25), (20.0, 4, 25)]
    assert (CallBudget.share(1.0).rate, CallBudget.share(1.0).burst) == (40.0, 8)
    assert CallBudget.share(1 / 64).burst == 1  # a call can always go, in time
    with pytest.raises(ValueError):
        CallBudget.share(0)
    loop = asyncio.get_running_loop()
    times: list[float] = []

    async def call(budget: CallBudget) -> None:
        await budget.acquire()
        times.append(loop.time())
        budget.settle()

    await asyncio.gather(*(call(budget) for budget in shares for _ in range(40)))
    times.sort()
    for i, at in enumerate(times):
        assert sum(1 for t in times[i:] if t - at < 1.0) <= 48


async def test_calls_on_their_way_or_answered_within_the_last_second_are_fewer_than_fifty():
    """However late requests reach Discord (and so arrive together), no second of Discord's
    clock holds more than the ceiling: a call counts from its grant until a second after its
    answer."""
    budget = CallBudget(rate=1000, burst=100, ceiling=3)
    for _ in range(3):
        await budget.acquire()  # on their way: Discord has not answered
    later = asyncio.ensure_future(budget.acquire())
    await asyncio.sleep(0.3)
    assert not later.done()
    budget.settle()  # answered: it may have reached Discord just now
    await asyncio.sleep(0.6)
    assert not later.done()
    await asyncio.sleep(0.5)
    assert later.done()
    assert CallBudget().ceiling == 50


async def test_a_ping_goes_before_a_reminder_before_a_cosmetic_edit_asked_at_once():
    budget = CallBudget(rate=50, burst=1)
    await budget.acquire()  # the burst spent: the next ones wait in line
    budget.settle()
    order: list[Priority] = []

    async def call(priority: Priority) -> None:
        await budget.acquire(priority)
        budget.settle()
        order.append(priority)

    asked = (Priority.COSMETIC, Priority.REMINDER, Priority.MESSAGE, Priority.PING)
    await asyncio.gather(*(call(priority) for priority in asked))
    assert order == [Priority.PING, Priority.MESSAGE, Priority.REMINDER, Priority.COSMETIC]


async def test_a_cosmetic_edit_that_waited_goes_before_pings_asked_after_it():
    budget = CallBudget(rate=20, burst=1)
    await budget.acquire()
    budget.settle()
    order: list[str] = []

    async def call(name: str, priority: Priority, after: float) -> None:
        await asyncio.sleep(after)
        await budget.acquire(priority)
        budget.settle()
        order.append(name)

    # pings asked faster than they are granted: the line never empties for 2 s
    pings = [call(f"ping {i}", Priority.PING, i * 0.025) for i in range(80)]
    await asyncio.gather(call("edit", Priority.COSMETIC, 0.0), *pings)
    # strict priorities would grant it last; it goes once pings asked a second later line up
    assert order.index("edit") < 60


async def test_the_line_is_bounded():
    budget = CallBudget(rate=1, burst=1, max_waiting=2)
    await budget.acquire()
    waiting = [asyncio.ensure_future(budget.acquire()) for _ in range(2)]
    await asyncio.sleep(0)
    with pytest.raises(TooManyCalls) as refused:
        await budget.acquire()
    assert isinstance(refused.value, discord.HTTPException) and refused.value.status == 429
    for task in waiting:
        task.cancel()


class _Response:
    """aiohttp's response, as far as `limit_calls` reads it."""

    def __init__(self) -> None:
        self.status = 200
        self.headers: dict[str, str] = {}


class _Session:
    """aiohttp's session, as far as `limit_calls` sees it."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def request(
        self, method: str, url: str, **kwargs: object
    ) -> contextlib.AbstractAsyncContextManager:
        @contextlib.asynccontextmanager
        async def sending():
            self.sent.append(url)
            yield _Response()

        return sending()


async def test_every_request_of_the_session_waits_for_the_budget_but_interaction_responses():
    budget = CallBudget(rate=50, burst=2)
    session = _Session()
    limit_calls(session, budget)  # type: ignore[arg-type]
    api = "https://discord.com/api/v10"
    with at_priority(Priority.PING):
        async with session.request("POST", f"{api}/channels/1/messages") as response:
            assert response.status == 200
    async with session.request("POST", f"{api}/interactions/1/token/callback"):
        pass
    async with session.request("POST", f"{api}/webhooks/1/token"):
        pass
    async with session.request("GET", "wss://gateway.discord.gg/?v=10"):
        pass
    assert budget.granted == 1 and len(session.sent) == 4
