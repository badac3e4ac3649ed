"""Judging one KAMIZA round, step by step in the order of RULES.md (K-4..K-11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from rules.base import Because, Event

# K-11: what a seated card scores.
VALUE = {"boss": 5, "underboss": 2, "hitman": 1, "raid": 0, "policeman": 0}
HIT_POINTS = 4
# K-4: shimoza seats neither a Boss nor a Corrupt Policeman.
SHIMOZA_FORBIDDEN = frozenset({"boss", "policeman"})
SEATS = {"kamiza": 1, "shimoza": 2}


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """One card of a round, in play order."""

    player: str
    card: str
    area: str

    def to_json(self) -> dict[str, str]:
        return {"player": self.player, "card": self.card, "area": self.area}


@dataclass(frozen=True, slots=True)
class Squealed(Event):
    """K-5: exactly one raid: nobody scores, the raider starts the next round."""

    kind: ClassVar[str] = "squealed"
    rule: ClassVar[str] = "K-5"
    player: str


@dataclass(frozen=True, slots=True)
class RemovedWrongArea(Event):
    """K-4: a Boss or Corrupt Policeman put in shimoza is removed and scores nothing."""

    kind: ClassVar[str] = "removed_wrong_area"
    rule: ClassVar[str] = "K-4"
    player: str
    card: str
    area: str


@dataclass(frozen=True, slots=True)
class Cancelled(Event):
    """K-6: two or more cards of one type in one area remove each other."""

    kind: ClassVar[str] = "cancelled"
    rule: ClassVar[str] = "K-6"
    area: str
    card: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatLost(Event):
    """K-7: more cards than seats; a lower number (or a hit Boss) loses its seat.

    `beaten_by` is the card that kept the seat (`to`'s): it tells which rule applied. It is
    not part of the event's JSON, whose shape the logs and exports already fix."""

    kind: ClassVar[str] = "seat_lost"
    player: str
    card: str
    area: str
    to: str
    beaten_by: str

    def because(self) -> Because:
        if self.area == "kamiza" and {self.card, self.beaten_by} == {"boss", "hitman"}:
            # K-8: a lone Boss hit by the Hitman, or a Hitman whose hit an Underboss stopped
            # (with the Underboss there, the Boss keeps the seat as the higher number).
            return Because("K-8", "boss_hit" if self.card == "boss" else "hit_stopped")
        return Because("K-7", "outranked")

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "player": self.player,
            "card": self.card,
            "area": self.area,
            "to": self.to,
        }


@dataclass(frozen=True, slots=True)
class Hit(Event):
    """K-8: the Hitman takes kamiza's seat from a lone Boss and scores 4."""

    kind: ClassVar[str] = "hit"
    rule: ClassVar[str] = "K-8"
    hitman: str
    boss: str


@dataclass(frozen=True, slots=True)
class Seated(Event):
    """K-7, K-11: a card keeps a seat and scores its number (before any bribe)."""

    kind: ClassVar[str] = "seated"
    player: str
    card: str
    area: str
    points: int

    def because(self) -> Because:
        if self.points == HIT_POINTS and self.card == "hitman":
            return Because("K-8", "seated_hit")
        return Because("K-11", "seated")


@dataclass(frozen=True, slots=True)
class Bribe(Event):
    """K-9: the seated card's points are halved, rounded down, and shared with the policeman."""

    kind: ClassVar[str] = "bribe"
    policeman: str
    player: str
    card: str
    points: int

    def because(self) -> Because:
        # K-10: a policeman whose owner gained nothing (half of a Hitman's 1) earns no chip.
        return Because("K-9", "bribe") if self.points > 0 else Because("K-10", "bribe_of_nothing")


@dataclass(frozen=True, slots=True)
class PolicemanUnpaid(Event):
    """K-9: a policeman with nobody to bribe scores 0."""

    kind: ClassVar[str] = "policeman_unpaid"
    rule: ClassVar[str] = "K-9"
    player: str


@dataclass(frozen=True, slots=True)
class WantedChip(Event):
    """K-10: a policeman's owner gained points and takes a WANTED chip."""

    kind: ClassVar[str] = "wanted"
    rule: ClassVar[str] = "K-10"
    player: str
    chips: int


