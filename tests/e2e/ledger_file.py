"""Reading the bot's ledger file directly, as an independent check of what it stored."""

from __future__ import annotations

import json
import sqlite3


def stored_game(db_path) -> tuple[dict, str, dict[str, int]]:
    """The newest game's log, status and stored scores, read straight from the ledger file."""
    con = sqlite3.connect(db_path)
    try:
        gid, status = con.execute("SELECT id, status FROM games ORDER BY id DESC").fetchone()
        raw = con.execute("SELECT header FROM games WHERE id = ?", (gid,)).fetchone()[0]
        header = json.loads(raw) if raw else {}
        actions = [
            json.loads(row[0])
            for row in con.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
            )
        ]
        scores = dict(
            con.execute("SELECT player, score FROM results WHERE game_id = ?", (gid,)).fetchall()
        )
    finally:
        con.close()
    return {**header, "actions": actions}, status, scores
