"""High card: a tiny game that exists only in the tests, to prove that a game plugs into the
bot through the game registry alone (`bot.games.registry`, `rules.registry.register`).

Its rules, with the ids its refusals name (G-2):

- HC-1 2 to 4 players. The setup deals each player 3 cards of one deck numbered 1 to 13, so no
  two cards at the table are equal.
- HC-2 Three rounds. In each, every player in seat order puts one card of their hand face down.
- HC-3 Once everyone has put a card, all are revealed: the highest card wins the round, 1 point.
- HC-4 After the third round the game is over: the most points win; equal points share the win.
- G-3 A card put face down is seen by its player only, until the reveal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules.base import (
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    MalformedAction,
    Next,
    check_players,
    require_fields,
)

DECK = tuple(range(1, 14))  # HC-1: one deck, 1 to 13
HAND_SIZE = 3
ROUNDS = 3  # HC-2: a card a round, so the hands run out with the last round
EXPECTS = "put"


# -- actions and events ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Put:
    """HC-2: put `card` from the hand face down."""

    card: int

    def to_json(self) -> dict[str, Any]:
        return {"action": "put", "card": self.card}


@dataclass(frozen=True, slots=True)
class CardPut(Event):
    """HC-2: `player` put `card` face down; the others see only that a card was put (G-3)."""

    kind: ClassVar[str] = "card_put"
    round: int
    player: str
    card: int


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """HC-3: the round's cards, in seat order, and who won the round with the highest."""

    kind: ClassVar[str] = "revealed"
    round: int
    cards: tuple[tuple[str, int], ...]
    winner: str

    def to_json(self) -> dict[str, Any]:
        cards = {player: card for player, card in self.cards}
        return {"type": self.kind, "round": self.round, "cards": cards, "winner": self.winner}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """HC-4: the final points and the winners (several when their points are equal)."""

    kind: ClassVar[str] = "game_ended"
    points: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        points = {player: score for player, score in self.points}
        return {"type": self.kind, "points": points, "winners": list(self.winners)}


HighCardEvent = CardPut | Revealed | GameEnded


def parse_put(data: Mapping[str, Any]) -> Put:
    """The action of a log entry's fields: `{"action": "put", "card": 7}`."""
    require_fields(data, ("action", "card"))
    if data["action"] != "put":
        raise MalformedAction(f"unknown action {data['action']!r}")
    card = data["card"]
    if type(card) is not int or card not in DECK:  # bool is no card, nor 1.0
        raise MalformedAction(f"card must be a whole number from 1 to 13, not {card!r}")
    return Put(card)


# -- what a player sees ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HighCardObservation:
    """What `you` may see now (None: a spectator, or someone not seated), G-3: your own cards
    and the card you put this round; of the others only who has put a card; every reveal."""

    players: tuple[str, ...]
    you: str | None
    hand: tuple[int, ...]
    your_card: int | None
    put: tuple[str, ...]  # who has put a card face down this round, in seat order
    round: int
    to_act: str | None
    points: Mapping[str, int]
    reveals: tuple[Revealed, ...]
    over: bool
    winners: tuple[str, ...]

    def view(self) -> dict[str, Any]:
        return {
            "game": HighCard.name,
            "players": list(self.players),
            "you": self.you,
            "hand": list(self.hand),
            "your_card": self.your_card,
            "put": list(self.put),
            "round": self.round,
            "to_act": self.to_act,
            "points": dict(self.points),
            "reveals": [reveal.to_json() for reveal in self.reveals],
            "over": self.over,
            "winners": list(self.winners),
        }


# -- the game --------------------------------------------------------------------------------------


