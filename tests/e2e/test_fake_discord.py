"""Tests of the fake Discord itself, driven by a real discord.py client in this process."""

from __future__ import annotations

import asyncio
import contextlib
import io

import discord
import pytest
import yarl
from discord import app_commands
from fakediscord import FakeDiscord, SlashError
from fakediscord.state import CREATE_PRIVATE_THREADS, MANAGE_GUILD

from bot.wire_format import use_string_snowflakes

pytestmark = pytest.mark.e2e


class InProcessBot:
    """A bare discord.py client with a command tree, pointed at the fake."""

    def __init__(self, fake: FakeDiscord, intents: discord.Intents | None = None) -> None:
        self.fake = fake
        use_string_snowflakes()  # ids as the bot sends them (the fake checks every request)
        intents = intents or discord.Intents.default()
        self.client = discord.Client(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self.client)
        self._task: asyncio.Task | None = None

    async def connect(self) -> discord.Client:
        await self.client.login(self.fake.state.token)
        await self.tree.sync()
        self._task = asyncio.create_task(self.client.connect(reconnect=False))
        await self.fake.state.wait_for(lambda: self.fake.state.connected, what="the client")
        await asyncio.wait_for(self.client.wait_until_ready(), 5)
        return self.client

    async def close(self) -> None:
        await self.client.close()
        if self._task is not None:
            with contextlib.suppress(discord.ConnectionClosed):
                await asyncio.wait_for(self._task, 5)


