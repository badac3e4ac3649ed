"""KAMIZA: a play (K-3), a round's end (K-4..K-13) and the next round's start (K-12, K-5).

A mixin of `rules.kamiza.Kamiza`, apart from its per-play fast path: the judgement comes from the
shared templates (kamiza_memo), the events are made through their slots, and the next round is
begun right here, the usual case without a further call. Each transition takes an events list or
None: `Kamiza.playout` (a search's rollout) runs the very same transitions without events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.base import Next
from rules.kamiza_events import (
    REVEALED_SETTERS,
    SCORED_SETTERS,
    KamizaEvent,
    RoundRevealed,
    RoundScored,
    game_ended,
    match_ended,
)
from rules.kamiza_judge import DroppedOut, PlayedCard
from rules.kamiza_memo import (
    CODE_BASE,
    HIGHEST_TOTAL,
    REASONS,
    SQUEAL,
    TEMPLATES,
    OrderMemo,
    order_memo,
    round_template,
    wanted_chip,
)
from rules.kamiza_moves import (
    GAMES_PER_MATCH,
    NO_HOLDING,
    ROUNDS_PER_GAME,
    WANTED_LIMIT,
    Draw,
    Holding,
    Move,
)
from rules.kamiza_sight import LastRound

_new = object.__new__


class KamizaRound:
    """The round's end of `Kamiza`, on the state's fields."""

    players: tuple[str, ...]
    advanced: bool
    totals: dict[str, int]
    wanted: dict[str, int]
    dropped: list[str]
    unplayed: dict[str, str]
    game_index: int
    round_index: int
    finished: bool
    start_player: str
    order: tuple[str, ...]
    plays: tuple[PlayedCard, ...]
    draw_table: Draw
    _memo: OrderMemo
    _code: int
    _edition_code: int
    _next: Next | None
    _now: Holding
    _holdings: dict[str, Holding]
    _full: dict[str, Holding]
    _squealer: str | None
    _game_rounds: tuple[tuple[PlayedCard, ...], ...]
    _last: LastRound | None

    if TYPE_CHECKING:  # from KamizaResults

        def ranking(self) -> list[list[str]]: ...

        def _tie_break(self, ranking: list[list[str]]) -> str | None: ...

    def _play(self, player: str, move: Move, events: list[KamizaEvent] | None) -> None:
        """K-3: a legal play: the card leaves the hand for the table; the round's last ends it.
        `events` None (a random playout, a replay's `fast_forward`): no events made."""
        after, played, placed, face_up, digit = move
        self._holdings[player] = after
        self.plays = plays = self.plays + played
        self._code = self._code * CODE_BASE + digit
        if events is not None:
            events.append(face_up if self.advanced and player == self.start_player else placed)
        turn = len(plays)
        if turn == self._memo.size:
            self._finish_round(plays, events)
        else:
            self._next = nxt = self._memo.turns[turn]
            self._now = now = self._holdings[nxt.player]
            if not now.made:  # its plays are made in its first turn (`Holding.make`)
                now.make()
            self.draw_table = now.draw

    def _play_out(self, getrandbits: Callable[[int], int]) -> None:
        """`Kamiza.playout` from a generator of the class CHOICE_RANDOM: the player on turn's
        move drawn from their Holding's `move_draw`, as `rules.agents.random_action` draws the
        play, until the match is over."""
        play = self._play
        while (nxt := self._next) is not None:
            picks, bits = self._now.move_draw
            move = picks[getrandbits(bits)]
            while move is None:
                move = picks[getrandbits(bits)]
            play(nxt.player, move, None)

    def _finish_round(
        self, plays: tuple[PlayedCard, ...], events: list[KamizaEvent] | None
    ) -> None:
        """K-4..K-11 judged (kamiza_memo), then K-10 drop-outs, K-2 the game's end, K-12.

        Nine times a match: the events are made through their slots and the next round begun
        right here, the usual case without a further call. `events` None (a random playout):
        the very same changes to the state, no events made."""
        game_no, round_no = self.game_index + 1, self.round_index + 1
        memo = self._memo
        order = memo.order
        template = TEMPLATES.get(self._code) or round_template(self._code)
        if events is not None:
            revealed: RoundRevealed = _new(RoundRevealed)
            set_game, set_round, set_plays = REVEALED_SETTERS
            set_game(revealed, game_no)
            set_round(revealed, round_no)
            set_plays(revealed, plays)
            events.append(revealed)
            named = memo.named
            if template.top > len(named):
                named = memo.named_events(template.top)
            events += template.pick(named)
        totals = self.totals
        if template.gains:
            self.totals = totals = totals.copy()  # never changed in place: clones share it
            for seat, pts in template.gains:
                totals[order[seat]] += pts
        if template.wanted:
            self._award_wanted([order[seat] for seat in template.wanted], events)
        if template.squealer is not None:
            self._squealer = order[template.squealer]
        if events is not None:
            if memo.size == 4:  # the usual table: a display is quicker than dict(zip(...))
                a, b, c, d = order
                w, x, y, z = template.points
                points = {a: w, b: x, c: y, d: z}
            else:
                points = dict(zip(order, template.points))  # noqa: B905 (one number per seat)
            scored: RoundScored = _new(RoundScored)
            set_game, set_round, set_points, set_totals = SCORED_SETTERS
            set_game(scored, game_no)
            set_round(scored, round_no)
            set_points(scored, points)
            set_totals(scored, totals.copy())
            events.append(scored)
        self._game_rounds += (plays,)
        self._last = (game_no, round_no, self.start_player, plays, template)
        if round_no == ROUNDS_PER_GAME:
            self._end_game(events)
            game_no, round_no = game_no + 1, 1
        else:
            self.round_index = round_no
            round_no += 1
        dropped = self.dropped
        if game_no > GAMES_PER_MATCH or len(self.players) - len(dropped) < 2:
            self._end_match(events)
            return
        # K-12 (and K-5): the next round's start player and its clockwise order.
        if dropped and memo.size != len(self.players) - len(dropped):  # a drop-out (K-10)
            memo = order_memo(tuple(p for p in order if p not in dropped))
            order = memo.order
        squealer = self._squealer
        if squealer is not None and squealer not in dropped:
            start, reason = squealer, SQUEAL
            self._squealer = None
        else:  # the first of the highest totals clockwise (a loop: quicker than max(key=...))
            start, top, reason = order[0], -1, HIGHEST_TOTAL  # totals are never < 0
            for player in order:
                total = totals[player]
                if total > top:
                    start, top = player, total
        if start != order[0]:
            memo = memo.starting_with(start)
        if memo is not self._memo:
            self._memo = memo
            self.order = memo.order
        self.start_player = start
        self.plays = ()
        self._code = self._edition_code
        self._next = memo.turns[0]
        self._now = now = self._holdings[start].make()
        self.draw_table = now.draw
        if events is not None:
            started = memo.started.get((game_no * 4 + round_no) * 4 + reason)
            events.append(started or memo.round_started(game_no, round_no, REASONS[reason]))

    def _award_wanted(self, players: list[str], events: list[KamizaEvent] | None) -> None:
        """K-10: a paid policeman earns a WANTED chip; the third one drops the player."""
        self.wanted = wanted = self.wanted.copy()
        for player in players:
            wanted[player] += 1
            if events is not None:
                events.append(wanted_chip(player, wanted[player]))
            if wanted[player] >= WANTED_LIMIT and player not in self.dropped:
                self.dropped = [*self.dropped, player]
                if events is not None:
                    events.append(DroppedOut(player, self.totals[player]))

    def _end_game(self, events: list[KamizaEvent] | None) -> None:
        """K-2: each player still in keeps one card unplayed (K-13); all cards back in hand."""
        dropped = self.dropped
        unplayed = {}
        for p, held in self._holdings.items():
            if len(held.hand) == 1 and not (dropped and p in dropped):
                unplayed[p] = held.hand[0]
        if events is not None:
            events.append(game_ended(self.game_index + 1, unplayed))
        self.unplayed = unplayed
        self.game_index += 1
        self.round_index = 0
        self._holdings = self._full.copy()
        self._game_rounds = ()

    def _end_match(self, events: list[KamizaEvent] | None) -> None:
        self.finished = True
        self.plays = ()
        self._next = None
        self._now = NO_HOLDING
        self.draw_table = NO_HOLDING.draw
        if events is None:
            return
        ranking = self.ranking()
        events.append(
            match_ended(
                tuple(ranking[0]),
                tuple(map(tuple, ranking)),
                dict(self.totals),
                self._tie_break(ranking),
            )
        )
