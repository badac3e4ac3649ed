"""What one KAMIZA player (or a spectator) may see (G-3), as typed frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import step_view
from rules.kamiza_judge import PlayedCard


@dataclass(frozen=True, slots=True)
class TableCard:
    """A card on the table this round: its owner and area; `card` only where the viewer sees it
    (their own, or the advanced start player's face-up card, K-3)."""

    player: str
    area: str
    card: str | None

    def to_json(self) -> dict[str, str | None]:
        return {"player": self.player, "area": self.area, "card": self.card}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """The last judged round, as the whole table saw it revealed."""

    game: int
    round: int
    start_player: str
    plays: tuple[PlayedCard, ...]
    points: Mapping[str, int]
    squealer: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "round": self.round,
            "start_player": self.start_player,
            "plays": [play.to_json() for play in self.plays],
            "points": dict(self.points),
            "squealer": self.squealer,
        }


@dataclass(frozen=True, slots=True)
class KamizaObservation:
    """Exactly what `Kamiza.view(you)` shows; `you` None (or not seated) is a spectator.

    The mappings are read-only copies (never the state's own containers).
    """

    edition: str
    advanced: bool
    players: tuple[str, ...]
    you: str | None
    hand: tuple[str, ...] | None  # None for anyone not seated
    hand_sizes: Mapping[str, int]
    game_number: int
    round: int
    start_player: str
    order: tuple[str, ...]
    to_act: str | None
    table: tuple[TableCard, ...]
    revealed_this_game: Mapping[str, tuple[str, ...]]  # every player's revealed cards, in order
    totals: Mapping[str, int]
    wanted: Mapping[str, int]
    dropped: tuple[str, ...]
    last_round: RoundRecord | None
    over: bool
    winners: tuple[str, ...]
    # H-1 (the `simultaneous` house rule): who has chosen in this step, in seating order, and
    # who still has to, clockwise from the start player; never what anyone else chose.
    simultaneous: bool = False
    chosen: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()

    def to_view(self) -> dict[str, Any]:
        """The JSON-ready dict of `Kamiza.view`, key for key."""
        return {
            "game": "kamiza",
            "edition": self.edition,
            "advanced": self.advanced,
            "players": list(self.players),
            "you": self.you,
            "hand": list(self.hand) if self.hand is not None else None,
            "hand_sizes": dict(self.hand_sizes),
            "game_number": self.game_number,
            "round": self.round,
            "start_player": self.start_player,
            "order": list(self.order),
            "to_act": self.to_act,
            "table": [card.to_json() for card in self.table],
            "revealed_this_game": {p: list(cards) for p, cards in self.revealed_this_game.items()},
            "totals": dict(self.totals),
            "wanted": dict(self.wanted),
            "dropped": list(self.dropped),
            "last_round": self.last_round.to_json() if self.last_round else None,
            "over": self.over,
            "winners": list(self.winners),
            **step_view(self.simultaneous, self.chosen, self.waiting_for),
        }
