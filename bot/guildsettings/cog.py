"""`/settings [turn_seconds] [lobby_seconds] [rate_bot_games] [edition] [archive_seconds] [web]`
(Manage Server), and `/mysettings [web]` (any member: their own choices).

Without options it shows the server's settings; with options it changes them (all or nothing:
a bad value is refused with the ledger's reason and nothing changes). 0 seconds restores the
bot's default (TURN_SECONDS, LOBBY_SECONDS, ARCHIVE_SECONDS). `edition` chooses the default
edition of one game that has editions: its choices are every such game's editions, from the
game registry. `web` turns the server's pages on the web companion on or off.

Two top-level commands, not `/settings server` and `/settings me`: Discord applies a command's
default permissions to the whole top-level command, so one command with both would show the
server's options to every member (refused at run time, but offered) or hide `me` from them.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import games
from bot.guildsettings.render import settings_embed
from bot.i18n import locale_key, t
from bot.standings.access import failed, is_manager, lang_of, ledger_of, tell
from data.store import WEB_PRESENCES, WebPresence

log = logging.getLogger(__name__)

# "<game>:<edition>", shown as "KAMIZA: classic". Read when the cog is imported: `bot.client`
# has loaded the game registry by then. (Discord takes at most 25 choices.)
EDITION_CHOICES = [
    app_commands.Choice(
        name=locale_key(
            "cmd.settings.param.edition.choice", game=spec.display_key, edition=spec.edition_key(e)
        ),
        value=f"{spec.name}:{e}",
    )
    for spec in games()
    for e in spec.editions
]
OPTIONS = ("turn_seconds", "lobby_seconds", "rate_bot_games", "edition", "archive_seconds", "web")
WEB_CHOICES = [
    app_commands.Choice(name=locale_key(f"cmd.settings.param.web.choice.{value}"), value=value)
    for value in ("on", "off")
]
PRESENCE_CHOICES = [
    app_commands.Choice(name=locale_key(f"cmd.mysettings.param.web.choice.{value}"), value=value)
    for value in WEB_PRESENCES
]


def _key(option: str, part: str) -> app_commands.locale_str:
    return locale_key(f"cmd.settings.param.{option}.{part}")


class GuildSettingsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def _defaults(self) -> dict[str, int | None]:
        settings = getattr(self.bot, "settings", None)
        return {
            "default_turn": getattr(settings, "turn_seconds", None),
            "default_lobby": getattr(settings, "lobby_seconds", None),
            "default_archive": getattr(settings, "archive_seconds", None),
        }

    @app_commands.command(
        name=locale_key("cmd.settings.name"), description=locale_key("cmd.settings.description")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)  # hidden from members; still checked
    @app_commands.rename(**{o: _key(o, "name") for o in OPTIONS})
    @app_commands.describe(**{o: _key(o, "description") for o in OPTIONS})
    @app_commands.choices(edition=EDITION_CHOICES, web=WEB_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_seconds: int | None = None,
        lobby_seconds: int | None = None,
        rate_bot_games: bool | None = None,
        edition: str | None = None,
        archive_seconds: int | None = None,
        web: str | None = None,
    ) -> None:
        """Show or change this server's game settings."""
        if not await is_manager(interaction):
            return
        try:
            ledger = ledger_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            lang = lang_of(interaction)
            changes: dict[str, Any] = {}
            if turn_seconds is not None:
                changes["turn_seconds"] = turn_seconds or None
            if lobby_seconds is not None:
                changes["lobby_seconds"] = lobby_seconds or None
            if archive_seconds is not None:
                changes["archive_seconds"] = archive_seconds or None
            if rate_bot_games is not None:
                changes["rate_bot_games"] = rate_bot_games
            if edition is not None:
                game, _, chosen = edition.partition(":")
                changes["editions"] = {game: chosen}
            if web is not None:
                changes["web"] = web == "on"
            if changes:
                try:
                    current = await ledger.update_guild_settings(guild_id, **changes)
                except ValueError as e:
                    await tell(interaction, "settings.invalid", error=str(e))
                    return
                log.info("guild %s: settings %s by %s", guild_id, changes, interaction.user.id)
                content = t(lang, "settings.changed")
            else:
                current = await ledger.guild_settings(guild_id)
                content = None
            embed = settings_embed(lang, current, **self._defaults())
            await interaction.response.send_message(content, embed=embed, ephemeral=True)
        except Exception as e:
            await failed(interaction, e, "/settings")

    @app_commands.command(
        name=locale_key("cmd.mysettings.name"),
        description=locale_key("cmd.mysettings.description"),
    )
    @app_commands.rename(web=locale_key("cmd.mysettings.param.web.name"))
    @app_commands.describe(web=locale_key("cmd.mysettings.param.web.description"))
    @app_commands.choices(web=PRESENCE_CHOICES)
    async def mysettings(self, interaction: discord.Interaction, web: str | None = None) -> None:
        """Show or change the member's own choices (for every server): their web presence."""
        try:
            ledger = ledger_of(interaction)
            user_id = interaction.user.id
            if web is not None:
                presence: WebPresence = "hidden" if web == "hidden" else "shown"
                prefs = await ledger.set_web_presence(user_id, presence)
                log.info("member %s: web %s", user_id, web)
            else:
                prefs = await ledger.member_prefs(user_id)
            lang = lang_of(interaction)
            text = f"{t(lang, f'mysettings.web.{prefs.web}')}\n-# {t(lang, 'mysettings.hint')}"
            await interaction.response.send_message(text, ephemeral=True)
        except Exception as e:
            await failed(interaction, e, "/mysettings")
