"""Judging each KAMIZA round once, for every table.

A round's judgement depends only on the edition and the (card, area) of each play in play order
(K-4..K-11): a few thousand rounds in all. Each is judged once with placeholder players into a
`RoundTemplate` that names seats (indexes in the play order), not players; a table then reads its
players into it. Computer players and replays keep meeting the same rounds, so this is where the
time goes otherwise. Every remembered value is immutable and shared: never change one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from operator import itemgetter
from typing import Any, TypeVar

from rules.base import Next
from rules.kamiza_events import RoundStarted
from rules.kamiza_judge import JudgeEvent, PlayedCard, WantedChip, judge_round

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


def remember(memo: dict[K, V], key: K, value: V, limit: int = 1 << 16) -> V:
    """Store `value` under `key`, first emptying `memo` if it holds `limit` entries already: memos
    keyed by player names would otherwise grow with every table a long-running bot hosts."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value


# -- round codes -----------------------------------------------------------------------------------
# A round's code is an int: its edition's digit, then one base-16 digit (1..10) per play, in play
# order. A state grows it play by play, so the memo key costs nothing to build or hash.

EDITION_CODES = {"second": 1, "classic": 2}
CODE_BASE = 16
_CARD_ORDER = ("boss", "underboss", "hitman", "policeman", "raid")
_AREA_ORDER = ("kamiza", "shimoza")
PLAY_CODES = {
    (card, area): 1 + 2 * c + a
    for c, card in enumerate(_CARD_ORDER)
    for a, area in enumerate(_AREA_ORDER)
}
_EDITION_OF_CODE = {code: edition for edition, code in EDITION_CODES.items()}

# Placeholder players of a template: seat i is the round's i-th player to play.
_SEATS = tuple(f"\x00seat{i}" for i in range(4))
_SEAT_OF = {name: i for i, name in enumerate(_SEATS)}


@dataclass(frozen=True, slots=True)
class RoundTemplate:
    """A judged round with seats (indexes in the play order) where players go."""

    events: tuple[int, ...]  # ids of the judging events (see `named_events`)
    points: tuple[int, ...]  # every seat's points (K-11, K-9)
    gains: tuple[tuple[int, int], ...]  # (seat, points) of the non-zero ones, for the totals
    squealer: int | None  # K-5: the seat that starts the next round
    wanted: tuple[int, ...]  # K-10: the seats that earn a WANTED chip
    top: int  # 1 + the highest event id (0 without events): how far an order must have named
    # The events out of an order's `named` list, as a tuple: one C call (`picker`).
    pick: Callable[[Sequence[JudgeEvent]], tuple[JudgeEvent, ...]] = field(compare=False)


TEMPLATES: dict[int, RoundTemplate] = {}  # by round code: bounded by the codes themselves
_EVENT_IDS: dict[JudgeEvent, int] = {}  # a judging event with placeholder players -> its id
_EVENTS_BY_ID: list[JudgeEvent] = []


def round_template(code: int) -> RoundTemplate:
    """The template of the round with this code (see above)."""
    template = TEMPLATES.get(code)
    if template is None:
        template = TEMPLATES[code] = _judge_code(code)
    return template


