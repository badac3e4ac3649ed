"""End to end: the real `python -m bot` process against the fake Discord."""

from __future__ import annotations

import pytest
from fakediscord.state import PRIVILEGED_INTENTS

pytestmark = pytest.mark.e2e


async def test_bot_logs_in_registers_about_and_answers_it(fake_discord, bot_process, users):
    state = fake_discord.state
    identify = state.identifies[-1]
    assert identify.token_ok
    assert identify.intents & PRIVILEGED_INTENTS == 0

    about = state.command("about")
    assert about["description"] == "What Kamiza is, the games it hosts and their commands"

    alice, bob = users("alice"), users("bob")
    answer = await alice.slash("about")
    assert answer.elapsed is not None and answer.elapsed < 3
    reply = answer.response
    assert reply is not None and reply.ephemeral
    assert "/kamiza" in reply.text and "/kobayakawa" in reply.text and "/losers" in reply.text
    assert alice.ephemerals() == [reply]
    assert reply not in bob.visible_messages(state.general)
    assert bob.ephemerals() == []
    assert not state.unknown_routes and not state.failed_requests()


async def test_about_speaks_japanese_to_a_japanese_client(bot_process, users):
    answer = await users("hanako", locale="ja").slash("about")
    assert "バージョン" in answer.response.text


async def test_the_token_never_appears_in_the_log_and_sigterm_stops_cleanly(
    fake_discord, bot_process, users
):
    await users("alice").slash("about")
    assert await bot_process.stop() == 0
    log = bot_process.log
    assert "global commands" in log and "DEBUG discord.gateway" in log  # LOG_LEVEL=DEBUG
    assert fake_discord.state.token not in log
    assert "Traceback" not in log


async def test_missing_token_exits_2_with_one_clear_line(launch_bot):
    bot = await launch_bot(wait=False, DISCORD_TOKEN=None)
    assert await bot.wait_exit() == 2
    assert bot.log.strip().splitlines() == [
        "kamiza: DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
        "in the environment or in .env (see .env.example)"
    ]


async def test_bad_settings_are_named_one_per_line(launch_bot):
    bot = await launch_bot(wait=False, TURN_SECONDS=3, LOG_LEVEL="loud", DEV_GUILD_ID="abc")
    assert await bot.wait_exit() == 2
    lines = bot.log.strip().splitlines()
    assert len(lines) == 3 and "Traceback" not in bot.log
    assert [line.split("=")[0] for line in lines] == [
        "kamiza: DEV_GUILD_ID",
        "kamiza: TURN_SECONDS",
        "kamiza: LOG_LEVEL",
    ]
    assert "greater than or equal to 5" in lines[1]


async def test_a_refused_token_exits_2_without_showing_it(fake_discord, launch_bot):
    token = "MTIzNDU2Nzg5.wrong.token"
    bot = await launch_bot(wait=False, DISCORD_TOKEN=token)
    assert await bot.wait_exit() == 2
    assert "kamiza: Discord refused DISCORD_TOKEN" in bot.log
    assert token not in bot.log and "Traceback" not in bot.log
    assert [str(r) for r in fake_discord.state.requests] == ["GET /api/v10/users/@me -> 401"]


async def test_dev_guild_gets_the_commands_at_once(fake_discord, launch_bot, users):
    state = fake_discord.state
    await launch_bot(DEV_GUILD_ID=state.guild_id)
    assert state.global_commands == []
    assert "about" in [c["name"] for c in state.guild_commands[state.guild_id]]
    answer = await users("alice").slash("about")
    assert answer.payload["data"]["guild_id"] == str(state.guild_id)
    assert answer.response.ephemeral


async def test_kill9_and_restart_on_the_same_database(fake_discord, bot_process, users):
    state = fake_discord.state
    alice = users("alice")
    await alice.slash("about")
    about_id = state.command("about")["id"]
    await bot_process.kill9()
    await state.wait_for(lambda: not state.connected, what="the gateway to notice the crash")
    with pytest.raises(RuntimeError, match="not connected"):
        await alice.slash("about")

    await bot_process.restart()
    assert bot_process.env["DATABASE_URL"].endswith("/ledger.sqlite3")
    assert len(state.identifies) == 2 and len(state.command_overwrites) == 2
    assert state.command("about")["id"] == about_id  # Discord keeps ids on an overwrite
    answer = await alice.slash("about")
    assert answer.response.ephemeral and len(alice.ephemerals()) == 2
