"""Computer players of a chosen level through the fake Discord and the real bot process: the
level chosen at `/… start` and in the lobby, shown beside the seat, kept to the final
standings; a `hard` table (Rights of Losers, whose `hard` searches) killed with -9 in the middle
of a search, finished after a restart."""

from __future__ import annotations

import asyncio
import random
import re

import losers_play
import pytest
from kobayakawa_play import open_table, play_out, table_message
from test_kobayakawa_match import assert_no_errors, count_actions, final_standings, stored_game

from data.backends import open_ledger
from rules.log import replay
from tests.processes import still_running

pytestmark = pytest.mark.e2e

WORKER_READY = re.compile(r"computer players: worker process (\d+) is ready")
HARD_SEAT = re.compile(r"🤖 Bot (\d) \(hard\)")
COMPUTER_TO_PLAY = re.compile(r"🤖 Bot \d \(hard\) · ▶ to play")  # its seat's line


async def computers_note(db_path, game_id: int):
    ledger = await open_ledger(f"sqlite:///{db_path}")
    try:
        return (await ledger.notes(game_id)).get("computers")
    finally:
        await ledger.close()


def level_button(lobby, number: int) -> str:
    """The custom id of the level button beside computer seat `number`."""
    for button in lobby.buttons():
        parts = button.get("custom_id", "").split(":")
        if parts[:2] == ["g", "bot_lvl"] and parts[3] == str(number):
            return button["custom_id"]
    raise AssertionError(f"no level button for Bot {number}: {lobby.text}")


async def test_levels_chosen_at_start_and_in_the_lobby_play_to_the_end(
    fake_discord, bot_process, users
):
    state = fake_discord.state
    ann = users("ann")
    thread, lobby = await open_table(ann, bots=2, level="hard")
    await state.wait_for(
        lambda: "🤖 Bot 1 (hard)" in lobby.text and "🤖 Bot 2 (hard)" in lobby.text, 5, "levels"
    )
    assert level_button(lobby, 2).endswith(":2:easy")  # hard, then easy, normal, hard...
    await ann.click(lobby, level_button(lobby, 2))
    await state.wait_for(lambda: "🤖 Bot 2 (easy)" in lobby.text, 5, "Bot 2 made easy")
    assert "🤖 Bot 1 (hard)" in lobby.text
    await ann.click(lobby, "Start")
    await state.wait_for(lambda: table_message(ann, thread) is not None, 5, "the table")
    await play_out({ann.id: ann}, thread, random.Random(2))

    [final] = final_standings(ann, thread)
    assert "🤖 Bot 1 (hard)" in final.text and "🤖 Bot 2 (easy)" in final.text, final.text
    record = await stored_game(bot_process.database_path)
    assert record.status == "finished"
    assert await computers_note(bot_process.database_path, record.id) == ["hard", "easy"]
    assert {"bot-1", "bot-2"} <= {a["player"] for a in record.actions}
    assert replay(record.log())["over"]
    assert "normal decides" not in bot_process.log  # every decision came from the worker
    assert_no_errors(bot_process.log)


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_a_kill_in_the_middle_of_a_search_loses_nothing(fake_discord, launch_bot, users):
    """Rights of Losers: its `hard` searches for the whole budget (Kobayakawa's `hard` computes
    its move in milliseconds, there is no search to kill there)."""
    state = fake_discord.state
    bot = await launch_bot(AI_THINK_MS=5000)  # searches long enough to be killed in one
    ann = users("ann")
    thread, lobby = await losers_play.open_table(ann, bots=2, level="hard")
    await state.wait_for(lambda: "🤖 Bot 2 (hard)" in lobby.text, 5, "the computer seats")
    await ann.click(lobby, "Start")
    await state.wait_for(lambda: losers_play.table_message(ann, thread), 5, "the table")

    def computer_to_play() -> bool:
        table = losers_play.table_message(ann, thread)
        return bool(table and COMPUTER_TO_PLAY.search(table.text))

    # A computer with one legal move plays it at once: wait for a turn it searches, where
    # nothing is committed for a second (the search takes 5 s).
    turns = random.Random(1)
    for _ in range(12):
        if not computer_to_play():  # ann's turn first, then a computer's
            await losers_play.play_to_the_end({ann.id: ann}, thread, turns, limit=1)
        await state.wait_for(computer_to_play, 10, "a computer's turn")
        acknowledged = count_actions(bot.database_path)
        await asyncio.sleep(1.0)
        if count_actions(bot.database_path) == acknowledged:
            break
    else:
        raise AssertionError("no computer searched in twelve turns")
    workers = [int(pid) for pid in WORKER_READY.findall(bot.log)]
    assert workers
    await bot.kill9()
    assert count_actions(bot.database_path) == acknowledged
    # The orphaned worker notices its bot is gone and exits.
    assert still_running(workers, 10) == []

    bot.env["AI_THINK_MS"] = "40"
    await bot.restart()
    await ann.wait_for_message(lambda m: "restarted" in m.text and m.buttons(), channel=thread)
    await losers_play.play_to_the_end({ann.id: ann}, thread, random.Random(2), timeout=30)
    final = [m for m in ann.visible_messages(thread) if losers_play.FINAL in m.text][-1]
    assert len(set(HARD_SEAT.findall(final.text))) == 2, final.text  # both, at their level
    record = await stored_game(bot.database_path)
    assert record.status == "finished" and len(record.actions) > acknowledged
    replayed = replay(record.log())
    assert replayed["over"]
    assert {r.player: r.score for r in record.results} == replayed["scores"]
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot.log)
