"""Kobayakawa's messages: one table message per round, each showdown, the standings, the card."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.i18n import t
from bot.kobayakawa import render
from bot.runtime.table import Table
from bot.tables.presenting import TABLE_MESSAGE, MessagePresenter
from data.store import ResultRow
from rules.base import Event
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import KEEP_HELD, GameEnded

log = logging.getLogger(__name__)


def _state(table: Table) -> Kobayakawa:
    state = table.state
    assert isinstance(state, Kobayakawa)
    return state


SEEN_DRAW = "seen_draw"  # game note: [player, seq] of the turn whose drawn card was shown


class KobayakawaPresenter(MessagePresenter):
    game = "kobayakawa"
    colour = render.COLOUR

    # -- the drawn card, seen (B-3) ------------------------------------------------------------
    # The rules know that the player to draw looked at the drawn card (`Kobayakawa.look`): from
    # then on every path -- the menu, a timeout, autopilot -- can only keep one of the two cards.
    # A look is no log action, so it is kept as a game note and given back to the state when a
    # table is restored after a restart, before anyone can act (`table_opened`). The look itself
    # is a step of the rules with no typed-interface equivalent: `Kobayakawa.look`.

    async def mark_seen_draw(self, table: Table, player: str, seq: int) -> int | None:
        """Note, in the ledger and then in the rules, that `player` looks at the drawn card at
        turn `seq`; the card, or None if that turn is over meanwhile (nothing to show)."""
        await table.keep_note(SEEN_DRAW, [player, seq])
        if table.seq != seq:
            return None
        return _state(table).look(player)

    def has_seen_draw(self, table: Table, player: str, seq: int) -> bool:
        """Whether `player` has seen the drawn card at turn `seq`, which is the current one."""
        return seq == table.seq and _state(table).observation(player).drawn is not None

    def restore_seen_draw(self, table: Table) -> bool:
        """Give the state back the look its note records, if the note is about this very turn
        (a restart); whether it did."""
        note = table.notes.get(SEEN_DRAW)
        if not isinstance(note, list) or len(note) != 2 or note[1] != table.seq:
            return False
        state, player = _state(table), note[0]
        # A draw turn is one where keeping a card is legal (B-3, before or after the look).
        if not isinstance(player, str) or KEEP_HELD not in state.legal_actions(player):
            return False  # not that player's draw turn: an old note
        state.look(player)
        return True

    async def table_opened(self, table: Table, restored: bool) -> None:
        if restored:
            # First, before any await: this job is the table's first, and it starts before the
            # turn clock or a computer player can act on the restored state.
            self.restore_seen_draw(table)
        await super().table_opened(table, restored)

    # -- messages ----------------------------------------------------------------------------------

    def table_embed(self, table: Table, lang: str, viewer: str | None = None) -> discord.Embed:
        return render.table_embed(
            _state(table).observation(viewer),  # G-3: public, or the viewer's own card too
            lang,
            lambda p: self.seat_name(table, p),
            sorted(table.autopilot),
        )

    async def events(self, table: Table, player: str, events: Sequence[Event], cause: str) -> None:
        lang = self.lang(table)
        note = None
        if cause == "timeout":
            note = t(lang, "kobayakawa.timed_out", player=self.seat_name(table, player))
        showdown = render.showdown_embed(events, lang, lambda p: self.seat_name(table, p))
        if showdown is None:
            if note:
                await self.send(table, content=note)
            await self.refresh_table(table)
            return
        ended = next(e for e in events if isinstance(e, render.RoundEnd))
        await self._close_round(table, t(lang, "kobayakawa.table.round_over", round=ended.round))
        await self.send(table, content=note, embed=showdown)
        if not any(isinstance(e, GameEnded) for e in events):
            await self.post_table(table, lang)  # a fresh table message for the new round

    async def _close_round(self, table: Table, text: str) -> None:
        """The finished round's table message: no more turn ping, no more buttons."""
        message_id = table.message_ids.pop(TABLE_MESSAGE, None)
        if message_id is None:
            return
        await self.bot.wait_until_ready()
        try:
            await self.channel(table).get_partial_message(message_id).edit(content=text, view=None)
        except discord.HTTPException as exc:
            log.warning("game %s: could not close the round's message: %s", table.game_id, exc)

    async def finished(self, table: Table, results: Sequence[ResultRow]) -> None:
        lang = self.lang(table)
        embed = discord.Embed(title=t(lang, "kobayakawa.end.title"), colour=render.COLOUR)
        lines = self.results_lines(table, results, lang)
        embed.description = "\n".join([*lines, "", t(lang, "kobayakawa.end.kamons")])
        embed.set_footer(text=t(lang, "kobayakawa.end.footer", game_id=table.game_id))
        await self.send(table, embed=embed)
