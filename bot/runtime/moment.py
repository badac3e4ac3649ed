"""The table as one action left it, for the presenter to word, and whose turn that began.

The outbox runs a presenter's job later than the action that queued it: by then more actions
may have changed the table (a computer player acts at once at `BOT_DELAY_SECONDS=0`), even the
round. A job therefore words the `Moment` its action took under the table's lock, never the
table's state as it is when the job runs: a round's message shows that round, whenever it goes
out.

A *turn* of a person begins when the player who must act changes to a member who is not on
autopilot, or a new round (deal, trick) begins with a member to act (`turn_began`). The same
player acting several times in a row in one round (Rights of Losers' chips, Kobayakawa's draw
then keep) is one turn: one ping. Computer seats and seats on autopilot have no turns to be
told of: the table plays for them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from data.store import Seat
from rules.base import AnyGame, Next

G = TypeVar("G", bound=AnyGame, covariant=True)
S = TypeVar("S", bound=AnyGame)


@dataclass(frozen=True, slots=True)
class Moment(Generic[G]):
    """What one action (or the table's opening) left: a copy of the state no later action
    changes, its round, the seats on autopilot then, and the member whose turn began, if any."""

    seq: int
    state: G
    round: int
    autopilot: frozenset[str]
    turn_of: str | None
    closing: bool = False  # drawn as its round's last picture: nobody is to act any more

    @property
    def next(self) -> Next | None:
        return self.state.next()


def turn_began(
    before: Next | None,
    round_before: int | None,
    state: AnyGame,
    seats: Mapping[str, Seat],
    autopilot: Collection[str],
) -> str | None:
    """The member whose turn begins now, or None (see the module's definition of a turn).

    `before` and `round_before` are who had to act and the round before the action (None for a
    table that is just being opened or restored: whoever must act now starts a turn)."""
    now = state.next()
    if now is None or seats[now.player].is_bot or now.player in autopilot:
        return None
    if before is not None and before.player == now.player and round_before == state.round_number():
        return None
    return now.player


def moment_of(
    seq: int,
    state: S,
    autopilot: Collection[str],
    turn_of: str | None,
) -> Moment[S]:
    """A moment of `state` taken now: a clone, so the table may play on."""
    return Moment(seq, state.clone(), state.round_number(), frozenset(autopilot), turn_of)
