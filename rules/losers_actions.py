"""Rights of Losers: the actions (exactly the log's shapes, LOG_FORMAT.md), and their parsing.

The events live in `rules.losers_events`; they are importable from here too, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.base import MalformedAction, require_fields
from rules.losers_board import CARD_IDS, CELLS, GRID, LATTICE, SPOTS, spot_index
from rules.losers_events import (
    Appointed,
    Built,
    CardPlayed,
    ChipMoved,
    ChipPlaced,
    ChipSkipped,
    Discarded,
    GameOver,
    LosersEvent,
    Passed,
    Reversed,
    TrickStarted,
    TrickWon,
)
from rules.losers_quick import quick_init

# The events were defined here once: still importable from here (re-exported).
__all__ = [
    "CHIP_AT",
    "CHOICES",
    "FIELDS",
    "PASS",
    "PLAYS",
    "REVERSE",
    "Action",
    "Appoint",
    "Appointed",
    "Build",
    "Built",
    "CardPlayed",
    "Chip",
    "ChipMoved",
    "ChipPlaced",
    "ChipSkipped",
    "Coord",
    "Discarded",
    "GameOver",
    "LosersEvent",
    "Move",
    "Pass",
    "Passed",
    "Play",
    "Reverse",
    "Reversed",
    "TrickStarted",
    "TrickWon",
    "move_action",
    "parse_action",
    "parse_well_formed",
]

Coord = tuple[int, int]

# -- actions ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick (R-4)."""

    action: ClassVar[str] = "play"
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"action": "play", "card": self.card}


@dataclass(frozen=True, slots=True)
class Chip:
    """Put one currency chip on a lattice spot `[y, x]` (R-3, R-5a)."""

    action: ClassVar[str] = "chip"
    at: Coord

    def to_json(self) -> dict[str, Any]:
        return {"action": "chip", "at": list(self.at)}


@quick_init
@dataclass(frozen=True, slots=True)
class Build:
    """Put two cards of the trick on empty building cells, `cards[i]` on `at[i]` (R-5b)."""

    action: ClassVar[str] = "build"
    cards: tuple[str, str]
    at: tuple[Coord, Coord]

    def to_json(self) -> dict[str, Any]:
        return {"action": "build", "cards": list(self.cards), "at": [list(c) for c in self.at]}


@quick_init
@dataclass(frozen=True, slots=True)
class Appoint:
    """Winner's choice (R-5c): appoint the next lead player."""

    action: ClassVar[str] = "appoint"
    lead: str

    def to_json(self) -> dict[str, Any]:
        return {"action": "appoint", "lead": self.lead}


@dataclass(frozen=True, slots=True)
class Reverse:
    """Winner's choice (R-5c): reverse the strength of the numbers (a toggle)."""

    action: ClassVar[str] = "reverse"

    def to_json(self) -> dict[str, Any]:
        return {"action": "reverse"}


@dataclass(frozen=True, slots=True)
class Move:
    """Winner's choice (R-5c): move one of their own chips to another free legal spot."""

    action: ClassVar[str] = "move"
    source: Coord
    to: Coord

    def to_json(self) -> dict[str, Any]:
        return {"action": "move", "from": list(self.source), "to": list(self.to)}


@dataclass(frozen=True, slots=True)
class Pass:
    """Winner's choice (R-5c): do nothing."""

    action: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"action": "pass"}


Action = Play | Chip | Build | Appoint | Reverse | Move | Pass
CHOICES = (Appoint, Reverse, Move, Pass)

# Shared action objects, so that listing and drawing legal actions allocates little.
PLAYS = {card: Play(card) for card in CARD_IDS}
CHIP_AT = tuple(Chip(spot) for spot in SPOTS)
REVERSE = Reverse()
PASS = Pass()
_MOVES: dict[tuple[int, int], Move] = {}


def move_action(source: int, to: int) -> Move:
    """The (shared) Move between two spot indexes."""
    move = _MOVES.get((source, to))
    if move is None:
        move = _MOVES[source, to] = Move(SPOTS[source], SPOTS[to])
    return move


# -- parsing ---------------------------------------------------------------------------------------

FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("card",),
    "chip": ("at",),
    "build": ("cards", "at"),
    "appoint": ("lead",),
    "reverse": (),
    "move": ("from", "to"),
    "pass": (),
}


def parse_action(data: Mapping[str, Any]) -> Action:
    """The action for a log entry's fields (without `player`); raises MalformedAction."""
    if type(data) is dict:
        action = parse_well_formed(data)
        if action is not None:
            return action
    return _parse_any(data)


