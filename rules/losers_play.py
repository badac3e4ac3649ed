"""Rights of Losers: carrying out an action the checks accepted (R-4, R-5, then R-6 and R-7).

`LosersPlay` is the part of `RightsOfLosers` that changes the state. Replays and computer players
run these lines millions of times, so they are written flat: local names for what is used twice,
the next turn looked up in tables the seating fixed once (`Seating`), no helper for one line.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import starmap
from operator import itemgetter
from typing import Any

from rules.base import IllegalAction, Next
from rules.losers_actions import (
    Action,
    Appoint,
    Appointed,
    Build,
    Built,
    CardPlayed,
    Chip,
    ChipMoved,
    ChipPlaced,
    ChipSkipped,
    Discarded,
    GameOver,
    LosersEvent,
    Move,
    Passed,
    Play,
    Reverse,
    Reversed,
    TrickStarted,
    TrickWon,
    parse_well_formed,
)
from rules.losers_board import (
    AROUND,
    CARD_NUMBER,
    CARD_SUIT,
    CELLS,
    OF_SUIT_OF,
    SPOTS,
    TRICKS,
    spots_of,
)
from rules.losers_checks import BUILD, CHIP, CHOICE, OVER, PLAY, Checked, LosersChecks
from rules.losers_judgement import CardOwner, judgements, rank, tally, tie_break
from rules.losers_points import points
from rules.losers_shared import Shared

_CARD_OF = itemgetter(1)  # the card of a (player, card) play
_NUMBER_OF = CARD_NUMBER.__getitem__

# Events that recur game after game, shared (`rules.losers_shared`).
_SKIPPED = Shared(ChipSkipped)  # [player, reason]
_APPOINTED = Shared(Appointed)  # [player, lead]
_REVERSED = Shared(Reversed)  # [player, reversed]
_PASSED = Shared(Passed)  # [player]
STARTED = Shared(TrickStarted)  # [trick, lead, reason, reversed]


# The spots a build opens around one cell, by their bits (a part of one cell's `AROUND`): at most
# 2**9 values a cell, worked out the first time they occur.
_OPENING: dict[int, tuple[int, ...]] = {}


@dataclass(frozen=True, slots=True)
class Seating:
    """Everything the clockwise seating fixes, worked out once and shared by every state."""

    players: tuple[str, ...]
    clockwise: Mapping[str, tuple[str, ...]]  # each player, then the others clockwise
    # By lead: who plays the 1st, 2nd... card, then None: the trick is complete.
    play_turns: Mapping[str, tuple[Next | None, ...]]
    chip_turn: Mapping[str, Next]  # R-5a: a loser's chip
    build_turn: Mapping[str, Next]  # R-5b: the winner's build
    choice_turn: Mapping[str, Next]  # R-5c: the winner's choice
    appoints: tuple[Appoint, ...]  # R-5c: one per player, in seat order
    losers: Mapping[str, tuple[str, ...]]  # by winner: the others, clockwise (R-5a)


@lru_cache(maxsize=512)
def seating(players: tuple[str, ...]) -> Seating:
    clockwise = {p: players[i:] + players[:i] for i, p in enumerate(players)}
    play_turn = {p: Next(p, PLAY) for p in players}
    return Seating(
        players,
        clockwise,
        {lead: (*(play_turn[p] for p in clockwise[lead]), None) for lead in players},
        {p: Next(p, CHIP) for p in players},
        {p: Next(p, BUILD) for p in players},
        {p: Next(p, CHOICE) for p in players},
        tuple(Appoint(p) for p in players),
        {p: clockwise[p][1:] for p in players},
    )


class LosersPlay(LosersChecks):
    """`apply` and the steps of a trick."""

    _seating: Seating
    _play_turns: tuple[Next | None, ...]
    chips_left: dict[str, int]
    voids: dict[str, frozenset[str]]
    chip_queue: list[str]
    discarded: list[str]
    lead: str
    order: tuple[str, ...]
    reversed: bool
    trick_number: int
    # The last trick won: its event, or only the event's fields after a playout (which makes
    # no events) until someone asks for `last_trick`.
    _last_won: TrickWon | tuple[Any, ...] | None
    final: dict[str, int]

    @property
    def last_trick(self) -> TrickWon | None:
        """R-4: the last trick won, as its event (everybody saw it)."""
        won = self._last_won
        if isinstance(won, tuple):
            won = self._last_won = TrickWon(*won)
        return won

    def apply(self, player: str, action: Any) -> list[LosersEvent]:
        drawn = self._drawn
        if drawn is not None and drawn[1] is action and drawn[0] == player:
            # `random_action` drew this very action for this player from this very state (every
            # change of state clears `_drawn`) and found on the way what the checks would.
            checked = drawn[2]
        else:
            checked = self._check(player, action)
        self._drawn = None
        phase = self._phase
        events: list[LosersEvent] = []
        if phase == PLAY:
            self._play_card(player, action.card, checked, events)
        elif phase == CHIP:
            self._place_chip(player, bisect_left(self._free, checked), events)
        elif phase == BUILD:
            self._build(player, action.cards, checked, events)
        else:
            self._choose(player, action, checked, events)
        return events

    def fast_forward(self, entries: Sequence[Any], index: int) -> int:
        """`rules.log.load`'s quick path: apply the plain log entries from `index` on (an object
        of the log's usual shape, from the player whose turn it is, legal) exactly as
        `apply_entry` would, and return the index of the first entry left to `apply_entry`
        (anything else, or a refusal, which it then reports: `apply` changes nothing then)."""
        while index < len(entries):
            entry = entries[index]
            nxt = self._next
            if nxt is None or type(entry) is not dict or entry.get("player") != nxt.player:
                break
            action = parse_well_formed(entry, with_player=True)
            if action is None:
                break
            try:
                self.apply(entry["player"], action)
            except IllegalAction:
                break
            index += 1
        return index

    def _check(self, player: str, action: Any) -> Any:
        """What `_refuse` returns for the action, or its refusal (IllegalAction)."""
        nxt = self._next
        if nxt is not None and player == nxt.player:
            # The usual case: the player whose turn it is, an action of exactly the type the
            # phase expects. Only the checks of that action remain (the same as `_refuse`'s).
            phase, kind = self._phase, type(action)
            if phase == PLAY and kind is Play:
                return self._refuse_play(player, action.card)
            if phase == CHIP and kind is Chip:
                return self._refuse_spot(action.at)
            if phase == BUILD and kind is Build:
                return self._refuse_build(action)
        return self._refuse(player, action)

    # -- the transitions: `apply` and `playout` (`rules.losers_random`) both carry out actions
    # through these; `events` is None when nobody reads the events (a playout builds none).

    def _play_card(
        self, player: str, card: str, void: str | None, events: list[LosersEvent] | None
    ) -> None:
        """R-4: a card to the trick (`void`: the led suit the player has just shown they lack, if
        any); the trick is won once everybody has played."""
        if void is not None:
            self.voids[player] |= {void}
        self.hands[player].remove(card)
        trick = self.trick
        trick.append((player, card))
        if events is not None:
            events.append(CardPlayed(player, card, self.trick_number))
        turn = self._play_turns[len(trick)]
        if turn is None:
            self._win_trick(events)
        else:
            self._next = turn

    def _place_chip(self, player: str, at: int, events: list[LosersEvent] | None) -> None:
        """R-5a: a loser's chip on the free spot `_free[at]`; then the next loser who can put one,
        or the build. (`at`, not the spot: a playout draws the place, `apply` finds it.)"""
        free = self._free
        spot = free.pop(at)
        self.chips[spot] = player
        self._mine[player] |= 1 << spot
        chips_left = self.chips_left
        left = chips_left[player] - 1
        chips_left[player] = left
        queue = self.chip_queue
        del queue[0]
        if events is not None:
            events.append(ChipPlaced(player, SPOTS[spot], left))
        if queue and free and chips_left[queue[0]]:
            self._next = self._seating.chip_turn[queue[0]]
        else:
            self._next_chip(events)

    def _build(
        self,
        player: str,
        cards: tuple[str, str],
        cells: tuple[int, int],
        events: list[LosersEvent] | None,
    ) -> None:
        """R-5b: two cards of the trick on the field, the others leave the game."""
        won, field, free = self.won, self.field, self._free
        first, second = cells
        won.remove(cards[0])
        field[first] = cards[0]
        won.remove(cards[1])
        field[second] = cards[1]
        vacant = self._vacant  # sorted, as `_free`
        del vacant[bisect_left(vacant, first)]
        del vacant[bisect_left(vacant, second)]
        # the spots around the two cards that touched no card yet open (every spot touching
        # a card is free or holds a chip: a chip is put or moved only onto a free spot)
        touched = self._touched
        for cell in cells:
            opened = AROUND[cell] & ~touched
            if opened:
                touched |= opened
                spots = _OPENING.get(opened)
                if spots is None:
                    spots = _OPENING[opened] = spots_of(opened)
                free.extend(spots)
        if touched != self._touched:
            self._touched = touched
            free.sort()  # a sort of int lists compares quicker than bisecting each new spot in
        self.discarded.extend(won)
        if events is not None:
            events.append(Built(player, cards, (CELLS[first], CELLS[second])))
            events.append(Discarded(player, tuple(won)))
        self.won = []
        self._phase = CHOICE
        self._next = self._seating.choice_turn[player]

    def _win_trick(self, events: list[LosersEvent] | None) -> None:
        """R-4: the highest (reversed: lowest) card of the led suit wins; then R-5a starts."""
        trick = self.trick
        cards = list(map(_CARD_OF, trick))
        led = cards[0]
        # The numbers of a suit are all different: one card of the led suit is the best.
        best = (min if self.reversed else max)(filter(OF_SUIT_OF[led], cards), key=_NUMBER_OF)
        winner = trick[cards.index(best)][0]
        why = "lowest" if self.reversed else "highest"
        # Part of the state, not only an event: the observation shows the last trick.
        won = (self.trick_number, winner, best, CARD_SUIT[led], why, tuple(trick))
        if events is None:
            self._last_won = won
        else:
            trick_won = TrickWon(*won)
            self._last_won = trick_won
            events.append(trick_won)
        self.winner = winner
        self.won = cards
        self.trick = []
        queue = self.chip_queue = list(self._seating.losers[winner])
        self._phase = CHIP
        if self._free and self.chips_left[queue[0]]:  # the usual case, as `_next_chip` finds it
            self._next = self._seating.chip_turn[queue[0]]
        else:
            self._next_chip(events)

    def _next_chip(self, events: list[LosersEvent] | None) -> None:
        """R-5a: skip the losers who cannot put a chip; build once every loser is done."""
        queue = self.chip_queue
        while queue:
            player = queue[0]
            if self.chips_left[player] == 0:
                reason = "no_chips"
            elif not self._free:
                reason = "no_spot"
            else:
                self._next = self._seating.chip_turn[player]
                return
            del queue[0]
            if events is not None:
                events.append(_SKIPPED[player, reason])
        winner = self.winner
        assert winner is not None  # chips are put after a trick is won
        self._phase = BUILD
        self._next = self._seating.build_turn[winner]

    def _choose(
        self, player: str, action: Action, checked: Checked, events: list[LosersEvent] | None
    ) -> None:
        """R-5c, then the next trick (led by the appointee or the winner) or the judgement."""
        lead, reason = player, "winner"
        if isinstance(action, Move):  # the most frequent choice first (random play moves most)
            assert isinstance(checked, tuple)  # a move's checks give (from, to)
            source, to = checked
            chips, free = self.chips, self._free
            del chips[source]
            insort(free, source)
            chips[to] = player
            self._mine[player] ^= 1 << source | 1 << to
            del free[bisect_left(free, to)]
            if events is not None:
                events.append(ChipMoved(player, SPOTS[source], SPOTS[to]))
        elif isinstance(action, Appoint):
            lead, reason = action.lead, "appointed"
            if events is not None:
                events.append(_APPOINTED[player, action.lead])
        elif isinstance(action, Reverse):
            self.reversed = not self.reversed
            if events is not None:
                events.append(_REVERSED[player, self.reversed])
        elif events is not None:
            events.append(_PASSED[(player,)])
        self.winner = None
        if self.trick_number == TRICKS:
            self._finish(events)
            return
        self.lead = lead
        self.order = self._seating.clockwise[lead]
        self._play_turns = self._seating.play_turns[lead]
        self.trick_number += 1
        self._phase = PLAY
        self._next = self._play_turns[0]
        if events is not None:
            events.append(STARTED[self.trick_number, lead, reason, self.reversed])

    def _finish(self, events: list[LosersEvent] | None) -> None:
        """R-6 and R-7 after the tenth trick."""
        players, chips_left = self.players, self.chips_left
        self._phase = OVER
        self._next = None
        if events is None:  # nobody reads why each card went where: the points alone
            self.final = points(players, self.field, self.chips)
            return
        judged = judgements(self.field, self.chips)
        self.final, land = tally(players, judged)
        ranking = rank(players, self.final, chips_left)
        events.append(
            GameOver(
                tuple(starmap(CardOwner, judged)),
                land,
                dict(self.final),
                dict(chips_left),
                tuple(ranking[0]),
                tie_break(players, self.final, chips_left, ranking),
            )
        )
