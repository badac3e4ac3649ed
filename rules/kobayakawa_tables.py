"""Kobayakawa: the constants, the decks of a setup, random draws, and what games share.

Random playouts and replays create thousands of games a second; whatever does not depend on a
game's progress is made once here: the clockwise orders of a seating, the `Next` answers, and
the small immutable events of turns and round ends (they carry no state, so every game of the
same players reuses them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain
from operator import is_
from typing import Any, TypeVar

from rules.base import InvalidSetup, Next, check_players
from rules.kobayakawa_moves import (
    DRAW_PICKS,
    FIGHT_PICKS,
    KEEP_PICKS,
    Drew,
    FightPhaseStarted,
    Fought,
    KobayakawaAction,
    KobayakawaReplaced,
    NobodyFought,
    Passed,
    PlayerOut,
    RoundStarted,
    RoundWon,
)

CARDS = tuple(range(1, 16))  # B-1
ROUNDS = 7  # B-2
TOTAL_KAMONS = 32
START_KAMONS = 4
CENTRE_KAMONS = 8
MIN_PLAYERS, MAX_PLAYERS = 3, 6
DRAW, FIGHT, OVER = "draw", "fight", "over"
NOBODY: object = object()  # who may act when nobody may: equal to no player
# (player, picks, bits): `picks[rng.getrandbits(bits)]` is what `rng.choice` of the legal
# actions picks from the same draws (None: draw again); 2 bits pick one of two or three.
DrawTable = tuple[object, tuple["KobayakawaAction | None", ...], int]
NO_DRAW: DrawTable = (NOBODY, (), 0)  # nobody may act

T = TypeVar("T")
_CARD_LIST = list(CARDS)
_INT_ONLY = {int}
_LIST_ONLY = {list}
_EVERY_DECK_SORTED = [[_CARD_LIST] * count for count in range(ROUNDS + 1)]
# random.shuffle's swaps for 15 cards: (position, bound, bits of the bound), last position first.
_SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(CARDS) - 1, 0, -1))


# -- random draws, exactly as random.Random makes them ---------------------------------------------
# G-1: a seed must give the same setup and the same random game as ever. `Random.shuffle` and
# `Random.choice` cost a Python call per swap or pick; these copies draw the very same bits from
# `getrandbits` without those calls. They are used only for `random.Random` itself, and only if a
# check at import finds them drawing exactly as this Python's `random` does.


def _copied_shuffles(rng: random.Random, count: int) -> list[list[int]]:
    bits = rng.getrandbits
    decks = []
    for _ in range(count):
        deck = _CARD_LIST.copy()
        for i, bound, width in _SWAPS:
            j = bits(width)
            while j >= bound:
                j = bits(width)
            deck[i], deck[j] = deck[j], deck[i]
        decks.append(deck)
    return decks


def _copied_choice(rng: random.Random, options: Sequence[T]) -> T:
    bits = rng.getrandbits
    bound = len(options)
    width = bound.bit_length()  # as `Random._randbelow` draws
    j = bits(width)
    while j >= bound:
        j = bits(width)
    return options[j]


def _copies_draw_as_random() -> bool:
    ours, theirs = random.Random(2024), random.Random(2024)
    for count in range(64):
        decks = [list(CARDS) for _ in range(count % 8)]
        for deck in decks:
            theirs.shuffle(deck)
        if _copied_shuffles(ours, count % 8) != decks:
            return False
        for options in ((0, 1), (0, 1, 2), tuple(range(3 + count % 4))):
            if _copied_choice(ours, options) != theirs.choice(options):
                return False
    return ours.getstate() == theirs.getstate()


_COPIES_OK = _copies_draw_as_random()
# The class whose draws `Kobayakawa.random_action` copies (None: always ask the generator).
COPIED_RANDOM: type[random.Random] | None = random.Random if _COPIES_OK else None


def shuffled_deck(rng: random.Random) -> list[int]:
    """The 15 cards shuffled exactly as `rng.shuffle(list(CARDS))` shuffles them."""
    return shuffled_decks(rng, 1)[0]


def shuffled_decks(rng: random.Random, count: int) -> list[list[int]]:
    """`count` decks, each `shuffled_deck(rng)` in turn."""
    if type(rng) is COPIED_RANDOM:
        return _copied_shuffles(rng, count)
    decks = [list(CARDS) for _ in range(count)]
    for deck in decks:
        rng.shuffle(deck)
    return decks


def chosen(rng: random.Random, options: Sequence[T]) -> T:
    """`rng.choice(options)`, drawn exactly as it draws."""
    if type(rng) is COPIED_RANDOM and options:
        return _copied_choice(rng, options)
    return rng.choice(options)


# -- setups ----------------------------------------------------------------------------------------


def checked_decks(decks: Any) -> tuple[tuple[int, ...], ...]:
    """setup.decks as tuples; raises InvalidSetup unless it holds 1 to 7 permutations of 1-15.

    A game is often created twice from the same setup (`rules.log.new_header` checks the one
    it draws, then `start` builds the game): decks checked before, or drawn here, are known by
    identity down to each card object, so the second look costs a fifth of the first.
    """
    known = _KNOWN.get(id(decks))
    if known is not None and known[0] is decks and _unchanged(decks, known[1], known[2]):
        return known[2]
    checked = _checked(decks)
    remember_decks(decks, checked)
    return checked


def remember_decks(decks: Any, checked: tuple[tuple[int, ...], ...]) -> None:
    """Note `decks` (a list or tuple of lists or tuples) as holding exactly `checked`."""
    if len(_KNOWN) >= _MAX_KNOWN:
        # The oldest (none if another thread just emptied the dict); `break` before iterating
        # on, which would fail on a dict changed meanwhile.
        for oldest in _KNOWN:
            _KNOWN.pop(oldest, None)
            break
    _KNOWN[id(decks)] = (decks, tuple(decks), checked)


def _unchanged(decks: Any, inner: tuple[Any, ...], checked: tuple[tuple[int, ...], ...]) -> bool:
    """`decks` still holds the very lists it held, each the same length and the same card
    objects as when checked (the same objects: an equal `True` or `1.0` is not the int 1)."""
    return (
        len(decks) == len(inner)
        and all(map(is_, decks, inner))
        and list(map(len, inner)) == list(map(len, checked))
        and all(map(is_, chain.from_iterable(inner), chain.from_iterable(checked)))
    )


def _checked(decks: Any) -> tuple[tuple[int, ...], ...]:
    if (  # the usual setup, checked at once: exactly ints (not bools), each deck 1 to 15
        type(decks) is list
        and 1 <= len(decks) <= ROUNDS
        and set(map(type, decks)) == _LIST_ONLY
        and set(map(type, chain.from_iterable(decks))) == _INT_ONLY
        and list(map(sorted, decks)) == _EVERY_DECK_SORTED[len(decks)]
    ):
        return tuple(map(tuple, decks))
    # Otherwise deck by deck, to name the first that is wrong.
    if not isinstance(decks, list | tuple) or not 1 <= len(decks) <= ROUNDS:
        raise InvalidSetup(f"setup.decks must be a list of 1 to {ROUNDS} decks (B-2)")
    for index, deck in enumerate(decks):
        # Exactly ints (not bools) before sorting: mixed types would not even sort.
        if (
            not isinstance(deck, list | tuple)
            or set(map(type, deck)) != _INT_ONLY
            or sorted(deck) != _CARD_LIST
        ):
            raise InvalidSetup(
                f"setup.decks[{index}] must be a permutation of the cards 1 to 15 (B-2)"
            )
    return tuple(map(tuple, decks))


# id(decks) -> (decks, the decks it held, their cards): a few setups just drawn or checked.
_KNOWN: dict[int, tuple[Any, tuple[Any, ...], tuple[tuple[int, ...], ...]]] = {}
_MAX_KNOWN = 16


# -- shared events and seatings --------------------------------------------------------------------

# PHASE_STARTS[round][kobayakawa]: B-4's event, one for each round and Kobayakawa.
PHASE_STARTS = [[FightPhaseStarted(r, k) for k in range(16)] for r in range(ROUNDS + 1)]


class Events:
    """The events turns and round ends return, made once and shared: they hold no state, and
    games differ mostly in the order their players sit. Keyed by player name, not seating:
    `random_match` seats the same names in many orders. Entries never change once made."""

    __slots__ = (
        "_nobody",
        "_out",
        "_started_count",
        "draw_next",
        "draw_tables",
        "drew",
        "fight_next",
        "fight_tables",
        "fought",
        "keep_tables",
        "passed",
        "replaced",
        "started",
        "won",
    )

    def __init__(self) -> None:
        self.draw_next: dict[str, Next] = {}
        self.fight_next: dict[str, Next] = {}
        self.passed: dict[str, Passed] = {}
        # The random draws of `rules.agents.random_action` (`KobayakawaState.draw_table`) for a
        # player to draw (or replace), to keep after looking (B-3), and to fight or pass.
        self.draw_tables: dict[str, DrawTable] = {}
        self.keep_tables: dict[str, DrawTable] = {}
        self.fight_tables: dict[str, DrawTable] = {}
        # drew[player][card] and fought[player][pot * 3 + bet] (a pot holds at most 6 players'
        # 2 kamons): filled as met (`new_drew`, `new_fought`), read directly by `apply`.
        self.drew: dict[str, list[Drew | None]] = {}
        self.fought: dict[str, list[Fought | None]] = {}
        # replaced[player][previous * 16 + kobayakawa], as `drew`
        self.replaced: dict[str, list[KobayakawaReplaced | None]] = {}
        # The round events by their fields (the order of play last): read by `kobayakawa_round`.
        # started[order][(round * 16 + kobayakawa) * 16 + centre] (the start player is order[0])
        self.started: dict[tuple[str, ...], dict[int, RoundStarted]] = {}
        self._started_count = 0
        self.won: dict[tuple[int, str, int, int, int], RoundWon] = {}
        self._nobody: dict[tuple[int, int, str], NobodyFought] = {}
        self._out: dict[tuple[str, int], PlayerOut] = {}

    def seat(self, players: Sequence[str]) -> None:
        """Make the per-player entries of these players."""
        for p in players:
            if p not in self.passed:
                self.draw_next[p] = Next(p, DRAW)
                self.fight_next[p] = Next(p, FIGHT)
                self.passed[p] = Passed(p)
                self.draw_tables[p] = (p, DRAW_PICKS, 2)
                self.keep_tables[p] = (p, KEEP_PICKS, 2)
                self.fight_tables[p] = (p, FIGHT_PICKS, 2)
                self.drew[p] = [None] * 16
                self.fought[p] = [None] * 40
                self.replaced[p] = [None] * 256

    def new_drew(self, player: str, discarded: int) -> Drew:
        event = self.drew[player][discarded] = Drew(player, discarded)
        return event

    def new_fought(self, player: str, bet: int, pot: int) -> Fought:
        event = self.fought[player][pot * 3 + bet] = Fought(player, bet, pot)
        return event

    def new_replaced(self, player: str, previous: int, kobayakawa: int) -> KobayakawaReplaced:
        event = KobayakawaReplaced(player, previous, kobayakawa)
        self.replaced[player][previous * 16 + kobayakawa] = event
        return event

    def new_round_started(
        self, round_: int, order: tuple[str, ...], kobayakawa: int, centre: int
    ) -> RoundStarted:
        event = RoundStarted(round_, order[0], order, kobayakawa, centre)
        by_deal = self.started.get(order)
        if by_deal is None:
            by_deal = self.started[order] = {}
        by_deal[(round_ * 16 + kobayakawa) * 16 + centre] = event
        self._started_count += 1
        return event

    def new_round_won(self, round_: int, winner: str, pot: int, take: int, kamons: int) -> RoundWon:
        event = self.won[round_, winner, pot, take, kamons] = RoundWon(
            round_, winner, pot, take, kamons
        )
        return event

    def nobody_fought(self, round_: int, take: int, start: str) -> NobodyFought:
        key = (round_, take, start)
        event = self._nobody.get(key)
        if event is None:
            event = self._nobody[key] = NobodyFought(round_, take, start)
        return event

    def player_out(self, player: str, round_: int) -> PlayerOut:
        key = (player, round_)
        event = self._out.get(key)
        if event is None:
            event = self._out[key] = PlayerOut(player, round_)
        return event

    def forget_some(self) -> None:
        """Keep the round events bounded in a long run (called once a game)."""
        if self._started_count + len(self.won) > _MAX_ROUND_EVENTS:
            self.started.clear()
            self._started_count = 0
            self.won.clear()
            self._nobody.clear()
            self._out.clear()


_MAX_ROUND_EVENTS = 40_000  # deals and wins kept: the common ones of a long run, a few MB
_MAX_NAMES = 20_000  # players met; past that, new seatings start a fresh `Events`
_events = Events()


# One turn of a round's phase: who acts, `next()`'s answer, and the draw table of their options.
Turn = tuple[str, Next, DrawTable]


class Seating:
    """A clockwise seating of players: the orders of play from each start player, each order's
    turns (`turns`), and the shared events of its players. Never changes after creation but
    for `turns` filling up."""

    __slots__ = ("events", "known_turns", "players", "rotation")

    def __init__(self, players: tuple[str, ...]) -> None:
        global _events
        if len(_events.passed) + len(players) > _MAX_NAMES:
            _events = Events()  # games already made keep theirs
        _events.seat(players)
        self.events = _events
        self.players = players
        self.rotation = {p: players[i:] + players[:i] for i, p in enumerate(players)}
        # By order: the turns of a round, met so far (`turns`).
        self.known_turns: dict[tuple[str, ...], tuple[tuple[Turn, ...], tuple[Turn, ...]]] = {}

    def turns(self, order: tuple[str, ...]) -> tuple[tuple[Turn, ...], tuple[Turn, ...]]:
        """The turns of a round played in `order` (players of this seating): its draw phase's
        and its fight phase's (B-3, B-4)."""
        found = self.known_turns.get(order)
        if found is None:
            shared = self.events
            found = self.known_turns[order] = (
                tuple((p, shared.draw_next[p], shared.draw_tables[p]) for p in order),
                tuple((p, shared.fight_next[p], shared.fight_tables[p]) for p in order),
            )
        return found


_SEATINGS: dict[tuple[str, ...], Seating] = {}
_MAX_SEATINGS = 4096


def seating(players: Any) -> Seating:
    """The seating of these players, made once; raises InvalidSetup for players that are not
    3 to 6 distinct strings (a seating met before was checked then)."""
    if type(players) is list or type(players) is tuple:
        try:
            found = _SEATINGS.get(tuple(players))
        except TypeError:  # unhashable names: check_players says what is wrong
            found = None
        if found is not None:
            return found
    seats = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    if len(_SEATINGS) >= _MAX_SEATINGS:
        _SEATINGS.clear()
    found = _SEATINGS[seats] = Seating(seats)
    return found
