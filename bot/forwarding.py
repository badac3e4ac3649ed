"""A click in a DM for a table another process runs: forwarded to it through PostgreSQL.

Discord sends every direct-message interaction on shard 0, but a table lives in the process
that runs its guild's shard (`bot.runtime.shards`). A member who plays from their DMs
(`bot.tables.delivery`) clicks a hand whose table may be elsewhere. Then the process of shard 0:

1. acknowledges the click at once (a deferred update: Discord's 3 seconds are met, nothing
   shows yet), then
2. sends the click (its interaction as Discord sent it, the token included) by NOTIFY on the
   channel of the table's shard (`table_shard_<n>`, which the owner LISTENs on), and
3. waits a moment for the owner's "taken" notice; without one (the owner is restarting, or no
   process runs that shard) it tells the member to try again in a moment.

The owner rebuilds the interaction, answers "taken", and plays the click through the same
handlers as any other (`Verbs.dispatch`), its answers going through the interaction's token: the
clicked menu is edited (`edit_original_response`) and a private note is a follow-up, for up to
15 minutes after the click. No other service, nothing stored: NOTIFY is not durable, hence the
"taken" notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from typing import Any, Protocol

import discord

from bot.i18n import t
from bot.runtime.manager import TableManager
from bot.runtime.shards import Shards
from bot.runtime.tasks import spawn
from bot.tables import buttons, selects
from bot.tables.replies import lang_of
from data.notify import NoticeNotSent, Notices
from data.store import Ledger


class Host(Protocol):
    """What the forwarding needs of the bot (`KamizaBot`)."""

    _connection: Any  # discord.py's connection state: its parsers, and for new interactions
    tables: TableManager | None
    ledger: Ledger | None
    restored: asyncio.Event  # set once its tables are back from the ledger


log = logging.getLogger(__name__)

TAKEN_SECONDS = 2.0  # how long the process of shard 0 waits for the owner's "taken"
KEPT_CLICKS = 500  # DM clicks kept as Discord sent them, until forwarded or handled here
# The clicked message's parts a handler never reads: left out to fit PostgreSQL's 8000 bytes.
BULKY = {"components": [], "embeds": [], "content": "", "attachments": []}


def channel_of(shard: int) -> str:
    return f"table_shard_{shard}"


class AfterDefer(discord.InteractionResponse[discord.Client]):
    """The response of a click another process already acknowledged (a deferred update): the
    handlers' answers go through the interaction's token instead. Editing the clicked message
    edits the original response; a message is a follow-up."""

    def __init__(self, parent: discord.Interaction[discord.Client]) -> None:
        super().__init__(parent)
        self._answered = False

    def is_done(self) -> bool:
        return self._answered

    @property
    def type(self) -> discord.InteractionResponseType | None:
        return discord.InteractionResponseType.deferred_message_update

    async def defer(self, *args: Any, **kwargs: Any) -> None:
        return None  # deferred already, by the process that received it

    async def edit_message(self, **kwargs: Any) -> None:
        kwargs.pop("delete_after", None)
        await self._parent.edit_original_response(**kwargs)
        self._answered = True

    async def send_message(  # type: ignore[override]
        self, content: Any = None, *, ephemeral: bool = False, **kwargs: Any
    ) -> None:
        kwargs.pop("delete_after", None)
        if content is not None:
            kwargs["content"] = content
        await self._parent.followup.send(ephemeral=ephemeral, **kwargs)
        self._answered = True


def forwarded(interaction: discord.Interaction[Any]) -> bool:
    """Whether this click came from another process (acknowledged there already)."""
    return isinstance(interaction.response, AfterDefer)


class Forwarder:
    """This process's half of the forwarding: sends the DM clicks it cannot play (shard 0),
    and plays the ones sent to its shards."""

    def __init__(self, bot: Host, shards: Shards) -> None:
        self.bot = bot
        self.shards = shards
        self.notices: Notices | None = None
        self._raw: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._taken: dict[str, asyncio.Future[None]] = {}
        self._guilds: dict[int, int] = {}  # game id -> its guild (it never changes)
        self._capture()

    def _capture(self) -> None:
        """Keep each DM click as Discord sent it: what is forwarded is that, not a rebuild."""
        state = self.bot._connection
        parse = state.parsers["INTERACTION_CREATE"]

        def keep_then_parse(data: dict[str, Any]) -> None:
            if self.shards.gets_dms and data.get("type") == 3 and not data.get("guild_id"):
                self._raw[int(data["id"])] = data
                while len(self._raw) > KEPT_CLICKS:
                    self._raw.popitem(last=False)
            parse(data)

        state.parsers["INTERACTION_CREATE"] = keep_then_parse

    async def start(self, url: str) -> None:
        """LISTEN for the clicks sent to this process's shards (and the "taken" answers)."""
        channels = {channel_of(shard): self._received for shard in sorted(self.shards.ids)}
        self.notices = await Notices.open(url, channels)
        log.info("Listening for forwarded clicks on %s", ", ".join(channels))

    async def close(self) -> None:
        notices, self.notices = self.notices, None
        if notices is not None:
            await notices.close()

    # -- the process of shard 0 ------------------------------------------------------------------

    async def forwards(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """True when the click was sent to the process running its table (and is answered
        there, or here with "try again" if that process does not take it)."""
        raw = self._raw.pop(interaction.id, None)
        if raw is None or self.notices is None or forwarded(interaction):
            return False
        tables = self.bot.tables
        if tables is not None and tables.get(game_id) is not None:
            return False  # its table is here
        guild_id = await self._guild_of(game_id)
        if guild_id is None or self.shards.owns(guild_id):
            return False  # no such game, or ours: answered here as always
        try:
            await interaction.response.defer()  # within Discord's 3 s, whatever happens next
        except discord.HTTPException as exc:  # too late already: nobody could answer it now
            log.warning("game %s: a DM click could not be acknowledged (%s)", game_id, exc)
            return True
        owner = self.shards.owner(guild_id)
        ref = secrets.token_hex(8)
        taken = asyncio.get_running_loop().create_future()
        self._taken[ref] = taken
        reply = min(self.shards.ids)
        notice = {"kind": "click", "ref": ref, "reply": reply, "interaction": trimmed(raw)}
        try:
            await self.notices.send(channel_of(owner), notice)
            await asyncio.wait_for(taken, TAKEN_SECONDS)
            log.info("game %s: a DM click forwarded to shard %s", game_id, owner)
        except (TimeoutError, NoticeNotSent) as exc:
            log.warning("game %s: shard %s did not take a DM click (%r)", game_id, owner, exc)
            with contextlib.suppress(discord.HTTPException):
                text = t(lang_of(interaction), "delivery.table_elsewhere")
                await interaction.followup.send(text, ephemeral=True)
        finally:
            self._taken.pop(ref, None)
        return True

    async def _guild_of(self, game_id: int) -> int | None:
        if game_id not in self._guilds:
            ledger = self.bot.ledger
            record = await ledger.get_game(game_id) if ledger is not None else None
            if record is None:
                return None
            self._guilds[game_id] = record.guild_id
        return self._guilds[game_id]

    # -- every process -------------------------------------------------------------------------

    def _received(self, notice: dict[str, Any]) -> None:
        if notice.get("kind") == "taken":
            future = self._taken.get(str(notice.get("ref")))
            if future is not None and not future.done():
                future.set_result(None)
        elif notice.get("kind") == "click":
            spawn(self._play(notice), name="a forwarded DM click")

    async def _play(self, notice: dict[str, Any]) -> None:
        """Take a click sent here: say so, then play it as if it had come on our own shard."""
        assert self.notices is not None
        taken = {"kind": "taken", "ref": notice.get("ref")}
        await self.notices.send(channel_of(int(notice.get("reply") or 0)), taken)
        await self.bot.restored.wait()  # a click sent while this process starts
        interaction: discord.Interaction[discord.Client] = discord.Interaction(
            data=notice["interaction"], state=self.bot._connection
        )
        interaction._cs_response = AfterDefer(interaction)  # type: ignore[attr-defined]
        data: Any = interaction.data or {}
        custom = str(data.get("custom_id", ""))
        if custom.startswith(f"{selects.PREFIX}:"):
            await selects.SELECTS.dispatch(interaction, custom, selects.chosen_values(interaction))
        elif custom.startswith(f"{buttons.PREFIX}:"):
            await buttons.BUTTONS.dispatch(interaction, custom)
        else:
            log.warning("a forwarded click of no table (%r): ignored", custom)


def trimmed(raw: dict[str, Any]) -> dict[str, Any]:
    """The interaction as Discord sent it, without the clicked message's bulk."""
    message = raw.get("message")
    if not isinstance(message, dict):
        return raw
    return {**raw, "message": {**message, **BULKY}}


async def forward_elsewhere(interaction: discord.Interaction[Any], game_id: int) -> bool:
    """The `Verbs` hook: True when the click went to the process running its table."""
    forwarder = getattr(interaction.client, "forwarder", None)
    if not isinstance(forwarder, Forwarder) or interaction.guild_id is not None:
        return False
    return await forwarder.forwards(interaction, game_id)


buttons.BUTTONS.elsewhere(forward_elsewhere)
selects.SELECTS.elsewhere(forward_elsewhere)
