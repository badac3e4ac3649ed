"""The state-machine shape every game in `rules` shares."""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from rules.choice_draw import random_action
from rules.plain import fields_of


class RulesError(Exception):
    """Base of every error the rules package raises."""


class IllegalAction(RulesError):
    """An action the rules refuse; the state is left unchanged (G-2)."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class MalformedAction(IllegalAction):
    """An action whose JSON does not match any shape of the log format."""

    def __init__(self, reason: str) -> None:
        super().__init__("LOG", reason)


class InvalidSetup(RulesError):
    """Players, options or setup that no game can be created from."""


class UnclassifiedEvent(RulesError):
    """An event kind a game has not said a spectator may see (G-3): never shown, never exported."""


@dataclasses.dataclass(frozen=True, slots=True)
class Because:
    """Why an event came out as it did: the rule that decided it (its RULES.md id, "K-6") and
    which case of that rule applied (a name such as "cancelled", for the bot to word)."""

    rule: str
    case: str


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something an action caused; data only, rendering is the bot's job."""

    kind: ClassVar[str] = "event"
    # The RULES.md id of the rule that decided this outcome; "" for what a player chose or a
    # plain record (a card played, a deal), which no rule decided.
    rule: ClassVar[str] = ""

    def because(self) -> Because | None:
        """The rule behind this outcome and the case of it that applied (None: no rule decided
        it). An event class that covers several rules or cases overrides this."""
        return Because(self.rule, self.kind) if self.rule else None

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object with its `type`."""
        return {"type": self.kind, **fields_of(self)}


@dataclasses.dataclass(frozen=True, slots=True)
class Next:
    """Who must act now and what kind of decision is expected.

    In a step where several players choose at the same time (RULES.md H-1, H-2), `players` is
    everyone who still has to choose, clockwise from the start player, and `player` the first of
    them; empty otherwise (one player acts: `player`)."""

    player: str
    expects: str
    players: tuple[str, ...] = ()

    @property
    def pending(self) -> tuple[str, ...]:
        """Everyone who must act now: the step's choosers, or the one player on turn."""
        return self.players or (self.player,)

    def to_json(self) -> dict[str, Any]:
        if self.players:
            return {"player": self.player, "expects": self.expects, "players": list(self.players)}
        return {"player": self.player, "expects": self.expects}


def step_view(
    simultaneous: bool, chosen: Sequence[str], waiting_for: Sequence[str]
) -> dict[str, Any]:
    """A view's keys for the house rule of choices made at once (RULES.md H-1, H-2): who has
    chosen and who still has to; none in a game without it (its views as they always were)."""
    if not simultaneous:
        return {}
    return {"simultaneous": True, "chosen": list(chosen), "waiting_for": list(waiting_for)}


def require_fields(data: Any, required: Sequence[str], optional: Sequence[str] = ()) -> None:
    """Raise MalformedAction unless `data` is an object with exactly these fields."""
    if not isinstance(data, Mapping):
        raise MalformedAction("an action must be a JSON object")
    keys = set(data)
    missing = [k for k in required if k not in keys]
    if missing:
        raise MalformedAction(f"missing field {missing[0]!r}")
    unknown = sorted(keys - set(required) - set(optional))
    if unknown:
        raise MalformedAction(f"unknown field {unknown[0]!r}")


def check_players(players: Any, min_players: int, max_players: int) -> tuple[str, ...]:
    """Validate a clockwise seating: distinct strings (LOG_FORMAT.md) within the player count."""
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise InvalidSetup("players must be a list of strings")
    if len(set(players)) != len(players):
        raise InvalidSetup("players must be distinct")
    if not min_players <= len(players) <= max_players:
        raise InvalidSetup(f"this game takes {min_players} to {max_players} players")
    return tuple(players)


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """How a game stands: the replay's scores, the winners after every tie-break (empty while
    the game is not over), players best first with ties grouped, and the tie-break that decided
    the winners, if one did (per game: KAMIZA "chicken"/"shared", Rights of Losers "chips"...)."""

    scores: dict[str, int]
    winners: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    tie_break: str | None = None


ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT", bound=Event)
ObservationT = TypeVar("ObservationT")


