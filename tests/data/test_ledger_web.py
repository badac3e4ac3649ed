"""The web companion's switches (migration 7) and reads (`data.web_reads`), on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.db import migrations
from data.store import GuildSettings, MemberPrefs
from data.web_reads import WebReads, page_of
from tests.data.ledger_helpers import play
from tests.data.test_ledger_editions import ledger_at_version


async def test_a_server_is_off_the_web_until_an_admin_turns_it_on(ledger) -> None:
    web = WebReads(ledger)
    assert (await ledger.guild_settings(1)).web is False
    assert not await web.guild_on(1)
    await ledger.update_guild_settings(1, turn_seconds=60)
    assert not await web.guild_on(1)  # other settings do not turn it on
    assert (await ledger.update_guild_settings(1, web=True)).web is True
    assert await web.guild_on(1) and not await web.guild_on(2)
    assert (await ledger.update_guild_settings(1, turn_seconds=90)).web is True  # kept
    assert (await ledger.guild_settings(1)) == GuildSettings(turn_seconds=90, web=True)
    with pytest.raises(ValueError):
        await ledger.update_guild_settings(1, web="yes")


async def test_a_member_hides_and_their_other_choices_stay(ledger) -> None:
    await ledger.set_hand_delivery(5, "dm", "ja")
    assert await ledger.set_web_presence(5, "hidden") == MemberPrefs("dm", "ja", web="hidden")
    assert await ledger.member_prefs(5) == MemberPrefs("dm", "ja", web="hidden")
    await ledger.set_hand_delivery(5, "ephemeral", "en")  # a later choice keeps them hidden
    assert (await ledger.member_prefs(5)).web == "hidden"
    await ledger.dm_failed(5)
    assert (await ledger.member_prefs(5)).web == "hidden"
    assert await ledger.set_web_presence(6, "hidden") == MemberPrefs(web="hidden")  # a new row
    assert await WebReads(ledger).hidden([5, 6, 7]) == {5, 6}
    assert (await ledger.set_web_presence(5, "shown")).web == "shown"
    with pytest.raises(ValueError):
        await ledger.set_web_presence(5, "invisible")  # type: ignore[arg-type]


async def test_the_web_reads_leave_hidden_members_out(ledger) -> None:
    web = WebReads(ledger)
    ids = []
    for seed in range(3):
        game_id, _, _ = await play(ledger, seed=seed)
        ids.append(game_id)
    running, _, _ = await play(ledger, seed=9, actions=3)
    season = await ledger.current_season(1)
    full = await ledger.leaderboard(1, "kamiza", season.id, page_size=10)
    board = await web.board("kamiza", season.id)
    assert [(r.user_id, r.rank) for r in board] == [(r.user_id, r.rank) for r in full.rows]

    hidden = full.rows[0].user_id
    await ledger.set_web_presence(hidden, "hidden")
    board = await web.board("kamiza", season.id)
    assert len(board) == 3 and hidden not in [r.user_id for r in board]
    assert board[0].rank == 1  # ranked among the members shown
    by_name = page_of(board, 1, "kamiza", season.id, sort="name", page_size=2)
    assert [r.display_name for r in by_name.rows] == sorted(r.display_name for r in board)[:2]
    second = page_of(board, 1, "kamiza", season.id, sort="name", page=1, page_size=2)
    assert len(second.rows) == 1 and by_name.pages == 2 and second.total == 3
    with pytest.raises(ValueError):
        page_of(board, 1, "kamiza", season.id, sort="user_id")  # type: ignore[arg-type]

    assert await web.member_name(1, hidden) is None
    assert await web.member_name(1, 102 if hidden != 102 else 103) is not None
    assert await web.member_name(2, 102) is None  # never played in that server

    recent = await web.recent_games(1)
    assert [g.id for g in recent] == [running, *reversed(ids)]
    assert recent[0].status == "running" and all(p.score is None for p in recent[0].players)
    for game in recent:
        assert [p.seat for p in game.players] == [0, 1, 2, 3]
        gone = [p for p in game.players if p.hidden]
        assert len(gone) == 1 and gone[0].user_id is None and gone[0].name is None
    assert await web.players(ids[0]) == recent[-1].players
    mine = await web.recent_games(1, user_id=101, limit=2)
    assert [g.id for g in mine] == [running, ids[-1]]
    assert await web.recent_games(2) == []

    history = await web.rating_history(1, 101)
    assert [p.game_id for p in history] == ids  # the running game has no rating yet
    record = await ledger.get_game(ids[-1])
    assert record is not None
    after = next(r.rating_after for r in record.results if r.user_id == 101)
    assert history[-1].rating == after


async def test_a_version_6_ledger_upgrades_with_servers_off_and_members_shown(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    old = ledger_at_version(path, 6)
    old.execute("INSERT INTO member_prefs (user_id, updated_at) VALUES (3, '')")
    old.commit()
    old.close()
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        assert (await ledger.guild_settings(1)).web is False
        assert await ledger.member_prefs(3) == MemberPrefs()
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 7
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE member_prefs SET web = 'maybe'")
    finally:
        conn.close()
