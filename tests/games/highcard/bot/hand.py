"""The private hand: a button per card; pressing one on your turn puts it face down (HC-2).

Custom ids carry the round (`g:hcp:<game>:<round>:<card>`): a hand from an earlier round, or
from a game that has ended, is answered with the current hand instead of playing anything.
Pressing a card when it is not your turn changes nothing and says whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.i18n import t
from bot.runtime.errors import StaleButton
from bot.runtime.table import Table
from bot.tables import lookup
from bot.tables.buttons import CustomIdArgs, TableButton, button, handles, view_of
from bot.tables.replies import ephemeral, lang_of
from data.store import Seat
from rules.base import AnyGame
from tests.games.highcard.bot import render
from tests.games.highcard.rules import ROUNDS, HighCard, Put

PUT, SHOW = "hcp", "hch"


def state_of(table: Table) -> HighCard:
    state = table.state
    assert isinstance(state, HighCard), f"game {table.game_id} is not high card"
    return state


def hand_message(
    table: Table, seat: Seat, lang: str, note: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The player's cards; a button per card until they have put one this round."""
    seen = state_of(table).observation(seat.player)
    gid, player = table.game_id, seat.player
    embed = discord.Embed(
        title=t(lang, "highcard.hand.title", round=seen.round, rounds=ROUNDS),
        colour=render.COLOUR,
    )
    lines = [note] if note else []
    your_turn = seen.to_act == player
    if seen.over:
        lines.append(t(lang, "highcard.hand.over"))
    elif seen.your_card is not None:
        lines.append(t(lang, "highcard.hand.put_already", card=render.card(seen.your_card)))
    elif your_turn:
        lines.append(t(lang, "highcard.hand.your_turn"))
    if not seen.over and not your_turn and seen.to_act is not None:
        name = table.seats[seen.to_act].display_name
        lines.append(t(lang, "highcard.hand.waiting", player=name))
    embed.description = "\n".join(lines)
    embed.add_field(
        name=t(lang, "highcard.hand.cards"),
        value=" ".join(render.card(c) for c in seen.hand) or "—",
    )
    embed.add_field(name=t(lang, "highcard.hand.points"), value=str(seen.points[player]))
    items: list[TableButton] = []
    if not seen.over and seen.your_card is None:
        style = discord.ButtonStyle.primary if your_turn else discord.ButtonStyle.secondary
        items += [
            button(
                PUT,
                gid,
                seen.round,
                c,
                label=t(lang, "highcard.hand.card_button", card=c),
                style=style,
            )
            for c in seen.hand
        ]
    if not seen.over and not your_turn:
        items.append(button(SHOW, gid, label=t(lang, "highcard.hand.refresh"), emoji="🔄"))
    return embed, (view_of(*items) if items else None)


def _still_round(round_no: int) -> Callable[[AnyGame], bool]:
    """The round the button was shown for is still being played."""

    def check(state: AnyGame) -> bool:
        return isinstance(state, HighCard) and not state.over and state.round == round_no

    return check


async def _answer_stale(interaction: discord.Interaction, table: Table, seat: Seat) -> None:
    lang = lang_of(interaction)
    embed, view = hand_message(table, seat, lang, note=t(lang, "highcard.hand.stale"))
    await interaction.response.edit_message(content=None, embed=embed, view=view)


@handles(SHOW)
async def show_again(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    embed, view = hand_message(table, seat, lang_of(interaction))
    await interaction.response.edit_message(content=None, embed=embed, view=view)


@handles(PUT)
async def put(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    round_no, card = args.number(0), args.number(1)
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    lang = lang_of(interaction)
    state = state_of(table)
    if not _still_round(round_no)(state):
        await _answer_stale(interaction, table, seat)
        return
    nxt = state.next()
    if nxt is None or nxt.player != seat.player:  # the turn guard: nothing is played
        waiting = table.seats[nxt.player].display_name if nxt else "—"
        await ephemeral(interaction, t(lang, "highcard.hand.not_your_turn", player=waiting))
        return
    try:  # against the state checked above: a double click is answered as stale, not refused
        await table.act(seat.player, Put(card), expected_seq=table.seq)
    except StaleButton:  # the state changed between the check above and the table's lock
        await _answer_stale(interaction, table, seat)
        return
    embed = discord.Embed(
        description=t(lang, "highcard.hand.done", card=render.card(card)), colour=render.COLOUR
    )
    await interaction.response.edit_message(content=None, embed=embed, view=None)
