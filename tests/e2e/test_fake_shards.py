"""The fake Discord shards as Discord does: IDENTIFY with `shard`, a guild's events only on its
shard's connection, direct messages on shard 0 only. Driven by real discord.py clients here."""

from __future__ import annotations

import discord
import pytest
import yarl
from discord import app_commands
from fakediscord import FakeDiscord, FakeUser
from test_fake_discord import InProcessBot

pytestmark = pytest.mark.e2e


@pytest.fixture
def endpoints(fake_discord, monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake_discord.gateway_url)
    )


class ShardProcess(InProcessBot):
    """What one bot process holds: an AutoShardedClient running some of the shards."""

    def __init__(self, fake: FakeDiscord, count: int, ids: list[int]) -> None:
        super().__init__(fake)
        self.client = discord.AutoShardedClient(
            intents=discord.Intents(guilds=True, dm_messages=True),
            shard_count=count,
            shard_ids=ids,
            guild_ready_timeout=0.05,
        )
        self.tree = app_commands.CommandTree(self.client)
        self.client.before_identify_hook = self._no_wait  # type: ignore[method-assign]
        self.interactions: list[discord.Interaction] = []
        self.client.event(self.on_interaction)

    async def _no_wait(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # the fake does not limit IDENTIFY: no 5 s between shards here

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction)
        await interaction.response.send_message("ok", ephemeral=True)


@pytest.fixture
async def processes(fake_discord, endpoints):
    started: list[ShardProcess] = []

    def make(count: int, ids: list[int]) -> ShardProcess:
        started.append(ShardProcess(fake_discord, count, ids))
        return started[-1]

    yield make
    for process in started:
        await process.close()


async def test_each_shard_gets_its_own_guilds_and_shard_0_the_dms(fake_discord, processes):
    state = fake_discord.state
    state.shard_count = 4
    guilds = {shard: state.add_guild(f"server {shard}", shard=(shard, 4)) for shard in range(4)}
    first, second = processes(4, [0, 1]), processes(4, [2, 3])
    one = await first.connect()
    two = await second.connect()

    assert sorted(tuple(i.shard or ()) for i in state.identifies) == [
        (0, 4),
        (1, 4),
        (2, 4),
        (3, 4),
    ]
    assert state.connected_shards() == {0, 1, 2, 3}
    assert {g.id for g in one.guilds} == {
        g for g in state.guild_names if state.shard_of(g, 4) in (0, 1)
    }
    assert {g.id for g in two.guilds} == {
        g for g in state.guild_names if state.shard_of(g, 4) in (2, 3)
    }
    assert guilds[2] in {g.id for g in two.guilds} and guilds[2] not in {g.id for g in one.guilds}
    assert one.get_guild(guilds[1]).shard_id == 1 and two.get_guild(guilds[3]).shard_id == 3

    alice = FakeUser(state, state.add_user("alice"))
    # A guild's click reaches the process running its shard, and no other.
    channel = state.channel_named("games", guilds[3])
    data = {"custom_id": "x:1", "component_type": 2}
    message = state.post(channel, state.bot, content="a button")
    click = state.new_interaction(3, alice.user, channel, "x:1", data, message)
    state.dispatch("INTERACTION_CREATE", click.payload)
    await state.wait_for(lambda: click.answered, what="the click on shard 3")
    assert [i.id for i in second.interactions] == [click.id] and first.interactions == []

    # A direct message's click reaches shard 0 only.
    dm = state.dm_channel(alice.user)
    assert dm is not None
    dm_message = state.post(dm, state.bot, content="a hand")
    dm_click = state.new_interaction(3, alice.user, dm, "x:2", data, dm_message)
    state.dispatch("INTERACTION_CREATE", dm_click.payload)
    await state.wait_for(lambda: dm_click.answered, what="the DM click")
    assert [i.id for i in first.interactions] == [dm_click.id]
    assert first.interactions[0].guild_id is None


async def test_a_guild_of_a_shard_nobody_runs_gets_no_events(fake_discord, processes):
    state = fake_discord.state
    lonely = state.add_guild("nobody's", shard=(1, 2))
    first = processes(2, [0])
    client = await first.connect()
    assert lonely not in {g.id for g in client.guilds}
    channel = state.channel_named("general", lonely)
    state.post(channel, state.bot, content="into the void")
    assert "MESSAGE_CREATE" in state.dropped_events
