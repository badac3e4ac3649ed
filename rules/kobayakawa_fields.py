"""Kobayakawa: what a game holds, field by field, and `clone`, which copies it (RULES.md B-1..B-7).

`kobayakawa_state.KobayakawaState` plays the game on these fields. They are slots, for speed:
a turn changes a few of them in place, and `clone()` copies the few small dicts and shares the
rest (decks, orders, events: all immutable), so that a search copies games cheaply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from rules.base import Event, Next
from rules.kobayakawa_moves import Drew, Fought, KobayakawaAction, KobayakawaEvent, Passed
from rules.kobayakawa_tables import DrawTable, Events, Seating, Turn


class KobayakawaFields:
    """The fields of a game of Kobayakawa (see `KobayakawaState` for the game itself)."""

    __slots__ = (
        "_chosen",
        "_drew",
        "_events",
        "_fights",
        "_fought",
        "_keep_tables",
        "_last_result",
        "_last_round",
        "_looked",
        "_mover",
        "_next",
        "_opening",
        "_options",
        "_passed",
        "_quiet",
        "_seating",
        "_turn_count",
        "_turns",
        "bets",
        "box",
        "cards",
        "centre",
        "decks",
        "discards",
        "draw_table",
        "end_reason",
        "kamons",
        "kobayakawa",
        "kobayakawa_history",
        "order",
        "out",
        "phase",
        "pile",
        "pile_top",
        "players",
        "pot",
        "round",
        "simultaneous",
        "start_player",
        "turn",
    )

    # The game as the rules see it.
    players: tuple[str, ...]  # clockwise
    decks: tuple[tuple[int, ...], ...]
    kamons: dict[str, int]
    centre: int
    box: int
    pot: int
    out: list[str]  # B-7: in the order they went out
    round: int
    start_player: str
    end_reason: str | None
    # The last round's end (B-5..B-7): its events, or None until `last_result` builds them
    # from `_last_round` (what `end_round` kept of it in a quiet replay).
    _last_result: tuple[KobayakawaEvent, ...] | None
    _last_round: tuple[Any, ...] | None
    _quiet: bool  # the round ends make no events (`fast_forward`)
    # The round (set by `begin_round`): players still in, clockwise from the start player.
    order: tuple[str, ...]
    phase: str
    turn: int
    cards: dict[str, int]
    kobayakawa: int  # 0 only while no round can be dealt (B-2)
    kobayakawa_history: tuple[int, ...]
    pile: tuple[int, ...]
    pile_top: int
    discards: dict[str, int]
    bets: dict[str, int]  # in turn order: the fighters so far
    # Whose turn: `_next` is what `next()` answers, `_mover` who may act (NOBODY: no one),
    # `_options` their legal actions and `draw_table` the same as `rules.agents.random_action`
    # draws them (`kobayakawa_tables.DrawTable`); `_turns` the phase's turns in order (each the
    # three of them, `kobayakawa_tables.Turn`) and `_fights` the fight phase's to come; `_looked`:
    # they have seen the drawn card (B-3, `look`).
    _next: Next | None
    _mover: object
    _options: tuple[KobayakawaAction, ...]
    draw_table: DrawTable
    _turns: tuple[Turn, ...]
    _turn_count: int  # of each phase: the players in the round (`len` costs a call a turn)
    _fights: tuple[Turn, ...]
    _looked: bool
    _opening: tuple[Event, ...]
    # Shared with every game of the seating or of these players (`kobayakawa_tables`).
    _seating: Seating
    _events: Events
    _keep_tables: dict[str, DrawTable]
    _drew: dict[str, list[Drew | None]]
    _fought: dict[str, list[Fought | None]]
    _passed: dict[str, Passed]
    # The house rule H-2: the fight phase's choices made at once (`kobayakawa_together`).
    simultaneous: bool
    _chosen: Mapping[str, KobayakawaAction]  # replaced, never changed in place

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.decks = self.decks
        new.kamons = self.kamons.copy()
        new.centre = self.centre
        new.box = self.box
        new.pot = self.pot
        new.out = self.out.copy()
        new.round = self.round
        new.start_player = self.start_player
        new.end_reason = self.end_reason
        new._last_result = self._last_result
        new._last_round = self._last_round
        new._quiet = False
        new.order = self.order
        new.phase = self.phase
        new.turn = self.turn
        new.cards = self.cards.copy()
        new.kobayakawa = self.kobayakawa
        new.kobayakawa_history = self.kobayakawa_history
        new.pile = self.pile
        new.pile_top = self.pile_top
        new.discards = self.discards.copy()
        new.bets = self.bets.copy()
        new._next = self._next
        new._mover = self._mover
        new._options = self._options
        new.draw_table = self.draw_table
        new._turns = self._turns
        new._turn_count = self._turn_count
        new._fights = self._fights
        new._looked = self._looked
        new._opening = self._opening
        new._seating = self._seating
        new._events = self._events
        new._keep_tables = self._keep_tables
        new._drew = self._drew
        new._fought = self._fought
        new._passed = self._passed
        new.simultaneous = self.simultaneous
        new._chosen = self._chosen  # replaced, never changed in place
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()  # what a clone shares is immutable
