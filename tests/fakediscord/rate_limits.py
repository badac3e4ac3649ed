"""Discord's rate limits for the fake (`state.rate_limits = RateLimits()`): the global budget of
a bot token (50 requests a second; interaction responses and follow-ups are exempt) and a bucket
per route and major parameter (a channel, a guild), answered with Discord's headers so that
discord.py waits before a bucket runs dry, and with 429s, counted, when a request comes anyway.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50
# Per bucket: (requests, seconds). Discord does not publish its per-route limits; these are the
# ones it answers today for the routes a bot uses most (messages: 5 per 5 s per channel).
ROUTE_LIMIT = (5, 5.0)


@dataclass
class Bucket:
    """A route's bucket as Discord keeps it: `limit` requests in a window of `per` seconds that
    opens with the first request; when it closes, the whole limit is there again (discord.py
    counts on that: it sends `limit` requests once `Reset-After` passed)."""

    limit: int
    per: float
    opened: float = float("-inf")
    used: int = 0

    def _roll(self, now: float) -> None:
        if now - self.opened >= self.per:
            self.opened, self.used = now, 0

    def headers(self, now: float, name: str) -> dict[str, str]:
        self._roll(now)
        reset_after = self.per - (now - self.opened)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": name,
        }

    def full(self, now: float) -> float:
        """Seconds until a request may go (0: it may go now)."""
        self._roll(now)
        return 0.0 if self.used < self.limit else self.per - (now - self.opened)

    def take(self, now: float) -> None:
        self._roll(now)
        self.used += 1


@dataclass
class Window:
    """The global limit: at most `limit` requests in any `per` seconds (a sliding window: no
    burst at the edge of two windows gets through)."""

    limit: int
    per: float
    sent: deque[float] = field(default_factory=deque)

    def full(self, now: float) -> float:
        while self.sent and now - self.sent[0] >= self.per:
            self.sent.popleft()
        return 0.0 if len(self.sent) < self.limit else self.per - (now - self.sent[0])

    def take(self, now: float) -> None:
        self.sent.append(now)


@dataclass
class Limited:
    """A 429 to answer: its body and headers."""

    retry_after: float
    scope: str  # "global" or "user" (a route's bucket)
    headers: dict[str, str]


@dataclass(frozen=True)
class Refusal:
    """A 429 the fake answered: when (`time.monotonic()`), its scope, and the bucket's key."""

    at: float
    scope: str
    key: str

    @property
    def route(self) -> str:
        return self.key.rsplit(":", 1)[0]


class RateLimits:
    """The fake's rate limiter. `check` answers a request: None (it goes: `headers(...)` then
    gives the bucket's headers) or the 429 it earned. `too_many` counts the 429s by scope."""

    def __init__(
        self, per_second: int = GLOBAL_PER_SECOND, route: tuple[int, float] = ROUTE_LIMIT
    ) -> None:
        self.global_window = Window(per_second, 1.0)
        self.route = route
        self.buckets: dict[str, Bucket] = {}
        self.too_many: Counter[str] = Counter()
        self.refused: list[Refusal] = []

    def bucket(self, key: str) -> Bucket:
        found = self.buckets.get(key)
        if found is None:
            found = self.buckets[key] = Bucket(*self.route)
        return found

    def check(self, key: str) -> Limited | None:
        """A bot-token request of the bucket `key` ("PATCH /channels/{channel_id}/messages/…:
        <channel id>"): let through (and counted) or refused with a 429."""
        now = time.monotonic()
        wait = self.global_window.full(now)
        if wait > 0:
            self.too_many["global"] += 1
            self.refused.append(Refusal(now, "global", key))
            return Limited(wait, "global", {"X-RateLimit-Global": "true"})
        bucket = self.bucket(key)
        wait = bucket.full(now)
        if wait > 0:
            self.too_many["route"] += 1
            self.refused.append(Refusal(now, "user", key))
            return Limited(wait, "user", bucket.headers(now, bucket_name(key)))
        self.global_window.take(now)
        bucket.take(now)
        return None

    def headers(self, key: str) -> dict[str, str]:
        return self.bucket(key).headers(time.monotonic(), bucket_name(key))

    @property
    def total(self) -> int:
        return sum(self.too_many.values())


def bucket_name(key: str) -> str:
    """A bucket hash as Discord gives one: the same for a route whatever its major parameter."""
    return format(abs(hash(key.rsplit(":", 1)[0])) % (1 << 48), "x")
