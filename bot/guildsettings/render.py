"""Pure rendering of a guild's settings: `GuildSettings` in, an embed out."""

from __future__ import annotations

import discord

from bot.i18n import Language, t
from data.store import GuildSettings


def seconds(lang: Language, value: int | None, default: int | None) -> str:
    """`90 s`, or `90 s (bot default)` when the guild has not chosen (None)."""
    if value is not None:
        return t(lang, "settings.seconds", n=value)
    shown = t(lang, "settings.seconds", n=default) if default is not None else "—"
    return t(lang, "settings.default", value=shown)


def settings_embed(
    lang: Language,
    settings: GuildSettings,
    *,
    default_turn: int | None = None,
    default_lobby: int | None = None,
) -> discord.Embed:
    """The four settings a server manager may change, with their current values."""
    embed = discord.Embed(title=t(lang, "settings.title"), colour=discord.Colour.blurple())
    fields = (
        ("settings.turn_seconds", seconds(lang, settings.turn_seconds, default_turn)),
        ("settings.lobby_seconds", seconds(lang, settings.lobby_seconds, default_lobby)),
        (
            "settings.rate_bot_games",
            t(lang, "common.yes" if settings.rate_bot_games else "common.no"),
        ),
        ("settings.kamiza_edition", t(lang, f"glossary.kamiza.edition.{settings.kamiza_edition}")),
    )
    for key, value in fields:
        embed.add_field(name=t(lang, key), value=value, inline=False)
    embed.set_footer(text=t(lang, "settings.hint"))
    return embed
