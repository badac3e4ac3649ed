"""Discord's per-route buckets, kept as each request leaves (`bot.call_budget.limit_calls`).

Discord limits each route per major parameter (a channel, a guild, a webhook) and announces the
bucket in the headers of its answers: `X-RateLimit-Limit`, `-Remaining`, `-Reset-After` and
`-Bucket` (a hash that routes sharing a bucket share). Before an answer has told a bucket's limit,
nothing is known, so its requests go one at a time; after, at most as many as Discord said remain,
counting those still on their way, until the window Discord announced is over.

discord.py keeps buckets too, but not tightly enough for a burst: when several requests wait for
a bucket's window to end, each wakes and resets the bucket in turn, so up to twice its limit leave
at once (seen in the benchmarks as 429s on creating threads in #general when tables open in a
burst). This module holds those extra requests until the window is really over. discord.py's own
accounting is left as it is: it only lets requests reach this one sooner.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import deque
from collections.abc import Mapping
from urllib.parse import urlsplit

# The top-level resources whose id is a major parameter (Discord's "Rate Limits" page).
MAJOR_RESOURCES = frozenset({"channels", "guilds", "webhooks"})
API_PREFIX = re.compile(r"^/api(?:/v\d+)?")
SNOWFLAKE = re.compile(r"^\d+$")
TIDY_ABOVE = 2_000  # buckets kept before those nobody uses are forgotten
# A bucket waits at most this long on one answer's word (discord.py still waits out its own 429s).
LONGEST_WAIT = 300.0


def route_and_major(method: str, url: object) -> tuple[str, str]:
    """("PATCH /channels/{id}/messages/{id}", "<channel id>") for a request of the REST API."""
    path = API_PREFIX.sub("", urlsplit(str(url)).path)
    parts = path.split("/")
    major = ""
    for i, part in enumerate(parts):
        if SNOWFLAKE.match(part):
            if not major and i > 0 and parts[i - 1] in MAJOR_RESOURCES:
                major = part
            parts[i] = "{id}"
    return f"{method.upper()} {'/'.join(parts)}", major


class Bucket:
    """One bucket of one major parameter, as far as the answers told it."""

    def __init__(self) -> None:
        self.limit: int | None = None  # None: not known yet (one request at a time)
        self.available = 0  # requests that may still leave in this window (known buckets)
        self.resets_at: float | None = None  # loop time the window is over, for certain
        self.in_flight = 0  # sent (or allowed to leave), not answered yet
        self.waiting: deque[asyncio.Future[None]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def forgettable(self, now: float) -> bool:
        """Nothing on its way or waiting, and no window known to be spent: forgotten, it would
        start over as a bucket not known yet, with no request refused."""
        spent = self.resets_at is not None and now < self.resets_at
        return not self.in_flight and not self.waiting and not spent

    async def reserve(self) -> None:
        """Return once a request of this bucket may leave (it counts as on its way)."""
        loop = asyncio.get_running_loop()
        if not self.waiting and self._may_go(loop.time()):
            self._take()
            return
        allowed = loop.create_future()
        self.waiting.append(allowed)
        self._wake(loop)
        try:
            await allowed
        except asyncio.CancelledError:
            if allowed.done() and not allowed.cancelled():  # allowed, then cancelled: give back
                self.answered(None, {})
            raise

    def answered(self, status: int | None, headers: Mapping[str, str]) -> None:
        """A request of this bucket came back (`status` None: it failed before an answer)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.in_flight -= 1
        scope = headers.get("X-RateLimit-Scope", "user")
        if status == 429 and (headers.get("X-RateLimit-Global") or scope == "global"):
            pass  # the token's limit, not this bucket's (`bot.call_budget` keeps that one)
        elif status == 429:  # this bucket (or a resource's shared one): wait as told
            wait = _seconds(headers.get("Retry-After")) or _seconds(
                headers.get("X-RateLimit-Reset-After")
            )
            self.limit = self.limit or _count(headers.get("X-RateLimit-Limit")) or 1
            self.available = 0
            self.resets_at = max(self.resets_at or now, now + (wait or 1.0))
        else:
            self._roll(now)
            self._learn(now, headers)
        self._wake(loop)

    def _learn(self, now: float, headers: Mapping[str, str]) -> None:
        remaining = _count(headers.get("X-RateLimit-Remaining"))
        reset_after = _seconds(headers.get("X-RateLimit-Reset-After"))
        if remaining is None or reset_after is None:
            return  # no bucket announced: what was known stays so
        # Those still on their way may not be counted in `remaining` yet: count them against it.
        # Answers may come back out of order, so a known window's room only ever shrinks; it
        # grows back when the window is over.
        room = remaining - self.in_flight
        self.available = room if self.limit is None else min(self.available, room)
        self.limit = _count(headers.get("X-RateLimit-Limit")) or max(1, remaining + 1)
        self.resets_at = max(self.resets_at or now, now + reset_after)

    def _roll(self, now: float) -> None:
        if self.limit is not None and self.resets_at is not None and now >= self.resets_at:
            # Over for certain (we heard of its end after Discord reached it): a new window,
            # into which those still on their way may fall too.
            self.available, self.resets_at = self.limit - self.in_flight, None

    def _may_go(self, now: float) -> bool:
        if self.limit is None:
            return self.in_flight == 0
        self._roll(now)
        if self.available > 0:
            return True
        if self.resets_at is None and not self.in_flight:
            self.limit = None  # room spent with no answer telling the next window: start over
            return True
        return False

    def _take(self) -> None:
        if self.limit is not None:
            self.available -= 1
        self.in_flight += 1

    def _wake(self, loop: asyncio.AbstractEventLoop) -> None:
        now = loop.time()
        while self.waiting and self._may_go(now):
            allowed = self.waiting.popleft()
            if allowed.done():
                continue  # its caller gave up
            self._take()
            allowed.set_result(None)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.waiting and self.resets_at is not None:
            self._timer = loop.call_at(self.resets_at, self._wake, loop)


