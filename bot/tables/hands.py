"""The private hand, once for every game: finding the seat, the stale-menu answer, the turn
guard, "show my hand again" and acting on the state the menu was drawn for.

A game's hand view (`HandView`) only draws its menu and says what a menu is drawn for (its
`shown_for`: the table's `seq`, or KAMIZA's round). Its handlers call `on_turn` (or `current`
when a step needs no turn, such as choosing where a card goes) and then `act`; everything else
here is the same for every game, so a fix to the guard is made once. The click's table comes
typed for the hand view's game (`Turn[Kamiza]`): `lookup.table_of` checks its game once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import discord

from bot.i18n import t
from bot.layout.board import layout_of
from bot.runtime.errors import StaleButton
from bot.runtime.table import Table
from bot.tables import delivery, lookup, responses, voice
from bot.tables.direct_clicks import unheld
from bot.tables.hand_view import HandView, Menu
from bot.tables.replies import ephemeral, lang_of
from data.store import Seat
from rules.base import AnyGame, Event

G = TypeVar("G", bound=AnyGame)
log = logging.getLogger(__name__)

__all__ = ["HandView", "Menu", "Turn", "act", "answer", "current", "on_turn", "show_again"]


@dataclass(frozen=True, slots=True)
class Turn(Generic[G]):
    """A click that may act: its table, the clicking seat, their language, the menu's moment."""

    table: Table[G]
    seat: Seat
    lang: str
    shown: str


async def answer(interaction: discord.Interaction, menu: Menu) -> None:
    """Replace the private menu the user clicked in."""
    embed, view = menu
    await replace_menu(interaction, embed, view)


async def replace_menu(
    interaction: discord.Interaction, embed: discord.Embed, view: discord.ui.View | None
) -> None:
    """Replace the clicked private menu with `embed` and `view`, laid out. A menu sent before
    the bot laid menus out cannot take the layout (Discord keeps a message's format): the new
    menu comes as a fresh private message instead."""
    layout = layout_of(embed, view, lang=lang_of(interaction))
    try:
        await responses.update_message(interaction, view=layout)
    except discord.HTTPException as exc:
        if interaction.response.is_done() or exc.status != 400:
            raise  # Discord's trouble, or a dead interaction: a fresh message would fail too
        log.info("a private menu could not be edited (%s): sent afresh", exc)
        await responses.send_private(interaction, view=unheld(layout))


async def answer_menu(
    interaction: discord.Interaction, turn: Turn[G], hand: HandView[G], note: str | None = None
) -> None:
    """Replace the clicked menu with the seat's menu now, its DM toggle included (the menu
    clicked in a DM offers to come back to the thread, one in the thread to go by DM)."""
    menu = hand.message(turn.table, turn.seat, turn.lang, note=note)
    by_dm = delivery.in_dm(interaction)
    await answer(interaction, delivery.with_toggle(menu, turn.table.game_id, by_dm, turn.lang))


async def show_again(interaction: discord.Interaction, game_id: int, hand: HandView[G]) -> None:
    """The seat's current menu in place of the one clicked."""
    table = lookup.table_of(interaction, game_id, hand.rules)
    seat = lookup.seat(table, interaction)
    await answer_menu(interaction, Turn(table, seat, lang_of(interaction), ""), hand)


async def answer_stale(interaction: discord.Interaction, turn: Turn[G], hand: HandView[G]) -> None:
    await answer_menu(interaction, turn, hand, t(turn.lang, f"{hand.prefix}.hand.stale"))


async def current(
    interaction: discord.Interaction, game_id: int, shown: str, hand: HandView[G]
) -> Turn[G] | None:
    """The click's table and seat if its menu is still the current one; otherwise None after
    answering with the current menu (nothing is played from a stale menu)."""
    table = lookup.table_of(interaction, game_id, hand.rules)
    turn = Turn(table, lookup.seat(table, interaction), lang_of(interaction), shown)
    if shown != hand.shown_for(table.state, table.seq):
        await answer_stale(interaction, turn, hand)
        return None
    return turn


async def on_turn(
    interaction: discord.Interaction, game_id: int, shown: str, hand: HandView[G]
) -> Turn[G] | None:
    """`current`, and the seat must be one to act (the one on turn, or one of those to choose
    in a step of choices made at once): otherwise None after a private answer naming whose turn
    it is."""
    turn = await current(interaction, game_id, shown, hand)
    if turn is None:
        return None
    nxt = turn.table.state.next()
    if nxt is None or turn.seat.player not in nxt.pending:
        waiting = turn.table.seats[nxt.player].display_name if nxt else "—"
        await ephemeral(
            interaction, t(turn.lang, f"{hand.prefix}.hand.not_your_turn", player=waiting)
        )
        return None
    return turn


async def act(
    interaction: discord.Interaction,
    turn: Turn[G],
    action: object,
    hand: HandView[G],
    done: Callable[[Sequence[Event]], Menu] | None = None,
) -> bool:
    """Play `action` for the seat against the moment its menu showed (checked under the table's
    lock: a double click acts once); then answer with `done(events)` or the current menu. False,
    after answering with the current menu, when the moment had passed."""
    table = turn.table
    try:
        events = await table.act(
            turn.seat.player,
            action,
            still_shown=lambda state: hand.shown_for(state, table.seq) == turn.shown,
        )
    except StaleButton:
        await answer_stale(interaction, turn, hand)
        return False
    with voice.riding(table, interaction):  # what the play shows in public: its follow-ups
        if done is not None:
            await answer(interaction, done(events))
        else:
            await answer_menu(interaction, turn, hand)
    return True
