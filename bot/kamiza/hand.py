"""The private hand: pick a card, then its area; a Boss or Policeman to shimoza asks first (K-4).

Custom ids carry the round ("2.1" = game 2, round 1): a hand from an earlier round is answered
with the current one instead of playing anything.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.kamiza import render
from bot.runtime.errors import TableError
from bot.runtime.table import Table
from bot.tables import hands
from bot.tables.buttons import CustomIdArgs, button, handles, view_of
from bot.tables.hands import Menu
from data.store import Seat
from rules.base import Event
from rules.kamiza import Kamiza, Play
from rules.kamiza_events import ChoiceMade, RoundRevealed
from rules.kamiza_judge import SHIMOZA_FORBIDDEN


def chosen_line(lang: str, card: str, area: str, waiting: int) -> str:
    """A choice kept aside until everyone has chosen (H-1), and how many are still to."""
    where = render.area(lang, area)
    return t(lang, "kamiza.hand.chosen", card=render.card(lang, card), area=where, count=waiting)


def round_key(state: Kamiza) -> str:
    game_no, round_no = state.position()
    return f"{game_no}.{round_no}"


def hand_message(table: Table[Kamiza], seat: Seat, lang: str, note: str | None = None) -> Menu:
    state = table.state
    seen = state.observation(seat.player)
    player = seat.player
    embed = discord.Embed(
        title=t(lang, "kamiza.hand.title", game=seen.game_number, round=seen.round),
        colour=render.COLOUR,
    )
    lines = [note] if note else []
    mine = next((p for p in seen.table if p.player == player), None)
    if seen.over:
        lines.append(t(lang, "kamiza.table.over"))
    elif player in seen.dropped:
        lines.append(t(lang, "kamiza.hand.dropped"))
    elif player in seen.waiting_for:  # H-1: everyone chooses at the same time
        lines.append(t(lang, "kamiza.hand.step_turn"))
    elif seen.to_act == player:
        lines.append(t(lang, "kamiza.hand.your_turn"))
    elif mine is not None and mine.card is not None and player in seen.chosen:
        lines.append(chosen_line(lang, mine.card, mine.area, len(seen.waiting_for)))
    else:
        if mine is not None and mine.card is not None:
            card, area = render.card(lang, mine.card), render.area(lang, mine.area)
            lines.append(t(lang, "kamiza.hand.played", card=card, area=area))
        if seen.to_act is not None:
            name = table.seats[seen.to_act].display_name
            lines.append(t(lang, "kamiza.hand.waiting", player=name))
    embed.description = "\n".join(lines)
    hand = seen.hand or ()
    embed.add_field(
        name=t(lang, "kamiza.hand.cards"),
        value=" ".join(render.card(lang, c) for c in hand) or "—",
    )
    if seen.over or player in seen.dropped:
        return embed, None
    key = round_key(state)
    # Out of turn the cards show but cannot be pressed; Refresh brings the menu of the moment.
    playing = seen.to_act == player or player in seen.waiting_for
    items = [
        button(
            "kzc",
            table.game_id,
            key,
            c,
            label=render.hand_label(lang, c),
            emoji=render.CARD_EMOJI[c],
            style=discord.ButtonStyle.primary if playing else discord.ButtonStyle.secondary,
            disabled=not playing,
        )
        for c in hand
    ]
    if not playing:
        items.append(button("kzh", table.game_id, label=t(lang, "kamiza.hand.refresh"), emoji="🔄"))
    return embed, view_of(*items)


class KamizaHand:
    """KAMIZA's private hand for the shared guard (`bot.tables.hands`): drawn for a round."""

    prefix = "kamiza"
    rules = Kamiza

    def message(self, table: Table[Kamiza], seat: Seat, lang: str, note: str | None = None) -> Menu:
        return hand_message(table, seat, lang, note)

    def shown_for(self, state: Kamiza, seq: int) -> str:
        return round_key(state)


HAND = KamizaHand()


@handles("kzh")
async def show_again(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    await hands.show_again(interaction, game_id, HAND)


@handles("kzc")
async def choose_card(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    key, chosen = args[0], args[1]
    found = await hands.on_turn(interaction, game_id, key, HAND)
    if found is None:
        return
    seat, lang = found.seat, found.lang
    if chosen not in found.table.state.hands[seat.player]:
        raise TableError("kamiza.hand.not_in_hand")
    shimoza_verb = "kzb" if chosen in SHIMOZA_FORBIDDEN else "kzp"
    view = view_of(
        button(
            "kzp",
            game_id,
            key,
            chosen,
            "kamiza",
            label=t(lang, "kamiza.hand.to_kamiza"),
            style=discord.ButtonStyle.success,
            emoji="⬆️",
        ),
        button(
            shimoza_verb,
            game_id,
            key,
            chosen,
            "shimoza",
            label=t(lang, "kamiza.hand.to_shimoza"),
            emoji="⬇️",
        ),
        button("kzh", game_id, label=t(lang, "kamiza.hand.back"), emoji="↩️"),
    )
    embed = discord.Embed(
        title=t(lang, "kamiza.hand.where", card=render.card(lang, chosen)),
        description=t(lang, "kamiza.hand.where_help"),
        colour=render.COLOUR,
    )
    await hands.replace_menu(interaction, embed, view)


@handles("kzb")
async def confirm_bluff(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    key = args[0]
    found = await hands.on_turn(interaction, game_id, key, HAND)
    if found is None:
        return
    # only these cards ask first (K-4); any other card in the id is forged
    chosen = CustomIdArgs(args).one_of(1, {card: card for card in SHIMOZA_FORBIDDEN})
    lang = found.lang
    view = view_of(
        button(
            "kzp",
            game_id,
            key,
            chosen,
            "shimoza",
            label=t(lang, "kamiza.hand.bluff_yes"),
            style=discord.ButtonStyle.danger,
        ),
        button("kzh", game_id, label=t(lang, "kamiza.hand.back"), emoji="↩️"),
    )
    embed = discord.Embed(
        title=t(lang, "kamiza.hand.bluff_title"),
        description=t(lang, "kamiza.hand.bluff_warning", card=render.card(lang, chosen)),
        colour=discord.Colour.orange(),
    )
    await hands.replace_menu(interaction, embed, view)


@handles("kzp")
async def play(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    key, chosen, where = args[0], args[1], args[2]
    turn = await hands.on_turn(interaction, game_id, key, HAND)
    if turn is None:
        return
    lang = turn.lang

    def done(events: Sequence[Event]) -> Menu:
        text = t(
            lang, "kamiza.hand.done", card=render.card(lang, chosen), area=render.area(lang, where)
        )
        kept_aside = not any(isinstance(e, RoundRevealed) for e in events)
        if kept_aside and any(isinstance(e, ChoiceMade) for e in events):  # H-1
            waiting = turn.table.state.observation(turn.seat.player).waiting_for
            text = chosen_line(lang, chosen, where, len(waiting))
        return discord.Embed(description=text, colour=render.COLOUR), None

    await hands.act(interaction, turn, Play(chosen, where), HAND, done)
