"""What only PostgreSQL has to show: several processes on one database, `python -m data copy`
from SQLite, and a database that cannot be a ledger (unreachable, refused, newer) refused with one
line and exit status 2 by `python -m data` and `python -m bot`, nothing written."""

from __future__ import annotations

import asyncio
import math
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from ledger_helpers import header_of, new_game, play, seat_for
from pg_server import Server

from data import ratings
from data.backends import open_ledger
from data.pgdb import migrations
from data.store import Ledger
from rules.random_play import random_match
from tests.bot.test_startup import Listener, run_bot

TIMEOUT = 60
# Five members, eight games of four: every member sits in several games finished at once.
MEMBERS = (101, 102, 103, 104, 105)
TABLES = [[m for m in MEMBERS if m != MEMBERS[i % 5]] for i in range(8)]


def run_data(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data", *args], capture_output=True, text=True, timeout=TIMEOUT
    )


async def _played_to_the_end(ledger: Ledger, users: list[int], seed: int) -> int:
    """A game with every action stored, not finished yet."""
    players = [str(u) for u in users]
    _, log = random_match("kamiza", players, seed)
    game_id = await new_game(ledger, 1, users[0])
    await ledger.start_game(game_id, header_of(log), [seat_for(p) for p in log["players"]])
    for seq, action in enumerate(log["actions"]):
        await ledger.append_action(game_id, seq, action)
    return game_id


def _replay(records: list) -> dict[int, tuple[ratings.Rating, int, int]]:
    """Each member's rating, games and wins, replaying the finished games one after the other.

    The order is the one the ledger committed them in: the game whose every member's rating
    before is their current one goes next. A lost update shows as two games starting from the
    same rating of a member: then no order fits and the replay fails."""
    current: dict[int, ratings.Rating] = {}
    games: dict[int, int] = {}
    wins: dict[int, int] = {}
    pending = list(records)
    while pending:

        def starts_from_now(record) -> bool:
            return all(
                ratings.Rating(row.mu_before, row.sigma_before)
                == current.get(row.user_id, ratings.Rating())
                for row in record.results
            )

        fits = [record for record in pending if starts_from_now(record)]
        assert fits, "no game starts from its members' current ratings: an update was lost"
        record = fits[0]
        pending.remove(record)
        before = [current.get(row.user_id, ratings.Rating()) for row in record.results]
        after = ratings.rate(before, [row.rank for row in record.results])
        for row, new in zip(record.results, after, strict=True):
            assert math.isclose(row.mu_after, new.mu) and math.isclose(row.sigma_after, new.sigma)
            current[row.user_id] = ratings.Rating(row.mu_after, row.sigma_after)
            games[row.user_id] = games.get(row.user_id, 0) + 1
            wins[row.user_id] = wins.get(row.user_id, 0) + row.winner
    return {u: (current[u], games[u], wins[u]) for u in current}


async def test_two_processes_finishing_games_of_the_same_members_lose_no_update(pg_url):
    # Two ledgers, each with its own pool: what two bot processes on one database have.
    first, second = await open_ledger(pg_url), await open_ledger(pg_url)
    try:
        ledgers = [first, second]
        game_ids = [
            await _played_to_the_end(ledgers[i % 2], users, seed=40 + i)
            for i, users in enumerate(TABLES)
        ]
        await asyncio.gather(
            *(ledgers[i % 2].finish_game(game_id) for i, game_id in enumerate(game_ids))
        )
        records = [await first.get_game(game_id) for game_id in game_ids]
        replayed = _replay(records)
        board = await second.leaderboard(1, "kamiza", page_size=100)
        assert {row.user_id for row in board.rows} == set(MEMBERS)
        for row in board.rows:
            rating, games, wins = replayed[row.user_id]
            assert (row.mu, row.sigma, row.games, row.wins) == (
                rating.mu,
                rating.sigma,
                games,
                wins,
            )
        assert sum(row.games for row in board.rows) == 4 * len(TABLES)
        assert len(await first.seasons(1)) == 1  # both made sure of a season: one was made
    finally:
        await first.close()
        await second.close()


