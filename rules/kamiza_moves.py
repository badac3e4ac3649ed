"""KAMIZA's cards, areas and plays, and the shared tables that make a usual play one lookup."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from rules.kamiza_events import CardPlaced
from rules.kamiza_judge import PlayedCard
from rules.kamiza_memo import PLAY_CODES, remember

SECOND = "second"
CLASSIC = "classic"
EDITIONS = (SECOND, CLASSIC)
KAMIZA = "kamiza"
SHIMOZA = "shimoza"
AREAS = (KAMIZA, SHIMOZA)

# K-1: one set per player; the fourth card differs between the editions.
CARD_SETS: dict[str, tuple[str, ...]] = {
    SECOND: ("boss", "underboss", "hitman", "policeman"),
    CLASSIC: ("boss", "underboss", "hitman", "raid"),
}
ALL_CARDS = frozenset(CARD_SETS[SECOND] + CARD_SETS[CLASSIC])
GAMES_PER_MATCH = 3
ROUNDS_PER_GAME = 3
WANTED_LIMIT = 3


@dataclass(frozen=True, slots=True)
class Play:
    """Put `card` face down in `area` (K-3)."""

    card: str
    area: str

    def to_json(self) -> dict[str, str]:
        return {"card": self.card, "area": self.area}


PLAYS = {(card, area): Play(card, area) for card in sorted(ALL_CARDS) for area in AREAS}
# The same, looked up with a log entry's raw field values (anything JSON holds).
PLAY_OF_FIELDS: dict[tuple[object, object], Play] = {key: play for key, play in PLAYS.items()}

# Every hand a player can hold: a set's cards not played yet this game, in set order (K-2).
HANDS = {
    tuple(hand)
    for cards in CARD_SETS.values()
    for size in range(len(cards) + 1)
    for hand in combinations(cards, size)
}
# (hand, card, area) -> the hand after playing that card there; absent when the card is not in
# the hand or the area is not one (K-2, K-3).
HAND_AFTER = {
    (hand, card, area): tuple(c for c in hand if c != card)
    for hand in HANDS
    for card in hand
    for area in AREAS
}
# hand -> its legal plays, in the order `legal_actions` lists them.
LEGAL = {hand: tuple(PLAYS[card, area] for card in hand for area in AREAS) for hand in HANDS}

# Shared values, made once per (player, card, area) and per (player, hand, card, area).
Step = tuple[PlayedCard, CardPlaced, CardPlaced, int]  # the card, face down, face up, its code
STEPS: dict[tuple[str, str, str], Step] = {}


def step(player: str, card: str, area: str) -> Step:
    key = (player, card, area)
    step = STEPS.get(key)
    if step is None:
        placed = (CardPlaced(player, card, area, False), CardPlaced(player, card, area, True))
        played = PlayedCard(player, card, area)
        step = remember(STEPS, key, (played, *placed, PLAY_CODES[card, area]))
    return step


# (player, hand, card, area) -> the hand after the play, then the play's `Step`: one lookup checks
# and carries out the usual play.
Move = tuple[tuple[str, ...], PlayedCard, CardPlaced, CardPlaced, int]
MOVES: dict[tuple[str, tuple[str, ...], str, str], Move] = {}


def new_move(player: str, hand: tuple[str, ...], card: str, area: str) -> Move | None:
    """The move, or None when the card is not in the hand or the area is not one."""
    rest = HAND_AFTER.get((hand, card, area))
    if rest is None:
        return None
    return remember(MOVES, (player, hand, card, area), (rest, *step(player, card, area)))
