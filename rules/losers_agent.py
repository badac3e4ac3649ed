"""Rights of Losers' computer player: plays for land and influence, one step ahead (R-4, R-5)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from rules.losers_actions import (
    CHIP_AT,
    PASS,
    PLAYS,
    REVERSE,
    Appoint,
    Build,
    Chip,
    move_action,
)
from rules.losers_actions import Action as LosersAction
from rules.losers_board import (
    BUILDING_INDEXES,
    CARD_NUMBER,
    CARD_ORDER,
    CARD_SUIT,
    CELLS,
    CORNER,
    EDGE,
    GRID,
    LAND,
    SPOTS,
    TOUCHED_BY,
    TOUCHING,
    TRICKS,
    spot_index,
)
from rules.losers_judgement import judge_card
from rules.losers_view import LosersObservation


class LosersTable(Protocol):
    """What the policy reads of a game (`rules.losers.RightsOfLosers`, whose `computer_action`
    it is): typed so, this module stays below the game's and the game imports it like any other."""

    def observation(self, player: str | None) -> LosersObservation: ...
    def legal_chip_spots(self, player: str) -> list[tuple[int, int]]: ...


# Only the player's observation is read (G-3): their own hand and the public table. Cells and
# spots are flat indexes as in `rules.losers_board`.
_LAND_VALUE = 4.0  # a land card: a share of the 10-point bonus for most land
_INFLUENCE = {0: 1.0, EDGE: 0.6, CORNER: 0.35}  # on the card, on an edge, at a corner
_EMPTY_CELL_HOPE = 0.6  # a chip beside an empty building cell may pay off later
# A winner moves a chip before the last trick only for a big swing (others may move it back);
# in self-play this beat never moving by 90 wins to 52 over 300 four-player games.
_MOVE_GAIN = 10.0


def _card_value(card: str) -> float:
    return _LAND_VALUE if card == LAND else float(CARD_NUMBER[card])


class _Table:
    """What one Rights of Losers player sees, in flat indexes."""

    def __init__(self, seen: LosersObservation, player: str) -> None:
        self.me = player
        self.players = seen.players
        self.field = seen.field
        self.chips: dict[int, str] = {}
        for at, owner in seen.chips:
            spot = spot_index(at)
            assert spot is not None
            self.chips[spot] = owner
        self.reversed = seen.reversed

    def owner(self, cell: int, chips: dict[int, str] | None = None) -> str | None:
        return judge_card(cell, self.chips if chips is None else chips)[0]

    def worth(self, cell: int, owner: str | None) -> float:
        """What the owner of a card means to me: + its value mine, - a share of it theirs."""
        card = self.field[cell]
        if card is None or owner is None:
            return 0.0
        value = _card_value(card)
        return value if owner == self.me else -value / max(1, len(self.players) - 1)

    def pull(self, cell: int) -> float:
        """My chips' influence around a cell minus the others' (who a card there would favour)."""
        total = 0.0
        for spot, influence in TOUCHING[cell]:
            owner = self.chips.get(spot)
            if owner is not None:
                weight = _INFLUENCE[influence]
                total += weight if owner == self.me else -0.7 * weight
        return total

    def strength(self, card: str) -> int:
        number = CARD_NUMBER[card]
        return 11 - number if self.reversed else number


def losers_policy(game: LosersTable, player: str, rng: random.Random) -> LosersAction:
    """Lose cheaply or win what is worth building, put chips where they take valuable cards,
    build the two highest cards beside its own chips, and mostly pass as the winner."""
    seen = game.observation(player)
    table = _Table(seen, player)
    phase = seen.phase
    if phase == "play":
        return PLAYS[_losers_play(seen, table, rng)]
    if phase == "chip":
        return _losers_chip(game, table, rng)
    if phase == "build":
        return _losers_build(seen.won_cards, table)
    return _losers_choice(seen, table, rng)


T = TypeVar("T")


def _pick(rng: random.Random, scored: list[tuple[float, T]]) -> T:
    """The best-scored item; equal scores are settled by the RNG."""
    best = max(score for score, _ in scored)
    return rng.choice([item for score, item in scored if score >= best - 1e-9])


