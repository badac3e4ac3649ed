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

A *step* of choices made at the same time (the house rule `simultaneous`, RULES.md H-1, H-2) is
no one's turn: when it opens, every member who has to choose is told once (`step_opened`), and
nobody again until the next step or turn.
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
    step_of: tuple[str, ...] = ()  # the members a step that opened here awaits (`step_opened`)

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
    if now is None or now.players or seats[now.player].is_bot or now.player in autopilot:
        return None  # (a step of choices at once is nobody's turn: `step_opened`)
    if before is not None and before.player == now.player and round_before == state.round_number():
        return None
    return now.player


def step_opened(
    before: Next | None,
    round_before: int | None,
    state: AnyGame,
    seats: Mapping[str, Seat],
    autopilot: Collection[str],
) -> tuple[str, ...]:
    """The members a step of choices made at once awaits, if the step opens now (else none):
    after a turn, at a new round, or at a table just opened or restored (`before` None)."""
    now = state.next()
    if now is None or not now.players:
        return ()
    same_step = before is not None and before.players and round_before == state.round_number()
    if same_step:
        return ()
    return tuple(p for p in now.players if not seats[p].is_bot and p not in autopilot)


def moment_of(
    seq: int,
    state: S,
    autopilot: Collection[str],
    turn_of: str | None,
    step_of: tuple[str, ...] = (),
) -> Moment[S]:
    """A moment of `state` taken now: a clone, so the table may play on."""
    round_no = state.round_number()
    return Moment(seq, state.clone(), round_no, frozenset(autopilot), turn_of, step_of=step_of)
