"""Turns announced by notifications and a thread whose rounds stay true, for every game.

Computer players act at once (`BOT_DELAY_SECONDS=0`), so the table runs ahead of the messages
that tell it: each game's whole play must still notify every turn of a member exactly once (a
new message: an edit never notifies), and no round's message may show another round or change
after it was closed.
"""

from __future__ import annotations

import random

import kamiza_play
import kobayakawa_play
import losers_play
import pytest
from fakediscord import FakeUser
from fakediscord.state import Channel
from ledger_file import stored_game
from table_play import open_table, verb_button
from turn_record import assert_every_turn_pinged, assert_history_true, thread_messages

pytestmark = pytest.mark.e2e

QUICK = {"BOT_DELAY_SECONDS": 0, "TURN_SECONDS": 120}  # no timeout, no reminder meanwhile


async def seated(command: str, host: FakeUser, others: list[FakeUser], **options) -> Channel:
    """Open a table, seat `others` beside the host, start it; the thread."""
    thread, lobby = await open_table(host, command, **options)
    for user in others:
        await user.click(lobby, "Join")
    await host.state.wait_for(lambda: lobby.text.count("<@") > len(others), 5, "every seat")
    await host.click(lobby, "Start")
    return thread


def check_thread(bot, state, thread: Channel, members: list[FakeUser]) -> tuple[int, int]:
    """The game finished; every member turn pinged once; the history true. (turns, tables)"""
    log, status, _ = stored_game(bot.database_path)
    assert status == "finished"
    turns = assert_every_turn_pinged(state, thread, log, {str(u.id): u.id for u in members})
    tables = assert_history_true(state, thread)
    assert not state.unknown_routes and not state.failed_requests()
    assert "Traceback" not in bot.log
    return turns, tables


async def test_kamiza_pings_every_turn_and_closes_every_round_despite_concurrent_clicks(
    fake_discord, launch_bot, users
):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    ann, ben = users("ann"), users("ben")
    thread = await seated("kamiza", ann, [ben], bots=1)
    by_id = {ann.id: ann, ben.id: ben}
    rng, version, played = random.Random(11), None, 0
    while (user := await kamiza_play.wait_turn(by_id, thread, after=version)) is not None:
        version = kamiza_play.table_version(user, thread)
        rival = ben if user is ann else ann  # opens their hand while the play lands, twice
        await kamiza_play.play_turn(user, thread, rng, rival=rival)
        played += 1
    turns, tables = check_thread(bot, state, thread, [ann, ben])
    assert turns == played == 18  # 9 rounds, each member once a round: one turn, one ping each
    assert tables == 9


async def test_kobayakawa_pings_every_turn_of_a_member_once(fake_discord, launch_bot, users):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    ann, ben = users("ann"), users("ben")
    thread = await seated("kobayakawa", ann, [ben], bots=1)
    played, _ = await kobayakawa_play.play_out({ann.id: ann, ben.id: ben}, thread, random.Random(3))
    turns, tables = check_thread(bot, state, thread, [ann, ben])
    # a draw shown then kept is one turn (two clicks, one ping); a turn is never two plays
    assert 2 <= turns <= played and tables >= 1


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_losers_pings_a_run_of_chips_once(fake_discord, launch_bot, users):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    ann, ben = users("ann"), users("ben")
    thread = await seated("losers", ann, [ben], bots=1)
    members = {ann.id: ann, ben.id: ben}
    actions = await losers_play.play_to_the_end(members, thread, random.Random(5))
    turns, tables = check_thread(bot, state, thread, [ann, ben])
    assert tables == 10 and 0 < turns < actions  # chips in a row: several actions, one turn
    closed = [m for m in thread_messages(state, thread) if "is over.**" in m.text]
    assert len(closed) == 10 and not any(verb_button(m, "hand") for m in closed)
