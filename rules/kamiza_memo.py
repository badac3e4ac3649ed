"""Judging each KAMIZA round once, for every table.

A round's judgement depends only on the edition and the (card, area) of each play in play order
(K-4..K-11): a few thousand rounds in all. Each is judged once with placeholder players into a
`RoundTemplate` that names seats (indexes in the play order), not players; a table then reads its
players into it. Computer players and replays keep meeting the same rounds, so this is where the
time goes otherwise. Every remembered value is immutable and shared: never change one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

from rules.kamiza_judge import JudgeEvent, PlayedCard, judge_round

K = TypeVar("K")
V = TypeVar("V")


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


_TEMPLATES: dict[int, RoundTemplate] = {}  # by round code: bounded by the codes themselves
_EVENT_IDS: dict[JudgeEvent, int] = {}  # a judging event with placeholder players -> its id
_EVENTS_BY_ID: list[JudgeEvent] = []
_NAMED: dict[tuple[int, tuple[str, ...]], JudgeEvent] = {}  # (id, play order) -> the event


def round_template(code: int) -> RoundTemplate:
    """The template of the round with this code (see above)."""
    template = _TEMPLATES.get(code)
    if template is None:
        template = _TEMPLATES[code] = _judge_code(code)
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
    return RoundTemplate(
        events=tuple(_event_id(event) for event in judgement.events),
        points=points,
        gains=tuple((seat, pts) for seat, pts in enumerate(points) if pts),
        squealer=None if squealer is None else _SEAT_OF[squealer],
        wanted=tuple(_SEAT_OF[player] for player in judgement.wanted),
    )


def _event_id(event: JudgeEvent) -> int:
    known = _EVENT_IDS.get(event)
    if known is None:
        known = _EVENT_IDS[event] = len(_EVENTS_BY_ID)
        _EVENTS_BY_ID.append(event)
    return known


def named_events(template: RoundTemplate, order: tuple[str, ...]) -> list[JudgeEvent]:
    """The template's judging events with the players of `order` in their seats (shared)."""
    named = []
    for event_id in template.events:
        key = (event_id, order)
        event = _NAMED.get(key)
        if event is None:
            event = remember(_NAMED, key, _with_players(_EVENTS_BY_ID[event_id], order))
        named.append(event)
    return named


def _with_players(event: JudgeEvent, order: tuple[str, ...]) -> JudgeEvent:
    def player(value: Any) -> Any:
        if isinstance(value, str) and value in _SEAT_OF:
            return order[_SEAT_OF[value]]
        if isinstance(value, tuple):
            return tuple(player(inner) for inner in value)
        return value

    return type(event)(**{f.name: player(getattr(event, f.name)) for f in fields(event)})
