"""Which way a lobby or table speaks: through the token of the click that caused the change,
or through the bot token.

Discord allows a bot 50 calls a second with its token, all tables together; an interaction's
follow-ups (`/webhooks/{application_id}/{token}`) are exempt, and its token lives 15 minutes.
So what a click causes in the table's channel (the table refreshed, the next turn's ping, the
reveal, the next round's table, the final standings) goes as the click's follow-ups: a
non-ephemeral follow-up is a new message in the channel, and its content's mentions notify as a
bot-token message's do. A message posted through a token is edited and deleted through that
token while it lives; the message a click was on (the lobby, under Join or Start) through
that click's original response. The computer moves and timeouts that follow within the token's
life use the latest click's token too; with none alive (or when Discord refuses it), the bot
token.

This module is the one place that decides (`Voice`): the presenters post, edit and delete
through it and never ask which way. Nothing here changes what a message says or who may see
it: a public message stays public, a private menu stays the click's own ephemeral answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from bot.runtime.lobby import Lobby
from bot.runtime.memory import Slot
from bot.runtime.table import Table
from bot.tables import followups

log = logging.getLogger(__name__)

# Discord's 15 minutes for a token, less a margin for a call still on its way.
TOKEN_LIFE: Final = 14 * 60.0
# How long a follow-up waits for its click's own answer (Discord takes no follow-up before it).
ANSWER_WAIT: Final = 3.0
# What a webhook message accepts of a channel message's fields (anything else: the bot token).
POST_FIELDS: Final = frozenset(
    {"content", "embed", "embeds", "file", "files", "view", "allowed_mentions"}
)
EDIT_FIELDS: Final = frozenset({"content", "embed", "embeds", "attachments", "view"})
UNKNOWN_MESSAGE: Final = 10008


@dataclass(eq=False)
class Click:
    """A click's token, usable in `channel_id` until `until` (loop time), once answered;
    `on_message`: the message it was clicked on (a public one: its answer may edit it)."""

    interaction: discord.Interaction
    channel_id: int
    until: float
    on_message: int | None
    answered: asyncio.Future[bool] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    refused: bool = False  # Discord refused its token once: the bot token from then on

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Click:
        until = asyncio.get_running_loop().time() + TOKEN_LIFE
        message = interaction.message
        on_message = message.id if message is not None and not message.flags.ephemeral else None
        return cls(interaction, interaction.channel_id or 0, until, on_message)

    def settle(self, answered: bool) -> None:
        """The click's own answer went (its token now takes follow-ups), or failed (never use
        it: the token may be dead)."""
        if not self.answered.done():
            self.answered.set_result(answered)

    def alive(self) -> bool:
        if self.refused or (self.answered.done() and not self.answered.result()):
            return False
        return asyncio.get_running_loop().time() < self.until

    async def ready(self) -> bool:
        """True once the click was answered (follow-ups may go) and its token still lives."""
        if not self.alive():
            return False
        if self.answered.done():  # the common case: no timer, no shield, no task
            return self.answered.result()
        try:
            return await asyncio.wait_for(asyncio.shield(self.answered), ANSWER_WAIT)
        except TimeoutError:
            return False

    async def send(self, **kwargs: Any) -> int:
        return await followups.post(self.interaction.followup, **kwargs)

    async def edit(self, message_id: int, **kwargs: Any) -> None:
        if message_id == self.on_message:  # the message clicked on: its original response
            await self.interaction.edit_original_response(**kwargs)
        else:
            await followups.edit(self.interaction.followup, message_id, **kwargs)

    async def delete(self, message_id: int) -> None:
        if message_id == self.on_message:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(message_id)


Item = Lobby | Table[Any]
# The latest click that changed the lobby or table, and the click whose token posted a message.
CAUSE: Slot[Click | None] = Slot("cause", lambda: None)
POSTED_BY: Slot[dict[int, Click]] = Slot("posted by", dict)


def heard(item: Item, interaction: discord.Interaction) -> Click | None:
    """Keep `interaction` as the item's latest cause if it happened in the item's channel (a
    click in a DM would speak in the DM)."""
    if interaction.channel_id != item.place.home:
        return None
    click = Click.of(interaction)
    item.memory.set(CAUSE, click)
    return click


@contextlib.contextmanager
def riding(item: Item, interaction: discord.Interaction) -> Iterator[None]:
    """What `item` says next rides on `interaction`, once the block has answered it."""
    click = heard(item, interaction)
    try:
        yield
    finally:
        if click is not None:
            click.settle(interaction.response.is_done())


class Voice:
    """Posting, editing and deleting a lobby's or table's public messages, each the cheapest
    way Discord allows (see the module's docstring). Failures raise `discord.HTTPException`
    as the bot token's calls do; a refused token falls back to the bot token first."""

    def __init__(self, item: Item, channel: discord.PartialMessageable) -> None:
        self.item = item
        self.channel = channel

    async def send(self, kept: bool = False, **kwargs: Any) -> int:
        """Post a message; its id. A `kept` message (one to edit or delete later) remembers
        the click whose token posted it."""
        click = await self._cause()
        if click is not None and kwargs.keys() <= POST_FIELDS:
            try:
                message_id = await click.send(**kwargs)
            except discord.HTTPException as exc:
                self._refused(click, "a follow-up", exc)
            else:
                if kept:
                    self.item.memory.get(POSTED_BY)[message_id] = click
                return message_id
        return (await self.channel.send(**kwargs)).id

    async def edit(self, message_id: int, **kwargs: Any) -> None:
        click = await self._through(message_id)
        if click is not None and kwargs.keys() <= EDIT_FIELDS:
            try:
                await click.edit(message_id, **kwargs)
                return
            except discord.HTTPException as exc:
                if exc.code == UNKNOWN_MESSAGE:  # the message is gone, not the token
                    raise
                self._refused(click, "a follow-up's edit", exc)
        await self.channel.get_partial_message(message_id).edit(**kwargs)

    async def delete(self, message_id: int) -> None:
        click = await self._through(message_id)
        self.forget(message_id)
        if click is not None:
            try:
                await click.delete(message_id)
                return
            except discord.HTTPException as exc:
                if exc.code == UNKNOWN_MESSAGE:
                    raise
                self._refused(click, "a follow-up's deletion", exc)
        await self.channel.get_partial_message(message_id).delete()

    def forget(self, message_id: int) -> None:
        """The message has had its last edit: its token is no longer needed for it."""
        self.item.memory.get(POSTED_BY).pop(message_id, None)

    def _refused(self, click: Click, what: str, exc: discord.HTTPException) -> None:
        """Discord refused the click's token (expired, or its own trouble after discord.py's
        retries): the bot token goes instead, now and for what this click would carry."""
        click.refused = True
        log.info(
            "game %s: %s refused (%s %s): the bot token instead",
            self.item.game_id,
            what,
            exc.status,
            exc.code,
        )

    async def _cause(self) -> Click | None:
        click = self.item.memory.get(CAUSE)
        if click is None or click.channel_id != self.channel.id:
            return None
        return click if await click.ready() else None

    async def _through(self, message_id: int) -> Click | None:
        """The click whose token may edit the message: the one that posted it, or the latest
        cause if it was clicked on that message (its own answer's message)."""
        click = self.item.memory.get(POSTED_BY).get(message_id)
        if click is None:
            cause = self.item.memory.get(CAUSE)
            click = cause if cause is not None and cause.on_message == message_id else None
        return click if click is not None and await click.ready() else None
