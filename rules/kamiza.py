"""KAMIZA, classic (2014) and second generation: RULES.md K-1..K-13.

Speed matters here (computer players search by playing thousands of matches), so the state keeps
immutable parts and shares them: hands and the cards on the table are tuples, and every container
but the players' holdings is replaced, never changed in place, so `clone()` copies just that one.
Values that keep coming back (a player holding a hand and what each play of it does, whose turn
it is, a round's judgement) are made once and shared (kamiza_moves, kamiza_memo). Fast paths that
give exactly what the plain ones give: `apply` of a usual play (one lookup in the Holding of the
player on turn), `draw_table` (what `rules.agents.random_action` draws, as `rng.choice` of the
legal actions would), and `fast_forward`, which `rules.log.load` uses to replay plain log
entries; a play's and a round's end are in `kamiza_round`, where `playout` (a search's rollout)
carries out the same transitions without making events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from rules.base import (
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    Next,
    check_players,
)
from rules.choice_draw import CHOICE_RANDOM
from rules.kamiza_agent import kamiza_policy
from rules.kamiza_events import (
    CardPlaced,
    GameEnded,
    KamizaEvent,
    MatchEnded,
    RoundRevealed,
    RoundScored,
    RoundStarted,
)
from rules.kamiza_judge import PlayedCard
from rules.kamiza_memo import (
    EDITION_CODES,
    OrderMemo,
    order_memo,
)
from rules.kamiza_moves import (
    ALL_CARDS,
    AREAS,
    CARD_SETS,
    CLASSIC,
    EDITIONS,
    GAMES_PER_MATCH,
    KAMIZA,
    LEGAL,
    ROUNDS_PER_GAME,
    SECOND,
    SHIMOZA,
    WANTED_LIMIT,
    Draw,
    Holding,
    Play,
    full_holdings,
    holding,
    step,
)
from rules.kamiza_results import CHICKEN_VALUE, KamizaResults
from rules.kamiza_round import KamizaRound
from rules.kamiza_setup import KamizaSetup
from rules.kamiza_sight import KamizaSight, LastRound
from rules.kamiza_together import KamizaTogether
from rules.kamiza_view import KamizaObservation

__all__ = [
    "ALL_CARDS",
    "AREAS",
    "CARD_SETS",
    "CHICKEN_VALUE",
    "CLASSIC",
    "EDITIONS",
    "GAMES_PER_MATCH",
    "KAMIZA",
    "ROUNDS_PER_GAME",
    "SECOND",
    "SHIMOZA",
    "WANTED_LIMIT",
    "CardPlaced",
    "GameEnded",
    "Kamiza",
    "KamizaEvent",
    "KamizaObservation",
    "MatchEnded",
    "Play",
    "RoundRevealed",
    "RoundScored",
    "RoundStarted",
]


class Kamiza(
    KamizaRound,
    KamizaResults,
    KamizaSight,
    KamizaTogether,
    KamizaSetup,
    Game[Play, KamizaEvent, KamizaObservation],
):
    """A match of KAMIZA: 3 games of 3 rounds for 3 or 4 players."""

    name: ClassVar[str] = "kamiza"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    draws_from_table: ClassVar[bool] = True
    editions: ClassVar[tuple[str, ...]] = EDITIONS
    # A card is put face down in an area (K-3), any card in either area (K-4).
    phase_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {"play": ("K-3", "K-4")}
    # G-3: everything but a face-down card is public: the reveal turns every card of the round
    # face up, and a game's unplayed card is the one its three revealed plays left (K-2).
    public_kinds: ClassVar[frozenset[str]] = frozenset(
        {
            "choice_made",
            "round_revealed",
            "squealed",
            "removed_wrong_area",
            "cancelled",
            "seat_lost",
            "hit",
            "seated",
            "bribe",
            "policeman_unpaid",
            "wanted",
            "dropped_out",
            "round_scored",
            "game_ended",
            "round_started",
            "match_ended",
        }
    )

    def __init__(
        self,
        players: tuple[str, ...],
        edition: str,
        advanced: bool,
        start: str,
        simultaneous: bool = False,
    ) -> None:
        self.players = players
        self.edition = edition
        self.advanced = advanced
        self.simultaneous = simultaneous  # H-1 (kamiza_together)
        self._chosen: Mapping[str, Play] = {}
        self.cards = cards = CARD_SETS[edition]
        self.totals: dict[str, int] = dict.fromkeys(players, 0)
        self.wanted: dict[str, int] = dict.fromkeys(players, 0)
        self.dropped: list[str] = []
        self.game_index = 0
        self.round_index = 0
        self.unplayed: dict[str, str] = {}
        self.finished = False
        self._game_rounds: tuple[tuple[PlayedCard, ...], ...] = ()  # this game's judged rounds
        self._last: LastRound | None = None
        self._squealer: str | None = None
        # Each player's Holding (kamiza_moves): their hand as `apply` and `random_action` read it.
        self._full = full_holdings(players, cards)  # a game's first deal (K-2), shared
        self._holdings: dict[str, Holding] = self._full.copy()
        # K-12: the start player chosen at the table starts the first round.
        self.order = self._first_order = self._clockwise(start)
        self._memo: OrderMemo = order_memo(self.order)
        self._edition_code = EDITION_CODES[edition]
        self.start_player = start
        self.plays: tuple[PlayedCard, ...] = ()
        self._code = self._edition_code  # the round's code: grows with every play (kamiza_memo)
        self._next: Next | None = self._memo.turns[0]
        # The player on turn's Holding, and its random draw for `rules.agents.random_action`.
        self._now = now = self._holdings[start].make()
        self.draw_table: Draw = now.draw

    # -- creation ----------------------------------------------------------------------------------
    # (the options, the setup drawn and the play of a log entry: `kamiza_setup`)

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = tuple(players) if type(players) in (list, tuple) else ()
        if not (  # the usual seating, checked quickly; check_players explains anything else
            cls.min_players <= len(seats) <= cls.max_players
            and {*map(type, seats)} == {str}
            and len(set(seats)) == len(seats)
        ):
            seats = check_players(players, cls.min_players, cls.max_players)
        opts = cls.normalise_options(options)
        is_mapping = type(setup) is dict or isinstance(setup, Mapping)
        start = setup.get("start_player") if is_mapping else None
        if start not in seats:
            raise InvalidSetup("setup.start_player must be one of the players (K-12)")
        return cls(seats, opts["edition"], opts["advanced"], start, "simultaneous" in opts)

    def opening_events(self) -> list[Event]:
        """The first round's start (K-12: the start player chosen at the table)."""
        return [order_memo(self._first_order).round_started(1, 1, "chosen")]

    @classmethod
    def public_event(cls, event: Event) -> dict[str, Any] | None:
        """K-3: a card put face down shows its owner, area and place in the order, not the card
        (the start player's under the advanced rule is face up); the reveal shows the rest."""
        if isinstance(event, CardPlaced):
            return {
                "type": event.kind,
                "player": event.player,
                "area": event.area,
                "face_up": event.face_up,
                "card": event.card if event.face_up else None,
            }
        return super().public_event(event)

    # -- whose turn --------------------------------------------------------------------------------

    def next(self) -> Next | None:
        if self.simultaneous and self.together():
            return self._together_next()
        return self._next

    def legal_actions(self, player: str) -> list[Play]:
        if self.simultaneous and self.together():
            return self._together_legal(player)
        if self.finished or self.order[len(self.plays)] != player:
            return []
        return list(LEGAL[self._holdings[player].hand])

    def random_action(self, player: str, rng: random.Random) -> Play:
        """`rng.choice(self.legal_actions(player))`, drawing the very same action from `rng`."""
        now = self._now
        if self.simultaneous and self.together():
            return self._together_random(player, rng)
        if player == now.player and type(rng) is CHOICE_RANDOM:
            _, picks, bits = now.draw
            action = picks[rng.getrandbits(bits)]
            while action is None:
                action = picks[rng.getrandbits(bits)]
            return action
        return rng.choice(self.legal_actions(player))

    # -- applying ----------------------------------------------------------------------------------

    def _refuse(self, player: str, action: Any) -> None:
        if self.finished:
            raise IllegalAction("K-2", "the match is over")
        if not isinstance(action, Play):
            raise IllegalAction("K-3", "the only action is playing a card to an area")
        if player not in self.players:
            raise IllegalAction("K-1", f"{player!r} is not seated at this table")
        if player in self.dropped:
            raise IllegalAction(
                "K-10", f"{player} has dropped out with {WANTED_LIMIT} WANTED chips"
            )
        if self.simultaneous and self.together():
            self._refuse_step(player)  # H-1, H-3
        elif player != (current := self.order[len(self.plays)]):
            raise IllegalAction("K-3", f"it is {current}'s turn, not {player}'s")
        if not isinstance(action.area, str) or action.area not in AREAS:
            raise IllegalAction("K-3", f"a card goes to kamiza or shimoza, not {action.area!r}")
        if not isinstance(action.card, str) or action.card not in self.cards:
            raise IllegalAction("K-1", f"there is no {action.card} card in the {self.edition} set")
        if action.card not in self._holdings[player].hand:
            raise IllegalAction("K-2", f"{player} has already played their {action.card} this game")

    def apply(self, player: str, action: Any) -> list[KamizaEvent]:
        # The usual case in one lookup: the player on turn puts one of the shared plays of their
        # Holding (kamiza_moves). Anything else -- refused, or an equal play made elsewhere -- is
        # checked rule by rule and carried out the long way (`_apply_checked`).
        now = self._now
        if player == now.player and not self.simultaneous:
            move = now.moves.get(id(action))
            if move is not None:
                events: list[KamizaEvent] = []
                self._play(player, move, events)
                return events
        if self.simultaneous and self.together():  # (never once the match is over)
            return self._choose(player, action)
        return self._apply_checked(player, action)

    def _apply_checked(self, player: str, action: Any) -> list[KamizaEvent]:
        """K-1..K-3 rule by rule (refusals name the rule), then the play the long way: for a
        subclass of Play, an equal Play made elsewhere, or a hand someone changed."""
        self._refuse(player, action)
        events: list[KamizaEvent] = []
        self._carry_out(player, action, events)
        return events

    def _carry_out(self, player: str, action: Play, events: list[KamizaEvent] | None) -> None:
        """A legal play by the player on turn, made: the shared move of their Holding, or the
        move worked out for a play made elsewhere."""
        move = self._now.moves.get(id(action))
        if move is None:
            card, area = action.card, action.area
            rest = tuple(c for c in self._holdings[player].hand if c != card)
            played, placed, face_up, digit = step(player, card, area)
            move = (holding(player, rest), (played,), placed, face_up, digit)
        self._play(player, move, events)

    def playout(self, rng: random.Random) -> None:
        """The step loop's very game (`Game.playout`), no events made: from a generator of the
        class CHOICE_RANDOM each play is drawn as its move (`Holding.move_draw`: the draws of
        `rules.agents.random_action`) and carried out by `_play`, as `apply` would."""
        while self._chosen:  # a step under way: its choosers first, as the step loop would
            nxt = self.next()
            assert nxt is not None
            self.apply(nxt.player, self.random_action(nxt.player, rng))
        if type(rng) is CHOICE_RANDOM:
            # A random simultaneous round draws each choice from its chooser's hand, clockwise,
            # as a round in turn draws each play: the very same game from here on.
            self._play_out(rng.getrandbits)
        else:
            super().playout(rng)

    def fast_forward(self, entries: Sequence[Any], index: int) -> int:
        """`rules.log.load`'s quick path: apply the plain log entries (`player`, `card`, `area`
        and nothing else, legal) from `index` on, exactly as `apply_entry` would, and return the
        index of the first entry left to `apply_entry` (anything else, or a refusal)."""
        if self.simultaneous:
            return index  # choices are kept aside: every entry through apply_entry
        while index < len(entries):
            entry = entries[index]
            if type(entry) is not dict or len(entry) != 3:
                break
            player = entry.get("player")
            now = self._now
            if player != now.player or type(player) is not str:
                break  # anyone else, not on turn, not seated, the match over: apply_entry says
            try:
                move = now.by_fields.get((entry.get("card"), entry.get("area")))  # raw JSON
            except TypeError:  # an unhashable value
                break
            if move is None:  # not a play, or not in hand: apply_entry says which
                break
            self._play(player, move, None)  # a replay reads no events
            index += 1
        return index

    def _clockwise(self, start: str) -> tuple[str, ...]:
        """The players still in, clockwise from `start`."""
        players = self.players
        seat = players.index(start)
        seating = players[seat:] + players[:seat] if seat else players
        if self.dropped:
            return tuple(p for p in seating if p not in self.dropped)
        return seating

    def determinize(self, player: str, rng: random.Random) -> Self:
        twin = super().determinize(player, rng)
        if self._chosen:  # others' choices kept aside are as hidden as face-down cards (H-1)
            twin._chosen = self._determinize_choices(player, rng)
        return twin

    def computer_action(self, player: str, rng: random.Random) -> Play:
        return kamiza_policy(self, player, rng)
