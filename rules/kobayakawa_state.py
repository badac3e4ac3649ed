"""Kobayakawa: the game's state and its turns, made for speed (RULES.md B-2..B-7).

Random playouts, replays and computer players that search run thousands of games a second: a
turn changes a few fields in place and returns events made once for all games
(`kobayakawa_tables.Events`); the fields, and `clone()` which copies few of them:
`kobayakawa_fields`. What a turn changes: `kobayakawa_turns` (shared with the quick `playout`);
a round's deal and end, and refusals: `kobayakawa_round`.
`rules.kobayakawa.Kobayakawa` adds creation, results and views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules import kobayakawa_together as together
from rules.base import IllegalAction, Next
from rules.kobayakawa_fields import KobayakawaFields
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
    Fight,
    KobayakawaAction,
    KobayakawaEvent,
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
    Seating,
)
from rules.kobayakawa_turns import draw, fight, forward, replace, start_fights


class KobayakawaState(KobayakawaFields):
    """A game of Kobayakawa as it stands, and its turns: `next`, `legal_actions`,
    `random_action`, `apply`, `look` (B-3), `clone`."""

    __slots__ = ()

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
        self._chosen = {}
        first = begin_round(self)
        assert first is not None  # `create` checks that round 1 has its deck
        self._opening = (first,)

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
