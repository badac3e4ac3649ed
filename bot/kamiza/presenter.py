"""KAMIZA's messages: the table each round, the reveal, the standings, the private hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.kamiza import boards, render
from bot.kamiza.hand import HAND
from bot.layout.board import Board, compose, controls_of
from bot.pictures import standings_card
from bot.runtime.moment import Moment
from bot.runtime.recap import PlayedFor
from bot.runtime.table import Table
from bot.tables.presenting import MessagePresenter, as_of, observed
from bot.tables.reasons import reveal_view
from data.store import ResultRow
from rules.base import Event
from rules.kamiza import Kamiza
from rules.kamiza_events import MatchEnded, RoundRevealed
from rules.kamiza_moves import Play


class KamizaPresenter(MessagePresenter[Kamiza]):
    game = Kamiza.name
    colour = render.COLOUR
    hand = HAND

    def options_text(self, options: dict[str, Any], lang: str) -> str:
        edition = t(lang, f"glossary.kamiza.edition.{options.get('edition', 'second')}")
        text = t(lang, "kamiza.table.edition", edition=edition)
        if options.get("advanced"):
            text += "\n" + t(lang, "kamiza.table.advanced")
        return text

    def table_board(
        self,
        table: Table[Kamiza],
        lang: str,
        viewer: str | None = None,
        at: Moment[Kamiza] | None = None,
    ) -> Board:
        moment = as_of(table, at)
        return boards.table_board(
            observed(moment, viewer), lang, lambda p: self.seat_name(table, p), moment.autopilot
        )

    def table_embed(
        self,
        table: Table[Kamiza],
        lang: str,
        viewer: str | None = None,
        at: Moment[Kamiza] | None = None,
    ) -> discord.Embed:
        moment = as_of(table, at)
        return render.table_embed(
            observed(moment, viewer),
            lang,
            lambda p: self.seat_name(table, p),
            sorted(moment.autopilot),
        )

    def played_line(self, play: PlayedFor, name: Callable[[str], str], lang: str) -> str:
        if not isinstance(play.action, Play):
            return super().played_line(play, name, lang)
        card, area = render.card(lang, play.action.card), render.area(lang, play.action.area)
        return t(lang, "kamiza.recap.played", card=card, area=area)

    async def events(
        self,
        table: Table[Kamiza],
        player: str,
        events: Sequence[Event],
        cause: str,
        moment: Moment[Kamiza],
    ) -> None:
        lang = self.lang(table)
        name: render.Namer = lambda p: self.seat_name(table, p)  # noqa: E731
        note = None
        if cause == "timeout":
            note = t(lang, "table.timed_out", player=name(player))
        reveal = boards.reveal_board(events, lang, name)
        if reveal is None:
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table, moment)
            return
        revealed = next(e for e in events if isinstance(e, RoundRevealed))
        over = t(lang, "kamiza.table.round_over", game=revealed.game, round=revealed.round)
        why = reveal_view(table.game_id, events)
        await self.close_table(table, over, why)
        reveal.controls = controls_of(why)
        await self.publish(table, None, compose(reveal.note(note)))
        if not any(isinstance(e, MatchEnded) for e in events):
            await self.post_table(table, moment, lang)

    async def finished(self, table: Table[Kamiza], results: Sequence[ResultRow]) -> None:
        """The final standings, their picture inside the board; the K-13 tie-break and who
        dropped out (K-10) below them."""
        lang = self.lang(table)
        state = table.state
        title = t(lang, "kamiza.end.title")
        board = Board(title=title, accent=render.COLOUR, lang=lang)
        board.footer = t(lang, "kamiza.end.footer", game_id=table.game_id)
        board.text(*self.results_lines(table, results, lang))
        tie_break = state.result().tie_break
        if tie_break:
            # K-13: the chicken tie-break shows each player's last unplayed card to the table
            kept = [
                f"{self.seat_name(table, p)} {render.card(lang, c)}"
                for p, c in state.unplayed.items()
            ]
            board.text(*kept, title=t(lang, f"kamiza.end.tie_{tie_break}"))
        dropped = state.observation(None).dropped
        if dropped:
            named = ", ".join(self.seat_name(table, p) for p in dropped)
            board.text(named, title=t(lang, "kamiza.end.dropped"))
        files, pictures = await standings_card.card_pictures(
            title, results, lang, table.game_id, table.levels
        )
        await self.post_results(table, results, board, pictures, files=files)