class HighCard(Game[Put, HighCardEvent, HighCardObservation]):
    """A game of high card: 3 rounds for 2 to 4 players."""

    name: ClassVar[str] = "high-card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    # G-3: a reveal and the end show everything they carry; `card_put` hides its card.
    public_kinds: ClassVar[frozenset[str]] = frozenset({"revealed", "game_ended"})

    def __init__(self, players: tuple[str, ...], hands: dict[str, tuple[int, ...]]) -> None:
        self.players = players
        self.hands = hands  # the cards each player still holds
        self.put: dict[str, int] = {}  # this round's face-down cards, in seat order
        self.points = dict.fromkeys(players, 0)
        self.reveals: tuple[Revealed, ...] = ()
        self._turns = {player: Next(player, EXPECTS) for player in players}

    # -- creation ----------------------------------------------------------------------------------

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = check_players(players, cls.min_players, cls.max_players)  # HC-1
        cls.normalise_options(options)
        if not isinstance(setup, Mapping):
            raise InvalidSetup("setup must be an object")
        # Other setup keys (the log's `seed`) are kept in the log and mean nothing here.
        return cls(seats, checked_hands(seats, setup.get("hands")))

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """HC-1: one shuffled deck, 3 cards to each player (G-1)."""
        deck = list(DECK)
        rng.shuffle(deck)
        hands = {
            player: sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
            for seat, player in enumerate(players)
        }
        return {"hands": hands}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Put:
        return parse_put(data)

    # -- turns -------------------------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round being played, 1 to 3; 3 once the game is over."""
        return min(len(self.reveals) + 1, ROUNDS)

    def next(self) -> Next | None:
        if len(self.reveals) == ROUNDS:
            return None
        return self._turns[self.players[len(self.put)]]  # HC-2: in seat order

    def legal_actions(self, player: str) -> list[Put]:
        nxt = self.next()
        if nxt is None or nxt.player != player:
            return []
        return [Put(card) for card in sorted(self.hands[player])]

    def apply(self, player: str, action: Any) -> list[HighCardEvent]:
        self._refuse(player, action)
        hand = self.hands[player]
        card = action.card
        self.hands[player] = tuple(c for c in hand if c != card)
        self.put[player] = card
        events: list[HighCardEvent] = [CardPut(self.round, player, card)]
        if len(self.put) < len(self.players):
            return events
        cards = tuple((p, self.put[p]) for p in self.players)
        winner = max(cards, key=lambda seat: seat[1])[0]  # HC-3: the deck has no equal cards
        self.points[winner] += 1
        reveal = Revealed(self.round, cards, winner)
        self.reveals += (reveal,)
        self.put = {}
        events.append(reveal)
        if len(self.reveals) == ROUNDS:  # HC-4
            events.append(GameEnded(tuple(self.points.items()), tuple(self.winners())))
        return events

    def _refuse(self, player: str, action: Any) -> None:
        """G-2: raise IllegalAction, naming the rule, for anything `apply` must not do."""
        nxt = self.next()
        if nxt is None:
            raise IllegalAction("HC-4", "the game is over")
        if player != nxt.player:
            raise IllegalAction("HC-2", f"it is {nxt.player}'s turn, not {player}'s")
        if not isinstance(action, Put) or type(action.card) is not int:
            raise IllegalAction("HC-2", f"{action!r} is not a card put face down")
        if action.card not in self.hands[player]:
            raise IllegalAction("HC-2", f"{action.card} is not in {player}'s hand")

    # -- results -----------------------------------------------------------------------------------

    def scores(self) -> dict[str, int]:
        return dict(self.points)

    def winners(self) -> list[str]:
        """HC-4: the players with the most points once the game is over; empty before."""
        if self.next() is not None:
            return []
        best = max(self.points.values())
        return [p for p in self.players if self.points[p] == best]

    def ranking(self) -> list[list[str]]:
        """By points, most first; equal points share a place."""
        groups: list[list[str]] = []
        for player in sorted(self.players, key=lambda p: -self.points[p]):
            if groups and self.points[groups[-1][0]] == self.points[player]:
                groups[-1].append(player)
            else:
                groups.append([player])
        return groups

    def details(self) -> dict[str, Any]:
        return {"round": self.round}

    # -- views -------------------------------------------------------------------------------------

    @classmethod
    def public_event(cls, event: Event) -> dict[str, Any] | None:
        if isinstance(event, CardPut):  # G-3: the table sees a card go down, not which
            return {"type": event.kind, "round": event.round, "player": event.player}
        return super().public_event(event)

    def observation(self, player: str | None) -> HighCardObservation:
        seated = player if player in self.hands else None
        nxt = self.next()
        return HighCardObservation(
            players=self.players,
            you=seated,
            hand=tuple(sorted(self.hands[seated])) if seated else (),
            your_card=self.put.get(seated) if seated else None,
            put=tuple(self.put),
            round=self.round,
            to_act=nxt.player if nxt else None,
            points=dict(self.points),
            reveals=self.reveals,
            over=nxt is None,
            winners=tuple(self.winners()),
        )

    def view(self, player: str | None) -> dict[str, Any]:
        return self.observation(player).view()

    def determinize(self, player: str, rng: random.Random) -> Self:
        """The others' hands and face-down cards drawn from the cards `player` has not seen:
        neither in their hand, nor put by them, nor revealed (the undealt ones included)."""
        new = self.clone()
        seen = {card for reveal in self.reveals for _, card in reveal.cards}
        if player in self.hands:
            seen.update(self.hands[player])
            if player in self.put:
                seen.add(self.put[player])
        unseen = [card for card in DECK if card not in seen]
        rng.shuffle(unseen)
        for other in self.players:
            if other == player:
                continue
            if other in self.put:
                new.put[other] = unseen.pop()  # same key: the seat order of `put` is kept
            size = len(self.hands[other])
            new.hands[other] = tuple(sorted(unseen[:size]))
            del unseen[:size]
        return new

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.hands = self.hands.copy()  # the hands themselves are tuples, shared
        new.put = self.put.copy()
        new.points = self.points.copy()
        new.reveals = self.reveals
        new._turns = self._turns
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()  # what a clone shares is immutable


def checked_hands(players: tuple[str, ...], hands: Any) -> dict[str, tuple[int, ...]]:
    """HC-1: a hand of 3 cards of the deck for each player, no card twice at the table."""
    if not isinstance(hands, Mapping) or set(hands) != set(players):
        raise InvalidSetup("setup.hands must give a hand to each player and no one else (HC-1)")
    dealt: list[int] = []
    checked = {}
    for player in players:
        hand = hands[player]
        if not isinstance(hand, list | tuple) or len(hand) != HAND_SIZE:
            raise InvalidSetup(f"setup.hands.{player} must be {HAND_SIZE} cards (HC-1)")
        if any(type(card) is not int or card not in DECK for card in hand):
            raise InvalidSetup(f"setup.hands.{player}: cards are whole numbers 1 to 13 (HC-1)")
        dealt += hand
        checked[player] = tuple(hand)
    if len(set(dealt)) != len(dealt):
        raise InvalidSetup("setup.hands: a card is dealt twice; the deck has one of each (HC-1)")
    return checked
