"""What every game's messages share: where they go, in which language, how a seat is named,
and posting or editing a remembered message (failures logged, never raised)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import language, t
from bot.pictures.colours import OKABE_ITO, SEAT_COLOURS
from bot.runtime.lobby import BOT_PREFIX, Lobby
from bot.runtime.table import Table
from data.store import Seat

log = logging.getLogger(__name__)

Item = Lobby | Table[Any]
# `message_ids[LAYOUT_MARK + key]` holds the id of the message under `key` when that message was
# posted laid out (Components V2): messages from before the upgrade are told apart by it.
LAYOUT_MARK = "v2:"


def is_layout(fields: dict[str, Any]) -> bool:
    return isinstance(fields.get("view"), discord.ui.LayoutView)


def laid_out(item: Item, key: str) -> bool:
    message_id = item.message_ids.get(key)
    return message_id is not None and laid_out_id(item, key, message_id)


def laid_out_id(item: Item, key: str, message_id: int) -> bool:
    return item.message_ids.get(LAYOUT_MARK + key) == message_id


def text_layout(text: str) -> discord.ui.LayoutView:
    """A laid-out message of one line of text and nothing to press."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(text))
    return view


def seat_colour(index: int) -> discord.Colour:
    """The colour of the seat at `index`, as the pictures colour it (`bot.pictures.colours`)."""
    palette = (*SEAT_COLOURS, *(c for c in OKABE_ITO.values() if c not in SEAT_COLOURS))
    return discord.Colour.from_rgb(*palette[index % len(palette)])


def mention(seat: Seat, lang: str = "en", level: str | None = None) -> str:
    """How a seat is named in public: a mention for members (with the honorific in Japanese,
    "@花子さん"), "Bot N" in `lang` for computers (no honorific: "ボット1", not "ボット1さん"),
    with its `level` when known ("Bot 2 (hard)")."""
    if seat.user_id and not seat.is_bot:
        return t(lang, "table.member_name", mention=f"<@{seat.user_id}>")
    number = seat.player.removeprefix(BOT_PREFIX)
    return f"🤖 {computer_name(number, lang, level)}"


def computer_name(number: int | str, lang: str, level: str | None = None) -> str:
    """ "Bot N", and its level when known: "Bot 2 (hard)"."""
    name = t(lang, "table.bot_name", number=number)
    if level is None:
        return name
    return t(lang, "table.bot_with_level", name=name, level=t(lang, f"level.{level}"))


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
        # A laid-out message names seats with mentions in its text, and those would notify
        # (as content does): only a plain message (a ping) may notify anyone.
        quiet = discord.AllowedMentions.none()
        plain = discord.AllowedMentions(users=True, roles=False, everyone=False)
        kwargs.setdefault("allowed_mentions", quiet if is_layout(kwargs) else plain)
        try:
            message = await self.channel(item).send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("game %s: could not post a message: %s", item.game_id, exc)
            return
        if key:
            item.message_ids[key] = message.id
            if is_layout(kwargs):
                item.message_ids[LAYOUT_MARK + key] = message.id
            await item.remember_messages()

    async def publish(
        self, item: Item, key: str | None, view: discord.ui.LayoutView, **files: Any
    ) -> None:
        """Post a laid-out message (`bot.layout`), and its pictures (`file`/`files`)."""
        await self.send(item, key, view=view, **files)

    async def edit_or_send(self, item: Item, key: str, **kwargs: Any) -> None:
        """Edit the message remembered under `key`, or post a new one if there is none.

        A message keeps the format it was posted in (Discord refuses to add or remove the
        layout flag): one posted before the bot laid messages out is retired with a line
        pointing below, and the new one is posted in its place."""
        await self.bot.wait_until_ready()
        message_id = item.message_ids.get(key)
        if message_id is not None and laid_out(item, key) != is_layout(kwargs):
            await self.retire(item, key, t(self.lang(item), "table.moved"))
            message_id = None
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

    async def retire(self, item: Item, key: str, text: str) -> None:
        """Edit the message under `key` to `text` alone, no buttons, in its own format, and
        forget it (a restart's old table message, a message from before an upgrade)."""
        message_id = item.message_ids.pop(key, None)
        if message_id is None:
            return
        fields: dict[str, Any] = (
            {"view": text_layout(text)}
            if laid_out_id(item, key, message_id)
            else {"content": text, "embeds": [], "view": None, "attachments": []}
        )
        await self.bot.wait_until_ready()
        try:
            await self.channel(item).get_partial_message(message_id).edit(**fields)
        except discord.HTTPException as exc:
            log.warning("game %s: could not retire a message: %s", item.game_id, exc)

    def title(self, lang: str) -> str:
        return t(lang, f"game.{self.game}")