@pytest.fixture
def endpoints(fake_discord, monkeypatch):
    """discord.py in this process talks to the fake (what DISCORD_API_BASE/..._URL do)."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake_discord.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake_discord.gateway_url)
    )


@pytest.fixture
async def bot(fake_discord, endpoints):
    bot = InProcessBot(fake_discord)
    yield bot
    await bot.close()


async def test_gateway_handshake_and_guild(fake_discord, bot):
    client = await bot.connect()
    state = fake_discord.state
    assert [i.intents for i in state.identifies] == [discord.Intents.default().value]
    assert client.user.id == state.bot.id
    guild = client.get_guild(state.guild_id)
    assert guild is not None and guild.me is not None
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    perms = guild.text_channels[0].permissions_for(guild.me)
    assert perms.send_messages and perms.create_public_threads and not perms.manage_guild
    assert client.latency < 1  # the first heartbeat was acknowledged


async def test_a_wrong_token_is_refused(fake_discord, bot):
    with pytest.raises(discord.LoginFailure):
        await bot.client.login("not-the-token")
    assert [str(r) for r in fake_discord.state.requests] == ["GET /api/v10/users/@me -> 401"]


async def test_privileged_intents_are_refused(fake_discord, endpoints):
    bot = InProcessBot(fake_discord, discord.Intents.default() | discord.Intents(members=True))
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await bot.client.login(fake_discord.state.token)
        await bot.client.connect()
    await bot.close()


async def test_unknown_route_answers_404_and_is_recorded(fake_discord, bot):
    client = await bot.connect()
    route = discord.http.Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=1)
    with pytest.raises(discord.NotFound) as caught:
        await client.http.request(route)
    assert caught.value.text == "404: Not Found"
    assert [str(r) for r in fake_discord.state.unknown_routes] == [
        "GET /api/v10/guilds/1/audit-logs -> 404"
    ]
    fake_discord.state.unknown_routes.clear()  # else the fixture fails the test


async def test_429_is_retried_after_retry_after(fake_discord, bot):
    client = await bot.connect()
    state = fake_discord.state
    state.inject_fault("GET /channels/{channel_id}", 429, retry_after=0.05)
    channel = await client.fetch_channel(state.general.id)
    assert channel.name == "general"
    assert [r.status for r in state.requests_to("GET /channels/{channel_id}")] == [429, 200]


async def test_500_is_retried(fake_discord, bot):
    client = await bot.connect()
    state = fake_discord.state
    state.inject_fault("POST /channels/{channel_id}/messages", 500)
    await client.get_channel(state.general.id).send("hello")
    assert [r.status for r in state.requests_to("POST /channels/{channel_id}/messages")] == [
        500,
        200,
    ]
    assert [m.content for m in state.channel_messages(state.general)] == ["hello"]


async def test_closed_dms_fail_with_50007(fake_discord, bot, users):
    client = await bot.connect()
    alice, bob = users("alice"), users("bob")
    alice.dms_open = False
    with pytest.raises(discord.Forbidden) as caught:
        await (await client.fetch_user(alice.id)).send("your hand")
    assert caught.value.code == 50007
    view = discord.ui.View(timeout=None)
    button = discord.ui.Button(label="Ready", custom_id="dm:ready")
    clicks: list[tuple[bool, int]] = []

    async def ready(interaction: discord.Interaction) -> None:
        clicks.append((interaction.guild is None, interaction.user.id))
        await interaction.response.send_message("noted")

    button.callback = ready
    view.add_item(button)
    await (await client.fetch_user(bob.id)).send("your hand", view=view)
    assert [m.content for m in bob.dms()] == ["your hand"]
    assert alice.dms() == [] and bob.visible_messages(fake_discord.state.general) == []
    answer = await bob.click(bob.dms()[0], "Ready")
    assert clicks == [(True, bob.id)] and answer.response in bob.dms()


async def test_modals_open_and_submit(fake_discord, bot, users):
    class Name(discord.ui.Modal, title="Name the table"):
        name = discord.ui.TextInput(label="Name", custom_id="table:name")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"table {self.name.value}", ephemeral=True)

    @bot.tree.command(description="Name a table")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Name())

    await bot.connect()
    alice = users("alice")
    opened = await alice.slash("name")
    assert opened.callback_type == 9 and opened.modal["title"] == "Name the table"
    submitted = await alice.submit(opened, {"table:name": "Kabukicho"})
    assert submitted.response.text == "table Kabukicho" and submitted.response.ephemeral


class Hand(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.played: list[str] = []

    @discord.ui.button(label="Play", custom_id="hand:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.played.append("button")
        await interaction.response.edit_message(content="played", view=None)

    @discord.ui.select(
        custom_id="hand:card", options=[discord.SelectOption(label=c) for c in "ABC"]
    )
    async def card(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.played.append(select.values[0])
        await interaction.response.send_message(f"you chose {select.values[0]}", ephemeral=True)


async def test_ephemeral_messages_and_their_components_belong_to_one_user(fake_discord, bot, users):
    views: list[Hand] = []

    @bot.tree.command(description="Show your hand")
    async def hand(interaction: discord.Interaction) -> None:
        views.append(Hand())
        await interaction.response.send_message("your hand", view=views[-1], ephemeral=True)

    await bot.connect()
    alice, bob = users("alice", locale="ja"), users("bob")
    shown = (await alice.slash("hand")).response
    assert shown.ephemeral and alice.ephemerals() == [shown]
    assert bob.ephemerals() == [] and shown not in bob.visible_messages()
    with pytest.raises(SlashError):
        await bob.click(shown, "Play")

    chosen = await alice.select(shown, "hand:card", ["B"])
    assert chosen.response.text == "you chose B" and chosen.response.ephemeral
    clicked = await alice.click(shown, "Play")
    assert clicked.callback_type == 7 and clicked.response is shown
    assert shown.content == "played" and shown.components == []
    assert views[0].played == ["B", "button"]
    assert all(i.elapsed < 3 for i in fake_discord.state.interactions)


async def test_slash_commands_are_checked_against_the_registered_ones(fake_discord, bot, users):
    game = app_commands.Group(name="game", description="A game")

    @game.command(description="Start a table")
    @app_commands.choices(edition=[app_commands.Choice(name=e, value=e) for e in ("a", "b")])
    async def start(interaction: discord.Interaction, edition: str, seats: int = 4) -> None:
        await interaction.response.send_message(f"{edition} {seats} {interaction.locale}")

    @bot.tree.command(description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def season(interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await interaction.response.send_message(f"manage_guild={perms.manage_guild}")

    bot.tree.add_command(game)
    await bot.connect()
    alice, admin = users("alice", locale="ja"), users("admin", manage_guild=True)
    assert fake_discord.state.command("season")["default_member_permissions"] == str(MANAGE_GUILD)

    answer = await alice.slash("game", "start", edition="b", seats=3)
    assert answer.response.content == "b 3 ja" and not answer.response.ephemeral
    assert alice.visible_messages(fake_discord.state.general) == [answer.response]
    for names, options in [
        (("game",), {}),
        (("game", "start"), {}),
        (("game", "start"), {"edition": "c"}),
        (("game", "start"), {"edition": "a", "colour": "red"}),
        (("game", "start"), {"edition": "a", "seats": "3"}),
        (("season",), {}),
    ]:
        with pytest.raises(SlashError):
            await alice.slash(*names, **options)
    answer = await admin.slash("season")
    assert answer.response.content == "manage_guild=True"


async def test_deferred_answer_and_follow_ups(fake_discord, bot, users):
    @bot.tree.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking", ephemeral=True)
        await interaction.followup.send("everyone sees this")

    await bot.connect()
    alice, bob = users("alice"), users("bob")
    answer = await alice.slash("slow")
    assert answer.callback_type == 5
    public = await bob.wait_for_message(lambda m: m.text == "everyone sees this")
    assert answer.response.text == "done thinking" and not answer.response.loading
    assert answer.response.ephemeral and answer.followups == [public]


async def test_a_token_touches_only_its_own_messages_and_only_for_its_life(
    fake_discord, bot, users
):
    """Discord: an interaction's token edits and deletes the follow-ups it posted (and its
    original response); any other message, or anything after its 15 minutes, is 10008 or 10015."""
    outcomes: dict[str, object] = {}

    @bot.tree.command(description="Post, then touch messages")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posted")
        mine = await interaction.followup.send("mine", wait=True)
        await interaction.followup.edit_message(mine.id, content="mine, edited")
        other = await interaction.channel.send("the bot token's")
        for name, call in (
            ("other", interaction.followup.edit_message(other.id, content="x")),
            ("late", _late(fake_discord, interaction, mine.id)),
        ):
            try:
                await call
                outcomes[name] = "done"
            except discord.HTTPException as exc:
                outcomes[name] = exc.code

    await bot.connect()
    await users("alice").slash("post")
    await fake_discord.state.wait_for(lambda: len(outcomes) == 2, 5, "both outcomes")
    assert outcomes == {"other": 10008, "late": 10015}
    texts = [m.text for m in fake_discord.state.messages.values()]
    assert "mine, edited" in texts and "x" not in texts


async def _late(fake_discord, interaction: discord.Interaction, message_id: int) -> None:
    fake_discord.state.token_life = 0.0  # as 15 minutes after the interaction
    await interaction.followup.delete_message(message_id)


async def test_an_answer_after_the_deadline_fails_the_interaction(fake_discord, bot, users):
    @bot.tree.command(description="Too slow")
    async def sleepy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("late")

    await bot.connect()
    fake_discord.state.interaction_deadline = 0.1
    with pytest.raises(AssertionError, match="did not answer /sleepy"):
        await users("alice").slash("sleepy")


async def test_threads_and_attachments(fake_discord, bot, users):
    client = await bot.connect()
    state = fake_discord.state
    alice, bob = users("alice"), users("bob")
    general = client.get_channel(state.general.id)
    table = await general.send("table")
    public = await table.create_thread(name="game 1")
    with pytest.raises(discord.Forbidden):  # not among the permissions the README asks for
        await general.create_thread(name="secret", type=discord.ChannelType.private_thread)
    state.bot_permissions |= CREATE_PRIVATE_THREADS
    private = await general.create_thread(name="secret", type=discord.ChannelType.private_thread)
    await private.add_user(discord.Object(alice.id))
    await fake_discord.state.wait_for(lambda: len(client.get_guild(state.guild_id).threads) == 2)
    assert public.id == table.id
    await public.send("round 1", file=discord.File(io.BytesIO(b"PNG..."), "grid.png"))
    sent = await private.send("psst")

    thread = state.channels[public.id]
    assert [m.text for m in bob.visible_messages(thread)] == ["round 1"]
    attachment = bob.visible_messages(thread)[0].attachments[0]
    assert (attachment.filename, attachment.content) == ("grid.png", b"PNG...")
    assert [m.text for m in alice.visible_messages(state.channels[private.id])] == ["psst"]
    assert bob.visible_messages(state.channels[private.id]) == []

    fetched = await private.fetch_message(sent.id)
    assert fetched.content == "psst" and fetched.author.id == state.bot.id
    assert [m.content async for m in general.history(limit=5)] == ["table"]

    edited = await sent.edit(content="psst!", attachments=[discord.File(io.BytesIO(b"x"), "a.txt")])
    assert edited.attachments[0].filename == "a.txt" and state.messages[sent.id].edits == 1
    await sent.delete()
    assert alice.visible_messages(state.channels[private.id]) == []


async def test_messages_are_validated_like_discord(fake_discord, bot):
    client = await bot.connect()
    channel = client.get_channel(fake_discord.state.general.id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("too long an id", view=view)
    assert caught.value.code == 50035
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.code == 50035
    assert fake_discord.state.channel_messages(fake_discord.state.general) == []


def _layout(*children: discord.ui.Item) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    for child in children:
        view.add_item(child)
    return view


async def test_components_v2_messages_are_stored_and_checked_like_discord(fake_discord, bot):
    client = await bot.connect()
    state = fake_discord.state
    channel = client.get_channel(state.general.id)
    seat = discord.ui.Section(
        discord.ui.TextDisplay("**Alice** · to play"),
        accessory=discord.ui.Button(label="Kick", custom_id="v2:kick"),
    )
    row = discord.ui.ActionRow(discord.ui.Button(label="Your hand", custom_id="v2:hand"))
    board = discord.ui.Container(
        discord.ui.TextDisplay("## Round 1"),
        seat,
        discord.ui.Separator(),
        discord.ui.MediaGallery(discord.MediaGalleryItem("https://example.com/board.png")),
        row,
        accent_colour=discord.Colour.dark_red(),
    )
    sent = await channel.send(view=_layout(board))
    stored = state.messages[sent.id]
    assert stored.flags & (1 << 15) and not stored.content and not stored.embeds
    assert "Round 1" in stored.text and "**Alice** · to play" in stored.text
    assert [b["custom_id"] for b in stored.buttons()] == ["v2:kick", "v2:hand"]

    route = discord.http.Route("POST", "/channels/{c}/messages", c=state.general.id)
    text = {"type": 10, "content": "x"}
    bad = {
        "content with the flag": {"flags": 1 << 15, "content": "hi", "components": [text]},
        "a layout without the flag": {"components": [text]},
        "41 components": {"flags": 1 << 15, "components": [text] * 41},
        "4,001 characters": {
            "flags": 1 << 15,
            "components": [
                {"type": 10, "content": "x" * 2001},
                {"type": 10, "content": "y" * 2000},
            ],
        },
        "a section without accessory": {
            "flags": 1 << 15,
            "components": [{"type": 9, "components": [text]}],
        },
        "four texts in a section": {
            "flags": 1 << 15,
            "components": [
                {
                    "type": 9,
                    "components": [text] * 4,
                    "accessory": {"type": 11, "media": {"url": "https://example.com/a.png"}},
                }
            ],
        },
        "a container in a container": {
            "flags": 1 << 15,
            "components": [{"type": 17, "components": [{"type": 17, "components": [text]}]}],
        },
        "an empty gallery": {"flags": 1 << 15, "components": [{"type": 12, "items": []}]},
    }
    for what, payload in bad.items():
        with pytest.raises(discord.HTTPException) as caught:
            await client.http.request(route, json=payload)
        assert caught.value.code == 50035, what
    assert [m.id for m in state.channel_messages(state.general)] == [sent.id]

    # the flag stays: an edit may not drop it, nor add it to a message sent without it
    edit = discord.http.Route("PATCH", "/channels/{c}/messages/{m}", c=state.general.id, m=sent.id)
    with pytest.raises(discord.HTTPException) as caught:
        await client.http.request(edit, json={"flags": 0, "content": "plain again"})
    assert caught.value.code == 50035
    plain = await channel.send("plain")
    with pytest.raises(discord.HTTPException):
        await plain.edit(view=_layout(discord.ui.TextDisplay("now v2")))
    assert state.messages[plain.id].content == "plain"
    edited = await sent.edit(view=_layout(discord.ui.TextDisplay("Round 1 is over")))
    assert "Round 1 is over" in state.messages[edited.id].text


async def test_only_a_new_messages_allowed_content_mentions_notify(fake_discord, bot, users):
    """Discord's notifications: the user mentions in a created message's content that its
    allowed_mentions let through; never an embed's, never an edit's, never an ephemeral's."""
    client = await bot.connect()
    alice, bob = users("alice"), users("bob")
    channel = client.get_channel(fake_discord.state.general.id)
    both = f"{alice.mention} {bob.mention}"
    only_alice = discord.AllowedMentions(users=[discord.Object(alice.id)])
    every = await channel.send(both)
    one = await channel.send(both, allowed_mentions=only_alice)
    none = await channel.send(both, allowed_mentions=discord.AllowedMentions.none())
    embedded = await channel.send(embed=discord.Embed(description=both))
    edited = await channel.send("soon")
    await edited.edit(content=both)
    silent = await channel.send(both, silent=True)
    state = fake_discord.state
    notified = {m.id: m.notified for m in state.channel_messages(state.general)}
    assert notified == {
        every.id: {alice.id, bob.id},
        one.id: {alice.id},
        none.id: set(),
        embedded.id: set(),
        edited.id: set(),
        silent.id: set(),
    }
    assert [v.content for v in state.messages[edited.id].versions] == ["soon", both]

    @bot.tree.command(description="Answer privately, mentioning")
    async def hush(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(both, ephemeral=True)
        await interaction.followup.send(both, allowed_mentions=only_alice)

    await bot.tree.sync()
    answer = await bob.slash("hush")
    [followup] = await state.wait_for(lambda: answer.followups, 5, "the follow-up")
    assert answer.response.notified == set() and followup.notified == {alice.id}
