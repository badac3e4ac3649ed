"""The private hand: a button per card; pressing one on your turn puts it face down (HC-2).

Custom ids carry the round (`g:hcp:<game>:<round>:<card>`): a hand from an earlier round, or
from a game that has ended, is answered with the current hand instead of playing anything.
Pressing a card when it is not your turn changes nothing and says whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.runtime.table import Table
from bot.tables import hands
from bot.tables.buttons import CustomIdArgs, TableButton, button, handles, view_of
from bot.tables.hands import Menu
from data.store import Seat
from rules.base import Event
from tests.games.highcard.bot import render
from tests.games.highcard.rules import ROUNDS, HighCard, Put

PUT, SHOW = "hcp", "hch"


def hand_message(table: Table[HighCard], seat: Seat, lang: str, note: str | None = None) -> Menu:
    """The player's cards; a button per card until they have put one this round."""
    seen = table.state.observation(seat.player)
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


class HighCardHand:
    """High card's hand for the shared guard (`bot.tables.hands`): drawn for a round."""

    prefix = "highcard"
    rules = HighCard

    def message(
        self, table: Table[HighCard], seat: Seat, lang: str, note: str | None = None
    ) -> Menu:
        return hand_message(table, seat, lang, note)

    def shown_for(self, state: HighCard, seq: int) -> str:
        return "over" if state.over else str(state.round)


HAND = HighCardHand()


@handles(SHOW)
async def show_again(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    await hands.show_again(interaction, game_id, HAND)


@handles(PUT)
async def put(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    round_no, card = args.number(0), args.number(1)
    turn = await hands.on_turn(interaction, game_id, str(round_no), HAND)
    if turn is None:
        return
    text = t(turn.lang, "highcard.hand.done", card=render.card(card))

    def done(events: Sequence[Event]) -> Menu:
        return discord.Embed(description=text, colour=render.COLOUR), None

    await hands.act(interaction, turn, Put(card), HAND, done)
