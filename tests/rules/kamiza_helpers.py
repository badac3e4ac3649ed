"""Small builders for KAMIZA tests."""

from __future__ import annotations

from rules.base import Event
from rules.kamiza import Kamiza, Play

FOUR = ["red", "blue", "green", "purple"]
THREE = ["ann", "ben", "cho"]
# Every kind of match: (seats, edition, advanced rule).
SETUPS = [
    (n, edition, advanced)
    for n in (3, 4)
    for edition in ("second", "classic")
    for advanced in (False, True)
]


def new_match(
    players: list[str] | None = None,
    edition: str = "second",
    advanced: bool = False,
    start: str | None = None,
) -> Kamiza:
    players = players or FOUR
    return Kamiza.create(
        players, {"edition": edition, "advanced": advanced}, {"start_player": start or players[0]}
    )


def play_round(game: Kamiza, plays: dict[str, str]) -> list[Event]:
    """Play one round; `plays` maps player -> "card@area" (e.g. "boss@kamiza"), in turn order."""
    events: list[Event] = []
    for _ in range(len(plays)):
        nxt = game.next()
        assert nxt is not None, "the match ended before the round was complete"
        card, area = plays[nxt.player].split("@")
        events.extend(game.apply(nxt.player, Play(card, area)))
    return events


def round_points(events: list[Event]) -> dict[str, int]:
    """The points of the last scored round among `events`."""
    scored = [e for e in events if e.kind == "round_scored"]
    assert scored, "no round was scored"
    return scored[-1].points


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
