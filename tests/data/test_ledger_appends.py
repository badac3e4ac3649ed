"""Appending actions: atomic, sequence-checked, idempotent on retry, safe under concurrency."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from ledger_helpers import new_game, play

from data.db import parse_url
from data.errors import GameNotFound, GameNotRunning, SequenceConflict


def _action(player: str, n: int) -> dict:
    return {"player": player, "card": "boss", "area": "kamiza", "n": n}


async def test_a_retry_of_a_committed_append_is_recognised(ledger):
    game_id, _, log = await play(ledger, actions=2)
    assert await ledger.append_action(game_id, 1, log["actions"][1]) is False
    assert (
        await ledger.append_action(game_id, 0, dict(reversed(log["actions"][0].items()))) is False
    )
    assert (await ledger.game_log(game_id))["actions"] == log["actions"][:2]


async def test_a_taken_sequence_number_conflicts(ledger):
    game_id, _, log = await play(ledger, actions=2)
    other = {
        **log["actions"][1],
        "area": "shimoza" if log["actions"][1]["area"] == "kamiza" else "kamiza",
    }
    with pytest.raises(SequenceConflict) as info:
        await ledger.append_action(game_id, 1, other)
    assert (info.value.seq, info.value.expected) == (1, 2)


async def test_a_gap_in_the_sequence_conflicts(ledger):
    game_id, _, log = await play(ledger, actions=2)
    with pytest.raises(SequenceConflict, match="not the next") as info:
        await ledger.append_action(game_id, 5, log["actions"][2])
    assert info.value.expected == 2
    assert await ledger.append_action(game_id, 2, log["actions"][2]) is True


async def test_appends_need_a_running_game(ledger):
    lobby = await new_game(ledger)
    with pytest.raises(GameNotRunning):
        await ledger.append_action(lobby, 0, _action("101", 0))
    finished, _, log = await play(ledger)
    with pytest.raises(GameNotRunning):
        await ledger.append_action(finished, len(log["actions"]), _action("101", 0))
    assert await ledger.append_action(finished, 0, log["actions"][0]) is False  # late retry
    with pytest.raises(GameNotFound):
        await ledger.append_action(4242, 0, _action("101", 0))


async def test_appends_are_validated(ledger):
    game_id, _, _ = await play(ledger, actions=0)
    with pytest.raises(ValueError, match="no seat"):
        await ledger.append_action(game_id, 0, _action("999", 0))
    with pytest.raises(ValueError):
        await ledger.append_action(game_id, 0, {"card": "boss"})
    with pytest.raises(ValueError):
        await ledger.append_action(game_id, -1, _action("101", 0))


async def test_200_concurrent_appends_one_winner_per_sequence_number(ledger):
    game_id, _, _ = await play(ledger, actions=0)
    players = ["101", "102", "103", "104"]
    winners: dict[int, int] = {}

    async def task(n: int) -> None:
        seq = 0
        while True:
            try:
                written = await ledger.append_action(game_id, seq, _action(players[n % 4], n))
            except SequenceConflict as exc:
                seq = exc.expected
                continue
            assert written is True
            assert seq not in winners
            winners[seq] = n
            return

    await asyncio.gather(*(task(n) for n in range(200)))
    actions = (await ledger.game_log(game_id))["actions"]
    assert sorted(winners) == list(range(200))
    assert [a["n"] for a in actions] == [winners[seq] for seq in range(200)]
    assert sorted(a["n"] for a in actions) == list(range(200))


async def test_racing_for_one_sequence_number(ledger):
    game_id, _, _ = await play(ledger, actions=0)
    different = await asyncio.gather(
        *(ledger.append_action(game_id, 0, _action("101", n)) for n in range(50)),
        return_exceptions=True,
    )
    assert sum(r is True for r in different) == 1
    assert all(isinstance(r, SequenceConflict) for r in different if r is not True)
    same = await asyncio.gather(
        *(ledger.append_action(game_id, 1, _action("102", 7)) for _ in range(50))
    )
    assert same.count(True) == 1 and same.count(False) == 49
    assert len((await ledger.game_log(game_id))["actions"]) == 2


async def test_the_schema_itself_refuses_duplicates_gaps_and_edits(sqlite_ledger, ledger_url):
    ledger = sqlite_ledger
    game_id, _, _ = await play(ledger, actions=3)
    conn = sqlite3.connect(parse_url(ledger_url).path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    row = ("101", '{"player":"101"}', "2025-01-01T00:00:00+00:00")
    for seq in (1, 7):  # taken, gap
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (game_id, seq, *row))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE actions SET action = '{}' WHERE game_id = ?", (game_id,))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
    conn.close()
