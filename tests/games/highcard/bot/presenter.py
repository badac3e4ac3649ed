"""High card's public messages: a table message per round, each reveal, the final standings.

Built on `MessagePresenter` like the product's games: the lobby, the turn pings, reminders,
autopilot and cancellations come from there unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.layout.board import layout_of
from bot.runtime.moment import Moment
from bot.runtime.table import Table
from bot.tables.presenting import MessagePresenter, as_of
from data.store import ResultRow
from rules.base import Event
from tests.games.highcard.bot import render
from tests.games.highcard.bot.hand import HAND
from tests.games.highcard.rules import HighCard, Revealed


class HighCardPresenter(MessagePresenter[HighCard]):
    game = HighCard.name
    colour = render.COLOUR
    hand = HAND

    def table_embed(
        self,
        table: Table[HighCard],
        lang: str,
        viewer: str | None = None,
        at: Moment[HighCard] | None = None,
    ) -> discord.Embed:
        moment = as_of(table, at)
        return render.table_embed(
            moment.state,
            lang,
            lambda p: self.seat_name(table, p),
            viewer,
            sorted(moment.autopilot),
        )

    async def events(
        self,
        table: Table[HighCard],
        player: str,
        events: Sequence[Event],
        cause: str,
        moment: Moment[HighCard],
    ) -> None:
        lang = self.lang(table)
        note = None
        if cause == "timeout":
            note = t(lang, "table.timed_out", player=self.seat_name(table, player))
        reveal = render.reveal_embed(events, lang, lambda p: self.seat_name(table, p))
        if reveal is None:  # a card went down face down: the round's message says so
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table, moment)
            return
        ended = next(e for e in events if isinstance(e, Revealed))
        await self.close_table(table, t(lang, "highcard.table.round_over", round=ended.round))
        await self.publish(table, None, layout_of(reveal, note=note, lang=lang))
        if not moment.state.over:
            await self.post_table(table, moment, lang)  # a fresh table message for the next round

    async def finished(self, table: Table[HighCard], results: Sequence[ResultRow]) -> None:
        lang = self.lang(table)
        embed = discord.Embed(title=t(lang, "highcard.end.title"), colour=render.COLOUR)
        lines = self.results_lines(table, results, lang)
        embed.description = "\n".join([*lines, "", t(lang, "highcard.end.points")])
        embed.set_footer(text=t(lang, "highcard.end.footer", game_id=table.game_id))
        await self.post_results(table, results, embed)
