"""Join, Leave, Start and Cancel on a lobby, and its host's controls (computer seats, kick,
transfer host); Your hand, I'm back and cancelling at a table."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.runtime.errors import TableError
from bot.runtime.thinking import OFFERED_LEVELS
from bot.tables import lookup, responses, voice
from bot.tables.buttons import CustomIdArgs, Handler, button, handles, view_of
from bot.tables.replies import can_manage, ephemeral, lang_of
from bot.tables.selects import clip


async def changed(item: voice.Item, interaction: discord.Interaction) -> None:
    """Acknowledge a click on the lobby message (a deferred update): the message's edit and
    what follows ride on the click (`bot.tables.voice`), not on the bot token."""
    with voice.riding(item, interaction):
        await responses.defer_update(interaction)


@handles("join")
async def join(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.join(interaction.user.id, interaction.user.display_name)
    await changed(lobby, interaction)


@handles("leave")
async def leave(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.leave(interaction.user.id)
    await changed(lobby, interaction)


@handles("start")
async def start(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    manager = lookup.manager_of(interaction)
    table = await manager.start(lobby, interaction.user.id, can_manage(interaction))
    await changed(table, interaction)  # the lobby says "started", the table comes below


@handles("bot_add")
async def bot_add(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.add_computer(interaction.user.id, can_manage(interaction))
    await changed(lobby, interaction)


@handles("bot_lvl")
async def bot_level(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    """The level button beside a computer seat (`g:bot_lvl:<game id>:<n>:<level>`): sets that
    level, the next one in turn (a double click sets the same level twice, no harm)."""
    level = args.one_of(1, {level: level for level in OFFERED_LEVELS})
    lobby = lookup.lobby(interaction, game_id)
    await lobby.set_level(interaction.user.id, can_manage(interaction), args.number(0), level)
    await responses.defer_update(interaction)


@handles("house")
async def house_rule(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    """The host's toggle of the house rule `simultaneous` (`g:house:<game id>:on|off`)."""
    on = args.one_of(0, {"on": True, "off": False})
    lobby = lookup.lobby(interaction, game_id)
    await lobby.set_house_rule(interaction.user.id, can_manage(interaction), on)
    await changed(lobby, interaction)


@handles("bot_del")
async def bot_del(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.remove_computer(interaction.user.id, can_manage(interaction))
    await changed(lobby, interaction)


def member_list(then: str, key: str) -> Handler:
    """A handler answering the host with a private list of the other seated members, one button
    each (`then:<member id>`)."""

    async def answer(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
        lobby = lookup.lobby(interaction, game_id)
        lobby.check_host(interaction.user.id, can_manage(interaction))
        others = lobby.others()
        if not others:
            raise TableError("lobby.nobody_else")
        view = view_of(
            *(button(then, game_id, s.user_id, label=clip(s.display_name, 80)) for s in others)
        )
        await ephemeral(interaction, t(lang_of(interaction), key), view=view)

    return answer


# Kick: whom (`kick`), are you sure (`kick_ask`), done (`kick_yes`). Transfer host: to whom
# (`host`), done (`host_to`): choosing in the private list is the confirmation.
handles("kick")(member_list("kick_ask", "lobby.kick_pick"))
handles("host")(member_list("host_to", "lobby.transfer_pick"))


@handles("kick_ask")
async def kick_ask(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    """Chosen in the host's private list: the list becomes the question."""
    text, view = kick_question(interaction, game_id, args.number(0))
    await interaction.response.edit_message(content=text, view=view)


@handles("kick_seat")
async def kick_seat(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    """Kick beside a seat of the lobby message: the question comes privately."""
    text, view = kick_question(interaction, game_id, args.number(0))
    await ephemeral(interaction, text, view=view)


def kick_question(
    interaction: discord.Interaction, game_id: int, member: int
) -> tuple[str, discord.ui.View]:
    """Are you sure? (the host's alone to answer; anyone else is refused)"""
    lobby = lookup.lobby(interaction, game_id)
    lobby.check_host(interaction.user.id, can_manage(interaction))
    seat = lobby.other_member(member)
    lang = lang_of(interaction)
    view = view_of(
        button(
            "kick_yes",
            game_id,
            member,
            label=t(lang, "lobby.kick_button"),
            style=discord.ButtonStyle.danger,
        )
    )
    return t(lang, "lobby.kick_confirm", player=f"<@{seat.user_id}>"), view


@handles("kick_yes")
async def kick_yes(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    lobby = lookup.lobby(interaction, game_id)
    seat = await lobby.kick(interaction.user.id, can_manage(interaction), args.number(0))
    text = t(lang_of(interaction), "lobby.kicked", player=f"<@{seat.user_id}>")
    await interaction.response.edit_message(content=text, view=None)


@handles("host_to")
async def host_to(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    lobby = lookup.lobby(interaction, game_id)
    member = args.number(0)
    seat = await lobby.transfer_host(interaction.user.id, can_manage(interaction), member)
    text = t(lang_of(interaction), "lobby.transferred", player=f"<@{seat.user_id}>")
    await interaction.response.edit_message(content=text, view=None)


@handles("hand")
async def hand(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    await lookup.presenter_of(table).show_hand(interaction, table, seat)


@handles("back")
async def back(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    if await table.back(seat.player):
        await ephemeral(interaction, t(lang_of(interaction), "table.back_ok"))
    else:
        await ephemeral(interaction, t(lang_of(interaction), "table.back_not_needed"))


def check_may_cancel(item: object, interaction: discord.Interaction) -> None:
    if getattr(item, "host_id", None) != interaction.user.id and not can_manage(interaction):
        raise TableError("error.only_host_cancels")


@handles("cancel")
async def cancel(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    """Ask for confirmation; `cancel_yes` does it."""
    item = lookup.item(interaction, game_id)
    check_may_cancel(item, interaction)
    lang = lang_of(interaction)
    view = view_of(
        button(
            "cancel_yes",
            game_id,
            label=t(lang, "cancel.confirm_button"),
            style=discord.ButtonStyle.danger,
        )
    )
    await ephemeral(interaction, t(lang, "cancel.confirm"), view=view)


@handles("cancel_yes")
async def cancel_yes(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    item = lookup.item(interaction, game_id)
    check_may_cancel(item, interaction)
    await item.cancel("cancel.by_user")
    await interaction.response.edit_message(
        content=t(lang_of(interaction), "cancel.done"), view=None
    )
