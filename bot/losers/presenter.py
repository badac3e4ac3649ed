"""Rights of Losers' messages: one table message per trick with the field picture, edited after
each action and closed with the trick's story; the final standings with the judged field.

Every public message is drawn from the public observation (`observation(None)`, G-3) and the typed
events, told apart by their classes."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.losers import menus, render
from bot.runtime.lobby import Lobby
from bot.runtime.table import Table
from bot.tables.presenting import TABLE_MESSAGE, Item, MessagePresenter
from data.store import ResultRow
from rules.base import Event
from rules.losers_board import TRICKS
from rules.losers_events import GameOver, TrickStarted

log = logging.getLogger(__name__)

QUIET = discord.AllowedMentions.none()


class LosersPresenter(MessagePresenter):
    game = "rights-of-losers"
    colour = render.COLOUR

    def __init__(self, bot: discord.Client) -> None:
        super().__init__(bot)
        # game id -> what happened in the trick being settled (memory only: after a restart the
        # table message shows what the state itself tells).
        self._story: dict[int, list[render.StoryEvent]] = {}

    # -- rendering -------------------------------------------------------------------------------

    def names(self, table: Table) -> dict[str, str]:
        """Display names, for the picture and the text summary (no pings there)."""
        return {player: seat.display_name for player, seat in table.seats.items()}

    def table_embed(self, table: Table, lang: str, viewer: str | None = None) -> discord.Embed:
        seen = menus.seen_by(table, None)
        return render.table_embed(
            seen,
            seen.points_now(),
            lang,
            lambda p: self.seat_name(table, p),
            self.names(table),
            self._story.get(table.game_id, ()),
            sorted(table.autopilot),
        )

    def picture(self, table: Table, lang: str) -> discord.File:
        seen = menus.seen_by(table, None)
        return render.picture(seen, seen.points_now(), lang, self.names(table))

    # -- the table message -----------------------------------------------------------------------

    async def post_table(self, table: Table, lang: str, note: str | None = None) -> None:
        """A fresh table message (each trick has its own), the field attached as a PNG."""
        await self.send(
            table,
            TABLE_MESSAGE,
            content=self.turn_content(table, lang, note),
            embed=self.table_embed(table, lang),
            view=self.table_view(table, lang),
            file=self.picture(table, lang),
        )

    async def refresh_table(self, table: Table) -> None:
        """Edit the trick's table message after an action, with a new picture of the field."""
        lang = self.lang(table)
        message_id = table.message_ids.get(TABLE_MESSAGE)
        if message_id is None:
            await self.post_table(table, lang)
            return
        await self.bot.wait_until_ready()
        try:
            await (
                self.channel(table)
                .get_partial_message(message_id)
                .edit(
                    content=self.turn_content(table, lang) or "",
                    embed=self.table_embed(table, lang),
                    view=self.table_view(table, lang),
                    attachments=[self.picture(table, lang)],
                )
            )
        except discord.NotFound:
            table.message_ids.pop(TABLE_MESSAGE, None)
            await self.post_table(table, lang)
        except discord.HTTPException as exc:
            log.warning("game %s: could not edit the table message: %s", table.game_id, exc)

    async def _close_trick(self, table: Table, text: str) -> None:
        """The finished trick's message: its story instead of the turn, no buttons, its picture."""
        message_id = table.message_ids.pop(TABLE_MESSAGE, None)
        if message_id is None:
            return
        await self.bot.wait_until_ready()
        try:
            await (
                self.channel(table)
                .get_partial_message(message_id)
                .edit(content=text, embeds=[], view=None, allowed_mentions=QUIET)
            )
        except discord.HTTPException as exc:
            log.warning("game %s: could not close the trick's message: %s", table.game_id, exc)

    # -- what happens ----------------------------------------------------------------------------

    async def events(self, table: Table, player: str, events: Sequence[Event], cause: str) -> None:
        lang = self.lang(table)
        story = self._story.setdefault(table.game_id, [])
        story.extend(e for e in events if isinstance(e, render.STORY))
        note = None
        if cause == "timeout":
            note = t(lang, "losers.timed_out", player=self.seat_name(table, player))
        ended = next((e for e in events if isinstance(e, TrickStarted | GameOver)), None)
        if ended is None:
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table)
            return
        trick = ended.trick - 1 if isinstance(ended, TrickStarted) else TRICKS
        self._story[table.game_id] = []
        name = lambda p: self.seat_name(table, p)  # noqa: E731
        await self._close_trick(table, render.recap(story, trick, lang, name))
        if isinstance(ended, TrickStarted):
            await self.post_table(table, lang, note=note)
        elif note:
            await self.send(table, content=note)

    async def finished(self, table: Table, results: Sequence[ResultRow]) -> None:
        self._story.pop(table.game_id, None)
        lang = self.lang(table)
        state = menus.state_of(table)
        seen = state.observation(None)
        embed = discord.Embed(title=t(lang, "losers.end.title"), colour=render.COLOUR)
        lines = self.results_lines(table, results, lang)
        text = render.summary(seen, seen.points_now(), lang, self.names(table))
        embed.description = "\n".join(lines) + "\n\n" + text
        name = lambda p: self.seat_name(table, p)  # noqa: E731
        render.final_fields(embed, seen, state.result().tie_break, lang, name)
        embed.set_image(url=f"attachment://{render.PICTURE}")
        embed.set_footer(text=t(lang, "losers.end.footer", game_id=table.game_id))
        await self.send(table, embed=embed, file=self.picture(table, lang))

    async def cancelled(self, item: Item, reason: str) -> None:
        self._story.pop(item.game_id, None)
        await super().cancelled(item, reason)

    # -- private answers -------------------------------------------------------------------------

    def status_message(self, item: Lobby | Table, lang: str, viewer: str | None) -> dict[str, Any]:
        if isinstance(item, Lobby):
            return {"embed": self.lobby_embed(item, lang)}
        return {"embed": self.table_embed(item, lang), "file": self.picture(item, lang)}
