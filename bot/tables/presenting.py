"""Posting and editing a table's messages; each game's presenter adds its own rendering."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import discord

from bot import web_paths as paths
from bot.call_budget import Priority, at_priority
from bot.i18n import t
from bot.layout.board import Board, Picture, compose, controls_of, from_embed
from bot.runtime.lobby import BOT_PREFIX, HOUSE_RULE, Lobby
from bot.runtime.memory import Slot
from bot.runtime.moment import Moment
from bot.runtime.recap import PlayedFor
from bot.runtime.table import Table
from bot.tables import delivery, ending
from bot.tables.buttons import button, view_of
from bot.tables.hand_view import HandView
from bot.tables.lobby_messages import LOBBY_MESSAGE, LobbyMessages
from bot.tables.messages import computer_name, laid_out, mention, seat_colour
from bot.tables.pings import TurnPings
from bot.tables.reasons import why_button
from bot.tables.replies import PrivateAnswer, answer_in_time, lang_of
from bot.weblinks import web_url
from data.store import GameRecord, GuildSettings, ResultRow, Seat
from rules.base import AnyGame

log = logging.getLogger(__name__)

TABLE_MESSAGE = "table"
QUIET = discord.AllowedMentions.none()
# The moment the round's table message shows now: its picture when the round is closed.
SHOWN: Slot[Moment[Any] | None] = Slot("shown", lambda: None)
G = TypeVar("G", bound=AnyGame)


def as_of(table: Table[G], at: Moment[G] | None) -> Moment[G]:
    """`at`, or the table as it is now (for an answer rendered at once, like a status)."""
    if at is not None:
        return at
    state = table.state
    return Moment(table.seq, state, state.round_number(), frozenset(table.autopilot), None)


def observed(moment: Moment[G], viewer: str | None) -> Any:
    """What `viewer` may see in `moment` (the game's observation); in a round's closing picture
    nobody is to act."""
    seen = moment.state.observation(viewer)
    return dataclasses.replace(seen, to_act=None) if moment.closing else seen


class MessagePresenter(TurnPings, LobbyMessages, Generic[G]):
    """The generic part of a game's presenter: lobby messages, notices, message bookkeeping.

    A game's presenter is a `MessagePresenter[TheGame]`: its tables are `Table[TheGame]`.
    """

    hand: HandView[G]  # the game's private menu, shown by `show_hand`

    # -- table notices -----------------------------------------------------------------------------

    def seat_name(self, table: Table[G], player: str) -> str:
        seat, lang = table.seats[player], self.lang(table)
        if not seat.is_bot:
            return mention(seat, lang)
        return self.recorded_name(table.seats, table.state.players, table.levels, player, lang)

    def computer_number(self, seating: Sequence[str], player: str) -> int | str:
        """The N of a computer's "Bot N": its number in the lobby. A game may number its
        computers by their seat in play instead (`seating`, the order of play)."""
        return player.removeprefix(BOT_PREFIX)

    def recorded_name(
        self,
        seats: Mapping[str, Seat],
        seating: Sequence[str],
        levels: Mapping[str, str],
        player: str,
        lang: str,
    ) -> str:
        """A seat named where no table is at hand (the recap, from the ledger's record) as
        `seat_name` names it at the table: a member's mention, a computer with its level.
        `seating` is the order of play, for a game that numbers its computers by it."""
        seat = seats.get(player)
        if seat is None:
            return player
        if seat.is_bot and player in seating:
            number = self.computer_number(seating, player)
            return f"🤖 {computer_name(number, lang, levels.get(player))}"
        return mention(seat, lang, levels.get(player))

    def table_controls(
        self, table: Table[G], moment: Moment[G], lang: str
    ) -> list[discord.ui.Item[Any]]:
        """The table's buttons: everyone's hand, "I'm back" while a seat is on autopilot, and
        the "?" of the rules of this step."""
        items: list[discord.ui.Item[Any]] = [
            button(
                "hand",
                table.game_id,
                label=t(lang, "table.your_hand"),
                style=discord.ButtonStyle.primary,
                emoji="🂠",
            )
        ]
        if moment.autopilot:
            items.append(button("back", table.game_id, label=t(lang, "table.im_back")))
        why = why_button(table.game_id, moment.state.rules_now())  # the rules of this step
        if why is not None:
            items.append(why)
        return items

    def accent(self, table: Table[G], moment: Moment[G]) -> discord.Colour:
        """The game's colour, or the colour of the seat whose turn it is."""
        nxt = moment.next
        if nxt is None or nxt.player not in table.seats:
            return self.colour
        return seat_colour(list(table.seats).index(nxt.player))

    def recall(self, table: Table[G], log: Mapping[str, Any]) -> None:
        """Nothing kept beyond the state and the notes; a presenter with `memory` rebuilds it."""

    async def table_opened(self, table: Table[G], restored: bool, moment: Moment[G]) -> None:
        lang = self.lang(table)
        if not restored and LOBBY_MESSAGE in table.message_ids:
            names = ", ".join(self.seat_name(table, p) for p in table.seats)
            await self.edit_or_send(
                table,
                LOBBY_MESSAGE,
                final=True,  # the lobby says "started" before the table appears below it
                view=self.lobby_over(lang, t(lang, "lobby.started", players=names)),
            )
        if restored and TABLE_MESSAGE in table.message_ids:
            # The message from before the restart would go on offering its buttons and naming
            # whose turn it was: retire it, the table continues in a fresh one below.
            await self.retire(table, TABLE_MESSAGE, t(lang, "table.moved"))
        note = t(lang, "table.restored") if restored else None
        await self.post_table(table, moment, lang, note=note)

    def turn_content(
        self, table: Table[G], moment: Moment[G], lang: str, note: str | None = None
    ) -> str | None:
        """The message text above the table: a note, and whose turn it is, named without a
        mention (an edit never notifies; the turn's own ping message does, see `turn`)."""
        nxt = moment.next
        content = note or ""
        if nxt is not None and nxt.players:  # a step of choices at once: who chose, not what
            chosen = len(getattr(moment.state.observation(None), "chosen", ()))
            names = ", ".join(self.plain_name(table, p, lang) for p in nxt.players)
            total = chosen + len(nxt.players)
            line = t(lang, "table.step_now", chosen=chosen, total=total, players=names)
            content = f"{content}\n{line}".strip()
        elif nxt is not None:
            who = self.plain_name(table, nxt.player, lang)
            content = f"{content}\n{t(lang, 'table.turn_now', player=who)}".strip()
        return content or None

    def plain_name(self, table: Table[G], player: str, lang: str) -> str:
        """A seat named in bold without a mention (a computer as "Bot N")."""
        seat = table.seats[player]
        if seat.is_bot:
            return self.recorded_name(table.seats, table.state.players, table.levels, player, lang)
        return t(lang, "table.member_name", mention=f"**{seat.display_name}**")

    def table_message(
        self, table: Table[G], moment: Moment[G], lang: str, note: str | None = None
    ) -> dict[str, Any]:
        """The round's table message as `moment` left it, laid out (a game adds its picture);
        the moment is kept as the one the message shows (`SHOWN`), for its closing picture."""
        table.memory.set(SHOWN, moment)
        board = self.table_board(table, lang, at=moment)
        if getattr(moment.state, HOUSE_RULE, False):  # a game with the house rule, playing it
            board.footer = " · ".join(
                filter(None, (t(lang, "table.house_rule_short"), board.footer))
            )
        board.note(self.turn_content(table, moment, lang, note))
        board.accent = self.accent(table, moment)
        board.controls = self.table_controls(table, moment, lang)
        return {"view": compose(board)}

    async def post_table(
        self, table: Table[G], moment: Moment[G], lang: str, note: str | None = None
    ) -> None:
        """Post a fresh table message (a new one each round: old messages are not edited)."""
        await self.send(table, TABLE_MESSAGE, **self.table_message(table, moment, lang, note))

    async def refresh_table(self, table: Table[G], moment: Moment[G]) -> None:
        """Edit this round's table message after a play (one call per play), to what the play
        left: `moment`, never the state a later play made."""
        lang = self.lang(table)
        with at_priority(Priority.COSMETIC):  # the ping and the next edit say it too
            await self.edit_or_send(table, TABLE_MESSAGE, **self.table_message(table, moment, lang))

    async def close_table(
        self,
        table: Table[G],
        text: str,
        view: discord.ui.View | None = None,
        board: Board | None = None,
    ) -> None:
        """The finished round's table message, edited once and never again: `text` instead of
        the turn, no buttons to play (`view`: only a "?" of the rules that decided the round),
        its picture as the round's last play left it with nobody to act (or `board`, if the
        game tells the round otherwise). The next round's table is a new message."""
        shown = table.memory.get(SHOWN)
        table.memory.set(SHOWN, None)
        if TABLE_MESSAGE not in table.message_ids:
            return
        lang = self.lang(table)
        if board is None:
            if shown is not None:  # its last picture, without a turn
                closing = dataclasses.replace(shown, closing=True)
                board = self.table_board(table, lang, at=closing)
            else:
                board = Board(title=self.title(lang), accent=self.colour, lang=lang)
        board.note(text)
        board.controls = controls_of(view)
        if not laid_out(table, TABLE_MESSAGE):  # posted before the upgrade: its own format
            await self.retire(table, TABLE_MESSAGE, text)
            return
        message_id = table.message_ids.pop(TABLE_MESSAGE)
        await self.bot.wait_until_ready()
        # Its last edit: after (never before) a refresh still under way or kept, which it drops.
        await self.pacer.final(message_id, lambda: self._close(table, message_id, board))

    async def _close(self, table: Table[G], message_id: int, board: Board) -> None:
        voice = self.voice(table)
        try:
            await voice.edit(message_id, view=compose(board))
        except discord.HTTPException as exc:
            log.warning("game %s: could not close the round's message: %s", table.game_id, exc)
        voice.forget(message_id)  # never edited again

    async def reminder(self, table: Table[G], player: str, seconds_left: int) -> None:
        lang = self.lang(table)
        with at_priority(Priority.REMINDER):
            await self.send(
                table,
                content=t(
                    lang,
                    "table.reminder",
                    player=self.seat_name(table, player),
                    seconds=seconds_left,
                ),
            )

    async def autopilot_changed(self, table: Table[G], player: str, on: bool) -> None:
        lang = self.lang(table)
        key = "table.autopilot_on" if on else "table.autopilot_off"
        view = (
            view_of(button("back", table.game_id, label=t(lang, "table.im_back"))) if on else None
        )
        kwargs: dict[str, Any] = {"view": view} if view else {}
        await self.send(table, content=t(lang, key, player=self.seat_name(table, player)), **kwargs)

    async def cancelled(self, item: Lobby | Table[G], reason: str) -> None:
        lang = self.lang(item)
        if isinstance(item, Table):
            await self.delete_ping(item)
        await self.send(item, content=t(lang, "table.cancelled", reason=t(lang, reason)))

    def results_lines(self, table: Table[G], results: Sequence[ResultRow], lang: str) -> list[str]:
        """Standings with rating changes, for the end of any game."""
        lines = []
        for row in sorted(results, key=lambda r: (r.rank, r.display_name)):
            crown = "🏆 " if row.winner else ""
            line = t(
                lang,
                "results.line",
                rank=row.rank,
                crown=crown,
                player=self.seat_name(table, row.player),
                score=row.score,
            )
            if row.player in table.autopilot:  # ended the game on autopilot
                line += " " + t(lang, "table.on_autopilot")
            if row.rating_after is not None and row.rating_before is not None:
                delta = row.rating_after - row.rating_before
                line += " " + t(
                    lang, "results.rating", rating=f"{row.rating_after:.0f}", delta=f"{delta:+.0f}"
                )
            lines.append(line)
        return lines

    async def post_results(
        self,
        table: Table[G],
        results: Sequence[ResultRow],
        standings: discord.Embed | Board,
        pictures: Sequence[Picture] = (),
        **extra: Any,
    ) -> None:
        """Post a game's final standings (a board, or an embed carried over, and `extra` such
        as a picture's file) the same way for every game: why it is unrated if it is, Rematch
        and Leaderboard; then the announcement shows the result and the thread is archived
        after the grace period. `pictures` (attached in `extra`) go below the standings, in
        one gallery, each with its own description."""
        lang = self.lang(table)
        record, settings = await self._end_facts(table)
        board = standings if isinstance(standings, Board) else from_embed(standings, lang=lang)
        ending.unrated_text(board, record.unrated_reason if record else None, lang)
        if record is not None and (record.header or {}).get("options", {}).get(HOUSE_RULE):
            board.text(t(lang, "table.house_rule"))
        board.parts += pictures
        web = web_url(self.bot, settings, paths.game(table.place.guild_id, table.game_id))
        board.controls = controls_of(ending.end_view(table.game_id, lang, web))
        announcement = table.message_ids.get(ending.ANNOUNCEMENT)
        archive_due = None
        if announcement is not None:  # only a thread the bot opened for the table is archived
            grace = ending.archive_seconds(self.bot, settings.archive_seconds if settings else None)
            archive_due = await ending.note_archive(table.ledger, table.place, table.game_id, grace)
        await self.publish(table, ending.RESULT_MESSAGE, compose(board), **extra)
        result_id = table.message_ids.get(ending.RESULT_MESSAGE)
        if announcement is not None and result_id is not None:
            place = table.place
            link = ending.jump_url(place.guild_id, place.home, result_id)
            name = lambda player: self.seat_name(table, player)  # noqa: E731
            text = ending.announcement_text(lang, self.title(lang), results, name, link)
            await ending.edit_announcement(self.bot, place, announcement, text, table.game_id)
        if archive_due is not None:
            ending.archive_at(self.bot, table.ledger, table.place, table.game_id, archive_due)

    async def _end_facts(self, table: Table[G]) -> tuple[GameRecord | None, GuildSettings | None]:
        """The finished game's record and its server's settings; (None, None) when the ledger
        cannot be read now: the standings go out all the same, without the extras."""
        try:
            record = await table.ledger.get_game(table.game_id)
            settings = await table.ledger.guild_settings(table.place.guild_id)
        except Exception as exc:
            log.warning("game %s: the ledger could not be read for its end: %r", table.game_id, exc)
            return None, None
        return record, settings

    def played_line(self, play: PlayedFor, name: Callable[[str], str], lang: str) -> str:
        """One action the table played for an absent member, for their private recap (each
        game words its own; this shows the action's log fields)."""
        to_json = getattr(play.action, "to_json", None)
        fields = to_json() if callable(to_json) else {}
        return " · ".join(str(value) for value in fields.values()) or str(play.action)

    # -- private answers ---------------------------------------------------------------------

    async def show_hand(
        self, interaction: discord.Interaction, table: Table[G], seat: Seat
    ) -> None:
        """A seated player's private hand (or menu), as a fresh ephemeral message, or by DM for
        a member who chose so (`delivery.show_hand`)."""
        await delivery.show_hand(interaction, table, seat, self.hand, self.title)

    async def status_message(
        self, item: Lobby | Table[G], lang: str, viewer: str | None
    ) -> PrivateAnswer:
        """What `/<game> status` shows: the lobby, or the table as `viewer` may see it, with
        its picture (if the game draws one) drawn in a worker thread, off the event loop."""
        if isinstance(item, Lobby):
            return PrivateAnswer(self.lobby_embed(item, lang))
        embed = self.table_embed(item, lang, viewer=viewer)
        draw = self.status_picture(item, lang)
        return PrivateAnswer(embed, None if draw is None else await asyncio.to_thread(draw))

    def status_picture(self, table: Table[G], lang: str) -> Callable[[], discord.File] | None:
        """The picture `/<game> status` shows, as a drawing that reads nothing of the live table
        (its facts taken now, on the loop), to be run in a worker thread; None: no picture."""
        return None

    async def show_status(self, interaction: discord.Interaction, item: Lobby | Table[G]) -> None:
        seat = item.seat_of(interaction.user.id)
        making = self.status_message(item, lang_of(interaction), seat.player if seat else None)
        await answer_in_time(interaction, making)

    # -- implemented by each game ------------------------------------------------------------------

    def table_board(
        self,
        table: Table[G],
        lang: str,
        viewer: str | None = None,
        at: Moment[G] | None = None,
    ) -> Board:
        """The table laid out, as `viewer` may see it, as `at` left it (None: as it is now); by
        default the game's embed carried over (`from_embed`)."""
        return from_embed(self.table_embed(table, lang, viewer, at), lang=lang)

    def table_embed(
        self,
        table: Table[G],
        lang: str,
        viewer: str | None = None,
        at: Moment[G] | None = None,
    ) -> discord.Embed:
        """The table as `viewer` may see it, as `at` left it (None: as it is now)."""
        raise NotImplementedError
