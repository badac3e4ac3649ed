"""Discord's per-route buckets as the bot keeps them (`bot.route_buckets`): a bucket not known yet
takes one request at a time; once an answer told its limit, no more leave than it said remain
(those on their way counted) until its window is over; a 429 on the route waits as told; the
token's global 429 is not the bucket's; routes Discord says share a bucket share it."""

from __future__ import annotations

import asyncio

from bot.route_buckets import LONGEST_WAIT, Bucket, RouteBuckets, route_and_major

API = "https://discord.com/api/v10"


def told(remaining: int, reset_after: float, limit: int = 5, name: str = "abc") -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset-After": str(reset_after),
        "X-RateLimit-Bucket": name,
    }


async def reserved(bucket: Bucket, count: int) -> int:
    """How many of `count` requests may leave now (the others are given up)."""
    tries = [asyncio.ensure_future(bucket.reserve()) for _ in range(count)]
    await asyncio.sleep(0.01)
    gone = sum(1 for t in tries if t.done())
    for t in tries:
        t.cancel()
    await asyncio.sleep(0)
    return gone


def test_a_request_s_route_and_major_parameter():
    assert route_and_major("patch", f"{API}/channels/12/messages/34") == (
        "PATCH /channels/{id}/messages/{id}",
        "12",
    )
    assert route_and_major("PUT", f"{API}/applications/9/guilds/8/commands") == (
        "PUT /applications/{id}/guilds/{id}/commands",
        "8",
    )
    assert route_and_major("POST", f"{API}/users/@me/channels?x=1") == (
        "POST /users/@me/channels",
        "",
    )


async def test_a_bucket_not_known_yet_takes_one_request_at_a_time():
    bucket = Bucket()
    await bucket.reserve()
    assert await reserved(bucket, 3) == 0  # the first is on its way: nothing known
    bucket.answered(200, told(remaining=4, reset_after=5.0))
    assert await reserved(bucket, 6) == 4


async def test_no_more_leave_than_remain_counting_those_on_their_way_until_the_window_ends():
    bucket = Bucket()
    await bucket.reserve()
    bucket.answered(200, told(remaining=4, reset_after=0.3))
    for _ in range(4):
        await bucket.reserve()  # four on their way
    later = asyncio.ensure_future(bucket.reserve())
    # An answer from before the others were counted says 3 remain: they are on their way.
    bucket.answered(200, told(remaining=3, reset_after=0.29))
    await asyncio.sleep(0.15)
    assert not later.done()
    await asyncio.sleep(0.25)  # the window is over: the whole limit but those on their way
    assert later.done()
    assert bucket.available == 5 - 3 - 1


async def test_a_429_on_the_route_waits_as_told_and_the_global_one_is_not_the_bucket_s():
    bucket = Bucket()
    await bucket.reserve()
    bucket.answered(429, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    assert bucket.limit is None  # nothing learnt: still one at a time
    await bucket.reserve()
    bucket.answered(429, {**told(0, 0.2), "Retry-After": "0.2", "X-RateLimit-Scope": "user"})
    later = asyncio.ensure_future(bucket.reserve())
    await asyncio.sleep(0.1)
    assert not later.done()
    await asyncio.sleep(0.2)
    assert later.done()


async def test_routes_sharing_a_bucket_share_it_per_major_parameter():
    buckets = RouteBuckets()
    route, first = buckets.of("PATCH", f"{API}/channels/1/messages/2")
    await first.reserve()
    buckets.answered(route, first, 200, told(remaining=4, reset_after=5.0, name="shared"))
    assert buckets.of("PATCH", f"{API}/channels/1/messages/3")[1] is first
    assert buckets.of("PATCH", f"{API}/channels/7/messages/3")[1] is not first
    # Another route Discord puts in the same bucket, once an answer said so.
    other, second = buckets.of("DELETE", f"{API}/channels/1/messages/2")
    await second.reserve()
    buckets.answered(other, second, 204, told(remaining=3, reset_after=5.0, name="shared"))
    assert buckets.of("DELETE", f"{API}/channels/1/messages/5")[1] is first


async def test_buckets_nobody_uses_are_forgotten_but_not_a_spent_window(monkeypatch):
    monkeypatch.setattr("bot.route_buckets.TIDY_ABOVE", 3)
    buckets = RouteBuckets()
    route, spent = buckets.of("POST", f"{API}/channels/1/messages")
    await spent.reserve()
    buckets.answered(route, spent, 200, told(remaining=0, reset_after=5.0))
    route, busy = buckets.of("POST", f"{API}/channels/2/messages")
    await busy.reserve()  # on its way
    for channel in (3, 4):
        buckets.of("POST", f"{API}/channels/{channel}/messages")  # never used
    assert len(buckets) == 3  # the fourth made room: the third, never used, is forgotten
    assert buckets.of("POST", f"{API}/channels/1/messages")[1] is spent
    assert buckets.of("POST", f"{API}/channels/2/messages")[1] is busy


async def test_a_nonsense_wait_in_an_answer_does_not_hold_the_bucket_for_good():
    loop = asyncio.get_running_loop()
    for nonsense in ("nan", "inf", "-5", "soon"):
        bucket = Bucket()
        await bucket.reserve()
        bucket.answered(429, {"Retry-After": nonsense, "X-RateLimit-Reset-After": nonsense})
        assert bucket.resets_at is not None and bucket.resets_at <= loop.time() + 1.0, nonsense
    bucket = Bucket()
    await bucket.reserve()
    bucket.answered(429, {"Retry-After": "86400"})  # a day: waited at most LONGEST_WAIT
    assert bucket.resets_at is not None and bucket.resets_at <= loop.time() + LONGEST_WAIT
