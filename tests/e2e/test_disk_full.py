"""The disk fills up under the bot: on a real full filesystem (a small tmpfs), every click that
cannot be saved gets a clear private answer and changes nothing, the process and its timers live
on, reads still work; once space is back the match plays to its end and nothing acknowledged is
lost, also across a kill -9 while full (README "When the disk is full")."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from kamiza_play import HAND, match_over, open_table, play_turn, table_message, wait_turn
from small_disk import fill

# Slow (about 40 s): a real filesystem filled, a match to its end twice; CI runs it after the suite.
pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FULL = "cannot save moves right now (its storage is full)"


def ledger_actions(db: Path) -> list[tuple[int | None, dict]]:
    """The newest game's actions, read straight from the file: (member id or None, action)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (gid,) = con.execute("SELECT max(id) FROM games").fetchone()
        members = dict(
            con.execute("SELECT player, user_id FROM seats WHERE game_id = ?", (gid,)).fetchall()
        )
        rows = con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()
    finally:
        con.close()
    actions = [json.loads(row[0]) for row in rows]
    return [(members.get(a["player"]), a) for a in actions]


def check_ledger(url: str) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "data", "check", "--db", url], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


async def start_match(users, **options):
    ann, ben = users("ann"), users("ben")
    thread, lobby = await open_table(ann, bots=1, **options)
    await ben.click(lobby, "Join")
    await ann.state.wait_for(lambda: lobby.text.count("<@") >= 2, 5, "both seated")
    await ann.click(lobby, "Start")
    await ann.state.wait_for(lambda: table_message(ann, thread), 5, "the table")
    return ann, ben, thread


async def refused_play(user, thread) -> str:
    """Open the hand and play its first card face up: the private answer to the last click."""
    hand = (await user.click(table_message(user, thread), HAND)).response
    assert hand is not None and "Your turn" in hand.text, hand.text
    card = next(b for b in hand.buttons() if b["custom_id"].startswith("g:kzc:"))
    await user.click(hand, card["custom_id"])
    play = next(b for b in hand.buttons() if b["custom_id"].endswith(":kamiza"))
    answer = (await user.click(hand, play["custom_id"])).response
    assert answer is not None and answer.ephemeral
    return answer.text


async def play_to_the_end(by_id, thread, rng, version) -> list[tuple[int, str]]:
    """Every turn a member is shown once the table message is past `version`, played: (member
    id, "card@area") of each acknowledged."""
    played = []
    while (user := await wait_turn(by_id, thread, after=version, timeout=30)) is not None:
        table = table_message(user, thread)
        version = (table.id, table.edits)
        played.append((user.id, await play_turn(user, thread, rng)))
    return played


async def private_answer(user, interaction) -> str:
    """The text of the bot's private answer: the first one, or the follow-up of a `/start` that
    announced its table first (and deletes that announcement once refused)."""

    def answer():
        messages = interaction.messages()
        return messages and messages[-1].ephemeral and messages[-1]

    return (await user.state.wait_for(answer, 5, "a private answer")).text


def as_played(action: dict) -> str:
    return f"{action['card']}@{action['area']}"


async def test_clicks_refused_while_the_disk_is_full_then_the_match_finishes(
    small_disk, launch_bot, users
):
    db = small_disk / "ledger.sqlite3"
    url = f"sqlite:///{db}"
    bot = await launch_bot(DATABASE_URL=url, TURN_SECONDS=8)
    admin = users("root", manage_guild=True)
    await admin.slash("leaderboard")  # the guild's season, created while there is room
    ann, ben, thread = await start_match(users)
    by_id = {ann.id: ann, ben.id: ben}
    rng = random.Random(5)
    acknowledged: list[tuple[int, str]] = []
    current = await wait_turn(by_id, thread)
    assert current is not None
    other = ben if current is ann else ann
    before = ledger_actions(db)
    table = table_message(ann, thread)
    shown, version = table.text, (table.id, table.edits)

    filler = fill(small_disk)
    assert FULL in await refused_play(current, thread)
    assert FULL in await refused_play(current, thread)  # again: the same clear answer
    # The Japanese catalogue says it too.
    ja = users("aki", locale="ja")
    assert "保存領域がいっぱい" in await private_answer(ja, await ja.slash("kamiza", "start"))
    # Slash commands that write answer clearly; nothing is left of them.
    assert FULL in await private_answer(other, await other.slash("kamiza", "start"))
    assert FULL in await private_answer(admin, await admin.slash("settings", turn_seconds=45))
    # Reads still work: status, a hand out of turn, the leaderboard.
    status = (await other.slash("kamiza", "status", where=thread)).response
    assert status is not None and FULL not in status.text and "wrong" not in status.text
    hand = (await other.click(table_message(other, thread), HAND)).response
    assert hand is not None and "Waiting for" in hand.text, hand.text
    board = (await admin.slash("leaderboard")).response
    assert board is not None and FULL not in board.text and "wrong" not in board.text

    # The turn's clock runs out while full: the move it makes for the member cannot be saved;
    # its task tries again later, a few times, without a traceback a try.
    await bot.fake.state.wait_for(
        lambda: "could not save a move made for a seat" in bot.log, 15, "the timer's failure"
    )
    await asyncio.sleep(3)
    log = bot.log
    assert bot.running
    assert "Traceback" not in log, log
    assert log.count("could not save a move made for a seat") == 1, log
    assert log.count("could not save a click or a command") == 1, log
    assert ledger_actions(db) == before
    assert table_message(ann, thread).text == shown

    # Space comes back: the timer's next try plays for the member, then the match plays on.
    filler.unlink()
    await bot.fake.state.wait_for(
        lambda: len(ledger_actions(db)) > len(before), 15, "the timer's move saved"
    )
    acknowledged += await play_to_the_end(by_id, thread, rng, version)
    assert match_over(ann, thread)
    assert bot.running
    check_ledger(url)
    after = ledger_actions(db)
    members = [(uid, as_played(a)) for uid, a in after[len(before) :] if uid is not None]
    # Every acknowledged click is in the ledger, in order; the only other member move is the
    # one the timer made when space came back.
    assert members[0][0] == current.id and members[1:] == acknowledged
    assert "Traceback" not in bot.log, bot.log


async def test_kill9_while_full_then_restart_resumes_from_the_ledger(small_disk, launch_bot, users):
    db = small_disk / "ledger.sqlite3"
    url = f"sqlite:///{db}"
    bot = await launch_bot(DATABASE_URL=url, TURN_SECONDS=30)
    ann, ben, thread = await start_match(users)
    by_id = {ann.id: ann, ben.id: ben}
    rng = random.Random(8)
    current = await wait_turn(by_id, thread)
    table = table_message(ann, thread)
    version = (table.id, table.edits)  # `edits` counts on as the message is edited
    acknowledged = [(current.id, await play_turn(current, thread, rng))]
    current = await wait_turn(by_id, thread, after=version)
    before = ledger_actions(db)

    filler = fill(small_disk)
    assert FULL in await refused_play(current, thread)
    await bot.kill9()
    filler.unlink()
    assert ledger_actions(db) == before
    await bot.restart()
    await ann.wait_for_message(lambda m: "restarted" in m.text and m.buttons(), channel=thread)
    acknowledged += await play_to_the_end(by_id, thread, rng, None)
    assert match_over(ann, thread)
    check_ledger(url)
    members = [(uid, as_played(a)) for uid, a in ledger_actions(db) if uid is not None]
    assert members == acknowledged
    assert "Traceback" not in bot.log, bot.log
