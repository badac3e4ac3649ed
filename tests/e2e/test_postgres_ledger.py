"""The bot on a PostgreSQL ledger: a whole KAMIZA match through the fake Discord, stored and
checked as on SQLite."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from kamiza_play import open_table, play_turn, table_version, wait_turn

from data.backends import open_ledger
from rules.log import replay

pytestmark = pytest.mark.e2e


async def test_a_match_on_a_postgresql_ledger(fake_discord, launch_bot, users, pg_url):
    await launch_bot(DATABASE_URL=pg_url)
    players = [users(name) for name in ("ann", "ben", "cho")]
    host, *others = players
    thread, lobby = await open_table(host)
    for user in others:
        await user.click(lobby, "Join")
    await fake_discord.state.wait_for(lambda: lobby.text.count("<@") >= 3, 5, "three seats")
    await host.click(lobby, "Start")
    by_id = {u.id: u for u in players}
    rng, version = random.Random(3), None
    while (user := await wait_turn(by_id, thread, after=version)) is not None:
        version = table_version(host, thread)
        await play_turn(user, thread, rng)
    assert any("Final standings" in m.text for m in host.visible_messages(thread))

    ledger = await open_ledger(pg_url)
    try:
        [record] = [r async for r in ledger.iter_games()]
        board = await ledger.leaderboard(record.guild_id, "kamiza")
    finally:
        await ledger.close()
    assert record.status == "finished" and record.rated
    scores = {row.player: row.score for row in record.results}
    assert replay(record.log() or {})["scores"] == scores
    assert sorted(row.user_id for row in board.rows) == sorted(u.id for u in players)
    done = subprocess.run(
        [sys.executable, "-m", "data", "check", "--db", pg_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not fake_discord.state.unknown_routes and not fake_discord.state.failed_requests()
