"""What the private Rights of Losers menus do when used.

Each handler finds the table and the seat (an interloper is refused), compares the menu's `seq`
with the table's (a stale menu is answered with the current one, nothing is played), checks that
it is this player's turn (else a private refusal), reads the chosen values as language-free codes
and hands the action to the table, which checks it against the rules, writes it to the ledger and
only then applies it. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.losers import menus, render
from bot.losers.names import cell_name, parse_cell, parse_spot
from bot.runtime.errors import TableError
from bot.runtime.table import Table
from bot.tables import hands
from bot.tables.buttons import handles
from bot.tables.hands import Menu, Turn
from bot.tables.selects import handles as handles_select
from data.store import Seat
from rules.base import Event
from rules.losers import RightsOfLosers
from rules.losers_actions import PASS, REVERSE, Appoint, Build, Chip, Move, Play
from rules.losers_board import CARD_SUIT


class LosersHand:
    """The Rights of Losers menus for the shared guard (`bot.tables.hands`): drawn for a `seq`."""

    prefix = "losers"
    rules = RightsOfLosers

    def message(
        self, table: Table[RightsOfLosers], seat: Seat, lang: str, note: str | None = None
    ) -> Menu:
        return menus.menu(table, seat, lang, note=note)

    def shown_for(self, state: RightsOfLosers, seq: int) -> str:
        return str(seq)


HAND = LosersHand()


async def acting(
    interaction: discord.Interaction, game_id: int, seq: str
) -> Turn[RightsOfLosers] | None:
    """The click when this menu may act now; otherwise None after answering."""
    return await hands.on_turn(interaction, game_id, seq, HAND)


async def act(
    interaction: discord.Interaction, turn: Turn[RightsOfLosers], action: object, done: str
) -> None:
    """Play `action` for the seat; then show the menu of the moment with `done` on top."""

    def after(events: Sequence[Event]) -> Menu:
        return HAND.message(turn.table, turn.seat, turn.lang, note=done)

    await hands.act(interaction, turn, action, HAND, after)


def one(values: list[str]) -> str:
    if len(values) != 1:
        raise TableError("losers.hand.not_offered")
    return values[0]


def spot_of(code: str) -> tuple[int, int]:
    try:
        return parse_spot(code)
    except ValueError:
        raise TableError("losers.hand.not_offered") from None


def cell_of(code: str) -> tuple[int, int]:
    try:
        return parse_cell(code)
    except ValueError:
        raise TableError("losers.hand.not_offered") from None


# -- showing -----------------------------------------------------------------------------------


@handles(menus.REFRESH)
async def refresh(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    await hands.show_again(interaction, game_id, HAND)


# -- play and chip ---------------------------------------------------------------------------------


@handles(menus.PLAY)
async def play(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    chosen, lang = args[1], found.lang
    if chosen not in CARD_SUIT:
        raise TableError("losers.hand.not_offered")
    done = t(lang, "losers.hand.done_play", card=render.card(lang, chosen))
    await act(interaction, found, Play(chosen), done)


@handles_select(menus.CHIP)
async def chip(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    at, lang = spot_of(one(values)), found.lang
    done = t(lang, "losers.hand.done_chip", spot=render.spot(lang, at))
    await act(interaction, found, Chip(at), done)


# -- build -----------------------------------------------------------------------------------------


def _won(table: Table[RightsOfLosers], cards: list[str]) -> tuple[str, str]:
    won = menus.seen_by(table, None).won_cards  # the trick's cards: public
    if len(cards) != 2 or len(set(cards)) != 2 or not set(cards) <= set(won):
        raise TableError("losers.hand.not_offered")
    return cards[0], cards[1]


def _empty(table: Table[RightsOfLosers], cell: tuple[int, int]) -> tuple[int, int]:
    if cell not in menus.empty_cells(menus.seen_by(table, None)):
        raise TableError("losers.hand.not_offered")
    return cell


@handles_select(menus.BUILD)
async def build_cards(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, lang = found.table, found.lang
    cards = _won(table, values)
    await hands.answer(interaction, menus.build_cell_menu(table, lang, cards, None))


@handles_select(menus.BUILD_FIRST)
async def build_first(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, lang = found.table, found.lang
    cards = _won(table, args[1:3])
    first = _empty(table, cell_of(one(values)))
    await hands.answer(interaction, menus.build_cell_menu(table, lang, cards, first))


@handles_select(menus.BUILD_SECOND)
async def build_second(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, lang = found.table, found.lang
    cards = _won(table, args[1:3])
    first, second = cell_of(args[3]), cell_of(one(values))
    done = t(
        lang,
        "losers.hand.done_build",
        card1=render.card(lang, cards[0]),
        cell1=cell_name(first),
        card2=render.card(lang, cards[1]),
        cell2=cell_name(second),
    )
    await act(interaction, found, Build(cards, (first, second)), done)


# -- the winner's choice -----------------------------------------------------------------------


@handles_select(menus.APPOINT)
async def appoint(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, lang = found.table, found.lang
    lead = one(values)
    if lead not in table.seats:
        raise TableError("losers.hand.not_offered")
    done = t(lang, "losers.hand.done_appoint", player=menus.seat_label(table, lead, lang))
    await act(interaction, found, Appoint(lead), done)


@handles(menus.REVERSE)
async def reverse(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is not None:
        await act(interaction, found, REVERSE, t(found.lang, "losers.hand.done_reverse"))


@handles(menus.PASS)
async def pass_(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is not None:
        await act(interaction, found, PASS, t(found.lang, "losers.hand.done_pass"))


@handles(menus.MOVE)
async def move(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, seat, lang = found.table, found.seat, found.lang
    if not menus.legal_moves(table, seat):
        raise TableError("losers.hand.no_move")
    await hands.answer(interaction, menus.move_from_menu(table, seat, lang))


@handles_select(menus.MOVE_FROM)
async def move_from(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    table, seat, lang = found.table, found.seat, found.lang
    source = spot_of(one(values))
    if not any(m.source == source for m in menus.legal_moves(table, seat)):
        raise TableError("losers.hand.not_offered")
    await hands.answer(interaction, menus.move_to_menu(table, seat, lang, source))


@handles_select(menus.MOVE_TO)
async def move_to(
    interaction: discord.Interaction, game_id: int, args: list[str], values: list[str]
) -> None:
    found = await acting(interaction, game_id, args[0])
    if found is None:
        return
    lang = found.lang
    source, to = spot_of(args[1]), spot_of(one(values))
    done = t(
        lang, "losers.hand.done_move", source=render.spot(lang, source), to=render.spot(lang, to)
    )
    await act(interaction, found, Move(source, to), done)
