"""One budget for every call the bot makes with its token, shared by all tables of the process.

Discord allows a bot 50 requests a second with its token, whatever the route (interaction
responses and follow-ups are exempt: they go through the interaction's own webhook, never through
here), and each route per channel (or guild) its own bucket. discord.py keeps each route's bucket
and retries a 429 (at most five times), but it spends the global budget first come, first served:
a burst of tables would earn 429s, and a cosmetic edit could delay a turn ping. `CallBudget`
grants calls at most `rate` a second (with a small burst), by priority, and never lets more than
Discord's 50 be unsettled within a second (see `CallBudget`); `limit_calls(session, budget)` puts
every request of discord.py's HTTP session through it, and through its route's bucket
(`bot.route_buckets`), as it is sent. The priority of a call is the one its caller set with
`at_priority(...)` (default: `Priority.MESSAGE`).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from enum import IntEnum
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import discord

from bot.route_buckets import RouteBuckets

log = logging.getLogger(__name__)


class Priority(IntEnum):
    PING = 0  # a member's turn (the ping, or their hand by DM): someone is waiting on it
    MESSAGE = 1  # a new table, a reveal, a closed round: what the game says
    REMINDER = 2  # "30 s left"
    COSMETIC = 3  # an edit showing progress, a spent ping deleted: the next one says it too


# A call's place in line is when it asked plus its priority's head start given to the others:
# a ping goes before a reminder asked at the same moment, and a cosmetic edit that has waited
# a second goes before a ping asked just now. No table starves however busy the others are.
HEAD_START: Final = {
    Priority.PING: 0.0,
    Priority.MESSAGE: 0.25,
    Priority.REMINDER: 0.5,
    Priority.COSMETIC: 1.0,
}
# Discord's 50 a second, with room for the calls discord.py retries itself after a 429 (they do
# not pass here again) and for requests arriving bunched: `RATE` a second plus a burst of `BURST`
# stays under 50 in any one second.
RATE: Final = 40.0
BURST: Final = 8
# Discord's own figure: the requests of the token in any one second, counted where Discord
# receives them. How long a request takes to get there is unknown (a busy event loop, a slow
# network, a busy Discord: requests sent a second apart can arrive together), so a call is
# counted from the moment it is granted until a second after its answer came: it reached
# Discord somewhere in between. Fewer than `GLOBAL_LIMIT` counted: the next one may go. Any
# second of Discord's clock then holds at most `GLOBAL_LIMIT` of them, however late they came.
GLOBAL_LIMIT: Final = 50
GLOBAL_WINDOW: Final = 1.0
MAX_WAITING: Final = 5_000  # beyond, a call fails at once (TooManyCalls) rather than queueing

_PRIORITY: ContextVar[Priority] = ContextVar("bot-token call priority", default=Priority.MESSAGE)


@contextmanager
def at_priority(priority: Priority) -> Iterator[None]:
    """The bot-token calls made inside (in this task) wait in line with `priority`."""
    token = _PRIORITY.set(priority)
    try:
        yield
    finally:
        _PRIORITY.reset(token)


class TooManyCalls(discord.HTTPException):
    """A call refused before it left: the line was full (`MAX_WAITING`). Every caller already
    handles `discord.HTTPException`."""

    def __init__(self, why: str) -> None:
        super().__init__(SimpleNamespace(status=429, reason=why), why)


class CallBudget:
    """At most `rate` calls a second after a burst of `burst`, granted by priority, and fewer than
    `ceiling` calls at a time on their way or answered within the last second (`settle` tells
    that a call's answer came)."""

    def __init__(
        self,
        rate: float = RATE,
        burst: int = BURST,
        max_waiting: int = MAX_WAITING,
        ceiling: int = GLOBAL_LIMIT,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_waiting = max_waiting
        self.ceiling = ceiling
        self._on_their_way = 0
        self._answered: deque[float] = deque()  # loop times of answers within the last second
        self._tokens = float(burst)
        self._at: float | None = None  # loop time the tokens were counted
        self._line: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        self.granted = 0
        self.waited = 0  # calls that had to wait in line

    @classmethod
    def share(cls, fraction: float) -> CallBudget:
        """A process's part of the token's budget: Discord's 50 a second are the bot's, whatever
        the processes it runs in, so each spends `fraction` of it (its share of the shards)."""
        if not 0 < fraction <= 1:
            raise ValueError("a share of the budget is more than 0 and at most 1")
        return cls(
            RATE * fraction,
            max(1, round(BURST * fraction)),
            ceiling=max(1, int(GLOBAL_LIMIT * fraction)),
        )

    @property
    def waiting(self) -> int:
        return len(self._line)

    async def acquire(self, priority: Priority = Priority.MESSAGE) -> None:
        """Return once the call may go; raise TooManyCalls if the line is full."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._refill(now)
        if not self._line and self._may_go(now):
            self._take()
            return
        if len(self._line) >= self.max_waiting:
            raise TooManyCalls("too many bot-token calls waiting")
        granted = loop.create_future()
        heapq.heappush(self._line, (now + HEAD_START[priority], next(self._order), granted))
        self.waited += 1
        self._schedule(loop, now)
        try:
            await granted  # cancelled: its place is skipped when it comes up
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():  # granted, then cancelled
                self.settle()
            raise

    def settle(self) -> None:
        """A granted call's answer came (or it failed): a second from now it no longer counts."""
        loop = asyncio.get_running_loop()
        self._on_their_way -= 1
        self._answered.append(loop.time())
        self._schedule(loop, loop.time())

    def _counted(self, now: float) -> int:
        """Calls on their way or answered within the last second."""
        while self._answered and self._answered[0] <= now - GLOBAL_WINDOW:
            self._answered.popleft()
        return self._on_their_way + len(self._answered)

    def _may_go(self, now: float) -> bool:
        return self._tokens >= 1 and self._counted(now) < self.ceiling

    def _take(self) -> None:
        self._tokens -= 1
        self._on_their_way += 1
        self.granted += 1

    def _refill(self, now: float) -> None:
        if self._at is not None:
            self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now

    def _schedule(self, loop: asyncio.AbstractEventLoop, now: float) -> None:
        if self._wake is not None or not self._line:
            return
        delay = max(0.0, (1 - self._tokens) / self.rate)
        if self._counted(now) >= self.ceiling:
            if not self._answered:
                return  # all on their way: the first answer (`settle`) schedules
            delay = max(delay, self._answered[0] + GLOBAL_WINDOW - now)
        self._wake = loop.call_at(now + delay, self._grant, loop)

    def _grant(self, loop: asyncio.AbstractEventLoop) -> None:
        self._wake = None
        now = loop.time()
        self._refill(now)
        while self._line and self._may_go(now):
            _, _, granted = heapq.heappop(self._line)
            if granted.done():
                continue  # its caller gave up
            self._take()
            granted.set_result(None)
        self._schedule(loop, now)


# Requests that are not spent from the bot's budget: an interaction's response and follow-ups.
EXEMPT: Final = ("/interactions/", "/webhooks/")
REST: Final = "/api/v"  # Discord's REST API (`discord.http.Route.BASE`)


def limit_calls(
    session: aiohttp.ClientSession, budget: CallBudget, buckets: RouteBuckets | None = None
) -> None:
    """Every request of `session` (discord.py's, with the bot's token) waits for its route's
    bucket, then for `budget`, as it is sent: after discord.py waited for the bucket as it knows
    it, and again for each of its retries, so that requests held by a bucket never leave in a
    bunch above the global limit or the bucket's."""
    original = session.request
    routes = buckets if buckets is not None else RouteBuckets()

    def request(method: str, url: Any, **kwargs: Any) -> Any:
        where = str(url)
        if REST not in where or any(part in where for part in EXEMPT):  # the gateway, the CDN
            return original(method, url, **kwargs)
        route, bucket = routes.of(method, where)
        return _Budgeted(
            budget,
            _PRIORITY.get(),
            lambda: original(method, url, **kwargs),
            lambda status, headers: routes.answered(route, bucket, status, headers),
            bucket.reserve,
        )

    session.request = request  # type: ignore[method-assign]


class _Budgeted:
    """`async with session.request(...)` (or `await`), once its bucket and the budget let the
    call go; the answer tells both."""

    def __init__(
        self,
        budget: CallBudget,
        priority: Priority,
        send: Callable[[], Any],
        answered: Callable[[int | None, Mapping[str, str]], None],
        reserve: Callable[[], Awaitable[None]],
    ) -> None:
        self._budget = budget
        self._priority = priority
        self._send = send
        self._answered = answered
        self._reserve = reserve
        self._request: Any = None

    async def __aenter__(self) -> aiohttp.ClientResponse:
        return await self._sent(lambda: self._request.__aenter__())

    async def __aexit__(self, *exc: object) -> None:
        await self._request.__aexit__(*exc)

    def __await__(self) -> Any:
        return self._sent(lambda: self._request).__await__()

    async def _sent(self, response_of: Callable[[], Awaitable[Any]]) -> aiohttp.ClientResponse:
        await self._reserve()  # the route's bucket first: a call held there holds no one else
        try:
            await self._budget.acquire(self._priority)
        except BaseException:
            self._answered(None, {})
            raise
        try:
            self._request = self._send()
            response: aiohttp.ClientResponse = await response_of()
        except BaseException:
            self._budget.settle()
            self._answered(None, {})
            raise
        self._budget.settle()
        self._answered(response.status, response.headers)
        return response
