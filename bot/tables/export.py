"""`/<game> export [game id] [full]`: a game as a JSON file, privately.

A player only ever sees what the physical game would show them (RULES.md G-3), after the end too:
a finished Kobayakawa log would show the cards of players who passed and every unseen draw.

- A finished game: its public record (`rules.log.public_record`: each step as the table showed
  it, no setup), plus `id`, `guild`, `status` and `results`; any member of the server may export it.
- `full: True`, a finished game, a member with Manage Server: the whole log as the ledger stores it
  (seed, decks, hands), plus `id`, `guild`, `status` and `results` (the shape of `python -m data
  export`). Never for a game that is not finished: its hidden cards may still be in play.
- A game that is not finished (running, cancelled, abandoned): only for a member seated at it,
  and only their own seat's view (`state.view(player)`): no setup (seed, decks, hands), no
  action list, no other player's face-down card. A cancelled game may still hold hidden cards.

A game id of another server is answered exactly like a missing one: ids are sequential, and the
answer must not tell that a game exists elsewhere.

Without a game id: the table in this channel or thread, else the last game of that kind played
in this thread, else the requester's most recent finished game of that kind in this server.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.runtime.errors import TableError
from bot.runtime.table import Table
from bot.standings.access import ledger_of
from bot.tables import lookup
from bot.tables.replies import can_manage, explain_error, lang_of
from data.__main__ import export_document
from data.store import GameRecord, Ledger, Seat
from rules.base import AnyGame
from rules.log import load, public_record

__all__ = ["export_command", "export_game", "public_document", "seat_view_document"]

MAX_GAME_ID = 2**53 - 1  # Discord's integer options stop here


def export_command(game: str) -> app_commands.Command[Any, ..., None]:
    """The `export` subcommand of a game's group: ``group.add_command(export_command(GAME))``."""

    @app_commands.command(
        name=locale_key("cmd.export.name"), description=locale_key("cmd.export.description")
    )
    @app_commands.rename(
        game_id=locale_key("cmd.export.param.game_id.name"),
        full=locale_key("cmd.export.param.full.name"),
    )
    @app_commands.describe(
        game_id=locale_key("cmd.export.param.game_id.description"),
        full=locale_key("cmd.export.param.full.description"),
    )
    async def export(
        interaction: discord.Interaction,
        game_id: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        full: bool = False,
    ) -> None:
        await export_game(interaction, game, game_id, full)

    return export


async def export_game(
    interaction: discord.Interaction, game: str, game_id: int | None, full: bool = False
) -> None:
    """Answer privately with the game's JSON file, or with why there is none."""
    try:
        await _export(interaction, game, game_id, full)
    except Exception as exc:
        await explain_error(interaction, exc, game_id or 0)


async def _export(
    interaction: discord.Interaction, game: str, game_id: int | None, full: bool
) -> None:
    guild_id = interaction.guild_id
    if guild_id is None:
        raise TableError("error.guild_only")
    # Before looking anything up, so that the refusal says nothing about the game asked for.
    # The runtime check is the only one: Discord sets permissions per command, not per option.
    if full and not can_manage(interaction):
        raise TableError("export.full_needs_manage")
    await interaction.response.defer(ephemeral=True, thinking=True)
    ledger = ledger_of(interaction)
    if game_id is not None:
        record = await ledger.get_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise TableError("export.no_such_game", id=game_id)
        if record.game != game:
            lang = lang_of(interaction)
            raise TableError(
                "export.other_game",
                id=game_id,
                game=t(lang, f"game.{record.game}"),
                wanted=t(lang, f"game.{game}"),
            )
    else:
        record = await _default_record(interaction, ledger, game, guild_id)
    if record.header is None:
        raise TableError("export.not_started", id=record.id)
    lang = lang_of(interaction)
    game_name = t(lang, f"game.{record.game}")
    if full:
        if record.status != "finished":
            status = t(lang, f"export.status.{record.status}")
            raise TableError("export.full_not_finished", id=record.id, status=status)
        document = export_document(record)
        note = t(lang, "export.full", id=record.id, game=game_name)
    elif record.status == "finished":
        document = public_document(record, lang)
        note = t(lang, "export.finished", id=record.id, game=game_name)
    else:
        seat = _own_seat(record, interaction.user.id)
        if seat is None:
            raise TableError("export.not_seated", id=record.id)
        document = seat_view_document(record, _state_of(interaction, record), seat, lang)
        status = t(lang, f"export.status.{record.status}")
        note = t(lang, "export.seat_view", id=record.id, status=status)
    if (record.header or {}).get("options", {}).get("simultaneous"):
        note += " " + t(lang, "export.house_rule")
    data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
    if len(data) > interaction.filesize_limit:
        raise TableError("export.too_large", id=record.id)
    file = discord.File(io.BytesIO(data), filename=f"{record.game}-{record.id}.json")
    await interaction.followup.send(note, file=file, ephemeral=True)


async def _default_record(
    interaction: discord.Interaction, ledger: Ledger, game: str, guild_id: int
) -> GameRecord:
    """The table here, else the last game of `game` in this thread, else the requester's most
    recent finished one in this server."""
    channel_id = interaction.channel_id or 0
    item = lookup.manager_of(interaction).at(channel_id)
    if item is not None and not item.closed and item.game == game:
        record = await ledger.get_game(item.game_id)
        if record is not None:
            return record
    here: GameRecord | None = None
    mine: GameRecord | None = None
    async for record in ledger.iter_games(guild_id=guild_id):
        if record.game != game or record.header is None:
            continue
        if record.thread_id == channel_id:
            here = record
        if record.status == "finished" and _own_seat(record, interaction.user.id):
            mine = record
    found = here or mine
    if found is None:
        raise TableError("export.none", game=t(lang_of(interaction), f"game.{game}"))
    return found


def _own_seat(record: GameRecord, user_id: int) -> Seat | None:
    return next((s for s in record.seats if s.user_id == user_id and not s.is_bot), None)


def _state_of(interaction: discord.Interaction, record: GameRecord) -> AnyGame:
    """The live table's state, else the game rebuilt from its log."""
    item = lookup.manager_of(interaction).get(record.id)
    if isinstance(item, Table) and not item.closed:
        return item.state
    return load(record.log() or {})


def public_document(record: GameRecord, lang: str) -> dict[str, Any]:
    """What the table showed of a game (`rules.log.public_record`) and its stored results."""
    return {
        **public_record(record.log() or {}),
        "kind": "public-record",
        "note": t(lang, "export.public_note"),
        "id": record.id,
        "guild": record.guild_id,
        "status": record.status,
        "results": [r.to_json() for r in record.results],
    }


def seat_view_document(record: GameRecord, state: AnyGame, seat: Seat, lang: str) -> dict[str, Any]:
    """What one seat may see of an unfinished game: public header fields and its own view."""
    header = record.header or {}
    return {
        "format": header.get("format"),
        "kind": "seat-view",
        "note": t(lang, "export.seat_view_note"),
        "id": record.id,
        "guild": record.guild_id,
        "status": record.status,
        "game": record.game,
        "options": header.get("options", {}),
        "players": list(header.get("players", [])),
        "player": seat.player,
        "actions_played": len(record.actions),
        "view": state.view(seat.player),
    }
