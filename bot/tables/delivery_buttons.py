"""The hand menu's "Deliver my hand by DM" toggle (`g:dm:<game id>:on|off`), and the private
notice owed to a member whose DM failed, at their next click in the server."""

from __future__ import annotations

import logging

import discord

from bot.i18n import t
from bot.tables import delivery, hands, lookup
from bot.tables.buttons import BUTTONS, CustomIdArgs, handles
from bot.tables.messages import text_layout
from bot.tables.replies import ephemeral, lang_of
from bot.tables.selects import SELECTS

log = logging.getLogger(__name__)


@handles(delivery.VERB)
async def choose(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    """On: the menu goes to the member's DMs (here a link to it), or stays here saying why.
    Off (pressed in a DM): private menus in the thread again."""
    by_dm = args.one_of(0, {"on": True, "off": False})
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    assert seat.user_id is not None  # `lookup.seat` finds members only
    lang, ledger = lang_of(interaction), table.ledger
    link = delivery.thread_url(table.place)
    if not by_dm:
        await ledger.set_hand_delivery(seat.user_id, "ephemeral", lang)
        text = t(lang, "delivery.off", link=link)
        await interaction.response.edit_message(view=text_layout(text))
        return
    await ledger.set_hand_delivery(seat.user_id, "dm", lang)
    presenter = lookup.presenter_of(table)
    text = t(lang, "delivery.hand", game=presenter.title(lang), link=link)
    sent = await delivery.dm_menu(interaction.client, table, seat, presenter.hand, lang, text)
    if sent is None:  # told right here, and back on private menus whatever the failure was
        await ledger.set_hand_delivery(seat.user_id, "ephemeral", lang)
        turn = hands.Turn(table, seat, lang, "")
        await hands.answer_menu(interaction, turn, presenter.hand, t(lang, "delivery.failed"))
        return
    text = t(lang, "delivery.on", link=sent.jump_url)
    await interaction.response.edit_message(view=text_layout(text))


async def tell_dm_failure(interaction: discord.Interaction, game_id: int) -> None:
    """After any click in a server: the notice owed since a DM to the clicker failed (once).
    Never raises (the click itself was already answered)."""
    if delivery.in_dm(interaction):
        return
    try:
        ledger = lookup.manager_of(interaction).ledger
        note = await delivery.failure_note(ledger, interaction.user.id, lang_of(interaction))
        if note is not None:
            await ephemeral(interaction, note)
    except Exception:
        log.exception("game %s: could not tell a member that their DM failed", game_id)


BUTTONS.then(tell_dm_failure)
SELECTS.then(tell_dm_failure)
