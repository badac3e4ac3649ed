"""Pure rendering of a guild's settings: `GuildSettings` in, an embed out."""

from __future__ import annotations

import discord

from bot.games.registry import games
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
    default_archive: int | None = None,
) -> discord.Embed:
    """The settings a server manager may change, with their current values: one default edition
    per game that has editions."""
    embed = discord.Embed(title=t(lang, "settings.title"), colour=discord.Colour.blurple())
    fields = (
        ("settings.turn_seconds", seconds(lang, settings.turn_seconds, default_turn)),
        ("settings.lobby_seconds", seconds(lang, settings.lobby_seconds, default_lobby)),
        ("settings.archive_seconds", seconds(lang, settings.archive_seconds, default_archive)),
        (
            "settings.rate_bot_games",
            t(lang, "common.yes" if settings.rate_bot_games else "common.no"),
        ),
        ("settings.web", t(lang, "common.yes" if settings.web else "common.no")),
    )
    for key, value in fields:
        embed.add_field(name=t(lang, key), value=value, inline=False)
    for spec in games():
        edition = settings.edition(spec.name)
        if edition is not None:
            name = t(lang, "settings.edition", game=t(lang, spec.display_key))
            embed.add_field(name=name, value=t(lang, spec.edition_key(edition)), inline=False)
    embed.set_footer(text=t(lang, "settings.hint"))
    return embed
