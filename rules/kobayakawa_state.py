"""Kobayakawa: the game's state and its turns, made for speed (RULES.md B-2..B-7).

Random playouts, replays and computer players that search run thousands of games a second: a
turn changes a few fields in place and returns events made once for all games
(`kobayakawa_tables.Events`); `clone()` copies the few small dicts and shares the rest (decks,
orders, events: all immutable). What a turn changes: `kobayakawa_turns` (shared with the quick
`playout`); a round's deal and end, and refusals: `kobayakawa_round`.
`rules.kobayakawa.Kobayakawa` adds creation, results and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from rules import kobayakawa_together as together
from rules.base import Event, IllegalAction, Next
from rules.kobayakawa_moves import (
    DRAW_ACTIONS,
    FIGHT_ACTION,
    KEEP_ACTIONS,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    Choice,
    Draw,
    Drew,
    Fight,
    Fought,
    KobayakawaAction,
    KobayakawaEvent,
    Passed,
    ReplaceKobayakawa,
)
from rules.kobayakawa_round import (
    begin_round,
    end_round,
    last_round_events,
    refusal,
    round_choices,
)
from rules.kobayakawa_tables import (
    CENTRE_KAMONS,
    COPIED_RANDOM,
    DRAW,
    FIGHT,
    OVER,
    PHASE_STARTS,
    ROUNDS,
    START_KAMONS,
    TOTAL_KAMONS,
    DrawTable,
    Events,
    Seating,
    Turn,
)
from rules.kobayakawa_turns import draw, fight, forward, replace, start_fights


class KobayakawaState:
    """A game of Kobayakawa as it stands, and its turns: `next`, `legal_actions`,
    `random_action`, `apply`, `look` (B-3), `clone`."""

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

    def __init__(self, seats: Seating, start: str, decks: tuple[tuple[int, ...], ...]) -> None:
        self._seating = seats
        shared = self._events = seats.events
        self._keep_tables = shared.keep_tables
        self._drew = shared.drew
        self._fought = shared.fought
        self._passed = shared.passed
        players = self.players = seats.players
        self.decks = decks
        self.kamons = dict.fromkeys(players, START_KAMONS)  # B-1
        self.centre = CENTRE_KAMONS
        self.box = TOTAL_KAMONS - CENTRE_KAMONS - START_KAMONS * len(players)
        self.pot = 0
        self.out = []
        self.round = 0
        self.start_player = start
        self.end_reason = None
        self._last_result = ()
        self._last_round = None
        self._quiet = False
        self.simultaneous = False  # the house rule H-2 (kobayakawa_together), set by `create`
        self._chosen: Mapping[str, KobayakawaAction] = {}
        first = begin_round(self)
        assert first is not None  # `create` checks that round 1 has its deck
        self._opening = (first,)

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

    # -- whose turn --------------------------------------------------------------------------------

    def next(self) -> Next | None:
        if self.simultaneous and self.phase is FIGHT:
            return together.next_of(self)
        return self._next

    def legal_actions(self, player: str) -> list[KobayakawaAction]:
        if self.simultaneous and self.phase is FIGHT:
            return together.legal(self, player)
        return list(self._options) if player == self._mover else []

    def random_action(self, player: str, rng: random.Random) -> KobayakawaAction:
        """A uniformly random legal action: `rng.choice(legal_actions(player))`, the very pick
        from the very draws, without building the list (`kobayakawa_tables.COPIED_RANDOM`)."""
        if self.simultaneous and self.phase is FIGHT:
            return together.random_choice(self, player, rng)
        if player == self._mover and type(rng) is COPIED_RANDOM:
            _, picks, bits = self.draw_table
            action = picks[rng.getrandbits(bits)]
            while action is None:
                action = picks[rng.getrandbits(bits)]
            return action
        return rng.choice(self.legal_actions(player))  # nothing legal: IndexError, as always

    @property
    def waiting_for_deck(self) -> bool:
        """B-2: the round due now has no deck in the setup, so nothing can be played."""
        return self.phase == DRAW and not self.cards

    def stake(self, player: str) -> int:
        """B-4: what `player` would bet to fight now (round 7: 2, or 1 if that is all)."""
        if self.round == ROUNDS:
            return min(2, self.kamons.get(player, 0))
        return min(1, self.kamons.get(player, 0))

    def drawn_card(self, player: str) -> int | None:
        """The top of the draw pile, only for the player whose draw turn it is, else None.

        Reading it is not looking: whoever shows it to the player calls `look` instead, which
        also takes away replacing the Kobayakawa, done unseen (B-3).
        """
        if self.phase != DRAW or player != self._mover:
            return None
        return self.pile[self.pile_top]

    def look(self, player: str) -> int:
        """B-3: show the drawn card to the player whose draw turn it is, and remember it: until
        this turn's action only keeping one of the two cards is legal (the replacement goes
        unseen). Not a log action: logs and replays know nothing of it."""
        card = self.drawn_card(player)
        if card is None:
            raise IllegalAction("B-3", f"only the player to draw may look, not {player}")
        self._looked = True
        self._options = KEEP_ACTIONS
        self.draw_table = self._keep_tables[player]
        return card

    def has_looked(self, player: str) -> bool:
        """Whether `player` looked at the drawn card during their current draw turn."""
        return self._looked and player == self._mover

    def looked_card(self, player: str) -> int | None:
        """The drawn card if `player` looked at it this turn (their observation's `drawn`)."""
        return self.pile[self.pile_top] if self.has_looked(player) else None

    @property
    def last_result(self) -> tuple[KobayakawaEvent, ...]:
        """The events of the last round's end: its showdown (or that nobody fought), the win,
        players going out (B-5..B-7); empty before the first round ends."""
        if self._last_result is None:
            self._last_result = last_round_events(self)
        return self._last_result

    @property
    def round_choices(self) -> list[Choice]:
        """What each player did so far this round, in turn order, as the table saw it."""
        return round_choices(self)

    # -- applying ----------------------------------------------------------------------------------

    def _refuse(self, player: str, action: Any) -> None:
        if self.simultaneous and self.phase is FIGHT:
            refused = together.refusal(self, player, action)
        else:
            refused = refusal(self, player, action)
        if refused is not None:
            raise refused

    def apply(self, player: str, action: Any) -> list[KobayakawaEvent]:
        # The usual turns, told apart by identity, change a few fields in place; anything else
        # is judged by `refusal` first (`_apply_checked`).
        if self.simultaneous and self.phase is FIGHT:
            return together.choose(self, player, action, self._fight_turn)
        if player != self._mover:
            return self._apply_checked(player, action)
        event: Choice
        if self.phase is DRAW:
            if action is KEEP_HELD or action is KEEP_DRAWN:
                discarded = draw(self, player, action is KEEP_DRAWN)
                if self._looked:
                    self._looked = False
                    self._options = DRAW_ACTIONS
                event = self._drew[player][discarded] or self._events.new_drew(player, discarded)
            elif action is REPLACE and not self._looked:  # B-3: the top card, unseen
                previous = self.kobayakawa
                kobayakawa = replace(self)
                event = self._events.replaced[player][
                    previous * 16 + kobayakawa
                ] or self._events.new_replaced(player, previous, kobayakawa)
            else:
                return self._apply_checked(player, action)
            turn = self.turn + 1
            turns = self._turns
            if turn == self._turn_count:
                start_fights(self)
                return [event, PHASE_STARTS[self.round][self.kobayakawa]]
            self.turn = turn
            self._mover, self._next, self.draw_table = turns[turn]
            return [event]
        return self._fight_turn(player, action)

    def _fight_turn(self, player: str, action: Any) -> list[KobayakawaEvent]:
        """B-4: the player on turn fights or passes (the phase's last ends the round)."""
        event: Choice
        if action is PASS_ACTION:
            event = self._passed[player]
        elif action is FIGHT_ACTION:
            bet = fight(self, player)
            event = self._fought[player][self.pot * 3 + bet] or self._events.new_fought(
                player, bet, self.pot
            )
        else:
            return self._apply_checked(player, action)
        turn = self.turn + 1
        turns = self._turns
        if turn == self._turn_count:
            return end_round(self, [event])
        self.turn = turn
        self._mover, self._next, self.draw_table = turns[turn]
        return [event]

    def _apply_checked(self, player: str, action: Any) -> list[KobayakawaEvent]:
        """An action the fast path did not take: refused, or an equal copy of a shared one."""
        self._refuse(player, action)
        shared: KobayakawaAction
        if isinstance(action, Draw):
            shared = KEEP_DRAWN if action.keep == "drawn" else KEEP_HELD
        elif isinstance(action, ReplaceKobayakawa):
            shared = REPLACE
        elif isinstance(action, Fight):
            shared = FIGHT_ACTION
        else:
            shared = PASS_ACTION
        return self.apply(player, shared)

    def fast_forward(self, entries: Sequence[Any], index: int) -> int:
        """`rules.log.load`'s quick path: apply the plain log entries (well formed and legal)
        from `index` on, exactly as `apply_entry` would, and return the index of the first entry
        left to `apply_entry` (anything else, or a refusal, which it then names as ever).

        The round ends make no events meanwhile: `load` wants the state, and `last_result`
        builds the last round's events only if asked for (`kobayakawa_round.end_round`).
        """
        self._quiet = True
        try:
            return forward(self, entries, index)
        finally:
            self._quiet = False

    def winners(self) -> list[str]:
        """B-8: the players with the most kamons once the game is over; empty before."""
        if self.phase != OVER:
            return []
        best = max(self.kamons.values())
        return [p for p in self.players if self.kamons[p] == best]
