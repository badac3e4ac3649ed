"""Rights of Losers (敗者の権利): RULES.md R-1..R-7 as a state machine.

The geometry lives in `rules.losers_board`, the final judgement in `rules.losers_judgement`, the
actions and events in `rules.losers_actions`, the checks that refuse an illegal action in
`rules.losers_checks`, carrying out an action in `rules.losers_play`, random actions and whole
random playouts (the same draws, carried out by `apply`'s own transitions without events) in
`rules.losers_random` (drawn from the RNG as `rules.losers_rng` copies them), what a player sees
in `rules.losers_view`, and dealing hidden cards again in `rules.losers_deal`.

Speed matters here (replays re-judge whole logs, computer players play games out): whose turn
it is is kept up to date instead of being worked out on every question, so are the free spots
(in order) and the empty cells; everything fixed by the seating is computed once per seating
and shared, `clone` copies only the few mutable parts, and `apply` does not check again an
action that `random_action` has just drawn from the same state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, ClassVar, Self

from rules.base import Event, Game, InvalidSetup, Next, check_players
from rules.losers_actions import (
    CHIP_AT,
    PASS,
    PLAYS,
    REVERSE,
    Action,
    Build,
    LosersEvent,
    move_action,
    parse_action,
)
from rules.losers_agent import losers_policy
from rules.losers_board import (
    BUILDING_INDEXES,
    CARD_IDS,
    CARD_ORDER,
    CELLS,
    CHIPS_PER_PLAYER,
    HAND_SIZE,
    LAND,
    LAND_INDEXES,
    SPOTS,
    TOUCHING,
    check_hands,
    touched,
)
from rules.losers_checks import BUILD, CHIP, CHOICE, OVER, PLAY
from rules.losers_deal import deal_hidden
from rules.losers_judgement import CardOwner, judge_field, land_counts, rank, tie_break
from rules.losers_play import STARTED, seating
from rules.losers_points import points
from rules.losers_random import LosersRandom
from rules.losers_rng import COPIED_RANDOM, below, shuffled
from rules.losers_view import LosersObservation, spot_chips

# The field before the first build: land on the corners and the centre, and the spots
# around them, where the first chips may go.
_START_FIELD = tuple(LAND if cell in LAND_INDEXES else None for cell in range(len(CELLS)))
_START_FREE = tuple(sorted({spot for cell in LAND_INDEXES for spot, _ in TOUCHING[cell]}))
_START_TOUCHED = touched(_START_FIELD)


_IN_ORDER = CARD_ORDER.__getitem__  # the sort key of a hand as shown: by suit, then number


class RightsOfLosers(LosersRandom, Game[Action, LosersEvent, LosersObservation]):
    """A game of Rights of Losers: 10 tricks for 3 to 5 players, then the judgement."""

    name: ClassVar[str] = "rights-of-losers"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    bench_replay_target: ClassVar[float] = 2.0  # it was already fast (the "Rules core" issue)
    phase_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {
        PLAY: ("R-4",),
        CHIP: ("R-3", "R-5"),
        BUILD: ("R-5",),
        CHOICE: ("R-5",),
    }
    # G-3: every event is public. Cards are played face up and appear in events only once
    # played; the hands dealt are in the setup, never in an event.
    public_kinds: ClassVar[frozenset[str]] = frozenset(
        {
            "trick_started",
            "card_played",
            "trick_won",
            "chip_placed",
            "chip_skipped",
            "built",
            "discarded",
            "appointed",
            "reversed",
            "chip_moved",
            "passed",
            "game_over",
        }
    )

    def __init__(self, players: tuple[str, ...], lead: str, hands: Mapping[str, Sequence[str]]):
        self.players = players
        self._seating = seating(players)
        self.hands = {p: sorted(hands[p], key=_IN_ORDER) for p in players}
        self.field: list[str | None] = list(_START_FIELD)
        self._vacant = list(BUILDING_INDEXES)  # the building cells without a card
        self.chips: dict[int, str] = {}  # spot index -> owner (R-3: one chip a spot)
        self._mine = dict.fromkeys(players, 0)  # the same chips, a bit a spot for each owner
        self.chips_left = dict.fromkeys(players, CHIPS_PER_PLAYER)
        self._free = list(_START_FREE)  # free spots touching a card, in order (`open`)
        self._touched = _START_TOUCHED
        self.lead = lead
        self._first_lead = lead
        self.reversed = False
        self.trick_number = 1
        self.order = self._seating.clockwise[lead]
        self._play_turns = self._seating.play_turns[lead]
        self.trick: list[tuple[str, str]] = []  # (player, card) so far
        self._phase = PLAY
        self._next: Next | None = self._play_turns[0]
        self.winner: str | None = None  # of the trick being settled
        self.won: list[str] = []  # its cards, until two are built
        self.chip_queue: list[str] = []
        self.discarded: list[str] = []
        self._last_won = None
        self.final: dict[str, int] = {}
        # R-4, public: the suits each player has shown they no longer hold (did not follow).
        self.voids: dict[str, frozenset[str]] = dict.fromkeys(players, frozenset())
        self._drawn = None  # what `random_action` drew last (`LosersRandom`)

    # -- creation ----------------------------------------------------------------------------------

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = check_players(players, cls.min_players, cls.max_players)
        cls.normalise_options(options)
        if not isinstance(setup, Mapping):
            raise InvalidSetup("setup must be an object")
        lead = setup.get("lead_player")
        if not isinstance(lead, str) or lead not in seats:
            raise InvalidSetup("setup.lead_player must be one of the players (R-4)")
        hands = check_hands(seats, setup.get("hands"))
        return cls(seats, lead, hands)

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """R-1: deal 10 each from the shuffled 50; the lead player is chosen at random."""
        deck = shuffled(rng, CARD_IDS)  # as `rng.shuffle` would (G-1: a seed's game never changes)
        hands = {p: deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(players)}
        seats = list(players)
        lead = seats[below(rng, len(seats))] if type(rng) is COPIED_RANDOM else rng.choice(seats)
        return {"lead_player": lead, "hands": hands}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Action:
        return parse_action(data)

    def opening_events(self) -> list[Event]:
        """The first trick, led by the lead player the setup chose (R-4)."""
        return [STARTED[1, self._first_lead, "chosen", False]]

    def clone(self) -> Self:
        """An independent copy: the mutable containers are copied, everything else shared.

        Attribute by attribute, in the order `__init__` sets them: the copy then keeps the
        compact attribute layout of an object `__init__` made (reading `__dict__` as a whole
        would turn both objects' attributes into a plain dict, slower on every later access).
        """
        twin = object.__new__(type(self))
        twin.players = self.players
        twin._seating = self._seating
        twin.hands = {p: hand.copy() for p, hand in self.hands.items()}
        twin.field = self.field.copy()
        twin._vacant = self._vacant.copy()
        twin.chips = self.chips.copy()
        twin._mine = self._mine.copy()
        twin.chips_left = self.chips_left.copy()
        twin._free = self._free.copy()
        twin._touched = self._touched
        twin.lead = self.lead
        twin._first_lead = self._first_lead
        twin.reversed = self.reversed
        twin.trick_number = self.trick_number
        twin.order = self.order
        twin._play_turns = self._play_turns
        twin.trick = self.trick.copy()
        twin._phase = self._phase
        twin._next = self._next
        twin.winner = self.winner
        twin.won = self.won.copy()
        twin.chip_queue = self.chip_queue.copy()
        twin.discarded = self.discarded.copy()
        twin._last_won = self._last_won
        twin.final = self.final.copy()
        twin.voids = self.voids.copy()
        twin._drawn = None  # drawn from this state, not checked against the copy's changes
        return twin

    # -- whose turn and what is legal --------------------------------------------------------------

    def legal_actions(self, player: str) -> list[Action]:
        """Every action `apply` accepts from `player` now (a build in both card orders)."""
        nxt = self._next
        if nxt is None or nxt.player != player:
            return []
        if self._phase == PLAY:
            return [PLAYS[card] for card in self._playable(player)]
        if self._phase == CHIP:
            return [CHIP_AT[spot] for spot in self._free]
        if self._phase == BUILD:
            cells = [CELLS[i] for i in self._empty()]
            return [
                Build(cards, at)
                for cards in permutations(self.won, 2)
                for at in permutations(cells, 2)
            ]
        free = self._free
        moves = [move_action(s, t) for s in self._own(player) for t in free]
        return [*self._seating.appoints, REVERSE, *moves, PASS]

    @property
    def owners(self) -> tuple[CardOwner, ...]:
        """R-6 at the end: who got each card (judged once the game is over, else empty); the
        field and the chips no longer change then."""
        return tuple(judge_field(self.field, self.chips)) if self._phase == OVER else ()

    def legal_chip_spots(self, player: str) -> list[tuple[int, int]]:
        """R-3: every free spot touching a card (none for a player without chips left)."""
        if not self.chips_left.get(player):
            return []
        return [SPOTS[spot] for spot in self._free]

    def empty_building_cells(self) -> list[tuple[int, int]]:
        """R-2: the building cells without a card, row by row."""
        return [CELLS[i] for i in self._empty()]

    def owners_now(self) -> dict[tuple[int, int], str | None]:
        """R-6 applied now: who would get each card on the field if the game ended here."""
        return {judged.cell: judged.owner for judged in judge_field(self.field, self.chips)}

    def points_now(self) -> dict[str, int]:
        """R-7 applied to `owners_now`: each player's points if the game ended here (once it is
        over: the final scores)."""
        if self._phase == OVER:
            return dict(self.final)
        return points(self.players, self.field, self.chips)

    # -- results and views -------------------------------------------------------------------------

    def scores(self) -> dict[str, int]:
        """R-7: 0 for everyone until the game is over (cards are judged after the tenth trick)."""
        return dict(self.final) if self._phase == OVER else dict.fromkeys(self.players, 0)

    def ranking(self) -> list[list[str]]:
        return rank(self.players, self.scores(), self.chips_left)

    def winners(self) -> list[str]:
        return list(self.ranking()[0]) if self._phase == OVER else []

    def tie_break_used(self) -> str | None:
        """R-7: "chips" (fewest unplaced chips decided), "shared", or None (points decided, or
        the game is not over)."""
        if self._phase != OVER:
            return None
        return tie_break(self.players, self.final, self.chips_left)

    def details(self) -> dict[str, Any]:
        details: dict[str, Any] = {
            "trick": self.trick_number,
            "phase": self._phase,
            "lead": self.lead,
            "reversed": self.reversed,
            "chips_left": dict(self.chips_left),
        }
        if self._phase == OVER:
            owners = self.owners
            details["land"] = land_counts(self.players, owners)
            details["owners"] = [judged.to_json() for judged in owners]
            details["tie_break"] = tie_break(self.players, self.final, self.chips_left)
        return details

    def round_number(self) -> int:
        """Each trick, with its settling (chips, build, the winner's choice), is a round."""
        return self.trick_number

    def observation(self, player: str | None) -> LosersObservation:
        """G-3: the player's own hand, hand sizes, and everything on the table (all public)."""
        nxt = self._next
        over = self._phase == OVER
        return LosersObservation(
            players=self.players,
            you=player,
            hand=tuple(self.hands[player]) if player in self.hands else None,
            hand_sizes={p: len(hand) for p, hand in self.hands.items()},
            phase=self._phase,
            to_act=nxt.player if nxt else None,
            expects=nxt.expects if nxt else None,
            trick_number=self.trick_number,
            lead=self.lead,
            reversed=self.reversed,
            trick=tuple(self.trick),
            winner=self.winner,
            won_cards=tuple(self.won),
            chip_queue=tuple(self.chip_queue),
            last_trick=self.last_trick,
            field=tuple(self.field),
            chips=spot_chips(self.chips),
            chips_left=dict(self.chips_left),
            discarded=tuple(self.discarded),
            owners_now=tuple(judge_field(self.field, self.chips)),
            over=over,
            scores=self.scores(),
            winners=tuple(self.winners()),
        )

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: the player's own hand, hand sizes, and everything on the table (all public)."""
        return self.observation(player).to_view(self.name)

    # -- determinization ---------------------------------------------------------------------------

    def determinize(self, player: str, rng: random.Random) -> Self:
        """The other hands drawn again from the cards `player` has not seen, each of its size
        and holding no suit its player showed a void in (R-4); `self` is unchanged."""
        hidden = [p for p in self.players if p != player]
        seen = set(self.hands.get(player, ()))
        seen.update(card for _, card in self.trick)
        seen.update(self.won)
        seen.update(self.discarded)
        seen.update(card for card in self.field if card is not None)
        unseen = [card for card in CARD_IDS if card not in seen]
        sizes = {p: len(self.hands[p]) for p in hidden}
        dealt = deal_hidden(unseen, sizes, self.voids, rng)
        twin = self.clone()
        for p, hand in dealt.items():
            twin.hands[p] = sorted(hand, key=CARD_ORDER.__getitem__)
        return twin

    def computer_action(self, player: str, rng: random.Random) -> Action:
        return losers_policy(self, player, rng)
