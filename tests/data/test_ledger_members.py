"""A member's own choices (migration 6): how their hand reaches them, and a failed DM told once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.db import migrations
from data.store import MemberPrefs
from tests.data.test_ledger_editions import ledger_at_version


async def test_a_member_chooses_dms_and_a_failed_dm_takes_them_back_once(backend_url: str) -> None:
    ledger = await open_ledger(backend_url)
    try:
        assert await ledger.member_prefs(1) == MemberPrefs("ephemeral", None, False)
        assert await ledger.set_hand_delivery(1, "dm", "ja") == MemberPrefs("dm", "ja")
        assert await ledger.member_prefs(1) == MemberPrefs("dm", "ja")
        assert await ledger.member_prefs(2) == MemberPrefs()  # one member's choice only
        assert not await ledger.claim_dm_failure(1)  # nothing failed yet

        await ledger.dm_failed(1)  # closed DMs: back to the private menus, to be told
        assert await ledger.member_prefs(1) == MemberPrefs("ephemeral", "ja", dm_failed=True)
        assert await ledger.claim_dm_failure(1)
        assert not await ledger.claim_dm_failure(1)  # told once
        assert await ledger.member_prefs(1) == MemberPrefs("ephemeral", "ja")

        await ledger.dm_failed(3)  # a member never seen before: a row of their own
        assert (await ledger.member_prefs(3)).dm_failed
        await ledger.set_hand_delivery(3, "dm", None)  # choosing again clears the failure
        assert await ledger.member_prefs(3) == MemberPrefs("dm")
        with pytest.raises(ValueError):
            await ledger.set_hand_delivery(1, "pigeon", None)  # type: ignore[arg-type]
        assert await ledger.member_prefs(1) == MemberPrefs("ephemeral", "ja")
    finally:
        await ledger.close()


async def test_a_version_5_ledger_upgrades_with_every_member_on_ephemeral_menus(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    ledger_at_version(path, 5).close()
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        assert await ledger.member_prefs(7) == MemberPrefs()
        await ledger.set_hand_delivery(7, "dm", "en")
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 6
        row = conn.execute("SELECT hand_delivery, lang, dm_failed FROM member_prefs").fetchall()
        assert row == [("dm", "en", 0)]
        with pytest.raises(sqlite3.IntegrityError):  # the schema refuses what no member chose
            conn.execute(
                "INSERT INTO member_prefs (user_id, hand_delivery, updated_at) VALUES (8, 'x', '')"
            )
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
