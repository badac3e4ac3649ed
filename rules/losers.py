"""Rights of Losers (敗者の権利): RULES.md R-1..R-7 as a state machine.

The geometry and the final judgement live in `rules.losers_board`, the actions and events in
`rules.losers_actions`, the checks that refuse an illegal action in `rules.losers_checks`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, ClassVar, Self

from rules.base import Event, Game, IllegalAction, InvalidSetup, check_players
from rules.losers_actions import (
    CHIP_AT,
    PASS,
    PLAYS,
    REVERSE,
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
    Move,
    Passed,
    Play,
    Reverse,
    Reversed,
    TrickStarted,
    TrickWon,
    move_action,
    parse_action,
)
from rules.losers_board import (
    CARD_IDS,
    CARD_NUMBER,
    CARD_ORDER,
    CARD_SUIT,
    CELLS,
    CHIPS_PER_PLAYER,
    GRID,
    HAND_SIZE,
    LAND,
    LAND_INDEXES,
    SPOTS,
    TOUCHING,
    TRICKS,
    CardOwner,
    check_hands,
    final_scores,
    judge_field,
    land_counts,
    rank,
    tie_break,
)
from rules.losers_checks import BUILD, CHIP, CHOICE, OVER, PLAY, LosersChecks


class RightsOfLosers(LosersChecks, Game):
    """A game of Rights of Losers: 10 tricks for 3 to 5 players, then the judgement."""

    name: ClassVar[str] = "rights-of-losers"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
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

    def __init__(self, players: tuple[str, ...], lead: str, hands: Mapping[str, list[str]]):
        self.players = players
        self.hands = {p: sorted(hands[p], key=CARD_ORDER.__getitem__) for p in players}
        self.field: list[str | None] = [None] * len(CELLS)
        self.chips: dict[int, str] = {}  # spot index -> owner (R-3: one chip a spot)
        self.chips_left = dict.fromkeys(players, CHIPS_PER_PLAYER)
        self.open: set[int] = set()  # free spots touching a card: where a chip may go now
        for cell in sorted(LAND_INDEXES):
            self._occupy(cell, LAND)
        self.lead = lead
        self.reversed = False
        self.trick_number = 1
        self.order = self._clockwise(lead)
        self.trick: list[tuple[str, str]] = []  # (player, card) so far
        self.phase = PLAY
        self.winner: str | None = None  # of the trick being settled
        self.won: list[str] = []  # its cards, until two are built
        self.chip_queue: list[str] = []
        self.discarded: list[str] = []
        self.last_trick: TrickWon | None = None
        self.owners: tuple[CardOwner, ...] = ()
        self.final: dict[str, int] = {}
        self._appoints = {p: Appoint(p) for p in players}
        self._opening = TrickStarted(1, lead, "chosen", False)

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
        deck = list(CARD_IDS)
        rng.shuffle(deck)
        hands = {p: deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(players)}
        return {"lead_player": rng.choice(list(players)), "hands": hands}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Action:
        return parse_action(data)

    def opening_events(self) -> list[Event]:
        """The first trick, led by the lead player the setup chose (R-4)."""
        return [self._opening]

    # -- whose turn and what is legal --------------------------------------------------------------

    def legal_actions(self, player: str) -> list[Action]:
        """Every action `apply` accepts from `player` now (a build in both card orders)."""
        nxt = self.next()
        if nxt is None or nxt.player != player:
            return []
        if self.phase == PLAY:
            return [PLAYS[card] for card in self._playable(player)]
        if self.phase == CHIP:
            return [CHIP_AT[spot] for spot in sorted(self.open)]
        if self.phase == BUILD:
            cells = [CELLS[i] for i in self._empty()]
            return [
                Build(cards, at)
                for cards in permutations(self.won, 2)
                for at in permutations(cells, 2)
            ]
        free = sorted(self.open)
        moves = [move_action(s, t) for s in self._own(player) for t in free]
        return [*self._appoints.values(), REVERSE, *moves, PASS]

    def random_action(self, player: str, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn without listing every build and move."""
        nxt = self.next()
        if nxt is None or nxt.player != player:
            raise IllegalAction("R-4", f"{player} has nothing to do now")
        if self.phase == PLAY:
            return PLAYS[rng.choice(self._playable(player))]
        if self.phase == CHIP:
            return CHIP_AT[rng.choice(sorted(self.open))]
        if self.phase == BUILD:
            a, b = rng.sample(self.won, 2)
            i, j = rng.sample(self._empty(), 2)
            return Build((a, b), (CELLS[i], CELLS[j]))
        own, free, n = self._own(player), sorted(self.open), len(self.players)
        k = rng.randrange(n + 2 + len(own) * len(free))
        if k < n:
            return self._appoints[self.players[k]]
        if k - n < 2:
            return REVERSE if k == n else PASS
        k -= n + 2
        return move_action(own[k // len(free)], free[k % len(free)])

    def legal_chip_spots(self, player: str) -> list[tuple[int, int]]:
        """R-3: every free spot touching a card (none for a player without chips left)."""
        if not self.chips_left.get(player):
            return []
        return [SPOTS[spot] for spot in sorted(self.open)]

    def empty_building_cells(self) -> list[tuple[int, int]]:
        """R-2: the building cells without a card, row by row."""
        return [CELLS[i] for i in self._empty()]

    def owners_now(self) -> dict[tuple[int, int], str | None]:
        """R-6 applied now: who would get each card on the field if the game ended here."""
        return {judged.cell: judged.owner for judged in judge_field(self.field, self.chips)}

    def _clockwise(self, first: str) -> tuple[str, ...]:
        seat = self.players.index(first)
        return self.players[seat:] + self.players[:seat]

    # -- applying ----------------------------------------------------------------------------------

    def apply(self, player: str, action: Any) -> list[Event]:
        checked = self._refuse(player, action)
        events: list[Event] = []
        if isinstance(action, Play):
            self.hands[player].remove(action.card)
            self.trick.append((player, action.card))
            events.append(CardPlayed(player, action.card, self.trick_number))
            if len(self.trick) == len(self.players):
                self._win_trick(events)
        elif isinstance(action, Chip):
            self._put_chip(player, checked)
            self.chip_queue.pop(0)
            events.append(ChipPlaced(player, SPOTS[checked], self.chips_left[player]))
            self._next_chip(events)
        elif isinstance(action, Build):
            for card, cell in zip(action.cards, checked, strict=True):
                self.won.remove(card)
                self._occupy(cell, card)
            events.append(Built(player, action.cards, (CELLS[checked[0]], CELLS[checked[1]])))
            events.append(Discarded(player, tuple(self.won)))
            self.discarded.extend(self.won)
            self.won = []
            self.phase = CHOICE
        else:
            self._choose(player, action, checked, events)
        return events

    def _occupy(self, cell: int, card: str) -> None:
        self.field[cell] = card
        for spot, _ in TOUCHING[cell]:
            if spot not in self.chips:
                self.open.add(spot)

    def _put_chip(self, player: str, spot: int) -> None:
        self.chips[spot] = player
        self.chips_left[player] -= 1
        self.open.discard(spot)

    def _win_trick(self, events: list[Event]) -> None:
        """R-4: the highest (reversed: lowest) card of the led suit wins; then R-5a starts."""
        led = CARD_SUIT[self.trick[0][1]]
        following = [(CARD_NUMBER[c], p, c) for p, c in self.trick if CARD_SUIT[c] == led]
        _, winner, card = (min if self.reversed else max)(following)
        why = "lowest" if self.reversed else "highest"
        self.last_trick = TrickWon(self.trick_number, winner, card, led, why, tuple(self.trick))
        events.append(self.last_trick)
        self.winner = winner
        self.won = [c for _, c in self.trick]
        self.trick = []
        self.chip_queue = list(self._clockwise(winner)[1:])
        self.phase = CHIP
        self._next_chip(events)

    def _next_chip(self, events: list[Event]) -> None:
        """R-5a: skip the losers who cannot put a chip; build once every loser is done."""
        queue = self.chip_queue
        while queue:
            player = queue[0]
            if self.chips_left[player] == 0:
                reason = "no_chips"
            elif not self.open:
                reason = "no_spot"
            else:
                return
            queue.pop(0)
            events.append(ChipSkipped(player, reason))
        self.phase = BUILD

    def _choose(self, player: str, action: Action, checked: Any, events: list[Event]) -> None:
        """R-5c, then the next trick (led by the appointee or the winner) or the judgement."""
        lead, reason = player, "winner"
        if isinstance(action, Appoint):
            lead, reason = action.lead, "appointed"
            events.append(Appointed(player, action.lead))
        elif isinstance(action, Reverse):
            self.reversed = not self.reversed
            events.append(Reversed(player, self.reversed))
        elif isinstance(action, Move):
            source, to = checked
            del self.chips[source]
            self.open.add(source)
            self.chips_left[player] += 1
            self._put_chip(player, to)
            events.append(ChipMoved(player, SPOTS[source], SPOTS[to]))
        else:
            events.append(Passed(player))
        self.winner = None
        if self.trick_number == TRICKS:
            self._finish(events)
            return
        self.lead = lead
        self.order = self._clockwise(lead)
        self.trick_number += 1
        self.phase = PLAY
        events.append(TrickStarted(self.trick_number, lead, reason, self.reversed))

    def _finish(self, events: list[Event]) -> None:
        """R-6 and R-7 after the tenth trick."""
        self.owners = tuple(judge_field(self.field, self.chips))
        self.final = final_scores(self.players, self.owners)
        self.phase = OVER
        events.append(
            GameOver(
                self.owners,
                land_counts(self.players, self.owners),
                dict(self.final),
                dict(self.chips_left),
                tuple(self.winners()),
                tie_break(self.players, self.final, self.chips_left),
            )
        )

    # -- results and views -------------------------------------------------------------------------

    def scores(self) -> dict[str, int]:
        """R-7: 0 for everyone until the game is over (cards are judged after the tenth trick)."""
        return dict(self.final) if self.phase == OVER else dict.fromkeys(self.players, 0)

    def ranking(self) -> list[list[str]]:
        return rank(self.players, self.scores(), self.chips_left)

    def winners(self) -> list[str]:
        return list(self.ranking()[0]) if self.phase == OVER else []

    def details(self) -> dict[str, Any]:
        details: dict[str, Any] = {
            "trick": self.trick_number,
            "phase": self.phase,
            "lead": self.lead,
            "reversed": self.reversed,
            "chips_left": dict(self.chips_left),
        }
        if self.phase == OVER:
            details["land"] = land_counts(self.players, self.owners)
            details["owners"] = [judged.to_json() for judged in self.owners]
            details["tie_break"] = tie_break(self.players, self.final, self.chips_left)
        return details

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: the player's own hand, hand sizes, and everything on the table (all public)."""
        nxt = self.next()
        field = self.field
        return {
            "game": self.name,
            "players": list(self.players),
            "you": player,
            "hand": list(self.hands[player]) if player in self.hands else None,
            "hand_sizes": {p: len(hand) for p, hand in self.hands.items()},
            "phase": self.phase,
            "to_act": nxt.player if nxt else None,
            "expects": nxt.expects if nxt else None,
            "trick_number": self.trick_number,
            "lead": self.lead,
            "reversed": self.reversed,
            "trick": [{"player": p, "card": c} for p, c in self.trick],
            "winner": self.winner,
            "won_cards": list(self.won),
            "chip_queue": list(self.chip_queue),
            "last_trick": self.last_trick.to_json() if self.last_trick else None,
            "field": [field[r * GRID : (r + 1) * GRID] for r in range(GRID)],
            "chips": [{"at": list(SPOTS[s]), "player": p} for s, p in sorted(self.chips.items())],
            "chips_left": dict(self.chips_left),
            "discarded": list(self.discarded),
            "owners_now": [judged.to_json() for judged in judge_field(field, self.chips)],
            "over": self.phase == OVER,
            "scores": self.scores(),
            "winners": self.winners(),
        }