class RouteBuckets:
    """Every bucket the bot's requests met, by Discord's hash once known, and major parameter."""

    def __init__(self) -> None:
        self._hash_of: dict[str, str] = {}  # a route ("POST /channels/{id}/messages") -> hash
        self._buckets: dict[str, Bucket] = {}
        self._tidy_above = TIDY_ABOVE

    def __len__(self) -> int:
        return len(self._buckets)

    def of(self, method: str, url: object) -> tuple[str, Bucket]:
        """The route of a request and its bucket."""
        route, major = route_and_major(method, url)
        key = f"{self._hash_of.get(route, route)}:{major}"
        bucket = self._buckets.get(key)
        if bucket is None:
            # A request sent before the route's hash was known is still under the route's name.
            bucket = self._buckets.pop(f"{route}:{major}", None) or Bucket()
            if len(self._buckets) >= self._tidy_above:
                self._tidy()
            self._buckets[key] = bucket
        return route, bucket

    def answered(
        self, route: str, bucket: Bucket, status: int | None, headers: Mapping[str, str]
    ) -> None:
        name = headers.get("X-RateLimit-Bucket")
        if name is not None and route not in self._hash_of:
            self._hash_of[route] = name  # the next requests of the route find it by its hash
        bucket.answered(status, headers)

    def _tidy(self) -> None:
        """Forget the buckets nobody uses now (a thread is a channel: a bucket each)."""
        now = asyncio.get_running_loop().time()
        for key in [key for key, bucket in self._buckets.items() if bucket.forgettable(now)]:
            del self._buckets[key]
        # Many still in use: look again only once there are twice as many (no scan per request).
        self._tidy_above = max(TIDY_ABOVE, 2 * len(self._buckets))


def _count(value: str | None) -> int | None:
    try:
        return None if value is None else int(float(value))
    except ValueError:
        return None


def _seconds(value: str | None) -> float | None:
    """A header's seconds; None for nonsense (a NaN or infinite wait would hold the bucket for
    good), and at most `LONGEST_WAIT`."""
    try:
        seconds = None if value is None else float(value)
    except ValueError:
        return None
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return None
    return min(seconds, LONGEST_WAIT)