async def test_processes_starting_together_on_a_new_database_both_open_it(pg_url):
    """Processes (pools) open one empty database at about the same moment: one migrates, the
    others wait for it and find the ledger made (not CREATE TABLE's "already exists"), and one
    that looks while the migration runs does not take its new tables for a foreign database."""

    async def opened_after(delay: float) -> Ledger:
        await asyncio.sleep(delay)
        return await open_ledger(pg_url)

    ledgers = await asyncio.gather(*(opened_after(d) for d in (0, 0, 0.02, 0.05, 0.1, 0.2)))
    try:
        conn = await asyncpg.connect(pg_url)
        try:
            assert await conn.fetchval("SELECT version FROM ledger_schema") == len(migrations())
            assert await conn.fetchval("SELECT count(*) FROM ledger_schema") == 1
        finally:
            await conn.close()
    finally:
        for ledger in ledgers:
            await ledger.close()


async def test_a_failed_dm_is_told_once_whichever_process_asks(pg_url):
    first, second = await open_ledger(pg_url), await open_ledger(pg_url)
    try:
        await first.set_hand_delivery(7, "dm", "ja")
        assert (await second.member_prefs(7)).hand_delivery == "dm"  # nothing stale cached
        await second.dm_failed(7)
        assert (await first.member_prefs(7)).dm_failed
        told = await asyncio.gather(*(ledger.claim_dm_failure(7) for ledger in [first, second] * 5))
        assert told.count(True) == 1
    finally:
        await first.close()
        await second.close()


async def test_settings_changed_by_two_processes_at_once_are_all_kept(pg_url):
    first, second = await open_ledger(pg_url), await open_ledger(pg_url)
    try:
        await asyncio.gather(
            first.update_guild_settings(1, turn_seconds=20),
            second.update_guild_settings(1, lobby_seconds=60),
            first.update_guild_settings(1, locale="ja"),
            second.update_guild_settings(1, archive_seconds=30),
        )
        settings = await first.guild_settings(1)
        assert (settings.turn_seconds, settings.lobby_seconds) == (20, 60)
        assert (settings.locale, settings.archive_seconds) == ("ja", 30)
    finally:
        await first.close()
        await second.close()


# -- copy ----------------------------------------------------------------------------------------


async def _fill_sqlite(url: str) -> None:
    ledger = await open_ledger(url)
    try:
        await play(ledger, seed=1)
        await play(ledger, (101, 102), bots=1, seed=4)
        await ledger.new_season(1, "Spring")
        await play(ledger, seed=2)
        await play(ledger, seed=3, guild=2, actions=5)
        lobby = await new_game(ledger)
        await ledger.set_note(lobby, "message", {"id": 5})
        await ledger.update_guild_settings(1, turn_seconds=30, editions={"kamiza": "classic"})
        await ledger.set_hand_delivery(101, "dm", "ja")
    finally:
        await ledger.close()


async def _everything(url: str) -> dict:
    ledger = await open_ledger(url)
    try:
        seasons = await ledger.seasons(1)
        return {
            "games": [record async for record in ledger.iter_games()],
            "boards": [await ledger.leaderboard(1, "kamiza", s.id) for s in seasons],
            "seasons": await ledger.seasons(1) + await ledger.seasons(2),
            "settings": await ledger.guild_settings(1),
            "prefs": await ledger.member_prefs(101),
            "notes": await ledger.noted_games("message"),
            "stats": await ledger.member_stats(1, 101),
        }
    finally:
        await ledger.close()


async def test_copy_moves_a_sqlite_ledger_whole_and_only_once(tmp_path: Path, pg_url):
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    await _fill_sqlite(source)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    done = run_data("copy", "--from", source, "--to", pg_url)
    assert done.returncode == 0, done.stderr
    assert "copied 5 games" in done.stderr and "ok: integrity ok; 3 finished games" in done.stderr
    assert await _everything(pg_url) == await _everything(source)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files  # source untouched

    again = run_data("copy", "--from", source, "--to", pg_url)  # idempotent
    assert again.returncode == 0, again.stderr
    assert "already holds this ledger" in again.stderr
    assert run_data("check", "--db", pg_url).returncode == 0

    ledger = await open_ledger(pg_url)  # the copy goes on where the source stopped
    try:
        assert await new_game(ledger) == 6
    finally:
        await ledger.close()


