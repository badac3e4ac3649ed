"""Rights of Losers: what the rules refuse (G-2), checked before anything changes.

`LosersChecks` is the part of `RightsOfLosers` that reads the state and raises `IllegalAction`
naming the rule; it never changes the state.
"""

from __future__ import annotations

from typing import Any

from rules.base import IllegalAction, Next
from rules.losers_actions import CHOICES, Appoint, Build, Chip, Move, Play
from rules.losers_board import (
    BUILDING_INDEXES,
    CARD_SUIT,
    LAND_INDEXES,
    TRICKS,
    cell_index,
    spot_index,
)

PLAY, CHIP, BUILD, CHOICE, OVER = "play", "chip", "build", "choice", "over"
PHASE_ACTIONS: dict[str, Any] = {PLAY: Play, CHIP: Chip, BUILD: Build, CHOICE: CHOICES}
PHASE_RULE = {PLAY: "R-4", CHIP: "R-5", BUILD: "R-5", CHOICE: "R-5"}
PHASE_TASK = {
    PLAY: "play a card",
    CHIP: "put a chip",
    BUILD: "build two cards of the trick",
    CHOICE: "choose (appoint, reverse, move or pass)",
}


class LosersChecks:
    """Queries and checks over the state of a Rights of Losers game."""

    players: tuple[str, ...]
    hands: dict[str, list[str]]
    field: list[str | None]
    chips: dict[int, str]
    open: set[int]
    trick: list[tuple[str, str]]
    won: list[str]
    phase: str
    order: tuple[str, ...]
    chip_queue: list[str]
    winner: str | None

    def next(self) -> Next | None:
        phase = self.phase
        if phase == PLAY:
            return Next(self.order[len(self.trick)], PLAY)
        if phase == CHIP:
            return Next(self.chip_queue[0], CHIP)
        if phase == OVER:
            return None
        assert self.winner is not None
        return Next(self.winner, phase)

    def _playable(self, player: str) -> list[str]:
        """R-4: the whole hand, or only the led suit when the player holds any of it."""
        hand = self.hands[player]
        if self.trick:
            led = CARD_SUIT[self.trick[0][1]]
            follow = [card for card in hand if CARD_SUIT[card] == led]
            if follow:
                return follow
        return hand

    def _empty(self) -> list[int]:
        return [i for i in BUILDING_INDEXES if self.field[i] is None]

    def _own(self, player: str) -> list[int]:
        return sorted(spot for spot, owner in self.chips.items() if owner == player)

    # -- checking ----------------------------------------------------------------------------------

    def _refuse(self, player: str, action: Any) -> Any:
        """Raise IllegalAction unless `apply` may carry out the action; returns what it needs."""
        if self.phase == OVER:
            raise IllegalAction("R-4", f"the game is over: all {TRICKS} tricks have been played")
        if player not in self.players:
            raise IllegalAction("R-1", f"{player!r} is not seated at this table")
        nxt = self.next()
        assert nxt is not None
        rule, task = PHASE_RULE[self.phase], PHASE_TASK[self.phase]
        if player != nxt.player:
            raise IllegalAction(rule, f"it is {nxt.player}'s turn to {task}, not {player}'s")
        if not isinstance(action, PHASE_ACTIONS[self.phase]):
            raise IllegalAction(rule, f"{player} must {task} now")
        if isinstance(action, Play):
            return self._refuse_play(player, action.card)
        if isinstance(action, Chip):
            return self._refuse_spot(action.at)
        if isinstance(action, Build):
            return self._refuse_build(action)
        if isinstance(action, Appoint) and action.lead not in self.players:
            raise IllegalAction("R-5", f"{action.lead!r} is not a player of this game")
        if isinstance(action, Move):
            source = spot_index(action.source)
            if source is None or self.chips.get(source) != player:
                raise IllegalAction("R-5", f"{player} has no chip at {_shown(action.source)}")
            if spot_index(action.to) == source:
                raise IllegalAction("R-5", "a chip must move to another spot")
            return source, self._refuse_spot(action.to)
        return None

    def _refuse_play(self, player: str, card: str) -> None:
        hand = self.hands[player]
        if card not in hand:
            raise IllegalAction("R-4", f"{player} does not hold {card}")
        if self.trick:
            led = CARD_SUIT[self.trick[0][1]]
            if CARD_SUIT[card] != led and any(CARD_SUIT[c] == led for c in hand):
                raise IllegalAction("R-4", f"{player} must follow {led}")

    def _refuse_spot(self, at: Any) -> int:
        spot = spot_index(at)
        if spot is None:
            raise IllegalAction("R-3", f"{_shown(at)} is not a spot: [y, x] run from 0 to 8")
        if spot in self.chips:
            raise IllegalAction("R-3", f"spot {list(at)} already holds a chip")
        if spot not in self.open:
            raise IllegalAction("R-3", f"spot {list(at)} touches no card on the field")
        return spot

    def _refuse_build(self, action: Build) -> tuple[int, int]:
        cards, at = action.cards, action.at
        if len(cards) != 2 or len(at) != 2:
            raise IllegalAction("R-5", "the winner builds exactly 2 cards on 2 cells")
        if cards[0] == cards[1]:
            raise IllegalAction("R-5", "the winner builds 2 different cards")
        for card in cards:
            if card not in self.won:
                raise IllegalAction("R-5", f"{card} is not a card of this trick")
        cells = []
        for where in at:
            cell = cell_index(where)
            if cell is None:
                raise IllegalAction("R-2", f"{_shown(where)} is not a cell: [r, c] run from 0 to 4")
            if cell in LAND_INDEXES:
                raise IllegalAction("R-2", f"cell {list(where)} is land for sale, not for building")
            if self.field[cell] is not None:
                raise IllegalAction("R-5", f"cell {list(where)} already holds {self.field[cell]}")
            cells.append(cell)
        if cells[0] == cells[1]:
            raise IllegalAction("R-5", "the 2 cards go on 2 different cells")
        return cells[0], cells[1]


def _shown(pair: Any) -> str:
    """A coordinate as the log writes it."""
    return str(list(pair)) if isinstance(pair, tuple | list) else repr(pair)