def parse_well_formed(data: dict[str, Any], *, with_player: bool = False) -> Action | None:
    """The action of a log entry as logs write it (a dict of lists and ints), or None for
    anything else, which `_parse_any` then parses or refuses. Replays spend much of their time
    here, so the usual shapes are recognised with a few exact type tests. `with_player`: the
    entry still holds its `player` field (one field more, not looked at)."""
    kind = data.get("action")
    size = len(data) - with_player
    if kind == "play":
        card = data.get("card")
        if size == 2 and type(card) is str:
            return PLAYS.get(card)
    elif kind == "chip":
        spot = _lattice_spot(data.get("at"))
        if size == 2 and spot is not None:
            return CHIP_AT[spot]
    elif kind == "build":
        cards, at = data.get("cards"), data.get("at")
        if size == 3 and type(cards) is list and type(at) is list and len(cards) == len(at) == 2:
            first, second = cards
            a, b = _int_pair(at[0]), _int_pair(at[1])
            if (
                type(first) is str
                and type(second) is str
                and first in PLAYS
                and second in PLAYS
                and a is not None
                and b is not None
            ):
                return Build((first, second), (a, b))
    elif kind == "move":
        source, to = _lattice_spot(data.get("from")), _lattice_spot(data.get("to"))
        if size == 3 and source is not None and to is not None:
            return move_action(source, to)
    elif kind == "appoint":
        lead = data.get("lead")
        if size == 2 and type(lead) is str:
            return Appoint(lead)
    elif size == 1:
        if kind == "pass":
            return PASS
        if kind == "reverse":
            return REVERSE
    return None


def _int_pair(value: Any) -> Coord | None:
    """(a, b) for a JSON list of two integers, else None; a cell of the field as the very tuple
    of CELLS, which the checks then recognise at once."""
    if type(value) is list and len(value) == 2:
        a, b = value
        if type(a) is int and type(b) is int:
            return CELLS[a * GRID + b] if 0 <= a < GRID and 0 <= b < GRID else (a, b)
    return None


def _lattice_spot(value: Any) -> int | None:
    """The spot index of a JSON list [y, x] on the lattice, else None."""
    if type(value) is list and len(value) == 2:
        y, x = value
        if type(y) is int and type(x) is int and 0 <= y < LATTICE and 0 <= x < LATTICE:
            return y * LATTICE + x
    return None


def _parse_any(data: Any) -> Action:
    """`parse_action` for any value: every check, in the order the error messages follow."""
    if not isinstance(data, Mapping):
        raise MalformedAction("an action must be a JSON object")
    if "action" not in data:
        raise MalformedAction("missing field 'action'")
    kind = data["action"]
    if not isinstance(kind, str) or kind not in FIELDS:
        raise MalformedAction(f"unknown action {kind!r}")
    require_fields(data, ("action", *FIELDS[kind]))
    if kind == "play":
        return PLAYS[_card(data["card"])]
    if kind == "chip":
        at = _coord(data["at"], "at")
        spot = spot_index(at)
        return CHIP_AT[spot] if spot is not None else Chip(at)
    if kind == "build":
        cards, at = data["cards"], data["at"]
        if not isinstance(cards, list | tuple) or len(cards) != 2:
            raise MalformedAction("'cards' must be a list of 2 card ids")
        if not isinstance(at, list | tuple) or len(at) != 2:
            raise MalformedAction("'at' must be a list of 2 cells [r, c]")
        return Build((_card(cards[0]), _card(cards[1])), (_coord(at[0], "at"), _coord(at[1], "at")))
    if kind == "appoint":
        lead = data["lead"]
        if not isinstance(lead, str):
            raise MalformedAction("'lead' must be a player name")
        return Appoint(lead)
    if kind == "move":
        source, to = _coord(data["from"], "from"), _coord(data["to"], "to")
        i, j = spot_index(source), spot_index(to)
        return move_action(i, j) if i is not None and j is not None else Move(source, to)
    return REVERSE if kind == "reverse" else PASS


def _card(value: Any) -> str:
    if not isinstance(value, str) or value not in PLAYS:
        raise MalformedAction(f"unknown card {value!r}")
    return value


def _coord(value: Any, name: str) -> Coord:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(type(v) is int for v in value)
    ):
        raise MalformedAction(f"{name!r} must be a list of two integers, not {value!r}")
    return (value[0], value[1])