def _judge_code(code: int) -> RoundTemplate:
    digits = []
    while code >= CODE_BASE:
        code, digit = divmod(code, CODE_BASE)
        digits.append(digit - 1)
    digits.reverse()
    plays = [
        PlayedCard(_SEATS[seat], _CARD_ORDER[digit // 2], _AREA_ORDER[digit % 2])
        for seat, digit in enumerate(digits)
    ]
    judgement = judge_round(plays, _EDITION_OF_CODE[code])
    points = tuple(judgement.points.values())
    squealer = judgement.squealer
    events = tuple(_event_id(event) for event in judgement.events)
    return RoundTemplate(
        events=events,
        points=points,
        gains=tuple((seat, pts) for seat, pts in enumerate(points) if pts),
        squealer=None if squealer is None else _SEAT_OF[squealer],
        wanted=tuple(_SEAT_OF[player] for player in judgement.wanted),
        top=max(events, default=-1) + 1,
        pick=picker(events),
    )


def picker(indexes: tuple[int, ...]) -> Callable[[Sequence[T]], tuple[T, ...]]:
    """A function taking these items of a sequence, as a tuple (`itemgetter` of two or more
    indexes returns one; of one, the bare item)."""
    if len(indexes) >= 2:
        return itemgetter(*indexes)
    if indexes:
        index = indexes[0]
        return lambda items: (items[index],)
    return lambda items: ()


def _event_id(event: JudgeEvent) -> int:
    known = _EVENT_IDS.get(event)
    if known is None:
        known = _EVENT_IDS[event] = len(_EVENTS_BY_ID)
        _EVENTS_BY_ID.append(event)
    return known


class OrderMemo:
    """What tables playing in one order keep needing: whose turn it is after n plays, the
    round-started events, and the judging events with this order's players in their seats."""

    __slots__ = ("named", "order", "rotated", "size", "started", "turns")

    def __init__(self, order: tuple[str, ...]) -> None:
        self.order = order
        self.size = len(order)
        self.turns = tuple(Next(player, "play") for player in order)
        # By `started_key`: the round-started events met so far.
        self.started: dict[int, RoundStarted] = {}
        # By event id: the judging events with this order's players (`named_events`).
        self.named: list[JudgeEvent] = []
        self.rotated: dict[str, OrderMemo] = {}  # by start player: the same players from there

    def __deepcopy__(self, memo: dict[int, object]) -> OrderMemo:
        return self  # a shared cache: a deep copy of a state shares it like a clone does

    def __copy__(self) -> OrderMemo:
        return self

    def starting_with(self, start: str) -> OrderMemo:
        """The memo of this order turned to start with `start` (K-12: clockwise from them)."""
        memo = self.rotated.get(start)
        if memo is None:
            seat = self.order.index(start)
            memo = self.rotated[start] = order_memo(self.order[seat:] + self.order[:seat])
        return memo

    def round_started(self, game: int, round_no: int, reason: str) -> RoundStarted:
        """K-12: the round started, by this order's first player."""
        key = started_key(game, round_no, reason)
        started = self.started.get(key)
        if started is None:
            started = RoundStarted(game, round_no, self.order[0], reason, self.order)
            self.started[key] = started
        return started

    def named_events(self, top: int) -> list[JudgeEvent]:
        """`named`, holding at least the events of ids below `top` (a template's `top`)."""
        named = self.named
        # Every id below `top` is named, also those of larger tables (never read here: their
        # seats beyond this order keep their placeholder players).
        seats = self.order + _SEATS[len(self.order) :]
        for event_id in range(len(named), top):
            event = _with_players(_EVENTS_BY_ID[event_id], seats)
            # Orders share equal events (a Seated names one player, whatever the others' seats):
            # fewer objects for the round's end to touch.
            shared = _NAMED.get(event)
            named.append(remember(_NAMED, event, event) if shared is None else shared)
        return named

    def events(self, template: RoundTemplate) -> list[JudgeEvent]:
        """The template's judging events with this order's players in their seats."""
        return list(map(self.named_events(template.top).__getitem__, template.events))


# Why a player starts a round (K-12, K-5), and its number in `OrderMemo.started` keys.
REASONS = ("chosen", "highest_total", "squeal")
CHOSEN, HIGHEST_TOTAL, SQUEAL = range(3)


def started_key(game: int, round_no: int, reason: str) -> int:
    """A round start's key in `OrderMemo.started`: an int is quicker to hash than a tuple."""
    return (game * 4 + round_no) * 4 + REASONS.index(reason)


_ORDER_MEMOS: dict[tuple[str, ...], OrderMemo] = {}
# Judging events with players in their seats, each kept once whatever the order that named it.
_NAMED: dict[JudgeEvent, JudgeEvent] = {}


def order_memo(order: tuple[str, ...]) -> OrderMemo:
    """The shared memo of a play order."""
    memo = _ORDER_MEMOS.get(order)
    return memo if memo is not None else remember(_ORDER_MEMOS, order, OrderMemo(order), 1024)


def _with_players(event: JudgeEvent, order: tuple[str, ...]) -> JudgeEvent:
    def player(value: Any) -> Any:
        if isinstance(value, str) and value in _SEAT_OF:
            return order[_SEAT_OF[value]]
        if isinstance(value, tuple):
            return tuple(player(inner) for inner in value)
        return value

    return type(event)(**{f.name: player(getattr(event, f.name)) for f in fields(event)})


_WANTED: dict[tuple[str, int], WantedChip] = {}


def wanted_chip(player: str, chips: int) -> WantedChip:
    """`WantedChip(player, chips)`, made once (K-10)."""
    event = _WANTED.get((player, chips))
    if event is None:
        event = remember(_WANTED, (player, chips), WantedChip(player, chips), 4096)
    return event
