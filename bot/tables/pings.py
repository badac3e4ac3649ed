"""Telling members it is their turn: one new message per turn (only a new message's mention
notifies), or their DM; for a step of choices made at once, one message for all it awaits.
The standing ping is deleted once its turn or step is over, so a thread keeps one at most."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.call_budget import Priority, at_priority
from bot.i18n import t
from bot.runtime.memory import Slot
from bot.runtime.moment import Moment
from bot.runtime.table import Table
from bot.tables import delivery
from bot.tables.hand_view import HandView
from bot.tables.messages import Messages

log = logging.getLogger(__name__)

PING_MESSAGE = "ping"  # the short "your turn" message, deleted when that turn ends
# The member the standing ping message told (None: no ping standing, as after a restart), or
# STEP: the ping of a step of choices made at once, which stands until the step is over.
PINGED: Slot[str | None] = Slot("pinged", lambda: None)
STEP = "\x00step"  # never a player's name


class TurnPings(Messages):
    """The turn pings of a game's presenter (`MessagePresenter`)."""

    hand: HandView[Any]  # the game's private menu, sent along with a ping by DM

    def seat_name(self, table: Table[Any], player: str) -> str:
        """A seat named as the game's presenter names it at the table (`MessagePresenter`)."""
        raise NotImplementedError

    async def turn(self, table: Table[Any], moment: Moment[Any]) -> None:
        """Tell a member their turn with a new message (only a new message's mention notifies);
        the previous ping goes once its turn is over, so the thread keeps one at most. The
        ping is the first of the bot's calls to go (`bot.call_budget`): someone waits on it."""
        with at_priority(Priority.PING):
            await self._turn(table, moment)

    async def _turn(self, table: Table[Any], moment: Moment[Any]) -> None:
        pinged = table.memory.get(PINGED)
        nxt = moment.next
        goes_on = nxt is not None and (nxt.player == pinged or (nxt.players and pinged == STEP))
        if moment.turn_of is None and not moment.step_of and goes_on:
            return  # the same turn goes on (several actions in a row), or the same step
        await self.delete_ping(table)
        if moment.step_of:
            await self.step_ping(table, moment.step_of)
            return
        if moment.turn_of is None:
            return
        seat = table.seats[moment.turn_of]
        if seat.user_id is None:
            return  # never: a turn is a member's (`bot.runtime.moment.turn_began`)
        lang = self.lang(table)
        if await delivery.ping_by_dm(self.bot, table, seat, self.hand, lang, self.title):
            table.memory.set(PINGED, moment.turn_of)  # their DM is the ping: none in public
            return
        await self.send(
            table,
            PING_MESSAGE,
            content=t(lang, "table.turn_ping", player=self.seat_name(table, seat.player)),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(seat.user_id)], roles=False, everyone=False
            ),
        )
        table.memory.set(PINGED, moment.turn_of)

    async def step_ping(self, table: Table[Any], members: Sequence[str]) -> None:
        """A step of choices made at once opened: every member it awaits is told once, by DM
        for those who chose so, the others together in one new message that mentions them."""
        lang = self.lang(table)
        public = []
        for player in members:
            seat = table.seats[player]
            if seat.user_id is None:
                continue
            if not await delivery.ping_by_dm(self.bot, table, seat, self.hand, lang, self.title):
                public.append(seat)
        table.memory.set(PINGED, STEP)
        if not public:
            return
        names = ", ".join(self.seat_name(table, seat.player) for seat in public)
        await self.send(
            table,
            PING_MESSAGE,
            content=t(lang, "table.step_ping", players=names),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(s.user_id) for s in public if s.user_id is not None],
                roles=False,
                everyone=False,
            ),
        )

    async def delete_ping(self, table: Table[Any]) -> None:
        table.memory.set(PINGED, None)
        message_id = table.message_ids.pop(PING_MESSAGE, None)
        if message_id is None:
            return
        await table.remember_messages()  # first: a restart must not delete it again
        await self.bot.wait_until_ready()
        try:
            with at_priority(Priority.COSMETIC):  # the new ping says whose turn it is
                await self.voice(table).delete(message_id)
        except discord.NotFound:
            pass  # deleted by a moderator, or gone with the thread
        except discord.HTTPException as exc:
            log.warning("game %s: could not delete the turn ping: %s", table.game_id, exc)
