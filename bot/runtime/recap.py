"""What the table played for a member while they were away, rebuilt from the game's log.

The ledger keeps every action and, as a game note (`Table.away`), the seq from which the table
played for each absent member: the recap is the replay of that member's own actions from there,
so it survives a restart and holds nothing the member could not see (their own plays, and their
score). No Discord here: each game's presenter words it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data.store import ResultRow
from rules.log import parse_entry, start


@dataclass(frozen=True, slots=True)
class PlayedFor:
    """One action the table took for the member, and the events it caused."""

    seq: int
    action: object
    events: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Recap:
    """The member's plays since `since`; their score now, or their final rank and score."""

    game_id: int
    player: str
    plays: tuple[PlayedFor, ...]
    score: int
    rank: int | None  # None while the game goes on
    autopilot: bool  # still on autopilot (press "I'm back" to play again)
    # The players in the game's order of play (its state's `players`): a game that numbers its
    # computers by their seat in play names them so (`MessagePresenter.recorded_name`).
    seating: tuple[str, ...] = ()


def recap_of(
    game_id: int,
    log: Mapping[str, Any],
    player: str,
    since: int,
    *,
    results: Sequence[ResultRow] = (),
    autopilot: bool = False,
) -> Recap:
    """Replay `log` and keep `player`'s actions from seq `since` on, with their events."""
    state = start(log)
    plays: list[PlayedFor] = []
    for seq, entry in enumerate(log.get("actions", [])):
        who, action = parse_entry(state, entry)
        events = state.apply(who, action)
        if seq >= since and who == player:
            plays.append(PlayedFor(seq, action, tuple(events)))
    row = next((r for r in results if r.player == player), None)
    score = row.score if row is not None else state.scores().get(player, 0)
    return Recap(
        game_id=game_id,
        player=player,
        plays=tuple(plays),
        score=score,
        rank=row.rank if row is not None else None,
        autopilot=autopilot and row is None,
        seating=tuple(state.players),
    )
