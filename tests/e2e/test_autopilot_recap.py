"""A member who goes away: the table plays for them with the computer players' policy at the
table's pace, and on return (also once the game is over) they get a private recap; an error
answer stays visible to the member who caused it."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import pytest
from kamiza_play import HAND, table_message
from test_kamiza_flows import start_with

pytestmark = pytest.mark.e2e

BOT_DELAY = 0.1


def action_times(db_path, player: str) -> list[tuple[datetime, datetime]]:
    """For each action of `player` after their second one: (previous action's time, its time)."""
    con = sqlite3.connect(db_path)
    try:
        rows = con.execute(
            "SELECT player, created_at FROM actions WHERE game_id = "
            "(SELECT max(id) FROM games) ORDER BY seq"
        ).fetchall()
    finally:
        con.close()
    times = [(who, datetime.fromisoformat(at)) for who, at in rows]
    mine = [i for i, (who, _) in enumerate(times) if who == player][2:]  # after two timeouts
    return [(times[i - 1][1], times[i][1]) for i in mine]


@pytest.mark.slow
async def test_the_recap_after_autopilot(fake_discord, launch_bot, users):
    bot = await launch_bot(TURN_SECONDS=5, BOT_DELAY_SECONDS=str(BOT_DELAY))
    state = fake_discord.state
    ann = users("ann")
    thread, _ = await start_with(ann, [], bots=2)
    notice = await ann.wait_for_message(
        lambda m: "now on autopilot" in m.text, channel=thread, timeout=30
    )
    # Back while the game goes on: her hand, then what the table played for her.
    opened = await ann.click(table_message(ann, thread), HAND)
    assert opened.response.ephemeral
    recap = await state.wait_for(lambda: opened.followups and opened.followups[0], 5, "a recap")
    assert recap.ephemeral and "While you were away" in recap.text
    assert "still on autopilot" in recap.text and "points now" in recap.text
    again = await ann.click(table_message(ann, thread), HAND)
    assert again.followups == []  # told once

    # Still away: the table plays on for her to the end, marked in the standings.
    standings = await ann.wait_for_message(
        lambda m: "Final standings" in m.text, channel=thread, timeout=30
    )
    [marked] = [line for line in standings.text.splitlines() if "(autopilot)" in line]
    assert f"<@{ann.id}>" in marked  # her ranking line (other fields may name her too)
    late = await ann.click(notice, "I'm back")
    assert "game is over" in late.response.text
    final = await state.wait_for(lambda: late.followups and late.followups[0], 5, "a recap")
    assert final.ephemeral and "The game is over: you finished" in final.text
    assert [m.id for m in ann.ephemerals() if "While you were away" in m.text] == [
        recap.id,
        final.id,
    ]
    # Autopilot at the table's pace: never sooner than BOT_DELAY after the move before.
    gaps = [
        (now - before).total_seconds()
        for before, now in action_times(bot.database_path, str(ann.id))
    ]
    assert gaps and min(gaps) >= BOT_DELAY


async def test_start_in_a_busy_thread_answers_and_the_answer_stays(
    fake_discord, bot_process, users
):
    ann = users("ann")
    thread, _ = await start_with(ann, [], bots=2)
    again = await ann.slash("kamiza", "start", where=thread)
    [answer] = again.messages()
    assert answer.ephemeral and "already a table here" in answer.text
    # It used to be deleted right after it was sent: give the bot a moment to (not) do that.
    with pytest.raises(TimeoutError):
        await fake_discord.state.wait_for(lambda: answer.deleted, 1.0, "the answer deleted")
