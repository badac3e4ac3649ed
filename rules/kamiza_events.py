"""KAMIZA's events: what a play and a round's end caused (the judge's own are in kamiza_judge)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeAlias

from rules.base import Because, Event
from rules.kamiza_judge import JudgeEvent, PlayedCard


@dataclass(frozen=True, slots=True)
class CardPlaced(Event):
    """A card went into an area; `face_up` says whether the table may see it (K-3)."""

    kind: ClassVar[str] = "card_placed"
    player: str
    card: str
    area: str
    face_up: bool


@dataclass(frozen=True, slots=True)
class RoundRevealed(Event):
    """Every card of the round turned face up, in the order they were played."""

    kind: ClassVar[str] = "round_revealed"
    game: int
    round: int
    plays: tuple[PlayedCard, ...]


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """The points of the round and the running totals."""

    kind: ClassVar[str] = "round_scored"
    game: int
    round: int
    points: dict[str, int]
    totals: dict[str, int]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """A game of three rounds ended; `unplayed` is each player's card left in hand (K-2)."""

    kind: ClassVar[str] = "game_ended"
    rule: ClassVar[str] = "K-2"
    game: int
    unplayed: dict[str, str]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round; `reason` is why `start_player` starts it (K-12, K-5)."""

    kind: ClassVar[str] = "round_started"
    game: int
    round: int
    start_player: str
    reason: str
    order: tuple[str, ...]

    def because(self) -> Because:
        # K-5: the squealer starts; otherwise K-12 (the highest total, or chosen at the table).
        return Because("K-5" if self.reason == "squeal" else "K-12", f"start_{self.reason}")


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over (K-13); `tie_break` is "chicken" or "shared" when a tie was met."""

    kind: ClassVar[str] = "match_ended"
    winners: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    totals: dict[str, int]
    tie_break: str | None

    def because(self) -> Because:
        return Because("K-13", f"tie_{self.tie_break}" if self.tie_break else "highest_total")


@dataclass(frozen=True, slots=True)
class ChoiceMade(Event):
    """H-1: a player made this round's choice, to be revealed with everyone's once all have
    chosen; the table learns only *that* they chose (the card and area are in the log)."""

    kind: ClassVar[str] = "choice_made"
    rule: ClassVar[str] = "H-1"
    player: str


KamizaEvent: TypeAlias = (
    ChoiceMade
    | CardPlaced
    | RoundRevealed
    | RoundScored
    | GameEnded
    | RoundStarted
    | MatchEnded
    | JudgeEvent
)


# A frozen dataclass's __init__ sets each field through object.__setattr__; every round's end makes
# a RoundRevealed and a RoundScored, so these make the very same objects (same class, same fields)
# by setting the slots directly, about twice as fast.
def _slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    return tuple(vars(cls)[field.name].__set__ for field in fields(cls))


REVEALED_SETTERS = _slot_setters(RoundRevealed)
SCORED_SETTERS = _slot_setters(RoundScored)
_ENDED_SLOTS = _slot_setters(GameEnded)
_new = object.__new__


def game_ended(game: int, unplayed: dict[str, str]) -> GameEnded:
    """`GameEnded(game, unplayed)`, made faster."""
    event: GameEnded = _new(GameEnded)
    set_game, set_unplayed = _ENDED_SLOTS
    set_game(event, game)
    set_unplayed(event, unplayed)
    return event


_MATCH_ENDED_SLOTS = _slot_setters(MatchEnded)


def match_ended(
    winners: tuple[str, ...],
    ranking: tuple[tuple[str, ...], ...],
    totals: dict[str, int],
    tie_break: str | None,
) -> MatchEnded:
    """`MatchEnded(winners, ranking, totals, tie_break)`, made faster."""
    event: MatchEnded = _new(MatchEnded)
    values = (winners, ranking, totals, tie_break)
    for setter, value in zip(_MATCH_ENDED_SLOTS, values, strict=True):
        setter(event, value)
    return event
