"""Rights of Losers' messages, laid out (`bot.losers.boards`): one table message per trick with
the field picture inside, edited after each action and closed with the trick's story; the final
standings with the judged field and the standings card in one gallery.

The picture is drawn off the event loop and uploaded once per trick, with the trick's first
table message (and once more with the final standings): the edits after each action keep it and
show it by its `attachment://` name, described as it was drawn (`PICTURED`).

Every public message is drawn from the public observation (`observation(None)`, G-3) and the typed
events, told apart by their classes."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.call_budget import Priority, at_priority
from bot.i18n import t
from bot.layout.board import Board, Picture
from bot.losers import boards, glance, menus, render
from bot.losers.hand import HAND
from bot.pictures import standings_card
from bot.runtime.memory import Slot
from bot.runtime.moment import Moment
from bot.runtime.recap import PlayedFor
from bot.runtime.table import Table
from bot.tables.messages import laid_out, seat_colour
from bot.tables.presenting import TABLE_MESSAGE, MessagePresenter, as_of, observed
from bot.tables.reasons import reveal_view
from data.store import ResultRow
from rules.base import Event
from rules.log import apply_entry, start
from rules.losers import RightsOfLosers
from rules.losers_actions import Play
from rules.losers_board import TRICKS
from rules.losers_events import GameOver, TrickStarted

log = logging.getLogger(__name__)

# What happened in the trick being settled, told on its table message and in its recap; kept
# by the table (`Table.memory`), rebuilt from the log after a restart (`recall`).
STORY: Slot[list[render.StoryEvent]] = Slot("story", list)
# What the picture on the trick's table message shows, for screen readers: it was drawn when the
# trick's first message was posted, and every edit of that message keeps it (None: not known).
PICTURED: Slot[str | None] = Slot("pictured", lambda: None)


def trick_over(events: Sequence[Event]) -> TrickStarted | GameOver | None:
    """The event that closes a trick, if these events close one."""
    return next((e for e in events if isinstance(e, TrickStarted | GameOver)), None)


def story_of(log: Mapping[str, Any]) -> list[render.StoryEvent]:
    """The story of the trick a log stops in, replayed as `events` told it."""
    state, story = start(log), list[render.StoryEvent]()
    for entry in log.get("actions", []):
        events = apply_entry(state, entry)
        story.extend(e for e in events if isinstance(e, render.STORY))
        if trick_over(events) is not None:
            story = []
    return story


class LosersPresenter(MessagePresenter[RightsOfLosers]):
    game = RightsOfLosers.name
    colour = render.COLOUR
    hand = HAND

    def recall(self, table: Table[RightsOfLosers], log: Mapping[str, Any]) -> None:
        table.memory.set(STORY, story_of(log))

    # -- rendering -------------------------------------------------------------------------------

    def played_line(self, play: PlayedFor, name: Callable[[str], str], lang: str) -> str:
        """A card played, or the chip, build or choice as the trick's story tells it."""
        if isinstance(play.action, Play):
            return t(lang, "losers.recap.played", card=render.card(lang, play.action.card))
        story = [e for e in play.events if isinstance(e, render.STORY)]
        told = [render.story_line(e, lang, name) for e in story]
        return " ".join(told) or super().played_line(play, name, lang)

    def names(self, table: Table[RightsOfLosers]) -> dict[str, str]:
        """Names for the picture and the text summary (no pings there); computers by seat."""
        lang = self.lang(table)
        return {player: menus.seat_label(table, player, lang) for player in table.seats}

    def computer_number(self, seating: Sequence[str], player: str) -> int | str:
        """A computer is "Bot N" by its seat in play (seat ① is Bot 1), as `menus.seat_label`
        numbers the seats, not by its number in the lobby."""
        return seating.index(player) + 1

    def accent(
        self, table: Table[RightsOfLosers], moment: Moment[RightsOfLosers]
    ) -> discord.Colour:
        """The colour of the seat to act as the picture colours it (by seat in play)."""
        nxt = moment.next
        if nxt is None:
            return self.colour
        return seat_colour(moment.state.players.index(nxt.player))

    def shown(
        self, table: Table[RightsOfLosers], at: Moment[RightsOfLosers] | None = None
    ) -> boards.Shown:
        """The public table as `at` left it (None: now), whoever asks (G-3)."""
        moment = as_of(table, at)
        story: list[render.StoryEvent] = table.memory.get(STORY)
        return boards.Shown(
            observed(moment, None),
            lambda p: self.seat_name(table, p),
            self.names(table),
            story,
            sorted(moment.autopilot),
        )

    def table_board(
        self,
        table: Table[RightsOfLosers],
        lang: str,
        viewer: str | None = None,
        at: Moment[RightsOfLosers] | None = None,
    ) -> Board:
        return boards.table_board(self.shown(table, at), lang, table.memory.get(PICTURED))

    def table_embed(
        self,
        table: Table[RightsOfLosers],
        lang: str,
        viewer: str | None = None,
        at: Moment[RightsOfLosers] | None = None,
    ) -> discord.Embed:
        """The table for `/losers status` (private answers stay embeds)."""
        return boards.table_embed(self.shown(table, at), lang)

    def picture(
        self, table: Table[RightsOfLosers], lang: str, at: Moment[RightsOfLosers] | None = None
    ) -> discord.File:
        return self.drawing(table, lang, at)()

    async def drawn_picture(
        self, table: Table[RightsOfLosers], lang: str, at: Moment[RightsOfLosers] | None = None
    ) -> discord.File:
        """`picture`, drawn in a worker thread from the observation taken on the loop."""
        return await asyncio.to_thread(self.drawing(table, lang, at))

    def drawing(
        self, table: Table[RightsOfLosers], lang: str, at: Moment[RightsOfLosers] | None = None
    ) -> Callable[[], discord.File]:
        """The picture to draw, from the public observation taken now (G-3: whoever asks)."""
        seen = as_of(table, at).state.observation(None)
        return functools.partial(render.picture, seen, seen.points_now(), lang, self.names(table))

    # -- the table message -----------------------------------------------------------------------

    async def post_table(
        self,
        table: Table[RightsOfLosers],
        moment: Moment[RightsOfLosers],
        lang: str,
        note: str | None = None,
    ) -> None:
        """A fresh table message (each trick has its own), the field attached as a PNG and shown
        in its layout; its edits keep the picture and its description (`PICTURED`)."""
        picture = await self.drawn_picture(table, lang, moment)
        table.memory.set(PICTURED, picture.description)
        await self.send(
            table, TABLE_MESSAGE, file=picture, **self.table_message(table, moment, lang, note)
        )

    async def refresh_table(
        self, table: Table[RightsOfLosers], moment: Moment[RightsOfLosers]
    ) -> None:
        """Edit the trick's table message after an action; the trick's picture stays (no upload)."""
        lang = self.lang(table)
        if table.message_ids.get(TABLE_MESSAGE) is None or not laid_out(table, TABLE_MESSAGE):
            await self.retire(table, TABLE_MESSAGE, t(lang, "table.moved"))
            await self.post_table(table, moment, lang)
            return
        message_id = table.message_ids[TABLE_MESSAGE]
        await self.bot.wait_until_ready()
        fields = self.table_message(table, moment, lang)
        with at_priority(Priority.COSMETIC):  # paced: one edit a second, the last one wins
            await self.pacer.edit(
                message_id, lambda: self._edit_table(table, moment, lang, message_id, fields)
            )

    async def _edit_table(
        self,
        table: Table[RightsOfLosers],
        moment: Moment[RightsOfLosers],
        lang: str,
        message_id: int,
        fields: dict[str, Any],
    ) -> None:
        try:
            await self.voice(table).edit(message_id, **fields)
        except discord.NotFound:
            if table.message_ids.get(TABLE_MESSAGE) == message_id:  # not replaced meanwhile
                table.message_ids.pop(TABLE_MESSAGE, None)
                await self.post_table(table, moment, lang)
        except discord.HTTPException as exc:
            log.warning("game %s: could not edit the table message: %s", table.game_id, exc)

    # -- what happens ----------------------------------------------------------------------------

    async def events(
        self,
        table: Table[RightsOfLosers],
        player: str,
        events: Sequence[Event],
        cause: str,
        moment: Moment[RightsOfLosers],
    ) -> None:
        lang = self.lang(table)
        story = table.memory.get(STORY)
        story.extend(e for e in events if isinstance(e, render.STORY))
        note = None
        if cause == "timeout":
            note = t(lang, "losers.timed_out", player=self.seat_name(table, player))
        ended = trick_over(events)
        if ended is None:
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table, moment)
            return
        trick = ended.trick - 1 if isinstance(ended, TrickStarted) else TRICKS
        table.memory.set(STORY, [])
        await self.close_table(table, *self.closed_trick(table, story, trick, lang))
        if isinstance(ended, TrickStarted):
            await self.post_table(table, moment, lang, note=note)
        elif note:
            await self.send(table, content=note)

    def closed_trick(
        self,
        table: Table[RightsOfLosers],
        story: Sequence[render.StoryEvent],
        trick: int,
        lang: str,
    ) -> tuple[str, discord.ui.View | None, Board]:
        """What `close_table` makes of a trick's message: its story instead of the table, with
        the "?" of the rules that decided it, above the picture it kept (still described)."""
        recap = render.recap(story, trick, lang, lambda p: self.seat_name(table, p))
        title = t(lang, "losers.table.title", trick=trick, tricks=TRICKS)
        pictured = table.memory.get(PICTURED) or title
        return recap, reveal_view(table.game_id, story), boards.closed_board(trick, lang, pictured)

    async def finished(self, table: Table[RightsOfLosers], results: Sequence[ResultRow]) -> None:
        lang = self.lang(table)
        state = table.state
        seen = state.observation(None)
        embed = discord.Embed(title=t(lang, "losers.end.title"), colour=render.COLOUR)
        lines = self.results_lines(table, results, lang)
        text = glance.short_summary(seen, seen.points_now(), lang, self.names(table))
        embed.description = "\n".join(lines) + "\n\n" + text
        name = lambda p: self.seat_name(table, p)  # noqa: E731
        render.final_fields(embed, seen, state.result().tie_break, lang, name)
        embed.set_footer(text=t(lang, "losers.end.footer", game_id=table.game_id))
        # One gallery: the judged field, and the standings card (none without results).
        field = await self.drawn_picture(table, lang)
        card = await standings_card.standings_file(
            embed.title or "", results, lang, table.game_id, table.levels
        )
        files = [field] if card is None else [field, card]
        pictures = [Picture(f"attachment://{f.filename}", f.description or "") for f in files]
        await self.post_results(table, results, embed, pictures, files=files)

    # -- private answers -------------------------------------------------------------------------

    def status_picture(
        self, table: Table[RightsOfLosers], lang: str
    ) -> Callable[[], discord.File] | None:
        return self.drawing(table, lang)