def _losers_play(seen: LosersObservation, table: _Table, rng: random.Random) -> str:
    hand = seen.hand or ()
    trick = [card for _, card in seen.trick]
    strength = table.strength
    site = max(
        (table.pull(cell) for cell in BUILDING_INDEXES if table.field[cell] is None), default=0
    )
    no_chips = seen.chips_left[table.me] == 0

    def dump(cards: Sequence[str]) -> str:
        # Give away as little as possible: weak cards, and low numbers for the winner to build.
        return _pick(rng, [(-(strength(c) + 0.5 * CARD_NUMBER[c]), c) for c in cards])

    if not trick:
        if no_chips and site > 0:
            return _pick(rng, [(float(strength(c)), c) for c in hand])
        return dump(hand)
    led = CARD_SUIT[trick[0]]
    follow = [c for c in hand if CARD_SUIT[c] == led]
    if not follow:
        return _pick(rng, [(-(CARD_NUMBER[c] + 0.1 * strength(c)), c) for c in hand])
    best = max(strength(c) for c in trick if CARD_SUIT[c] == led)
    beaters = [c for c in follow if strength(c) > best]
    numbers = sorted((CARD_NUMBER[c] for c in trick), reverse=True)
    worth = sum(numbers[:2]) + (max(CARD_NUMBER[c] for c in beaters) if beaters else 0)
    last = len(trick) == len(table.players) - 1
    want = beaters and (no_chips or (site > 0 and worth >= 12))
    if want:
        if last:
            return _pick(rng, [(-float(strength(c)), c) for c in beaters])
        return _pick(rng, [(float(strength(c)), c) for c in beaters])
    losers = [c for c in follow if strength(c) <= best]
    if losers:
        return dump(losers)
    return _pick(rng, [(-float(strength(c)), c) for c in follow])


def _chip_gain(table: _Table, spot: int, chips: dict[int, str], before: dict[int, float]) -> float:
    """What putting my chip on a free `spot` is worth, given `chips` and the cells' worth now."""
    after = dict(chips)
    after[spot] = table.me
    gain = 0.0
    for cell in TOUCHED_BY[spot]:
        card = table.field[cell]
        if card is None:
            if cell in BUILDING_INDEXES:
                gain += _EMPTY_CELL_HOPE
            continue
        gain += table.worth(cell, table.owner(cell, after)) - before[cell]
        influence = next(i for s, i in TOUCHING[cell] if s == spot)
        gain += 0.15 * _card_value(card) * _INFLUENCE[influence]
    return gain


def _losers_chip(game: LosersTable, table: _Table, rng: random.Random) -> Chip:
    before = {
        cell: table.worth(cell, table.owner(cell))
        for cell in range(GRID * GRID)
        if table.field[cell] is not None
    }
    spots = [spot_index(at) for at in game.legal_chip_spots(table.me)]
    scored = [(_chip_gain(table, s, table.chips, before), s) for s in spots if s is not None]
    return CHIP_AT[_pick(rng, scored)]


def _losers_build(won: Sequence[str], table: _Table) -> Build:
    """The two highest cards of the trick, the higher on the cell that favours me most."""
    high, second = sorted(won, key=lambda c: (-CARD_NUMBER[c], CARD_ORDER[c]))[:2]
    empty = [cell for cell in BUILDING_INDEXES if table.field[cell] is None]

    def score(cell: int, card: str) -> float:
        value = float(CARD_NUMBER[card])
        owner = table.owner(cell)
        mine = 1.0 if owner == table.me else -0.6 if owner is not None else 0.0
        return value * (mine + 0.3 * table.pull(cell))

    # Best pair of cells; on equal totals, the better cell takes the higher card.
    best = max(
        (
            (score(a, high) + score(b, second), score(a, high), (a, b))
            for a in empty
            for b in empty
            if a != b
        ),
        key=lambda item: item[:2],
    )[2]
    return Build((high, second), (CELLS[best[0]], CELLS[best[1]]))


def _best_move(table: _Table) -> tuple[float, int, int] | None:
    """(gain, from, to) of the most useful move of one of my chips, if any."""
    free = [
        spot
        for spot in range(len(SPOTS))
        if spot not in table.chips and any(table.field[c] is not None for c in TOUCHED_BY[spot])
    ]
    own = sorted(spot for spot, p in table.chips.items() if p == table.me)
    before = {
        cell: table.worth(cell, table.owner(cell))
        for cell in range(GRID * GRID)
        if table.field[cell] is not None
    }
    best: tuple[float, int, int] | None = None
    for source in own:
        without = dict(table.chips)
        del without[source]
        for to in free:
            moved = dict(without)
            moved[to] = table.me
            touched = set(TOUCHED_BY[source]) | set(TOUCHED_BY[to])
            gain = sum(
                table.worth(c, table.owner(c, moved)) - before[c]
                for c in touched
                if table.field[c] is not None
            )
            if best is None or gain > best[0]:
                best = (gain, source, to)
    return best


def _losers_choice(seen: LosersObservation, table: _Table, rng: random.Random) -> LosersAction:
    last = seen.trick_number == TRICKS
    move = _best_move(table)
    if move is not None and move[0] >= (1.0 if last else _MOVE_GAIN):
        return move_action(move[1], move[2])
    roll = rng.random()
    if last or roll < 0.7:
        return PASS
    if roll < 0.85:
        hand = seen.hand or ()
        now = sum(table.strength(c) for c in hand)
        return REVERSE if hand and 11 * len(hand) - now > now else PASS
    # Lead next from the player after me, so that I play last in the next trick.
    seat = table.players.index(table.me)
    return Appoint(table.players[(seat + 1) % len(table.players)])
