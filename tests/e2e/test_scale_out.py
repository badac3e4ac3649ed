"""Scale-out end to end: two bot processes of two shards each (SHARD_COUNT=4) on one PostgreSQL
ledger, eight guilds (two on each shard), a High card game in each, one member of each playing
from their DMs (clicks that reach shard 0 only, forwarded to the table's process). Halfway, the
process of shards 2 and 3 is killed (-9) and started again: every game finishes, every
interaction is answered in time, each guild's leaderboard reads the same from the other process
once the two swap their shards, and `python -m data check` passes."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from bot_process import BotProcess
from fakediscord import FakeUser
from fakediscord.state import Channel
from table_play import open_table, verb_button
from test_dm_forwarding import PUT_DONE, menu_by_dm, moment, next_turn, put_highest
from test_hands_by_dm import choose_dms
from test_high_card import (
    assert_no_errors,
    card_buttons,
    final_standings,
    high_card_rules,  # noqa: F401  (the fixture)
    open_hand,
    plugin_env,
)

from data.backends import open_ledger

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SHARDS, GUILDS = 4, 8


class Halfway:
    """Every game waits here after its first turn, while a process is killed and restarted."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.arrived = 0
        self.all_there = asyncio.Event()
        self.go_on = asyncio.Event()

    async def wait(self) -> None:
        self.arrived += 1
        if self.arrived == self.games:
            self.all_there.set()
        await self.go_on.wait()


async def put_from_hand(user: FakeUser, thread: Channel) -> None:
    """Open the private hand in the thread, put the highest card, see it answered."""
    hand = await open_hand(user, thread)
    cards = card_buttons(hand)
    await user.click(hand, cards[max(cards)])
    await user.state.wait_for(lambda: PUT_DONE in hand.text, 10, "the hand answered")


async def play_game(host: FakeUser, guest: FakeUser, general: Channel, halfway: Halfway) -> Channel:
    """A High card game of two in `general`'s guild: the host plays from the private hand in the
    thread, the guest from their DMs. Returns its thread once its standings are shown."""
    members = {host.id: host, guest.id: guest}
    thread, lobby = await open_table(host, "highcard", where=general)
    await guest.click(lobby, verb_button(lobby, "join") or "Join")
    await host.state.wait_for(lambda: lobby.text.count("<@") >= 2, 10, "two members seated")
    await host.click(lobby, verb_button(lobby, "start") or "Start")
    player = await next_turn(host, members, thread, None)
    await choose_dms(guest, thread)
    turns = 0
    while player is not None:
        now = moment(host, members, thread)
        if player is guest:
            await put_highest(guest, await menu_by_dm(guest, now[0]), PUT_DONE)
        else:
            await put_from_hand(host, thread)
        turns += 1
        if turns == 1:
            await halfway.wait()
        try:
            player = await next_turn(host, members, thread, now)
        except TimeoutError:
            shown = [m.text for m in host.visible_messages(thread)[-3:]]
            raise AssertionError(f"guild {general.guild_id} after {now}: {shown}") from None
    return thread


async def leaderboards(hosts: list[FakeUser], generals: list[Channel]) -> list[str]:
    boards = []
    for host, general in zip(hosts, generals, strict=True):
        board = (await host.slash("leaderboard", where=general, game="high-card")).response
        assert board is not None and "High card leaderboard" in board.text, board
        boards.append(board.text)
    return boards


async def swap_shards(low: BotProcess, high: BotProcess) -> None:
    """Stop both processes and start each with the other's shards."""
    for process in (low, high):
        assert await process.stop() == 0, process.log
    low.env["SHARD_IDS"], high.env["SHARD_IDS"] = high.env["SHARD_IDS"], low.env["SHARD_IDS"]
    logins = [process.log.count("Logged in as") for process in (low, high)]
    for process in (low, high):  # each alone has not all the shards its start would wait for
        await process.start(wait=False)
    state = low.fake.state
    for _ in range(150):  # the logs change with no change the fake could wake a waiter on
        counts = [process.log.count("Logged in as") for process in (low, high)]
        if state.connected_shards() == {0, 1, 2, 3} and all(map(int.__gt__, counts, logins)):
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"both processes not ready again:\n{low.log[-3000:]}\n{high.log[-3000:]}")


async def test_two_processes_of_two_shards_play_eight_games_through_a_crash(
    fake_discord,
    launch_bot,
    users,
    pg_url,
    high_card_rules,  # noqa: F811
):
    state = fake_discord.state
    guilds = [state.add_guild(f"server {n}", shard=(n % SHARDS, SHARDS)) for n in range(GUILDS)]
    generals = [state.channel_named("general", guild) for guild in guilds]
    # TURN_SECONDS: no turn passes to the timer while its process is down and comes back.
    env = plugin_env() | {"DATABASE_URL": pg_url, "SHARD_COUNT": str(SHARDS), "TURN_SECONDS": "90"}
    low = await launch_bot(**env, SHARD_IDS="0,1")
    high = await launch_bot(**env, SHARD_IDS="2,3")
    await state.wait_for(lambda: state.connected_shards() == {0, 1, 2, 3}, 20, "four shards")

    hosts = [users(f"host{n}") for n in range(GUILDS)]
    guests = [users(f"guest{n}") for n in range(GUILDS)]
    halfway = Halfway(GUILDS)
    games = [
        asyncio.create_task(play_game(host, guest, general, halfway))
        for host, guest, general in zip(hosts, guests, generals, strict=True)
    ]
    await asyncio.wait_for(halfway.all_there.wait(), 90)
    await high.kill9()
    await high.start(timeout=30)
    await state.wait_for(lambda: state.connected_shards() == {0, 1, 2, 3}, 20, "four shards")
    halfway.go_on.set()
    threads = await asyncio.wait_for(asyncio.gather(*games), 180)
    assert all(final_standings(host, t) for host, t in zip(hosts, threads, strict=True))

    # Each process ran its own guilds' tables only; the restarted one took its four back.
    assert "Restored 0 lobbies and 4 tables" in high.log, high.log
    assert "Restored 0 lobbies and 0 tables" in low.log
    assert "a DM click forwarded to shard 2" in low.log and "forwarded to shard 3" in low.log
    late = [(i.name, i.elapsed) for i in state.interactions if not i.answered or i.late_callbacks]
    assert not late, late

    before = await leaderboards(hosts, generals)
    await swap_shards(low, high)
    await state.wait_for(lambda: state.connected_shards() == {0, 1, 2, 3}, 20, "four shards")
    assert await leaderboards(hosts, generals) == before  # each guild's, from the other process
    for board, host, guest in zip(before, hosts, guests, strict=True):
        assert host.name.title() in board and guest.name.title() in board

    ledger = await open_ledger(pg_url)
    try:
        records = [r async for r in ledger.iter_games()]
    finally:
        await ledger.close()
    assert sorted(r.guild_id for r in records) == sorted(guilds)
    assert all(r.status == "finished" for r in records)
    done = subprocess.run(
        [sys.executable, "-m", "data", "check", "--db", pg_url],
        capture_output=True,
        text=True,
        timeout=60,
        env=high.env,
    )
    assert done.returncode == 0, done.stderr
    for process in (low, high):
        assert_no_errors(process.log)
