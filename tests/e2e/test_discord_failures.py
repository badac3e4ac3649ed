"""Discord failing is an expected event, not an error: a click whose answer Discord fails (a 5xx
after discord.py's retries, then "Unknown interaction" once the 3 s passed) stays played and the
table message shows it; a message route answering 429 is retried, a 5xx on an edit is skipped,
the next edit shows the table as it is. Each failure is one warning line in the log, never a
traceback or an ERROR."""

from __future__ import annotations

import random
from typing import Any

import kamiza_play
import pytest
from fakediscord.state import Channel
from ledger_file import stored_game
from table_play import open_table

pytestmark = pytest.mark.e2e

QUICK = {"BOT_DELAY_SECONDS": 0, "TURN_SECONDS": 120}
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
POST_MESSAGE = "POST /channels/{channel_id}/messages"
EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"


async def a_table(fake_discord, launch_bot, users) -> tuple[Any, Any, Channel, dict]:
    """The bot, the fake's state, and a KAMIZA table of ann, ben and a computer, started."""
    bot = await launch_bot(**QUICK)
    ann, ben = users("ann"), users("ben")
    thread, lobby = await open_table(ann, "kamiza", bots=1)
    await ben.click(lobby, "Join")
    await ann.state.wait_for(lambda: lobby.text.count("<@") > 1, 5, "every seat")
    await ann.click(lobby, "Start")
    return bot, fake_discord.state, thread, {ann.id: ann, ben.id: ben}


def problems(log: str) -> list[str]:
    return [
        line
        for line in log.splitlines()
        if "Traceback" in line or " ERROR " in line or " CRITICAL " in line
    ]


def warnings(log: str, text: str) -> list[str]:
    return [line for line in log.splitlines() if " WARNING " in line and text in line]


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_a_play_whose_answer_discord_fails_stays_played_and_is_one_warning(
    fake_discord, launch_bot, users
):
    bot, state, thread, by_id = await a_table(fake_discord, launch_bot, users)
    user = await kamiza_play.wait_turn(by_id, thread)
    assert user is not None
    table = kamiza_play.table_message(user, thread)
    assert table is not None
    hand = (await user.click(table, kamiza_play.HAND)).response
    assert hand is not None
    card = next(b for b in hand.buttons() if b["custom_id"].startswith("g:kzc:"))
    await user.click(hand, card["custom_id"])
    play = next(b for b in hand.buttons() if b["custom_id"].endswith(":kamiza"))
    before = len(stored_game(bot.database_path)[0]["actions"])
    # a 500, and again at discord.py's retry a second later: its next retry comes after 3 s
    state.inject_fault(CALLBACK, 500, times=2)
    clicked = await user.click(hand, play["custom_id"], wait=False)
    await state.wait_for(lambda: clicked.late_callbacks, 10, "the retry refused with 10062")
    assert not clicked.answered  # "This interaction failed", as Discord shows it
    actions = stored_game(bot.database_path)[0]["actions"]
    assert actions[before]["player"] == str(user.id)  # and yet played (a computer may follow)
    played = kamiza_play.table_version(user, thread)
    # the table message shows the play to everyone: the turn went on
    nxt = await kamiza_play.wait_turn(by_id, thread, after=None)
    assert nxt is not user or kamiza_play.table_version(user, thread) != played
    await state.wait_for(
        lambda: warnings(bot.log, "Discord failed the answer to a click"), 5, "the warning"
    )
    assert len(warnings(bot.log, "Discord failed")) == 1, bot.log
    assert not problems(bot.log), bot.log


async def test_a_429_and_a_5xx_on_message_routes_are_no_errors_and_the_game_goes_on(
    fake_discord, launch_bot, users
):
    bot, state, thread, by_id = await a_table(fake_discord, launch_bot, users)
    # The clicks' tokens refused (as 15 minutes after them): the bot token carries the table.
    state.token_life = 0.0
    state.inject_fault(POST_MESSAGE, 429, times=2)  # discord.py waits and retries
    edit_failed = state.inject_fault(EDIT_MESSAGE, 503)  # not retried: the edit is skipped
    rng, version, played = random.Random(5), None, 0
    while (user := await kamiza_play.wait_turn(by_id, thread, after=version)) is not None:
        version = kamiza_play.table_version(user, thread)
        await kamiza_play.play_turn(user, thread, rng)
        played += 1
    _, status, _ = stored_game(bot.database_path)
    assert status == "finished" and played == 18
    assert edit_failed.hits == 1
    assert len(warnings(bot.log, "could not edit a message")) == 1, bot.log
    assert not problems(bot.log), bot.log
