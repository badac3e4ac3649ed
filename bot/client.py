"""The Discord client: loads the cogs, syncs the slash commands, runs until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.call_budget import CallBudget, limit_calls
from bot.click_timings import ClickTimings
from bot.forwarding import Forwarder
from bot.games import registry as games
from bot.i18n import t
from bot.i18n.translator import CatalogueTranslator
from bot.runtime import collector
from bot.runtime.identify_gate import IdentifyGate
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.presenter import Presenter
from bot.runtime.shards import Shards
from bot.runtime.storage import note_storage_failure
from bot.runtime.tasks import spawn
from bot.runtime.thinking import Thinker
from bot.tables import end_buttons, ending
from bot.tables.replies import discord_failed, note_discord_failure, storage_failure_text
from bot.wire_format import use_string_snowflakes
from data.backends import open_ledger
from data.errors import LedgerError, LedgerUnavailable
from data.identify_turns import IdentifyTurns
from data.store import Ledger
from data.urls import redact_url

from .settings import Settings

log = logging.getLogger(__name__)

# How long the event loop's thread may keep the GIL while the ledger's writer thread waits for
# it (Python's default: 5 ms). A durable append hands the GIL to that thread and back a few
# times; with the loop busy, each hand-over cost up to the whole interval, and a click's answer
# waits for its append (issue 20).
SWITCH_INTERVAL = 0.001

# Stopping: how long the bot's task has to end after a cancellation before it is cancelled again.
CANCEL_AGAIN_SECONDS = 0.5

# The cogs, loaded in this order. Each is a package with `async def setup(bot)`; `bot.games`
# adds every registered game's commands and menus (`bot.games.registry`).
EXTENSIONS: tuple[str, ...] = (
    "bot.meta",
    "bot.tables",
    "bot.games",
    "bot.standings",
    "bot.guildsettings",
)


# Slash commands and buttons arrive as interactions, which need no intent; `guilds` keeps the
# guild cache (its language, threads). Message and typing events would only be traffic the bot
# throws away, so even the other default intents are left off. No privileged intent.
GATEWAY_INTENTS = discord.Intents(guilds=True)


class KamizaBot(commands.Bot):
    """Slash commands and buttons only: the `guilds` intent, no privileged intent, no prefix."""

    def __init__(
        self, settings: Settings, *, guild_ready_timeout: float = 2.0, **options: Any
    ) -> None:
        use_string_snowflakes()  # ids as Discord's published schema types them
        # No voice: do not warn that voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=GATEWAY_INTENTS,
            help_command=None,
            guild_ready_timeout=guild_ready_timeout,
            **options,
        )
        self.settings = settings
        self.sharding = (
            Shards.of(settings.shard_count, settings.shards)
            if settings.shard_count is not None
            else Shards.single()
        )
        # Several processes: DM clicks (all on shard 0) reach the table's own process this way.
        self.forwarder = None if self.sharding.whole_bot else Forwarder(self, self.sharding)
        # Processes of one bot take turns to start their shards' sessions (on the shared ledger).
        spacing = settings.identify_spacing_seconds
        turns = None if self.sharding.whole_bot else IdentifyTurns(settings.database_url, spacing)
        self.identify_gate = IdentifyGate(spacing, turns)
        self.restored = asyncio.Event()  # the tables are back: forwarded clicks may be played
        # Every call with the bot token, from every table, spends one budget (`bot.call_budget`).
        # Several processes share the token's budget: each spends its shards' share of it.
        self.call_budget = CallBudget.share(len(self.sharding.ids) / self.sharding.count)
        # The benchmark's measure of the bot's own time per click (`bot.click_timings`).
        path = settings.click_timings_path
        self.click_timings = ClickTimings(Path(path)) if path else None
        self.ledger: Ledger | None = None
        self.presenters: dict[str, Presenter[Any]] = {}  # one per game, from the registry
        self.tables: TableManager | None = None
        self.stopping = False  # a signal came: see `is_closed`
        self.tree.error(self._on_tree_error)

    async def setup_hook(self) -> None:
        # Logged in: discord.py's session exists (interactions name it by its mangled name too).
        session = self.http._HTTPClient__session  # type: ignore[attr-defined]
        limit_calls(session, self.call_budget)
        if self.click_timings is not None:
            self.click_timings.watch(session)
            self.click_timings.start()
        if self.ledger is None:  # `run` opens it before connecting to Discord
            self.ledger = await open_ledger(self.settings.database_url)
        self.tables = TableManager(
            self.ledger,
            self.presenters,
            Defaults(
                turn_seconds=self.settings.turn_seconds,
                lobby_seconds=self.settings.lobby_seconds,
                bot_delay=self.settings.bot_delay_seconds,
                lobbies_per_host=self.settings.lobbies_per_host,
                tables_per_server=self.settings.tables_per_server,
            ),
            self.sharding,
            Thinker(self.settings.ai_workers, self.settings.ai_think_ms),
        )
        self.tables.thinker.start()  # its workers start while the commands sync
        await self.tree.set_translator(CatalogueTranslator())
        # Before any cog reads the list; a game's presenter serves all its tables.
        for spec in games.load((*games.PACKAGES, *self.settings.extra_games)):
            self.presenters[spec.name] = spec.presenter(self)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands", len(synced))
        # What starting made (modules, commands, settings) lives as long as the process: out of
        # the collector's sight. Before the tables come back: a table ends, and its cycles must
        # stay collectable.
        collector.settled()
        lobbies, tables = await self.tables.restore()
        log.info("Restored %d lobbies and %d tables from the ledger", lobbies, tables)
        self.restored.set()
        spawn(self._resume_endings(self.ledger), name="resume the ends of games")

    async def _resume_endings(self, ledger: Ledger) -> None:
        """Once the guilds (and their languages) are known: the rematch offers and the thread
        archives that a restart interrupted."""
        await self.wait_until_ready()
        try:
            owns = self.sharding.owns
            offers = await end_buttons.resume_offers(self, ledger, owns)
            archives = await ending.resume_archives(self, ledger, owns)
        except Exception as exc:
            if self.is_closed() or self.ledger is None:  # shut down meanwhile: nothing lost
                log.warning("the ends of games were not resumed: shutting down (%r)", exc)
                return
            raise
        log.info("Resumed %d rematch offers and %d thread archives", offers, archives)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py dispatches "interaction" as it parses the gateway event: the click arrived.
        if event_name == "interaction" and self.click_timings is not None:
            self.click_timings.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        await self.identify_gate.wait_turn(shard_id)

    def is_closed(self) -> bool:
        # Once stopping, discord.py's reconnect loops end at their next look (they ask this
        # before each attempt and after each failure), whether or not the stop's cancellation
        # reached them: see `_start_until_stopped`.
        return self.stopping or super().is_closed()

    async def close(self) -> None:
        await self.identify_gate.close()
        if self.click_timings is not None:
            await self.click_timings.close()
        if self.forwarder is not None:
            await self.forwarder.close()
        if self.tables is not None:
            await self.tables.shutdown()
        await super().close()
        ledger, self.ledger = self.ledger, None
        if ledger is not None:
            await ledger.close()

    async def on_ready(self) -> None:
        user = self.user  # set before discord.py dispatches READY
        log.info("Logged in as %s (%s) in %d guilds", user, user and user.id, len(self.guilds))

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Log an unexpected error and tell the user privately; never leave them waiting."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if discord_failed(cause):
            name = interaction.command.qualified_name if interaction.command else "?"
            note_discord_failure(cause, f"the answer to /{name}")
            return  # its token is dead or Discord is down: nothing more to send
        if isinstance(error, app_commands.CheckFailure):
            text = t(interaction.locale, "commands.check_failed")
        elif isinstance(cause, LedgerUnavailable):  # the disk full: nothing was changed
            note_storage_failure(cause, "a command")
            text = storage_failure_text(interaction.locale, cause)
        else:
            name = interaction.command.qualified_name if interaction.command else "?"
            log.error("Command /%s failed", name, exc_info=error)
            text = t(interaction.locale, "commands.failed")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


class ShardedKamizaBot(KamizaBot, commands.AutoShardedBot):
    """The bot as shards (`SHARD_COUNT`), this process running `SHARD_IDS` of them: one gateway
    connection each, the guilds of those shards, their tables (README "Growing past one
    process")."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        assert settings.shard_count is not None  # `make_bot` picks this class only then
        super().__init__(
            settings, shard_count=settings.shard_count, shard_ids=list(settings.shards), **options
        )


def make_bot(settings: Settings) -> KamizaBot:
    """The bot these settings ask for: sharded when SHARD_COUNT is set, else one connection."""
    return ShardedKamizaBot(settings) if settings.sharded else KamizaBot(settings)


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at a Discord-compatible REST API and gateway (a proxy, a fake)."""
    if api_base:
        discord.http.Route.BASE = api_base
        log.info("REST API at %s", redact_url(api_base))
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        log.info("Gateway at %s", redact_url(gateway_url))


async def _start_until_stopped(bot: KamizaBot, token: str) -> None:
    """Run the bot until it fails or SIGINT/SIGTERM arrives; then it closes cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows
            loop.add_signal_handler(sig, stop.set)
    running = asyncio.create_task(bot.start(token))
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if running.done():
        await running  # raises what made the bot stop, if anything
        return
    bot.stopping = True  # a signal: cancel as discord.py's own run() does, then close
    await _cancel(running)
    await bot.close()


async def _cancel(running: asyncio.Task[None]) -> None:
    """Cancel the bot's task and wait for its end, cancelling again while it goes on.

    Python 3.11's `asyncio.wait_for` (around discord.py's gateway connect) drops a cancellation
    that arrives in the loop turn its connect fails in (fixed in 3.12): discord.py then sees only
    the connection error and reconnects. With Discord gone that failure is immediate: a SIGTERM
    was ignored that way, the process reconnecting until killed. `bot.stopping` ends that loop
    quietly; cancelling again covers any other await that drops a cancellation."""
    while not running.done():
        running.cancel()
        await asyncio.wait({running}, timeout=CANCEL_AGAIN_SECONDS)
    with contextlib.suppress(asyncio.CancelledError):
        await running  # raises what the bot failed with meanwhile, if anything


async def _run(settings: Settings) -> int:
    bot = make_bot(settings)
    # The ledger before Discord: a file that cannot be a ledger fails fast, with no network.
    # From here on the bot owns it: leaving `async with bot` closes it.
    try:
        bot.ledger = await open_ledger(settings.database_url, exclusive=True)  # one bot a file
        if bot.forwarder is not None:  # LISTEN from the start: no forwarded click is missed
            await bot.forwarder.start(settings.database_url)
    except LedgerError as exc:
        if bot.ledger is not None:
            await bot.ledger.close()
        print(f"kamiza: {exc}", file=sys.stderr)
        return 2
    use_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    try:
        async with bot:
            await _start_until_stopped(bot, settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        print(
            "kamiza: Discord refused DISCORD_TOKEN (401 Unauthorized): copy the bot token "
            "again from the developer portal (Bot -> Reset Token)",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("kamiza: Discord refused the gateway intents the bot asked for", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        where = redact_url(settings.discord_api_base) if settings.discord_api_base else "Discord"
        print(f"kamiza: cannot reach {where}: {exc.__class__.__name__}", file=sys.stderr)
        return 1
    log.info("Stopped")
    return 0


def run(settings: Settings) -> int:
    """Run the bot until it is stopped (SIGINT/SIGTERM); return the process exit status."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    collector.collect_less()
    return asyncio.run(_run(settings))
