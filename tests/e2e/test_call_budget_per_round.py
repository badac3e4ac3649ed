"""Issue #20: a table spends the bot token's shared budget only where no click can carry the
call. Over a whole 4-member KAMIZA match (lobby and final standings included), what the clicks
cause rides on their interactions (responses and follow-ups, exempt from the 50 calls a second):
at most 1.5 bot-token calls a round."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from kamiza_play import open_table, play_turn, table_version, wait_turn
from ledger_file import stored_game
from turn_record import assert_every_turn_pinged, assert_history_true

pytestmark = pytest.mark.e2e

API = "/api/v10"
EXEMPT = ("/interactions/", "/webhooks/")  # an interaction's own routes


def bot_token_calls(requests) -> Counter[str]:
    """The bot token's calls by route (reads included: Discord counts them too)."""
    return Counter(r.route for r in requests if not r.route.split(" ", 1)[1].startswith(EXEMPT))


async def test_a_match_of_members_clicking_costs_at_most_one_and_a_half_bot_calls_a_round(
    fake_discord, launch_bot, users
):
    bot = await launch_bot(TURN_SECONDS=120)  # no timeout, no reminder meanwhile
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho", "dev")]
    host, *others = players
    first = len(state.requests)  # the bot's start (login, commands) is no table's
    thread, lobby = await open_table(host)
    for user in others:
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 4, 5, "four seats")
    await host.click(lobby, "Start")
    by_id = {u.id: u for u in players}
    rng, version, turns = random.Random(20), None, 0
    while (user := await wait_turn(by_id, thread, after=version)) is not None:
        version = table_version(user, thread)
        await play_turn(user, thread, rng)
        turns += 1
    assert turns == 36  # 9 rounds of 4 members
    log, status, _ = stored_game(bot.database_path)
    assert status == "finished"
    # The clicks' follow-ups still tell every turn with a new message and keep the rounds true.
    assert_every_turn_pinged(state, thread, log, {str(u.id): u.id for u in players})
    assert assert_history_true(state, thread) == 9
    calls = bot_token_calls(state.requests[first:])
    rounds = 9
    assert sum(calls.values()) / rounds <= 1.5, calls
    assert not state.unknown_routes and not state.failed_requests()
