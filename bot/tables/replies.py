"""Answering interactions: ephemeral errors, apologies, and the user's language."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import language, t
from bot.runtime.errors import TableError
from rules.base import IllegalAction

log = logging.getLogger(__name__)


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


async def explain_error(interaction: discord.Interaction, exc: Exception, game_id: int) -> None:
    """Turn a refused request into a private answer; log anything unexpected with the game id."""
    lang = lang_of(interaction)
    if isinstance(exc, TableError):
        text = t(lang, exc.key, **exc.params)
    elif isinstance(exc, IllegalAction):
        text = t(lang, "error.illegal", rule=exc.rule, reason=exc.reason)
    else:
        log.error("game %s: unexpected error", game_id, exc_info=exc)
        text = t(lang, "error.unexpected")
    try:
        await ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("game %s: could not tell the user about an error", game_id)


def can_manage(interaction: discord.Interaction) -> bool:
    """Manage Server, as Discord computed it for this interaction."""
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))
