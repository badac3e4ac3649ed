"""A whole KAMIZA match through the fake Discord, as four members would play it."""

from __future__ import annotations

import random

import pytest
from kamiza_play import open_table, play_turn, table_version, wait_turn
from ledger_file import stored_game

from rules.log import replay

pytestmark = pytest.mark.e2e


async def test_full_second_generation_match_with_four_members(fake_discord, bot_process, users):
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho", "dev")]
    host, *others = players
    thread, lobby = await open_table(host)
    for user in others:
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 4, 5, "four seats")
    stranger = users("eve")
    refused = await stranger.click(lobby, "Start")
    assert "host" in refused.followups[0].text if refused.followups else refused.response.text
    await host.click(lobby, "Start")
    by_id = {u.id: u for u in players}
    rng = random.Random(7)
    turns = 0
    version = None
    while (user := await wait_turn(by_id, thread, after=version)) is not None:
        version = table_version(host, thread)
        await play_turn(user, thread, rng)
        turns += 1
    assert turns == 36
    final = [m for m in host.visible_messages(thread) if "Final standings" in m.text][-1]
    assert "🏆" in final.text
    log, status, scores = stored_game(bot_process.database_path)
    assert status == "finished" and len(log["actions"]) == 36
    assert replay(log)["scores"] == scores
    reveals = [
        m for m in host.visible_messages(thread) if m.text.startswith("### Reveal")
    ]  # its title
    assert len(reveals) == 9
    assert not state.unknown_routes and not state.failed_requests()