@dataclass(frozen=True, slots=True)
class DroppedOut(Event):
    """K-10: three WANTED chips; the player plays no further rounds and cannot win."""

    kind: ClassVar[str] = "dropped_out"
    rule: ClassVar[str] = "K-10"
    player: str
    total: int


JudgeEvent: TypeAlias = (
    Squealed
    | RemovedWrongArea
    | Cancelled
    | SeatLost
    | Hit
    | Seated
    | Bribe
    | PolicemanUnpaid
    | WantedChip
    | DroppedOut
)


@dataclass(slots=True)
class RoundJudgement:
    """The outcome of judging one round."""

    points: dict[str, int]
    events: list[JudgeEvent] = field(default_factory=list)
    squealer: str | None = None
    wanted: list[str] = field(default_factory=list)


def judge_round(plays: Sequence[PlayedCard], edition: str) -> RoundJudgement:
    """Judge a fully played round; `edition` is "second" or "classic"."""
    result = RoundJudgement(points={p.player: 0 for p in plays})
    if edition == "classic":
        raiders = [p.player for p in plays if p.card == "raid"]
        if len(raiders) == 1:
            result.squealer = raiders[0]
            result.events.append(Squealed(raiders[0]))
            return result
    kamiza = _survivors(plays, "kamiza", result.events)
    shimoza = _survivors(plays, "shimoza", result.events)
    _judge_kamiza(kamiza, result)
    _judge_shimoza(shimoza, result)
    return result


def _survivors(
    plays: Sequence[PlayedCard], area: str, events: list[JudgeEvent]
) -> list[PlayedCard]:
    """K-4 then K-6: the cards of an area left after wrong-area removal and cancelling."""
    here = [p for p in plays if p.area == area]
    if area == "shimoza":
        for p in here:
            if p.card in SHIMOZA_FORBIDDEN:
                events.append(RemovedWrongArea(p.player, p.card, area))
        here = [p for p in here if p.card not in SHIMOZA_FORBIDDEN]
    counts = Counter(p.card for p in here)
    for card, n in counts.items():
        if n >= 2:
            events.append(Cancelled(area, card, tuple(p.player for p in here if p.card == card)))
    return [p for p in here if counts[p.card] == 1]


def _judge_kamiza(cards: list[PlayedCard], result: RoundJudgement) -> None:
    """K-7, K-8, K-9: one seat (plus an uncounted policeman), the hit, the bribe."""
    policeman = next((p for p in cards if p.card == "policeman"), None)
    rivals = sorted((p for p in cards if p.card != "policeman"), key=lambda p: -VALUE[p.card])
    seated: PlayedCard | None = None
    points = 0
    if rivals:
        yakuza = {p.card: p for p in rivals if p.card != "raid"}
        if set(yakuza) == {"boss", "hitman"}:
            seated, points = yakuza["hitman"], HIT_POINTS
            result.events.append(Hit(seated.player, yakuza["boss"].player))
        else:
            seated, points = rivals[0], VALUE[rivals[0].card]
        for p in rivals:
            if p is not seated:
                result.events.append(
                    SeatLost(p.player, p.card, "kamiza", seated.player, seated.card)
                )
        result.events.append(Seated(seated.player, seated.card, "kamiza", points))
    if policeman is None:
        if seated:
            result.points[seated.player] += points
        return
    if seated is None:
        result.events.append(PolicemanUnpaid(policeman.player))
        return
    half = points // 2
    result.events.append(Bribe(policeman.player, seated.player, seated.card, half))
    result.points[seated.player] += half
    result.points[policeman.player] += half
    if half > 0:
        result.wanted.append(policeman.player)


def _judge_shimoza(cards: list[PlayedCard], result: RoundJudgement) -> None:
    """K-7: two seats; the higher numbers keep them."""
    ranked = sorted(cards, key=lambda p: -VALUE[p.card])
    keepers = ranked[: SEATS["shimoza"]]
    for p in ranked[SEATS["shimoza"] :]:
        last = keepers[-1]
        result.events.append(SeatLost(p.player, p.card, "shimoza", last.player, last.card))
    for p in keepers:
        result.events.append(Seated(p.player, p.card, "shimoza", VALUE[p.card]))
        result.points[p.player] += VALUE[p.card]
