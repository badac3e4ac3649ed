"""The private recap a returning member gets: what the table played for them, and the result.

Offered after every click of a table's buttons and menus and after `/<game> hand` and `status`,
also once the game is over (its table is gone: the ledger's log and notes tell). Each member gets
it once per absence (`Table.returned`, or the game note of a finished game).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.runtime.lobby import levels_of
from bot.runtime.recap import Recap, recap_of
from bot.runtime.table import AWAY_NOTE, Table
from bot.tables import lookup
from bot.tables.buttons import BUTTONS
from bot.tables.presenting import MessagePresenter
from bot.tables.replies import discord_failed, ephemeral, lang_of, note_discord_failure
from bot.tables.selects import SELECTS
from data.store import Seat

if TYPE_CHECKING:
    from bot.runtime.manager import TableManager

log = logging.getLogger(__name__)

MAX_LINES = 30  # an embed's description holds 4,096 characters: the latest plays are kept


async def offer_recap(interaction: discord.Interaction, game_id: int) -> None:
    """Send the clicking member their recap if the table played for them since they last
    interacted; never raises (the click itself was already answered)."""
    try:
        manager = lookup.manager_of(interaction)
        found = await _owed(manager, interaction, game_id)
        if found is None:
            return
        recap, seats, levels, presenter = found
        lang = lang_of(interaction)
        embed = recap_embed(presenter, recap, seats, lang, levels)
        await ephemeral(interaction, "", embed=embed)
    except Exception as exc:
        if discord_failed(exc):
            note_discord_failure(exc, "a recap", game_id)
            return
        log.exception("game %s: could not send a recap", game_id)


# What a recap needs: the recap, the seats and their levels (to name them), the game's presenter.
Owed = tuple[Recap, Mapping[str, Seat], Mapping[str, str], MessagePresenter[Any]]


async def _owed(
    manager: TableManager, interaction: discord.Interaction, game_id: int
) -> Owed | None:
    """The recap owed to the clicker at `game_id` (claimed: it will not be offered again)."""
    live = manager.get(game_id)
    if isinstance(live, Table) and not live.closed:
        seat = live.seat_of(interaction.user.id)
        if seat is None or live.place.guild_id != interaction.guild_id:
            return None
        since = await live.returned(seat.player)
        if since is None:
            return None
        record = await manager.ledger.get_game(game_id)
        doc = record.log() if record is not None else None
        if doc is None:
            return None
        recap = recap_of(game_id, doc, seat.player, since, autopilot=seat.player in live.autopilot)
        return recap, live.seats, live.levels, lookup.presenter_of(live)
    if live is not None:
        return None  # a lobby, or a table closing right now (its end is being told)
    return await _owed_after_the_end(manager, interaction, game_id)


async def _owed_after_the_end(
    manager: TableManager, interaction: discord.Interaction, game_id: int
) -> Owed | None:
    """An ended game's table is gone: its notes say whom the table played for (read first:
    they are small), its log what it played."""
    notes = await manager.ledger.notes(game_id)
    away = dict(notes.get(AWAY_NOTE) or {})
    player = str(interaction.user.id)  # a member's player in the log (`bot.runtime.lobby`)
    since = away.pop(player, None)
    if not isinstance(since, int):
        return None
    record = await manager.ledger.get_game(game_id)
    if record is None or record.guild_id != interaction.guild_id:
        return None
    seats = {s.player: s for s in record.seats}
    doc = record.log()
    presenter: object = manager.presenters.get(record.game)
    if player not in seats or doc is None or not isinstance(presenter, MessagePresenter):
        return None
    await manager.ledger.set_note(game_id, AWAY_NOTE, away)  # told once
    recap = recap_of(game_id, doc, player, since, results=record.results)
    return recap, seats, levels_of(record, notes), presenter


def recap_embed(
    presenter: MessagePresenter[Any],
    recap: Recap,
    seats: Mapping[str, Seat],
    lang: str,
    levels: Mapping[str, str] | None = None,
) -> discord.Embed:
    """The recap in `lang`: one line per play (the latest `MAX_LINES`), then the result. Seats
    are named as the table names them (`MessagePresenter.recorded_name`)."""

    def name(player: str) -> str:
        return presenter.recorded_name(seats, recap.seating, levels or {}, player, lang)

    lines = [
        f"{number}. {presenter.played_line(play, name, lang)}"
        for number, play in enumerate(recap.plays, 1)
    ]
    if len(lines) > MAX_LINES:
        earlier = len(lines) - MAX_LINES
        lines = [t(lang, "recap.earlier", count=earlier), *lines[-MAX_LINES:]]
    if recap.rank is not None:
        lines.append(t(lang, "recap.final", rank=recap.rank, score=recap.score))
    else:
        lines.append(t(lang, "recap.score_now", score=recap.score))
        if recap.autopilot:
            lines.append(t(lang, "recap.still_autopilot"))
    return discord.Embed(
        title=t(lang, "recap.title", count=len(recap.plays)),
        description="\n".join(lines),
        colour=presenter.colour,
    )


BUTTONS.then(offer_recap)
SELECTS.then(offer_recap)
