"""The host's lobby controls through the fake Discord: computer seats, kick, transfer host,
a refused non-host, and a kill -9 that keeps the new host."""

from __future__ import annotations

import pytest
from kamiza_play import open_table
from table_play import verb_button

pytestmark = pytest.mark.e2e


async def test_the_host_manages_the_seats_and_hands_over(fake_discord, bot_process, users):
    state = fake_discord.state
    ann, ben, cho, eve = users("ann"), users("ben"), users("cho"), users("eve")
    _, lobby = await open_table(ann)
    for user in (ben, cho):
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") == 3, 5, "three members seated")

    await ann.click(lobby, "Add computer player")
    await state.wait_for(lambda: "🤖 Bot 1" in lobby.text, 5, "a computer seated")
    await ann.click(lobby, "Remove computer player")
    await state.wait_for(lambda: "Bot 1" not in lobby.text, 5, "the computer removed")

    # Kick sits beside each member's seat but the host's
    kicks = [b["custom_id"] for b in lobby.buttons() if b["custom_id"].startswith("g:kick_seat:")]
    assert [int(k.rsplit(":", 1)[1]) for k in kicks] == [ben.id, cho.id]
    refused = (await eve.click(lobby, kicks[0])).response
    assert refused.ephemeral and "Only the host" in refused.text
    assert not refused.buttons()

    pick = (await ann.click(lobby, kicks[0])).response  # asked privately, the lobby unchanged
    assert pick.ephemeral and f"Remove <@{ben.id}>" in pick.text and f"<@{ben.id}>" in lobby.text
    await ann.click(pick, "Yes, remove")
    await state.wait_for(lambda: f"<@{ben.id}>" not in lobby.text, 5, "ben kicked")

    handover = (await ann.click(lobby, "Transfer host")).response
    await ann.click(handover, verb_button(handover, "host_to"))
    assert f"<@{cho.id}> hosts this table now" in handover.text
    await state.wait_for(lambda: f"<@{cho.id}> 👑" in lobby.text, 5, "cho hosts")

    await bot_process.kill9()
    await bot_process.restart()
    late = (await ann.click(lobby, "Add computer player")).response  # the old host, refused
    assert "Only the host" in late.text
    await cho.click(lobby, "Add computer player")
    await state.wait_for(lambda: "🤖 Bot 1" in lobby.text, 5, "the new host's computer")
    await cho.click(lobby, "Start")
    await state.wait_for(lambda: "started" in lobby.text, 5, "the game started")
    assert not state.failed_requests()
