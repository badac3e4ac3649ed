"""KAMIZA, classic (2014) and second generation: RULES.md K-1..K-13."""

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
from rules.kamiza_judge import DroppedOut, PlayedCard, RoundJudgement, WantedChip, judge_round

SECOND = "second"
CLASSIC = "classic"
EDITIONS = (SECOND, CLASSIC)
KAMIZA = "kamiza"
SHIMOZA = "shimoza"
AREAS = (KAMIZA, SHIMOZA)

# K-1: one set per player; the fourth card differs between the editions.
CARD_SETS: dict[str, tuple[str, ...]] = {
    SECOND: ("boss", "underboss", "hitman", "policeman"),
    CLASSIC: ("boss", "underboss", "hitman", "raid"),
}
ALL_CARDS = frozenset(CARD_SETS[SECOND] + CARD_SETS[CLASSIC])
# K-13: the "chicken" order of unplayed cards, lowest first wins.
CHICKEN_VALUE = {"raid": 0, "policeman": 0, "hitman": 1, "underboss": 2, "boss": 5}
GAMES_PER_MATCH = 3
ROUNDS_PER_GAME = 3
WANTED_LIMIT = 3


@dataclass(frozen=True, slots=True)
class Play:
    """Put `card` face down in `area` (K-3)."""

    card: str
    area: str

    def to_json(self) -> dict[str, str]:
        return {"card": self.card, "area": self.area}


_PLAYS = {(card, area): Play(card, area) for card in ALL_CARDS for area in AREAS}


# -- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardPlaced(Event):
    """A card went into an area; `face_up` says whether the table may see it (K-3)."""

    kind: ClassVar[str] = "card_placed"
    player: str
    card: str
    area: str
    face_up: bool


@dataclass(frozen=True, slots=True)
class RoundRevealed(Event):
    """Every card of the round turned face up, in the order they were played."""

    kind: ClassVar[str] = "round_revealed"
    game: int
    round: int
    plays: tuple[PlayedCard, ...]


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    """The points of the round and the running totals."""

    kind: ClassVar[str] = "round_scored"
    game: int
    round: int
    points: dict[str, int]
    totals: dict[str, int]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """A game of three rounds ended; `unplayed` is each player's card left in hand (K-2)."""

    kind: ClassVar[str] = "game_ended"
    game: int
    unplayed: dict[str, str]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new round; `reason` is why `start_player` starts it (K-12, K-5)."""

    kind: ClassVar[str] = "round_started"
    game: int
    round: int
    start_player: str
    reason: str
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over (K-13); `tie_break` is "chicken" or "shared" when a tie was met."""

    kind: ClassVar[str] = "match_ended"
    winners: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    totals: dict[str, int]
    tie_break: str | None


# -- the game --------------------------------------------------------------------------------------