async def test_copy_refuses_a_target_holding_another_ledger_unless_forced(tmp_path, pg_url):
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    await _fill_sqlite(source)
    ledger = await open_ledger(pg_url)
    try:
        await play(ledger, seed=9, guild=3)
    finally:
        await ledger.close()

    refused = run_data("copy", "--from", source, "--to", pg_url)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.splitlines() == [
        f"copy: {pg_url} already holds a ledger (1 games): --force replaces it with the copy"
    ]
    assert await _game_ids(pg_url) == [1]  # nothing written

    forced = run_data("copy", "--from", source, "--to", pg_url, "--force")
    assert forced.returncode == 0, forced.stderr
    assert await _everything(pg_url) == await _everything(source)


async def _game_ids(url: str) -> list[int]:
    ledger = await open_ledger(url)
    try:
        return [record.id async for record in ledger.iter_games()]
    finally:
        await ledger.close()


# -- bad input -------------------------------------------------------------------------------------


async def test_a_newer_schema_or_a_foreign_database_is_refused_with_nothing_written(pg_url):
    await (await open_ledger(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE ledger_schema SET version = 99")
        done = run_data("check", "--db", pg_url)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines() == [
            f"check: {pg_url}: the ledger's schema is newer than this version of Kamiza (schema "
            f"version 99, this version knows {len(migrations())}): run a newer Kamiza"
        ]
        assert await conn.fetchval("SELECT version FROM ledger_schema") == 99

        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        await conn.execute("CREATE TABLE customers (id INTEGER)")
        done = run_data("export", "--db", pg_url)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines() == [
            f"export: {pg_url} is not a Kamiza ledger (a database with other tables)"
        ]
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        assert [t["tablename"] for t in tables] == ["customers"]
    finally:
        await conn.close()


def test_refused_credentials_and_no_server_are_one_line_and_status_2(pg_server: Server):
    stranger = f"postgresql://stranger:hunter2@{pg_server.host}:{pg_server.port}/postgres"
    done = run_data("check", "--db", stranger)
    assert (done.returncode, done.stdout) == (2, "")
    [line] = done.stderr.splitlines()
    assert line.startswith(
        f"check: the PostgreSQL server at postgresql://stranger:***@{pg_server.host}:"
        f"{pg_server.port}/postgres refused the credentials"
    )
    assert "hunter2" not in line

    missing = pg_server.url("no_such_database")
    done = run_data("export", "--db", missing)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[0].startswith(f"export: no such PostgreSQL database: {missing}")


@pytest.mark.parametrize("case", ["unreachable", "credentials", "newer"])
def test_the_bot_refuses_a_database_it_cannot_use_before_discord(
    case, tmp_path, pg_server: Server, pg_url
):
    url = {
        "unreachable": "postgresql://kamiza:hunter2@127.0.0.1:1/kamiza",
        "credentials": f"postgresql://stranger:hunter2@{pg_server.host}:{pg_server.port}/postgres",
        "newer": pg_url,
    }[case]
    if case == "newer":
        asyncio.run(_newer(pg_url))
    discord = Listener()
    try:
        done = run_bot(tmp_path, discord.port, DATABASE_URL=url)
        assert (done.returncode, done.stdout) == (2, "")
        [line] = done.stderr.splitlines()
        assert line.startswith("kamiza: ") and "hunter2" not in line and "Traceback" not in line
        says = {
            "unreachable": "cannot reach the PostgreSQL server",
            "credentials": "refused the credentials",
            "newer": "schema is newer than this version of Kamiza",
        }[case]
        assert says in line
        assert not discord.contacted()
    finally:
        discord.sock.close()


async def _newer(url: str) -> None:
    await (await open_ledger(url)).close()
    conn = await asyncpg.connect(url)
    await conn.execute("UPDATE ledger_schema SET version = $1", len(migrations()) + 1)
    await conn.close()
