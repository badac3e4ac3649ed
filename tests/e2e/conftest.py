"""Fixtures for end-to-end tests: the fake Discord server, the real bot process, scripted users.

    async def test_about(bot_process, users):
        alice = users("alice", locale="ja")
        answer = await alice.slash("about")

`bot_process` is a `BotProcess` already logged in, with its commands registered: `kill9()`,
`restart()` (same database), `stop()`, `log`. `launch_bot(**settings)` starts one with other
settings (`TURN_SECONDS=5`, `DEV_GUILD_ID=...`, `DISCORD_TOKEN=None` to leave one out).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from bot_process import BotProcess, bot_env
from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord on 127.0.0.1 (a free port) for this test.

    The test errors at teardown if the bot called a route the fake does not know: the fake would
    have answered 404 where Discord answers something else (clear `state.unknown_routes` in a
    test that means to call one).
    """
    async with FakeDiscord() as fake:
        yield fake
    unknown = sorted({f"{r.method} {r.path}" for r in fake.state.unknown_routes})
    assert not unknown, f"the bot called routes the fake does not serve: {unknown}"
    problems = fake.state.schema_problems
    assert not problems, f"ids sent as numbers, not Discord's snowflake strings: {problems[:5]}"


LaunchBot = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def launch_bot(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[LaunchBot]:
    """`await launch_bot(wait=True, **settings)`: a new bot process with a fresh database."""
    started: list[BotProcess] = []

    async def launch(wait: bool = True, **settings: str | int | None) -> BotProcess:
        workdir = tmp_path / f"bot{len(started)}"
        bot = BotProcess(fake_discord, workdir, bot_env(fake_discord, workdir, **settings))
        started.append(bot)
        return await bot.start(wait=wait)

    yield launch
    for bot in started:
        await bot.kill9()


@pytest.fixture
async def bot_process(launch_bot: LaunchBot) -> BotProcess:
    """The bot, logged in to the fake, its commands registered."""
    return await launch_bot()


@pytest.fixture
def users(fake_discord: FakeDiscord) -> Callable[..., FakeUser]:
    """`users("alice", locale="ja", manage_guild=True)`: a new member of the guild."""

    def make(name: str, *, locale: str = "en-US", manage_guild: bool = False) -> FakeUser:
        state = fake_discord.state
        return FakeUser(state, state.add_user(name, locale=locale, manage_guild=manage_guild))

    return make