class Kamiza(Game):
    """A match of KAMIZA: 3 games of 3 rounds for 3 or 4 players."""

    name: ClassVar[str] = "kamiza"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    # G-3: everything but a face-down card is public: the reveal turns every card of the round
    # face up, and a game's unplayed card is the one its three revealed plays left (K-2).
    public_kinds: ClassVar[frozenset[str]] = frozenset(
        {
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

    def __init__(self, players: tuple[str, ...], edition: str, advanced: bool, start: str) -> None:
        self.players = players
        self.edition = edition
        self.advanced = advanced
        self.cards = CARD_SETS[edition]
        self.hands: dict[str, list[str]] = {p: list(self.cards) for p in players}
        self.totals: dict[str, int] = dict.fromkeys(players, 0)
        self.wanted: dict[str, int] = dict.fromkeys(players, 0)
        self.dropped: list[str] = []
        self.game_index = 0
        self.round_index = 0
        self.start_player = start
        self.order: tuple[str, ...] = ()
        self.plays: list[PlayedCard] = []
        self.revealed: dict[str, list[str]] = {p: [] for p in players}
        self.history: list[dict[str, Any]] = []
        self.unplayed: dict[str, str] = {}
        self.finished = False
        self._squealer: str | None = None
        self._opening: list[Event] = [self._begin_round()]

    # -- creation ----------------------------------------------------------------------------------

    @classmethod
    def normalise_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        options = dict(options or {})
        unknown = sorted(set(options) - {"edition", "advanced"})
        if unknown:
            raise InvalidSetup(f"unknown option {unknown[0]!r}")
        edition = options.get("edition", SECOND)
        if edition not in EDITIONS:
            raise InvalidSetup(f"edition must be 'second' or 'classic', not {edition!r}")
        advanced = options.get("advanced", False)
        if not isinstance(advanced, bool):
            raise InvalidSetup("advanced must be true or false")
        return {"edition": edition, "advanced": advanced}

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = check_players(players, cls.min_players, cls.max_players)
        opts = cls.normalise_options(options)
        start = setup.get("start_player") if isinstance(setup, Mapping) else None
        if start not in seats:
            raise InvalidSetup("setup.start_player must be one of the players (K-12)")
        return cls(seats, opts["edition"], opts["advanced"], start)

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """K-12: the first start player is chosen at the table, at random if nobody chooses."""
        return {"start_player": rng.choice(list(players))}

    def opening_events(self) -> list[Event]:
        """The first round's start (K-12: the start player chosen at the table)."""
        return list(self._opening)

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

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Play:
        require_fields(data, ("card", "area"))
        card, area = data["card"], data["area"]
        if not isinstance(card, str) or card not in ALL_CARDS:
            raise MalformedAction(f"unknown card {card!r}")
        if not isinstance(area, str) or area not in AREAS:
            raise MalformedAction(f"area must be 'kamiza' or 'shimoza', not {area!r}")
        return _PLAYS[card, area]

    # -- whose turn --------------------------------------------------------------------------------

    def active_players(self) -> list[str]:
        """Players still in (K-10), in seating order."""
        return [p for p in self.players if p not in self.dropped]

    def next(self) -> Next | None:
        if self.finished:
            return None
        return Next(self.order[len(self.plays)], "play")

    def legal_actions(self, player: str) -> list[Play]:
        if self.finished or self.order[len(self.plays)] != player:
            return []
        return [_PLAYS[card, area] for card in self.hands[player] for area in AREAS]

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
        current = self.order[len(self.plays)]
        if player != current:
            raise IllegalAction("K-3", f"it is {current}'s turn, not {player}'s")
        if not isinstance(action.area, str) or action.area not in AREAS:
            raise IllegalAction("K-3", f"a card goes to kamiza or shimoza, not {action.area!r}")
        if not isinstance(action.card, str) or action.card not in self.cards:
            raise IllegalAction("K-1", f"there is no {action.card} card in the {self.edition} set")
        if action.card not in self.hands[player]:
            raise IllegalAction("K-2", f"{player} has already played their {action.card} this game")

    def apply(self, player: str, action: Any) -> list[Event]:
        self._refuse(player, action)
        self.hands[player].remove(action.card)
        face_up = self.advanced and player == self.start_player
        self.plays.append(PlayedCard(player, action.card, action.area))
        events: list[Event] = [CardPlaced(player, action.card, action.area, face_up)]
        if len(self.plays) == len(self.order):
            self._finish_round(events)
        return events

    # -- the round's end ---------------------------------------------------------------------------

    def _finish_round(self, events: list[Event]) -> None:
        game_no, round_no = self.game_index + 1, self.round_index + 1
        plays = tuple(self.plays)
        events.append(RoundRevealed(game_no, round_no, plays))
        judgement = judge_round(plays, self.edition)
        events.extend(judgement.events)
        for player, pts in judgement.points.items():
            self.totals[player] += pts
        self._squealer = judgement.squealer
        events.extend(self._award_wanted(judgement))
        events.append(RoundScored(game_no, round_no, dict(judgement.points), dict(self.totals)))
        for play in plays:
            self.revealed[play.player].append(play.card)
        self.history.append(
            {
                "game": game_no,
                "round": round_no,
                "start_player": self.start_player,
                "plays": [p.to_json() for p in plays],
                "points": dict(judgement.points),
                "squealer": judgement.squealer,
            }
        )
        self.plays = []
        self.round_index += 1
        if self.round_index == ROUNDS_PER_GAME:
            self._end_game(events)
        if len(self.active_players()) < 2 or self.game_index == GAMES_PER_MATCH:
            self._end_match(events)
        else:
            events.append(self._begin_round())

    def _award_wanted(self, judgement: RoundJudgement) -> list[Event]:
        """K-10: a paid policeman earns a WANTED chip; the third one drops the player."""
        events: list[Event] = []
        for player in judgement.wanted:
            self.wanted[player] += 1
            events.append(WantedChip(player, self.wanted[player]))
            if self.wanted[player] >= WANTED_LIMIT and player not in self.dropped:
                self.dropped.append(player)
                events.append(DroppedOut(player, self.totals[player]))
        return events

    def _end_game(self, events: list[Event]) -> None:
        unplayed = {p: self.hands[p][0] for p in self.active_players() if len(self.hands[p]) == 1}
        events.append(GameEnded(self.game_index + 1, unplayed))
        self.unplayed = unplayed
        self.game_index += 1
        self.round_index = 0
        self.hands = {p: list(self.cards) for p in self.players}
        self.revealed = {p: [] for p in self.players}

    def _begin_round(self) -> RoundStarted:
        """K-12 (and K-5): choose the start player and the clockwise order of the round."""
        active = self.active_players()
        seat = self.players.index(self.start_player)
        clockwise = [p for p in self.players[seat:] + self.players[:seat] if p not in self.dropped]
        if self._squealer is not None and self._squealer in active:
            start, reason = self._squealer, "squeal"
        elif not self.history:
            start, reason = clockwise[0], "chosen"
        else:
            best = max(self.totals[p] for p in active)
            start = next(p for p in clockwise if self.totals[p] == best)
            reason = "highest_total"
        self._squealer = None
        self.start_player = start
        seat = self.players.index(start)
        self.order = tuple(
            p for p in self.players[seat:] + self.players[:seat] if p not in self.dropped
        )
        return RoundStarted(self.game_index + 1, self.round_index + 1, start, reason, self.order)

    def _end_match(self, events: list[Event]) -> None:
        self.finished = True
        events.append(
            MatchEnded(
                tuple(self.winners()),
                tuple(tuple(group) for group in self.ranking()),
                dict(self.totals),
                self.tie_break,
            )
        )

    # -- results -----------------------------------------------------------------------------------

    def ranking(self) -> list[list[str]]:
        """K-10, K-13: players still in by total, then by unplayed card; then the dropped-out."""
        complete = self.game_index == GAMES_PER_MATCH

        def still_in_key(p: str) -> tuple[int, int]:
            chicken = CHICKEN_VALUE[self.unplayed[p]] if complete and p in self.unplayed else 0
            return (-self.totals[p], chicken)

        dropped = [p for p in self.players if p in self.dropped]
        return _grouped(self.active_players(), still_in_key) + _grouped(
            dropped, lambda p: (-self.totals[p], 0)
        )

    def winners(self) -> list[str]:
        if not self.finished:
            return []
        return list(self.ranking()[0])

    def position(self) -> tuple[int, int]:
        """The 1-based (game, round) being played, or the last one once the match is over."""
        if self.game_index == GAMES_PER_MATCH:
            return GAMES_PER_MATCH, ROUNDS_PER_GAME
        if self.finished:
            return self.history[-1]["game"], self.history[-1]["round"]
        return self.game_index + 1, self.round_index + 1

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    def details(self) -> dict[str, Any]:
        game_no, round_no = self.position()
        return {
            "edition": self.edition,
            "game_number": game_no,
            "round": round_no,
            "start_player": self.start_player,
            "wanted": dict(self.wanted),
            "dropped": list(self.dropped),
        }

    @property
    def tie_break(self) -> str | None:
        """K-13: "chicken" when the unplayed card decided, "shared" when it could not."""
        active = self.active_players()
        if not self.finished or not active:
            return None
        best = max(self.totals[p] for p in active)
        tied = [p for p in active if self.totals[p] == best]
        if len(tied) < 2:
            return None
        return "shared" if len(self.ranking()[0]) == len(tied) else "chicken"

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: own hand; face-down cards as areas only, but the start player's under advanced."""
        table = []
        for play in self.plays:
            visible = play.player == player or (self.advanced and play.player == self.start_player)
            table.append(
                {"player": play.player, "area": play.area, "card": play.card if visible else None}
            )
        nxt = self.next()
        return {
            "game": self.name,
            "edition": self.edition,
            "advanced": self.advanced,
            "players": list(self.players),
            "you": player,
            "hand": list(self.hands[player]) if player in self.hands else None,
            "hand_sizes": {p: len(self.hands[p]) for p in self.players},
            "game_number": self.position()[0],
            "round": self.position()[1],
            "start_player": self.start_player,
            "order": list(self.order),
            "to_act": nxt.player if nxt else None,
            "table": table,
            "revealed_this_game": {p: list(cards) for p, cards in self.revealed.items()},
            "totals": dict(self.totals),
            "wanted": dict(self.wanted),
            "dropped": list(self.dropped),
            "last_round": self.history[-1] if self.history else None,
            "over": self.finished,
            "winners": self.winners(),
        }


def _grouped(players: list[str], key: Any) -> list[list[str]]:
    """Players sorted by `key`, equal keys sharing a group."""
    groups: list[list[str]] = []
    for p in sorted(players, key=key):
        if groups and key(groups[-1][0]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups
