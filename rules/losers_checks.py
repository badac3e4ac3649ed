"""Rights of Losers: what the rules refuse (G-2), checked before anything changes.

`LosersChecks` is the part of `RightsOfLosers` that reads the state and raises `IllegalAction`
naming the rule; it never changes the state. The checks run on every action of every replayed
log, so the usual case (the right player, an action of the right shape) is tested first and
with `type(...) is`; `isinstance` is the fallback that keeps subclasses judged as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.base import IllegalAction, Next
from rules.losers_actions import CHOICES, Appoint, Build, Chip, Move, Play
from rules.losers_board import (
    BUILDING_INDEXES,
    CARD_SUIT,
    LAND_INDEXES,
    OF_SUIT_OF,
    TRICKS,
    cell_of,
    chip_masks,
    spot_of,
    spots_of,
    touched,
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
_CHOICE_TYPES = frozenset(CHOICES)
GAME_OVER = f"the game is over: all {TRICKS} tricks have been played"

# What `_refuse` hands to `apply`: the suit a play shows the player lacks, a spot (chip),
# two cells (build), (from, to) spots (move).
Checked = str | int | tuple[int, int] | None


class LosersChecks:
    """Queries and checks over the state of a Rights of Losers game."""

    players: tuple[str, ...]
    hands: dict[str, list[str]]
    field: list[str | None]
    _vacant: list[int]  # the building cells without a card, in order
    chips: dict[int, str]
    # `chips` again, by owner: bit s of a player's number is set when they have a chip on spot s.
    # Kept in step with `chips` by the rules, for a choice to know the chooser's chips at once.
    _mine: dict[str, int]
    _free: list[int]  # the free spots touching a card, where chips may go, in order
    _touched: int  # the spots touching a card, free or not, as bits (`touched`)
    trick: list[tuple[str, str]]
    won: list[str]
    winner: str | None
    order: tuple[str, ...]
    chip_queue: list[str]
    _phase: str
    _next: Next | None
    # What `random_action` drew last, for whom, and what the checks would have returned for it;
    # None once anything may have changed (see `LosersPlay.apply`).
    _drawn: tuple[str, Any, Any] | None

    def next(self) -> Next | None:
        """Who acts now; kept up to date by every change of turn, so asking costs nothing."""
        return self._next

    @property
    def phase(self) -> str:
        """The step of the trick: "play", "chip", "build", "choice", or "over" (R-4, R-5)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        # The rules keep `_next` and the empty cells in step with every change they make; a test
        # that sets up a position by hand sets the phase last, and both are then worked out from
        # scratch (and a draw of `random_action` is forgotten).
        self._phase = value
        self._next = self._turn_now()
        self._vacant = [cell for cell in BUILDING_INDEXES if self.field[cell] is None]
        self._touched = touched(self.field)
        self._mine = chip_masks(self.players, self.chips)
        self._drawn = None

    @property
    def open(self) -> frozenset[int]:
        """R-3: the free spots touching a card, where chips may go."""
        return frozenset(self._free)

    @open.setter
    def open(self, spots: Iterable[int]) -> None:
        # The rules keep `_free` sorted, for drawing a spot by its rank, and `_mine` in step with
        # `chips`; for a test that sets up a position by hand (chips put or taken away, then the
        # free spots set), both are worked out from scratch.
        self._free = sorted(spots)
        self._mine = chip_masks(self.players, self.chips)
        self._drawn = None

    def _turn_now(self) -> Next | None:
        phase = self._phase
        if phase == OVER:
            return None
        if phase == PLAY:
            return Next(self.order[len(self.trick)], PLAY)
        if phase == CHIP:
            return Next(self.chip_queue[0], CHIP)
        assert self.winner is not None
        return Next(self.winner, phase)

    def _playable(self, player: str) -> list[str]:
        """R-4: the whole hand, or only the led suit when the player holds any of it."""
        hand = self.hands[player]
        if self.trick:
            follow = list(filter(OF_SUIT_OF[self.trick[0][1]], hand))
            if follow:
                return follow
        return hand

    def _empty(self) -> list[int]:
        """R-2: the building cells without a card, in order (kept up to date: not to be changed)."""
        return self._vacant

    def _own(self, player: str) -> list[int]:
        """The spots of the player's chips, in order."""
        return list(spots_of(self._mine[player]))

    # -- checking ----------------------------------------------------------------------------------

    def _refuse(self, player: str, action: Any) -> Checked:
        """Raise IllegalAction unless `apply` may carry out the action; returns what it needs."""
        nxt = self._next
        if nxt is None:
            raise IllegalAction("R-4", GAME_OVER)
        phase = self._phase
        if player != nxt.player:
            if player not in self.players:
                raise IllegalAction("R-1", f"{player!r} is not seated at this table")
            task = PHASE_TASK[phase]
            raise IllegalAction(
                PHASE_RULE[phase], f"it is {nxt.player}'s turn to {task}, not {player}'s"
            )
        kind = type(action)
        if phase == PLAY:
            if kind is Play or isinstance(action, Play):
                return self._refuse_play(player, action.card)
        elif phase == CHIP:
            if kind is Chip or isinstance(action, Chip):
                return self._refuse_spot(action.at)
        elif phase == BUILD:
            if kind is Build or isinstance(action, Build):
                return self._refuse_build(action)
        elif kind in _CHOICE_TYPES or isinstance(action, CHOICES):
            return self._refuse_choice(player, action)
        raise IllegalAction(PHASE_RULE[phase], f"{player} must {PHASE_TASK[phase]} now")

    def _refuse_play(self, player: str, card: str) -> str | None:
        """R-4 for a card; returns the led suit when the player does not follow it (and so shows
        they hold none of it), else None."""
        hand = self.hands[player]
        if card not in hand:
            raise IllegalAction("R-4", f"{player} does not hold {card}")
        trick = self.trick
        if trick:
            led = CARD_SUIT[trick[0][1]]
            if CARD_SUIT[card] != led:
                for held in hand:
                    if CARD_SUIT[held] == led:
                        raise IllegalAction("R-4", f"{player} must follow {led}")
                return led
        return None

    def _refuse_spot(self, at: Any) -> int:
        spot = spot_of(at)
        if spot is None:
            raise IllegalAction("R-3", f"{_shown(at)} is not a spot: [y, x] run from 0 to 8")
        if spot in self.chips:
            raise IllegalAction("R-3", f"spot {list(at)} already holds a chip")
        if spot not in self._free:
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
        first = self._refuse_cell(at[0])
        second = self._refuse_cell(at[1])
        if first == second:
            raise IllegalAction("R-5", "the 2 cards go on 2 different cells")
        return first, second

    def _refuse_cell(self, where: Any) -> int:
        cell = cell_of(where)
        if cell is None:
            raise IllegalAction("R-2", f"{_shown(where)} is not a cell: [r, c] run from 0 to 4")
        if cell in LAND_INDEXES:
            raise IllegalAction("R-2", f"cell {list(where)} is land for sale, not for building")
        if self.field[cell] is not None:
            raise IllegalAction("R-5", f"cell {list(where)} already holds {self.field[cell]}")
        return cell

    def _refuse_choice(self, player: str, action: Any) -> Checked:
        if isinstance(action, Appoint) and action.lead not in self.players:
            raise IllegalAction("R-5", f"{action.lead!r} is not a player of this game")
        if isinstance(action, Move):
            source = spot_of(action.source)
            if source is None or self.chips.get(source) != player:
                raise IllegalAction("R-5", f"{player} has no chip at {_shown(action.source)}")
            if spot_of(action.to) == source:
                raise IllegalAction("R-5", "a chip must move to another spot")
            return source, self._refuse_spot(action.to)
        return None


def _shown(pair: Any) -> str:
    """A coordinate as the log writes it."""
    return str(list(pair)) if isinstance(pair, tuple | list) else repr(pair)
