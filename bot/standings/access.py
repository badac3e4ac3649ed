"""What every community command needs: the ledger, the reader's language, the refusals."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol, runtime_checkable

import discord

from bot.i18n import Language, language, t
from bot.runtime.storage import note_storage_failure, storage_failure_key
from data.errors import LedgerUnavailable
from data.store import Ledger

log = logging.getLogger(__name__)


@runtime_checkable
class KeepsLedger(Protocol):
    """What the commands need of the client: `KamizaBot.ledger`.

    discord.py types every interaction's client as its `Client` base class (a component's
    callback cannot narrow it), so the commands check for this instead of importing the bot.
    """

    ledger: Ledger | None


def ledger_of(interaction: discord.Interaction) -> Ledger:
    """The bot's ledger (`KamizaBot.ledger`, opened in its `setup_hook`)."""
    client = interaction.client
    if not isinstance(client, KeepsLedger) or client.ledger is None:
        raise RuntimeError("the bot has no ledger open")  # open before any interaction comes
    return client.ledger


def lang_of(interaction: discord.Interaction) -> Language:
    return language(interaction.locale)


async def tell(interaction: discord.Interaction, key: str, **params: Any) -> None:
    """A private reply (or follow-up) in the reader's language."""
    text = t(interaction.locale, key, **params)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def in_guild(interaction: discord.Interaction) -> bool:
    """True in a server; otherwise says so privately and returns False."""
    if interaction.guild_id is None:
        await tell(interaction, "common.guild_only")
        return False
    return True


async def is_manager(interaction: discord.Interaction) -> bool:
    """True for a member with Manage Server; otherwise refuses privately and returns False."""
    if not await in_guild(interaction):
        return False
    if not interaction.permissions.manage_guild:
        await tell(interaction, "common.need_manage_guild")
        return False
    return True


async def failed(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Log an unexpected error and tell the user privately; never leave them waiting. The
    ledger's storage failing (the disk full) is said as such, in one warning line."""
    if isinstance(error, LedgerUnavailable):
        note_storage_failure(error, "a command")
        key = storage_failure_key(error)
    else:
        log.error("%s failed in guild %s", what, interaction.guild_id, exc_info=error)
        key = "common.error"
    with contextlib.suppress(discord.HTTPException):
        await tell(interaction, key)
