"""High card's public messages: a table message per round, each reveal, the final standings.

Built on `MessagePresenter` like the product's games: the lobby, the turn pings, reminders,
autopilot and cancellations come from there unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.runtime.table import Table
from bot.tables.presenting import TABLE_MESSAGE, MessagePresenter
from data.store import ResultRow
from rules.base import Event
from tests.games.highcard.bot import render
from tests.games.highcard.bot.hand import HAND
from tests.games.highcard.rules import HighCard, Revealed

log = logging.getLogger(__name__)


class HighCardPresenter(MessagePresenter[HighCard]):
    game = HighCard.name
    colour = render.COLOUR
    hand = HAND

    def table_embed(
        self, table: Table[HighCard], lang: str, viewer: str | None = None
    ) -> discord.Embed:
        return render.table_embed(
            table.state,
            lang,
            lambda p: self.seat_name(table, p),
            viewer,
            sorted(table.autopilot),
        )

    async def events(
        self, table: Table[HighCard], player: str, events: Sequence[Event], cause: str
    ) -> None:
        lang = self.lang(table)
        note = None
        if cause == "timeout":
            note = t(lang, "table.timed_out", player=self.seat_name(table, player))
        reveal = render.reveal_embed(events, lang, lambda p: self.seat_name(table, p))
        if reveal is None:  # a card went down face down: the round's message says so
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table)
            return
        ended = next(e for e in events if isinstance(e, Revealed))
        await self._close_round(table, t(lang, "highcard.table.round_over", round=ended.round))
        await self.send(table, content=note, embed=reveal)
        if not table.state.over:
            await self.post_table(table, lang)  # a fresh table message for the next round

    async def _close_round(self, table: Table[HighCard], text: str) -> None:
        """The finished round's table message: no more turn ping, no more buttons."""
        message_id = table.message_ids.pop(TABLE_MESSAGE, None)
        if message_id is None:
            return
        await self.bot.wait_until_ready()
        try:
            await self.channel(table).get_partial_message(message_id).edit(content=text, view=None)
        except discord.HTTPException as exc:
            log.warning("game %s: could not close the round's message: %s", table.game_id, exc)

    async def finished(self, table: Table[HighCard], results: Sequence[ResultRow]) -> None:
        lang = self.lang(table)
        embed = discord.Embed(title=t(lang, "highcard.end.title"), colour=render.COLOUR)
        lines = self.results_lines(table, results, lang)
        embed.description = "\n".join([*lines, "", t(lang, "highcard.end.points")])
        embed.set_footer(text=t(lang, "highcard.end.footer", game_id=table.game_id))
        await self.post_results(table, results, embed)
