"""A member's hand by DM, as their choice (`MemberPrefs.hand_delivery`, kept in the ledger).

Every hand menu carries the toggle (`g:dm:<game id>:on|off`): "on" in the thread's private menu,
"off" in a DM. A member on `dm` gets the same menu as the private one, by DM, when their turn
begins (the DM is the turn's ping: no public one) and when they press *Your hand*; its buttons
are the same restart-proof ones, answered in the DM (`lookup.item` lets a seated member reach
their table from there). A DM that fails with Forbidden (closed DMs, 50007) puts the member back
on private menus in the ledger, the turn is pinged publicly, and they are told privately at
their next click in the thread (`Ledger.claim_dm_failure`). Nothing hidden is posted publicly.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TypeVar

import discord

from bot.i18n import t
from bot.layout.board import layout_of
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.tables import responses
from bot.tables.buttons import TableButton, button
from bot.tables.direct_clicks import unheld
from bot.tables.hand_view import HandView, Menu
from bot.tables.replies import lang_of
from data.store import Ledger, Seat
from rules.base import AnyGame

log = logging.getLogger(__name__)

G = TypeVar("G", bound=AnyGame)
VERB = "dm"
TOGGLE_ROW = 4  # the last row: below whatever the game's menu holds


def thread_url(place: Place) -> str:
    """A link to the table's thread (or channel), for a DM to lead back to it."""
    return f"https://discord.com/channels/{place.guild_id}/{place.home}"


def in_dm(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is None


def toggle(game_id: int, by_dm: bool, lang: str) -> TableButton:
    """The menu's switch: to DMs from the thread's private menu, back from a DM."""
    if by_dm:
        return button(VERB, game_id, "off", label=t(lang, "delivery.back_here"), row=TOGGLE_ROW)
    return button(VERB, game_id, "on", label=t(lang, "delivery.by_dm"), emoji="📨", row=TOGGLE_ROW)


def with_toggle(menu: Menu, game_id: int, by_dm: bool, lang: str) -> Menu:
    """The menu with its delivery toggle (a menu with nothing to press gets none)."""
    embed, view = menu
    if view is not None:
        # Its five rows full (a rare step of a game): no toggle there, the next menu has it.
        with contextlib.suppress(ValueError):
            view.add_item(toggle(game_id, by_dm, lang))
    return embed, view


async def dm_menu(
    bot: discord.Client,
    table: Table[G],
    seat: Seat,
    hand: HandView[G],
    lang: str,
    content: str,
) -> discord.Message | None:
    """Send the seat's menu now by DM, `content` above it. None when it could not be sent: after
    a Forbidden (closed DMs) the member is back on private menus, to be told (`dm_failed`)."""
    assert seat.user_id is not None  # only members choose, and only members are pinged
    embed, view = with_toggle(hand.message(table, seat, lang), table.game_id, True, lang)
    try:
        channel = await bot.create_dm(discord.Object(seat.user_id))
        layout = layout_of(embed, view, content, lang)
        return await channel.send(view=layout, allowed_mentions=discord.AllowedMentions.none())
    except discord.Forbidden as exc:
        log.info("game %s: no DM to a member (%s): private menus again", table.game_id, exc)
        await table.ledger.dm_failed(seat.user_id)
    except discord.HTTPException as exc:  # Discord's trouble, not the member's choice: kept
        log.warning("game %s: could not send a hand by DM: %s", table.game_id, exc)
    return None


async def ping_by_dm(
    bot: discord.Client,
    table: Table[G],
    seat: Seat,
    hand: HandView[G],
    server_lang: str,
    title: Callable[[str], str],
) -> bool:
    """Tell a member on `dm` their turn by DM, with their menu; False when the turn is to be
    pinged in public (their choice, or a DM that failed)."""
    assert seat.user_id is not None
    prefs = await table.ledger.member_prefs(seat.user_id)
    if prefs.hand_delivery != "dm":
        return False
    lang = prefs.lang or server_lang
    content = t(lang, "delivery.turn", game=title(lang), link=thread_url(table.place))
    return await dm_menu(bot, table, seat, hand, lang, content) is not None


async def failure_note(ledger: Ledger, user_id: int, lang: str) -> str | None:
    """The private notice a member is owed since a DM to them failed (once), or None."""
    return t(lang, "delivery.failed") if await ledger.claim_dm_failure(user_id) else None


async def show_hand(
    interaction: discord.Interaction,
    table: Table[G],
    seat: Seat,
    hand: HandView[G],
    title: Callable[[str], str],
) -> None:
    """*Your hand*: by DM for a member who chose so (the answer links it), unless the DM fails;
    else the private menu here, with the notice owed if a DM to them failed."""
    lang = lang_of(interaction)
    assert seat.user_id is not None  # `lookup.seat` finds members only
    if (await table.ledger.member_prefs(seat.user_id)).hand_delivery == "dm":
        text = t(lang, "delivery.hand", game=title(lang), link=thread_url(table.place))
        sent = await dm_menu(interaction.client, table, seat, hand, lang, text)
        if sent is not None:
            text = t(lang, "delivery.sent", link=sent.jump_url)
            await interaction.response.send_message(text, ephemeral=True)
            return
    note = await failure_note(table.ledger, seat.user_id, lang)
    embed, view = with_toggle(hand.message(table, seat, lang), table.game_id, False, lang)
    layout = layout_of(embed, view, note, lang)
    await responses.send_private(interaction, view=unheld(layout))
