"""Kobayakawa's messages: one table message per round, each showdown, the standings with their
card, laid out as boards (`bot.kobayakawa.boards`); `/kobayakawa status` answers with the embed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import discord

from bot.i18n import t
from bot.kobayakawa import boards, look, render
from bot.kobayakawa.hand import HAND
from bot.kobayakawa.look import SEEN_DRAW as SEEN_DRAW  # its note, known here since before
from bot.layout.board import Board, compose, controls_of
from bot.pictures import standings_card
from bot.runtime.moment import Moment
from bot.runtime.recap import PlayedFor
from bot.runtime.table import Table
from bot.tables.messages import seat_colour
from bot.tables.presenting import MessagePresenter, as_of, observed
from bot.tables.reasons import reveal_view
from data.store import ResultRow
from rules.base import Event
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import Draw, Drew, GameEnded, Showdown
from rules.kobayakawa_view import KobayakawaObservation

Drawn = TypeVar("Drawn", Board, discord.Embed)


class KobayakawaPresenter(MessagePresenter[Kobayakawa]):
    game = Kobayakawa.name
    colour = render.COLOUR
    hand = HAND

    # -- the drawn card, seen (B-3) --------------------------------------------------------------
    # The steps live in `bot.kobayakawa.look`, which the menu uses too without importing this
    # presenter; here the presenter restores the look when a table comes back (`table_opened`).

    async def mark_seen_draw(self, table: Table[Kobayakawa], player: str, seq: int) -> int | None:
        return await look.mark_seen_draw(table, player, seq)

    def has_seen_draw(self, table: Table[Kobayakawa], player: str, seq: int) -> bool:
        return look.has_seen_draw(table, player, seq)

    def restore_seen_draw(self, table: Table[Kobayakawa]) -> bool:
        return look.restore_seen_draw(table)

    async def table_opened(
        self, table: Table[Kobayakawa], restored: bool, moment: Moment[Kobayakawa]
    ) -> None:
        if restored:
            # First, before any await: this job is the table's first, and it starts before the
            # turn clock or a computer player can act on the restored state.
            self.restore_seen_draw(table)
        await super().table_opened(table, restored, moment)

    # -- messages ----------------------------------------------------------------------------------

    def played_line(self, play: PlayedFor, name: Callable[[str], str], lang: str) -> str:
        """A draw says which card was kept (the member's own to know); the rest as the table
        told it."""
        drew = next((e for e in play.events if isinstance(e, Drew)), None)
        if isinstance(play.action, Draw) and drew is not None:
            return t(lang, f"kobayakawa.recap.kept_{play.action.keep}", card=drew.discarded)
        for event in play.events:
            if isinstance(event, Event) and (line := render.event_line(event, lang, name)):
                return line
        return super().played_line(play, name, lang)

    def table_board(
        self,
        table: Table[Kobayakawa],
        lang: str,
        viewer: str | None = None,
        at: Moment[Kobayakawa] | None = None,
    ) -> Board:
        return self.drawn(boards.table_board, table, lang, viewer, at)

    def table_embed(
        self,
        table: Table[Kobayakawa],
        lang: str,
        viewer: str | None = None,
        at: Moment[Kobayakawa] | None = None,
    ) -> discord.Embed:
        """The table as `/kobayakawa status` shows it (the table message is the board)."""
        return self.drawn(render.table_embed, table, lang, viewer, at)

    def drawn(
        self,
        draw: Callable[[KobayakawaObservation, str, render.Namer, Sequence[str]], Drawn],
        table: Table[Kobayakawa],
        lang: str,
        viewer: str | None,
        at: Moment[Kobayakawa] | None,
    ) -> Drawn:
        """The table drawn by `draw` (as a board or an embed), as `viewer` may see it."""
        moment = as_of(table, at)
        return draw(
            observed(moment, viewer),  # G-3: public, or the viewer's own card too
            lang,
            lambda p: self.seat_name(table, p),
            sorted(moment.autopilot),
        )

    async def events(
        self,
        table: Table[Kobayakawa],
        player: str,
        events: Sequence[Event],
        cause: str,
        moment: Moment[Kobayakawa],
    ) -> None:
        lang = self.lang(table)
        note = None
        if cause == "timeout":
            note = t(lang, "kobayakawa.timed_out", player=self.seat_name(table, player))
        showdown = boards.showdown_board(events, lang, lambda p: self.seat_name(table, p))
        if showdown is None:
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table, moment)
            return
        ended = next(e for e in events if isinstance(e, render.RoundEnd))
        over = t(lang, "kobayakawa.table.round_over", round=ended.round)
        await self.close_table(table, over, reveal_view(table.game_id, events))
        view = reveal_view(table.game_id, events)  # a view each: the closed round, the showdown
        showdown.note(note)
        showdown.controls = controls_of(view)
        winner = next((e.winner for e in events if isinstance(e, Showdown)), None)
        if winner in table.seats:  # the round's winner's colour
            showdown.accent = seat_colour(list(table.seats).index(winner))
        await self.publish(table, None, compose(showdown))
        if not any(isinstance(e, GameEnded) for e in events):
            await self.post_table(table, moment, lang)  # a fresh table message for the new round

    async def finished(self, table: Table[Kobayakawa], results: Sequence[ResultRow]) -> None:
        lang = self.lang(table)
        lines = self.results_lines(table, results, lang)
        board = boards.standings_board(lines, lang, table.game_id)
        files, pictures = await standings_card.card_pictures(
            board.title, results, lang, table.game_id, table.levels
        )
        await self.post_results(table, results, board, pictures, files=files)
