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


class Nobody:
    """Who is on turn once the match is over: equal to no player (and to no None a caller
    passes), the same object in every copy."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Nobody:
        return self

    def __copy__(self) -> Nobody:
        return self

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = Nobody()


# What an unmade Holding offers (`Holding.make`): nothing, shared, never written.
_NO_MOVES: dict[int, Move] = {}
_NO_MOVES_BY_FIELDS: dict[tuple[object, object], Move] = {}


class Holding:
    """One player holding one hand: the plays open to them and what each one does, made once
    (in its first turn, `make`) and shared by every table (immutable; a deep copy shares it too).

    `draw` is the random draw of `rules.agents.random_action`: (player, picks, bits), where
    `picks[rng.getrandbits(bits)]` is the play `rng.choice(LEGAL[hand])` picks from the very same
    draws (None: draw again, as `choice_draw` checks). `moves` is keyed by the `id` of the shared
    `PLAYS` instances (alive as long as the module: ids never reused), so that `apply` checks and
    carries out a usual play in one lookup without hashing a dataclass. `move_draw` is `draw`
    with the moves of its picks (picks, bits): a random playout draws the move itself.
    """

    __slots__ = ("by_fields", "draw", "hand", "made", "move_draw", "moves", "player")

    player: str | Nobody  # NOBODY in NO_HOLDING
    hand: tuple[str, ...]

    def __init__(self, player: str | Nobody, hand: tuple[str, ...]) -> None:
        self.player = player
        self.hand = hand
        legal = LEGAL.get(hand) or tuple(PLAYS[card, area] for card in hand for area in AREAS)
        bits = len(legal).bit_length()
        picks = legal + (None,) * ((1 << bits) - len(legal)) if legal else ()
        self.draw: Draw = (player, picks, bits)
        # `moves`, `by_fields` (the same moves by a log entry's (card, area) values, for
        # `Kamiza.fast_forward`) and `move_draw` are made by `make`, once the Holding is the one
        # on turn: a table reaches few of the 16 hands a member could hold, and each one made
        # costs memory for as long as the member plays (issue 20: memory per idle table). Until
        # then they are empty: `apply` and `fast_forward` find no move in them and take the long
        # way, which is still right. (A `__getattr__` making them on first read would slow every
        # attribute read of a Holding: CPython 3.11 does not specialise them then.)
        self.made = False
        self.moves: dict[int, Move] = _NO_MOVES
        self.by_fields: dict[tuple[object, object], Move] = _NO_MOVES_BY_FIELDS
        self.move_draw: tuple[tuple[Move | None, ...], int] = ((), 0)

    def make(self) -> Holding:
        """Every play of this hand: what it does, and the Holding it leaves (made in its turn)."""
        if self.made:
            return self
        player, picks, bits = self.draw
        moves: dict[int, Move] = {}
        by_fields: dict[tuple[object, object], Move] = {}
        for play in picks:
            if play is not None:
                rest = tuple(c for c in self.hand if c != play.card)
                assert isinstance(player, str)  # NO_HOLDING holds no card
                played, placed, face_up, digit = step(player, play.card, play.area)
                move = (holding(player, rest), (played,), placed, face_up, digit)
                moves[id(play)] = by_fields[play.card, play.area] = move
        self.moves, self.by_fields = moves, by_fields
        self.move_draw = (tuple(None if p is None else moves[id(p)] for p in picks), bits)
        self.made = True
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Holding:
        return self

    def __copy__(self) -> Holding:
        return self


# A Holding's random draw: (player, picks, bits), see `Holding`.
Draw = tuple["str | Nobody", tuple[Play | None, ...], int]
# What a play does: the Holding after it, then the play's `Step` (its card as a 1-tuple, which
# `apply` adds to the round's plays).
Move = tuple[Holding, tuple[PlayedCard], CardPlaced, CardPlaced, int]
NO_HOLDING = Holding(NOBODY, ()).make()  # the match is over: nobody holds anything
_HOLDINGS: dict[tuple[str, tuple[str, ...]], Holding] = {}


def holding(player: str, hand: tuple[str, ...]) -> Holding:
    """The shared Holding of `player` with `hand` (a tuple of distinct cards); its plays, and
    the Holdings they lead to, are made once it is on turn (`Holding.make`)."""
    found = _HOLDINGS.get((player, hand))
    if found is None:
        found = remember(_HOLDINGS, (player, hand), Holding(player, hand))
    return found


_FULL: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, Holding]] = {}


def full_holdings(players: tuple[str, ...], cards: tuple[str, ...]) -> dict[str, Holding]:
    """Every player's Holding of the whole set (a game's first deal, K-2): shared, never
    changed; a table copies it."""
    found = _FULL.get((players, cards))
    if found is None:
        found = remember(_FULL, (players, cards), {p: holding(p, cards) for p in players}, 4096)
    return found
