"""What every game's messages share: where they go, in which language, how a seat is named,
and posting or editing a remembered message (failures logged, never raised)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import language, t
from bot.runtime.lobby import BOT_PREFIX, Lobby
from bot.runtime.table import Table
from data.store import Seat

log = logging.getLogger(__name__)

Item = Lobby | Table[Any]


def mention(seat: Seat, lang: str = "en") -> str:
    """How a seat is named in public: a mention for members (with the honorific in Japanese,
    "@花子さん"), "Bot N" in `lang` for computers (no honorific: "ボット1", not "ボット1さん")."""
    if seat.user_id and not seat.is_bot:
        return t(lang, "table.member_name", mention=f"<@{seat.user_id}>")
    number = seat.player.removeprefix(BOT_PREFIX)
    return f"🤖 {t(lang, 'table.bot_name', number=number)}"


class Messages:
    """A game's public messages: its lobbies' and tables' (`game`'s catalogue title)."""

    game: str = ""
    colour = discord.Colour.dark_red()

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    def lang(self, item: Item) -> str:
        """Public messages speak the guild's language (Japanese for a Japanese community)."""
        guild = self.bot.get_guild(item.place.guild_id)
        return language(guild.preferred_locale if guild else None)

    def channel(self, item: Item) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(item.place.home, guild_id=item.place.guild_id)

    async def send(self, item: Item, key: str | None = None, **kwargs: Any) -> None:
        """Post a message (remembering its id under `key`); failures are logged, not raised."""
        await self.bot.wait_until_ready()
        kwargs.setdefault(
            "allowed_mentions", discord.AllowedMentions(users=True, roles=False, everyone=False)
        )
        try:
            message = await self.channel(item).send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("game %s: could not post a message: %s", item.game_id, exc)
            return
        if key:
            item.message_ids[key] = message.id
            await item.remember_messages()

    async def edit_or_send(self, item: Item, key: str, **kwargs: Any) -> None:
        """Edit the message remembered under `key`, or post a new one if there is none."""
        await self.bot.wait_until_ready()
        message_id = item.message_ids.get(key)
        if message_id is not None:
            try:
                await self.channel(item).get_partial_message(message_id).edit(**kwargs)
                return
            except discord.NotFound:
                item.message_ids.pop(key, None)
            except discord.HTTPException as exc:
                log.warning("game %s: could not edit a message: %s", item.game_id, exc)
                return
        await self.send(item, key, **kwargs)

    def title(self, lang: str) -> str:
        return t(lang, f"game.{self.game}")
