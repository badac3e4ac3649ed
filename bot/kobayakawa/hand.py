"""The private card menu: Draw (then keep which?) or Replace Kobayakawa; Fight or Pass.

Custom ids carry the table's `seq` (the number of actions so far): a menu from an earlier turn
answers with the current one instead of acting. "Draw" makes the player look at the drawn card
(B-3, `Kobayakawa.look`, kept as a game note across a restart): from then on the rules allow
only the two keep choices, and the menu offers nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.kobayakawa import look, render
from bot.runtime.table import Table
from bot.tables import hands
from bot.tables.buttons import CustomIdArgs, button, handles, view_of
from bot.tables.hands import Menu
from bot.tables.replies import ephemeral
from data.store import Seat
from rules.base import Event
from rules.kobayakawa import DRAW as DRAW_PHASE
from rules.kobayakawa import ROUNDS, Kobayakawa
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    Fought,
    KobayakawaReplaced,
    Passed,
)

DRAW, KEEP, REPLACE_VERB, FIGHT, PASS, SHOW = "kbd", "kbk", "kbr", "kbf", "kbp", "kbh"
KEEPS = {"held": KEEP_HELD, "drawn": KEEP_DRAWN}


def hand_message(table: Table[Kobayakawa], seat: Seat, lang: str, note: str | None = None) -> Menu:
    """The player's card and, on their turn, the buttons of what they may do now."""
    player = seat.player
    seen = table.state.observation(player)
    gid, seq = table.game_id, menu_key(table.state, table.seq)
    embed = discord.Embed(
        title=t(lang, "kobayakawa.hand.title", round=seen.round, rounds=ROUNDS),
        colour=render.COLOUR,
    )
    lines = [note] if note else []
    items: list[discord.ui.Item[Any]] = []
    # B-3: the drawn card is in the player's observation once they looked at it (pressed Draw)
    drawn = None
    if seen.over:
        lines.append(t(lang, "kobayakawa.hand.over"))
    elif player in seen.out:
        lines.append(t(lang, "kobayakawa.hand.out"))
    elif seen.to_act == player and seen.phase == DRAW_PHASE:
        if seen.drawn is not None:
            drawn = seen.drawn
            assert seen.card is not None  # the player to draw holds a card
            lines.append(t(lang, "kobayakawa.hand.keep_turn", drawn=render.card(drawn)))
            items += keep_buttons(gid, seq, seen.card, drawn, lang)
        else:
            lines.append(t(lang, "kobayakawa.hand.draw_turn"))
            items += [
                button(
                    DRAW,
                    gid,
                    seq,
                    label=t(lang, "kobayakawa.hand.draw"),
                    style=discord.ButtonStyle.primary,
                    emoji="🂠",
                ),
                button(
                    REPLACE_VERB,
                    gid,
                    seq,
                    label=t(lang, "kobayakawa.hand.replace"),
                    emoji=render.KOBAYAKAWA,
                ),
            ]
    elif seen.to_act == player or player in seen.waiting_for:
        stake = seen.stakes[player]
        at_once = "step_turn" if seen.waiting_for else "fight_turn"  # H-2: all choose at once
        lines.append(t(lang, f"kobayakawa.hand.{at_once}", stake=stake))
        items += [
            button(
                FIGHT,
                gid,
                seq,
                label=t(lang, "kobayakawa.hand.fight", stake=stake),
                style=discord.ButtonStyle.danger,
                emoji="⚔️",
            ),
            button(PASS, gid, seq, label=t(lang, "kobayakawa.hand.pass"), emoji="🏳️"),
        ]
    elif seen.my_choice is not None:  # H-2: chosen, kept aside until everyone has
        count = len(seen.waiting_for)
        lines.append(t(lang, f"kobayakawa.hand.chosen_{seen.my_choice}", count=count))
        items.append(button(SHOW, gid, label=t(lang, "kobayakawa.hand.refresh"), emoji="🔄"))
    elif seen.to_act is not None:
        name = table.seats[seen.to_act].display_name
        lines.append(t(lang, "kobayakawa.hand.waiting", player=name))
        items.append(button(SHOW, gid, label=t(lang, "kobayakawa.hand.refresh"), emoji="🔄"))
    embed.description = "\n".join(lines)
    if seen.card is not None and not seen.over:
        embed.add_field(name=t(lang, "kobayakawa.hand.card"), value=render.card(seen.card))
        if drawn is not None:
            embed.add_field(name=t(lang, "kobayakawa.hand.drawn"), value=render.card(drawn))
    embed.add_field(
        name=t(lang, "kobayakawa.hand.kobayakawa"),
        value=f"{render.KOBAYAKAWA} **{seen.kobayakawa}**",
    )
    embed.add_field(name=t(lang, "kobayakawa.hand.kamons"), value=f"🏵️ {seen.kamons.get(player, 0)}")
    return embed, (view_of(*items) if items else None)


def menu_key(state: Kobayakawa, seq: int) -> int:
    """What a menu is drawn for: the table's `seq`; in a fight phase chosen at once (H-2), the
    round as a negative number instead, so that another's choice leaves a menu current."""
    nxt = state.next()
    return -state.round if nxt is not None and nxt.players else seq


