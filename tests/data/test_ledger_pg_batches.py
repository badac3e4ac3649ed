"""PostgreSQL's actions checks, once per statement (migration 8): what the statement trigger
refuses in plain SQL, a whole batch refused for one bad row, the seats it keeps, appends to one
game from two connections at once, and `check` finding what `copy` let past the trigger."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest
from ledger_helpers import play

from data.backends import open_ledger

WHEN = "2025-01-01T00:00:00+00:00"
INSERT = """INSERT INTO actions (game_id, seq, player, action, created_at)
            SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[],
                                 $5::text[])"""


def _rows(*appends: tuple[int, int, str]) -> list[list]:
    """unnest's columns for (game, seq, player) appends."""
    return [
        [g for g, _, _ in appends],
        [s for _, s, _ in appends],
        [p for _, _, p in appends],
        [json.dumps({"player": p}) for _, _, p in appends],
        [WHEN] * len(appends),
    ]


async def _running(pg_url: str, count: int, actions: int = 2) -> list[int]:
    """`count` running games of four members with `actions` actions each."""
    ledger = await open_ledger(pg_url)
    try:
        return [
            (await play(ledger, seed=seed, actions=actions, finish=False))[0]
            for seed in range(count)
        ]
    finally:
        await ledger.close()


async def _next_player(conn: asyncpg.Connection, game_id: int) -> str:
    return await conn.fetchval("SELECT player FROM seats WHERE game_id = $1 LIMIT 1", game_id)


async def test_one_statement_appends_to_many_games_and_touches_each_once(pg_url):
    games = await _running(pg_url, 3)
    conn = await asyncpg.connect(pg_url)
    try:
        players = [await _next_player(conn, g) for g in games]
        rows = [(g, 2, p) for g, p in zip(games, players, strict=True)]
        rows += [(games[0], 3, players[0]), (games[0], 4, players[0])]  # a run of one game
        await conn.execute(INSERT, *_rows(*rows))
        counts = await conn.fetch(
            "SELECT game_id, count(*) AS n FROM actions WHERE game_id = ANY ($1) GROUP BY 1",
            games,
        )
        assert {r["game_id"]: r["n"] for r in counts} == {games[0]: 5, games[1]: 3, games[2]: 3}
        touched = await conn.fetch("SELECT updated_at FROM games WHERE id = ANY ($1)", games)
        assert {r["updated_at"] for r in touched} == {WHEN}
    finally:
        await conn.close()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("gap", "sequence gap"),
        ("hole", "sequence gap"),
        ("unseated", "without a seat"),
        ("missing", "not running"),
        ("ended", "not running"),
    ],
)
async def test_one_bad_row_refuses_the_whole_statement(pg_url, bad, message):
    games = await _running(pg_url, 2)
    conn = await asyncpg.connect(pg_url)
    try:
        player = await _next_player(conn, games[0])
        good = (games[0], 2, player)
        wrong = {
            "gap": (games[1], 3, player),  # 2 is next
            "hole": (games[0], 4, player),  # 2 and 4 but no 3
            "unseated": (games[1], 2, "999"),
            "missing": (10**9, 0, player),
            "ended": (games[1], 2, player),
        }[bad]
        if bad == "ended":
            await conn.execute("UPDATE games SET status = 'abandoned' WHERE id = $1", games[1])
        with pytest.raises(asyncpg.RaiseError, match=message):
            await conn.execute(INSERT, *_rows(good, wrong))
        assert await conn.fetchval("SELECT count(*) FROM actions WHERE seq >= 2") == 0
    finally:
        await conn.close()


async def test_a_seat_with_actions_stays_and_check_finds_an_unseated_action(pg_url):
    games = await _running(pg_url, 1)
    conn = await asyncpg.connect(pg_url)
    try:
        with pytest.raises(asyncpg.RaiseError, match="has actions"):
            await conn.execute("DELETE FROM seats WHERE game_id = $1", games[0])
        async with conn.transaction():  # what only `copy` may do: past the trigger
            await conn.execute("SET LOCAL ledger.copying = 'on'")
            await conn.execute(INSERT, *_rows((games[0], 2, "999")))
    finally:
        await conn.close()
    ledger = await open_ledger(pg_url)
    try:
        problems = await ledger.integrity_problems()
    finally:
        await ledger.close()
    assert problems == [f"game {games[0]}: an action by a player without a seat"]


async def test_two_connections_appending_to_one_game_take_turns(pg_url):
    """The second append waits for the first one's row lock and then sees it committed; had it
    come before, it would be a gap."""
    (game,) = await _running(pg_url, 1)
    first, second = await asyncpg.connect(pg_url), await asyncpg.connect(pg_url)
    try:
        player = await _next_player(first, game)
        holding = first.transaction()
        await holding.start()
        await first.execute(INSERT, *_rows((game, 2, player)))
        waiting = asyncio.create_task(second.execute(INSERT, *_rows((game, 3, player))))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # blocked on the game's row lock
        await holding.commit()
        await asyncio.wait_for(waiting, 10)
        with pytest.raises(asyncpg.RaiseError, match="sequence gap"):
            await second.execute(INSERT, *_rows((game, 5, player)))
        assert await first.fetchval("SELECT max(seq) FROM actions WHERE game_id = $1", game) == 3
    finally:
        await first.close()
        await second.close()