class Game(ABC, Generic[ActionT, EventT, ObservationT]):
    """One game in progress: created from (players, options, setup), advanced by `apply`.

    The one interface of every game (OpenSpiel's state shape, typed): `next()` who acts,
    `legal_actions(player)`, `apply(player, action)` -> the events it caused, `observation(player)`
    what that player (None: a spectator) may see (G-3), `result()`, a cheap `clone()`, and
    `determinize(player, rng)` -- a full state drawn among those that give `player` the same
    observation, for computer players that search. A game subclasses
    `Game[ItsAction, ItsEvent, ItsObservation]` with a union of frozen dataclasses for each.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # G-3: event kinds the whole table sees exactly as they are; others need `public_event`.
    public_kinds: ClassVar[frozenset[str]] = frozenset()
    # The values of its `edition` option, the default first; a server may choose another default
    # (`/settings`, the ledger's `GuildSettings.editions`). Empty: the game has no editions.
    editions: ClassVar[tuple[str, ...]] = ()
    # `python -m rules bench`: the seats of its games, and the replay speed-up it aims for
    # against the engines it replaced.
    bench_players: ClassVar[int] = 4
    # `rules.agents.random_action` may read a `draw_table` the game keeps (see there).
    draws_from_table: ClassVar[bool] = False
    bench_replay_target: ClassVar[float] = 4.0
    # The rules a player meets at each kind of decision (`Next.expects`), as RULES.md ids: what
    # a table message's "?" explains while that decision is awaited.
    phase_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    players: tuple[str, ...]

    # -- creation -------------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        """Build the initial state; raises InvalidSetup on bad input."""

    @classmethod
    @abstractmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Everything chance decides for a game, drawn from `rng` (G-1)."""

    @classmethod
    def normalise_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in; raises InvalidSetup on unknown keys or bad values."""
        if options:
            raise InvalidSetup(f"unknown option {sorted(options)[0]!r}")
        return {}

    # -- actions -------------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def parse_action(cls, data: Mapping[str, Any]) -> ActionT:
        """The action for a log entry's fields (without `player`); raises MalformedAction."""

    @staticmethod
    def action_json(action: Any) -> dict[str, Any]:
        """The log fields (without `player`) of an action."""
        fields: dict[str, Any] = action.to_json()
        return fields

    @abstractmethod
    def next(self) -> Next | None:
        """Who must act now, or None once the game is over."""

    def rules_now(self) -> tuple[str, ...]:
        """The RULES.md ids of the decision awaited now (`phase_rules`); none once it is over."""
        nxt = self.next()
        return self.phase_rules.get(nxt.expects, ()) if nxt is not None else ()

    def to_act(self) -> list[str]:
        """The players who may act now (empty once the game is over; several in a step of
        choices made at the same time)."""
        nxt = self.next()
        return list(nxt.pending) if nxt else []

    @property
    def over(self) -> bool:
        return self.next() is None

    def round_number(self) -> int:
        """Which round (deal, trick) is being played, counted from 1 over the whole game, never
        going back. A table gives each round its own message and tells a player their turn
        afresh when a round begins; a game without rounds is one round."""
        return 1

    @abstractmethod
    def legal_actions(self, player: str) -> list[ActionT]:
        """Every action `player` may take now (empty when it is not their turn)."""

    @abstractmethod
    def apply(self, player: str, action: Any) -> list[EventT]:
        """Carry out an action and return its events; raises IllegalAction, changing nothing."""

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal actions to the end of the game, as a search's rollout.

        The same game as the step loop `apply(p, rules.agents.random_action(self, p, rng))` from
        the same `rng`: the same draws, the same final state and result; only the events are not
        built. A game may override it with a quicker loop that keeps exactly that promise.
        """
        while (nxt := self.next()) is not None:
            self.apply(nxt.player, random_action(self, nxt.player, rng))

    def computer_action(self, player: str, rng: random.Random) -> ActionT | None:
        """The game's own computer player's action now (it sees only what `player` may see),
        or None when the game has none: then computer seats play random legal actions."""
        return None

    def check(self, player: str, action: Any) -> None:
        """Raise IllegalAction if `apply` would refuse the action or if the action could not be
        written to a log exactly as it is (G-2); never changes the state."""
        self._refuse(player, action)
        cls = type(self)
        if cls.parse_action(cls.action_json(action)) != action:
            raise MalformedAction(f"{action!r} is not written in a log as it is")

    def _refuse(self, player: str, action: Any) -> Any:
        """Raise IllegalAction if `apply` would refuse the action; never changes the state."""
        copy.deepcopy(self).apply(player, action)

    # -- results and views -----------------------------------------------------------------------

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Points per player as the replay command reports them."""

    @abstractmethod
    def winners(self) -> list[str]:
        """The winners after every tie-break; empty while the game is not over."""

    @abstractmethod
    def ranking(self) -> list[list[str]]:
        """Players from best to worst, tied players grouped; meaningful once over."""

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator); JSON-ready (G-3)."""

    def details(self) -> dict[str, Any]:
        """Extra public facts for the replay output."""
        return {}

    def opening_events(self) -> list[Event]:
        """The events of the set-up itself (the first deal, the first start player)."""
        return []

    @classmethod
    def public_event(cls, event: Event) -> dict[str, Any] | None:
        """G-3: the event as a spectator at the physical table saw it, or None if not at all.

        A game lists its fully public kinds in `public_kinds` and overrides this for the kinds
        that carry something hidden. Any other kind raises UnclassifiedEvent: a new event is
        kept out of public records until someone decides what of it the table sees.
        """
        if event.kind in cls.public_kinds:
            return event.to_json()
        raise UnclassifiedEvent(f"{cls.name}: is {event.kind!r} public? (G-3) nobody decided")

    def result(self) -> Result:
        """Scores, winners, ranking and the tie-break used (see `Result`)."""
        return Result(
            self.scores(),
            tuple(self.winners()),
            tuple(tuple(group) for group in self.ranking()),
            self.tie_break_used(),
        )

    def tie_break_used(self) -> str | None:
        """The tie-break that decided the winners, or None (no tie, or not over)."""
        return None

    @abstractmethod
    def observation(self, player: str | None) -> ObservationT:
        """What `player` may see now (None: a spectator), as a typed, frozen value (G-3)."""

    @abstractmethod
    def determinize(self, player: str, rng: random.Random) -> Self:
        """A full state drawn at random among those that give `player` this very observation:
        hidden hands and unseen deck order filled in consistently; `self` is unchanged."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy that shares the immutable parts instead of copying them (search
        clones a state for every playout)."""


AnyGame = Game[Any, Any, Any]  # for code that handles every game alike (logs, registry, agents)


def seat_players(joined: Sequence[str], rng: random.Random) -> list[str]:
    """A random clockwise seating of the players who joined (G-1)."""
    seating = list(joined)
    rng.shuffle(seating)
    return seating
