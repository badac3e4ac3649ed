"""Answering interactions: ephemeral errors, apologies, and the user's language."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Final

import aiohttp
import discord

from bot.i18n import language, t
from bot.runtime.errors import TableError
from bot.runtime.storage import note_storage_failure, storage_failure_key
from data.errors import LedgerUnavailable
from rules.base import IllegalAction

log = logging.getLogger(__name__)

# How long a private answer may take before the interaction is deferred: Discord wants the first
# answer within 3 s, and the answer itself needs time to travel.
PATIENCE: Final = 1.5
# Discord's codes for an interaction whose token is gone: "Unknown interaction" (the 3 s passed)
# and "Unknown webhook" (a follow-up after the 15 minutes).
GONE_INTERACTION: Final = frozenset({10062, 10015})


@dataclass(frozen=True, slots=True)
class PrivateAnswer:
    """An embed, with the picture it shows (`attachment://…`) if it has one."""

    embed: discord.Embed
    picture: discord.File | None = None


async def answer_in_time(
    interaction: discord.Interaction,
    making: Coroutine[Any, Any, PrivateAnswer],
    patience: float = PATIENCE,
) -> None:
    """Answer privately with what `making` makes. If it takes longer than `patience` (a picture
    being drawn in a worker thread), the interaction is deferred first ("thinking…", which keeps
    Discord's 3-second deadline), and the deferred answer is then filled in."""
    task = asyncio.ensure_future(making)
    try:
        done, _ = await asyncio.wait({task}, timeout=patience)
        if not done:
            await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await task
    finally:
        task.cancel()  # a no-op once it is done; else the defer failed: stop making the answer
    files = [answer.picture] if answer.picture is not None else []
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=answer.embed, attachments=files)
    else:
        await interaction.response.send_message(embed=answer.embed, files=files, ephemeral=True)


def lang_of(interaction: discord.Interaction) -> str:
    return language(interaction.locale)


async def ephemeral(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, key: str, **params: Any) -> None:
    await ephemeral(interaction, t(lang_of(interaction), key, **params))


def discord_failed(exc: BaseException) -> bool:
    """Discord's own trouble, expected now and then and no bug of ours: a 5xx after discord.py's
    retries, a 429 it gave up on, an interaction whose 3 seconds passed, the network."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429 or exc.code in GONE_INTERACTION
    return isinstance(exc, discord.RateLimited | aiohttp.ClientError | TimeoutError)


def note_discord_failure(exc: BaseException, what: str, game_id: int | None = None) -> None:
    """One warning line, no traceback: whatever the click did stays done, and the table message
    shows it to everyone (the clicker included) with the next edit."""
    reason = type(exc).__name__
    if isinstance(exc, discord.HTTPException):
        reason = f"{exc.status} {exc.text}".strip()
    where = f"game {game_id}: " if game_id else ""
    log.warning("%sDiscord failed %s (%s)", where, what, reason)


async def explain_error(interaction: discord.Interaction, exc: Exception, game_id: int) -> None:
    """Turn a refused request into a private answer; log anything unexpected with the game id.
    Discord failing the answer itself is a warning, and nothing more is sent to a dead token."""
    if discord_failed(exc):
        note_discord_failure(exc, "the answer to a click", game_id)
        return
    lang = lang_of(interaction)
    if isinstance(exc, TableError):
        text = t(lang, exc.key, **exc.params)
    elif isinstance(exc, IllegalAction):
        text = t(lang, "error.illegal", rule=exc.rule, reason=exc.reason)
    elif isinstance(exc, LedgerUnavailable):  # the disk full: nothing was written nor played
        note_storage_failure(exc, "a click or a command", game_id)
        text = storage_failure_text(lang, exc)
    else:
        log.error("game %s: unexpected error", game_id, exc_info=exc)
        text = t(lang, "error.unexpected")
    try:
        await ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("game %s: could not tell the user about an error", game_id)


def storage_failure_text(lang: Any, exc: LedgerUnavailable) -> str:
    """What a member is told when the ledger could not save their request (`lang`: a language
    or a Discord locale)."""
    return t(lang, storage_failure_key(exc))


def can_manage(interaction: discord.Interaction) -> bool:
    """Manage Server, as Discord computed it for this interaction."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))
