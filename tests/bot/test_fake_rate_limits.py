"""The fake Discord's rate limits (`fakediscord.rate_limits`), which the table benchmark's
`--rate-limits` runs the bot against: a route's bucket as Discord keeps it (a window opened by
its first request, the whole limit back when it closes) and the global 50 a second."""

from __future__ import annotations

import time

from fakediscord.rate_limits import RateLimits

ROUTE = "POST /channels/{channel_id}/messages:1"


def test_a_route_bucket_refuses_past_its_limit_until_its_window_closes(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    limits = RateLimits(route=(5, 5.0))
    assert all(limits.check(ROUTE) is None for _ in range(5))
    assert limits.headers(ROUTE)["X-RateLimit-Remaining"] == "0"
    refused = limits.check(ROUTE)
    assert refused is not None and refused.scope == "user" and refused.retry_after == 5.0
    assert limits.check("POST /channels/{channel_id}/messages:2") is None  # another channel
    now[0] += 5.0
    assert all(limits.check(ROUTE) is None for _ in range(5))  # the whole limit again
    assert limits.too_many == {"route": 1}


def test_the_global_limit_is_fifty_in_any_second(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    limits = RateLimits(route=(1000, 1.0))
    for i in range(50):
        now[0] += 0.01
        assert limits.check(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{i}") is None
    refused = limits.check(ROUTE)
    assert refused is not None and refused.scope == "global"
    now[0] += 0.52  # the first of those left the window
    assert limits.check(ROUTE) is None
    assert limits.total == 1