def keep_buttons(
    gid: int, seq: int, held: int, drawn: int, lang: str
) -> list[discord.ui.Item[Any]]:
    return [
        button(
            KEEP,
            gid,
            seq,
            "held",
            label=t(lang, "kobayakawa.hand.keep_held", card=held),
            style=discord.ButtonStyle.primary,
        ),
        button(
            KEEP,
            gid,
            seq,
            "drawn",
            label=t(lang, "kobayakawa.hand.keep_drawn", card=drawn),
            style=discord.ButtonStyle.primary,
        ),
    ]


class KobayakawaHand:
    """Kobayakawa's card menu for the shared guard (`bot.tables.hands`): drawn for a `seq`."""

    prefix = "kobayakawa"
    rules = Kobayakawa

    def message(
        self, table: Table[Kobayakawa], seat: Seat, lang: str, note: str | None = None
    ) -> Menu:
        return hand_message(table, seat, lang, note)

    def shown_for(self, state: Kobayakawa, seq: int) -> str:
        return str(menu_key(state, seq))


HAND = KobayakawaHand()


def _seq(args: list[str]) -> str:
    """The `seq` a menu was drawn for; anything but a number is a forged id."""
    return str(CustomIdArgs(args).number(0))


def _done(text: Callable[[Sequence[Event]], str]) -> Callable[[Sequence[Event]], Menu]:
    """The menu after acting: what was done (worded from its events), no more buttons."""

    def menu(events: Sequence[Event]) -> Menu:
        return discord.Embed(description=text(events), colour=render.COLOUR), None

    return menu


@handles(SHOW)
async def show_again(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    await hands.show_again(interaction, game_id, HAND)


@handles(DRAW)
async def draw(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    """Show the drawn card next to the player's own; from now on only keeping is offered."""
    turn = await hands.on_turn(interaction, game_id, _seq(args), HAND)
    if turn is None:
        return
    table, seat = turn.table, turn.seat
    if KEEP_HELD not in table.state.legal_actions(seat.player):  # not a draw turn (B-3)
        await hands.show_again(interaction, game_id, HAND)
        return
    await look.mark_seen_draw(table, seat.player, table.seq)
    await hands.answer(interaction, hand_message(table, seat, turn.lang))


@handles(KEEP)
async def keep(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    turn = await hands.on_turn(interaction, game_id, _seq(args), HAND)
    if turn is None:
        return
    state, player = turn.table.state, turn.seat.player
    # The menu offers keeping only once the drawn card was looked at (its observation's
    # `drawn`); a forged id may keep before that, and its answer names the drawn card all the
    # same, which only the rules' `drawn_card` gives before a look.
    held, drawn = state.observation(player).card, state.drawn_card(player)
    action = args.one_of(1, KEEPS)
    kept, discarded = (drawn, held) if action is KEEP_DRAWN else (held, drawn)
    text = t(
        turn.lang,
        "kobayakawa.hand.done_keep",
        kept=render.card(kept or 0),
        discarded=render.card(discarded or 0),
    )
    await hands.act(interaction, turn, action, HAND, _done(lambda events: text))


@handles(REPLACE_VERB)
async def replace(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    turn = await hands.on_turn(interaction, game_id, _seq(args), HAND)
    if turn is None:
        return
    lang = turn.lang
    if look.has_seen_draw(turn.table, turn.seat.player, turn.table.seq):
        await ephemeral(interaction, t(lang, "kobayakawa.hand.already_drawn"))
        return

    def replaced(events: Sequence[Event]) -> str:
        new = next(e.kobayakawa for e in events if isinstance(e, KobayakawaReplaced))
        return t(lang, "kobayakawa.hand.done_replace", card=render.card(new))

    await hands.act(interaction, turn, REPLACE, HAND, _done(replaced))


@handles(FIGHT)
async def fight(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    turn = await hands.on_turn(interaction, game_id, _seq(args), HAND)
    if turn is None:
        return
    lang = turn.lang

    player = turn.seat.player

    def fought(events: Sequence[Event]) -> str:
        bet = next((e.bet for e in events if isinstance(e, Fought) and e.player == player), None)
        if bet is None:  # H-2: kept aside until everyone has chosen
            return chosen(turn.table, player, "fight", lang)
        return t(lang, "kobayakawa.hand.done_fight", bet=bet)

    await hands.act(interaction, turn, FIGHT_ACTION, HAND, _done(fought))


@handles(PASS)
async def pass_(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    turn = await hands.on_turn(interaction, game_id, _seq(args), HAND)
    if turn is None:
        return
    lang, player = turn.lang, turn.seat.player

    def passed(events: Sequence[Event]) -> str:
        if not any(isinstance(e, Passed) and e.player == player for e in events):
            return chosen(turn.table, player, "pass", lang)  # H-2: kept aside
        return t(lang, "kobayakawa.hand.done_pass")

    await hands.act(interaction, turn, PASS_ACTION, HAND, _done(passed))


def chosen(table: Table[Kobayakawa], player: str, choice: str, lang: str) -> str:
    """A choice kept aside (H-2), and how many are still to choose."""
    nxt = table.state.next()
    count = len(nxt.players) if nxt is not None else 0
    return t(lang, f"kobayakawa.hand.chosen_{choice}", count=count)
