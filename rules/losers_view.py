"""Rights of Losers: what one player (or a spectator) sees, as a typed frozen value (G-3).

Cards are played face up (R-4), chips and the field are public (R-3, R-5); only the hands are
hidden, each from everybody but its holder. `LosersObservation` holds exactly what
`RightsOfLosers.view` shows, and `to_view` writes it as that JSON-ready dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.losers_actions import Coord, TrickWon
from rules.losers_board import GRID, SPOTS
from rules.losers_judgement import CardOwner, final_scores


@dataclass(frozen=True, slots=True)
class LosersObservation:
    """The table as `you` sees it (None: a spectator); `field` lists the 25 cells row by row."""

    players: tuple[str, ...]
    you: str | None
    hand: tuple[str, ...] | None  # G-3: only the viewer's own hand
    hand_sizes: Mapping[str, int]
    phase: str
    to_act: str | None
    expects: str | None
    trick_number: int
    lead: str
    reversed: bool
    trick: tuple[tuple[str, str], ...]  # (player, card) played so far
    winner: str | None  # of the trick being settled
    won_cards: tuple[str, ...]
    chip_queue: tuple[str, ...]
    last_trick: TrickWon | None
    field: tuple[str | None, ...]
    chips: tuple[tuple[Coord, str], ...]  # (spot, owner) in spot order
    chips_left: Mapping[str, int]
    discarded: tuple[str, ...]
    owners_now: tuple[CardOwner, ...]  # R-6 applied to the field as it stands
    over: bool
    scores: Mapping[str, int]
    winners: tuple[str, ...]

    def points_now(self) -> dict[str, int]:
        """R-7 applied to `owners_now`: each player's points if the game ended now."""
        return final_scores(self.players, self.owners_now)

    def to_view(self, game: str) -> dict[str, Any]:
        """The JSON-ready dict of `RightsOfLosers.view`, key for key."""
        field = list(self.field)
        return {
            "game": game,
            "players": list(self.players),
            "you": self.you,
            "hand": list(self.hand) if self.hand is not None else None,
            "hand_sizes": dict(self.hand_sizes),
            "phase": self.phase,
            "to_act": self.to_act,
            "expects": self.expects,
            "trick_number": self.trick_number,
            "lead": self.lead,
            "reversed": self.reversed,
            "trick": [{"player": p, "card": c} for p, c in self.trick],
            "winner": self.winner,
            "won_cards": list(self.won_cards),
            "chip_queue": list(self.chip_queue),
            "last_trick": self.last_trick.to_json() if self.last_trick else None,
            "field": [field[r * GRID : (r + 1) * GRID] for r in range(GRID)],
            "chips": [{"at": list(at), "player": p} for at, p in self.chips],
            "chips_left": dict(self.chips_left),
            "discarded": list(self.discarded),
            "owners_now": [judged.to_json() for judged in self.owners_now],
            "over": self.over,
            "scores": dict(self.scores),
            "winners": list(self.winners),
        }


def spot_chips(chips: Mapping[int, str]) -> tuple[tuple[Coord, str], ...]:
    """The chips on the lattice as (spot, owner), in spot order."""
    return tuple((SPOTS[spot], player) for spot, player in sorted(chips.items()))
