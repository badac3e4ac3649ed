"""The end of a game that the bot stopped before telling (a crash between the last commit and
the closing message): its last reveal replayed from the log, then its closing notice."""

from __future__ import annotations

from typing import Any

from bot.runtime.lobby import Lobby, levels_of
from bot.runtime.place import Place
from bot.runtime.presenter import Presenter
from bot.runtime.table import Table, Timing
from data.store import GameRecord, Ledger
from rules.base import AnyGame, Event
from rules.log import apply_entry, load


async def announce_late_end(
    record: GameRecord, notes: dict[str, Any], ledger: Ledger, presenter: Presenter[Any]
) -> None:
    """Tell a table how its game ended, when the bot stopped before it could (a crash)."""
    reason = record.end_reason or ""
    doc = record.log()
    if doc is None:  # a lobby that closed
        closed_lobby(record, notes, ledger, presenter).announce_end(reason)
        return
    if record.status != "finished":  # nothing to replay for a notice (it may not replay)
        closed_lobby(record, notes, ledger, presenter).announce_end(reason, started=True)
        return
    state = load(doc)
    last = last_events(doc)
    table: Table[AnyGame] = Table(
        game_id=record.id,
        place=Place(record.guild_id, record.channel_id, record.thread_id),
        host_id=record.host_id,
        seats=list(record.seats),
        state=state,
        seq=len(doc["actions"]),
        ledger=ledger,
        presenter=presenter,
        timing=Timing(),
    )
    table.message_ids.update(notes.get("messages", {}))
    table.levels.update(levels_of(record, notes))
    table.autopilot.update(p for p in notes.get("autopilot", []) if p in table.seats)
    presenter.recall(table, before_last(doc))
    table.announce_end(results=record.results, last=last)


def closed_lobby(
    record: GameRecord, notes: dict[str, Any], ledger: Ledger, presenter: Presenter[Any]
) -> Lobby:
    """The seats and messages of an ended game, enough to post its closing notice."""
    lobby = Lobby(
        game_id=record.id,
        game=record.game,
        place=Place(record.guild_id, record.channel_id, record.thread_id),
        host_id=record.host_id,
        options=dict(record.options),
        seats=list(record.seats),
        ledger=ledger,
        presenter=presenter,
        expires_at=0.0,
    )
    lobby.message_ids.update(notes.get("messages", {}))
    return lobby


def before_last(doc: dict[str, Any]) -> dict[str, Any]:
    """The log without its last action: what the table had shown when a game ended unannounced
    (the last action's events are shown again, `last_events`)."""
    return {**doc, "actions": doc["actions"][:-1]}


def last_events(doc: dict[str, Any]) -> tuple[str, list[Event]] | None:
    """Who made a log's last action and what it caused (the final reveal), replayed."""
    actions = doc["actions"]
    if not actions:
        return None
    before = load(before_last(doc))
    return actions[-1]["player"], apply_entry(before, actions[-1])
