"""Rights of Losers: the events an action causes (data only; the bot words them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.base import Because, Event
from rules.losers_judgement import CardOwner
from rules.losers_quick import quick_init

Coord = tuple[int, int]

# -- events ----------------------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class TrickStarted(Event):
    """A trick begins; `reason` is why `lead` leads: "chosen" (setup), "winner", "appointed"."""

    kind: ClassVar[str] = "trick_started"
    trick: int
    lead: str
    reason: str
    reversed: bool


@quick_init
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played face up to the trick (R-4)."""

    kind: ClassVar[str] = "card_played"
    player: str
    card: str
    trick: int


@quick_init
@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """R-4: `card` is the highest (`why` "highest") or, reversed, lowest of `led_suit`."""

    kind: ClassVar[str] = "trick_won"
    trick: int
    winner: str
    card: str
    led_suit: str
    why: str
    plays: tuple[tuple[str, str], ...]

    def because(self) -> Because:
        return Because("R-4", f"won_{self.why}")


@quick_init
@dataclass(frozen=True, slots=True)
class ChipPlaced(Event):
    """R-5a: a loser put a chip on spot `at`."""

    kind: ClassVar[str] = "chip_placed"
    player: str
    at: Coord
    chips_left: int


@quick_init
@dataclass(frozen=True, slots=True)
class ChipSkipped(Event):
    """R-5a: a loser's chip turn passed by itself: `reason` "no_chips" or "no_spot"."""

    kind: ClassVar[str] = "chip_skipped"
    player: str
    reason: str

    def because(self) -> Because:
        return Because("R-5", f"skipped_{self.reason}")


@quick_init
@dataclass(frozen=True, slots=True)
class Built(Event):
    """R-5b: the winner put `cards[i]` on cell `at[i]`."""

    kind: ClassVar[str] = "built"
    player: str
    cards: tuple[str, str]
    at: tuple[Coord, Coord]


@quick_init
@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """R-5b: the trick's other cards leave the game (they were seen in the trick)."""

    kind: ClassVar[str] = "discarded"
    rule: ClassVar[str] = "R-5"
    player: str
    cards: tuple[str, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Appointed(Event):
    """R-5c: the winner appointed the next lead player."""

    kind: ClassVar[str] = "appointed"
    player: str
    lead: str


@quick_init
@dataclass(frozen=True, slots=True)
class Reversed(Event):
    """R-5c: the winner reversed the strength; `reversed` is the new state."""

    kind: ClassVar[str] = "reversed"
    player: str
    reversed: bool


@quick_init
@dataclass(frozen=True, slots=True)
class ChipMoved(Event):
    """R-5c: the winner moved one of their chips from `source` to `to`."""

    kind: ClassVar[str] = "chip_moved"
    player: str
    source: Coord
    to: Coord

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "player": self.player, "from": self.source, "to": self.to}


@quick_init
@dataclass(frozen=True, slots=True)
class Passed(Event):
    """R-5c: the winner chose to do nothing."""

    kind: ClassVar[str] = "passed"
    player: str


@quick_init
@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """R-6, R-7: each card's owner, land cards, scores and the winners."""

    kind: ClassVar[str] = "game_over"
    owners: tuple[CardOwner, ...]
    land: dict[str, int]
    scores: dict[str, int]
    chips_left: dict[str, int]
    winners: tuple[str, ...]
    tie_break: str | None


LosersEvent = (
    TrickStarted
    | CardPlayed
    | TrickWon
    | ChipPlaced
    | ChipSkipped
    | Built
    | Discarded
    | Appointed
    | Reversed
    | ChipMoved
    | Passed
    | GameOver
)
