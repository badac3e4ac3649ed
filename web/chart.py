"""A member's rating over time as an inline SVG chart: one line per game, drawn server-side
(no script, a few hundred bytes), its numbers in the page's table for screen readers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT, PAD = 600, 200, 30
COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e")


@dataclass(frozen=True, slots=True)
class Line:
    game: str
    colour: str
    points: str  # the polyline's "x,y x,y ..."
    last: tuple[float, float]  # where the line ends, for its dot
    label: tuple[float, float]  # where its game's name goes: near the dot, inside the chart


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    low: float  # the lowest and highest ratings drawn, the axis' labels
    high: float


def rating_chart(history: list[dict[str, Any]]) -> Chart | None:
    """The chart of `history` (the model's rating points, oldest first); None without points.
    The x axis counts the member's rated games in order, over every game."""
    if not history:
        return None
    ratings = [float(p["rating"]) for p in history]
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat line sits in the middle of a 20-point band
        low, high = (low + high) / 2 - 10, (low + high) / 2 + 10
    steps = max(len(history) - 1, 1)

    def x(i: int) -> float:
        return round(PAD + (WIDTH - 2 * PAD) * i / steps, 1)

    def y(rating: float) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (rating - low) / (high - low), 1)

    by_game: dict[str, list[tuple[float, float]]] = {}
    for i, point in enumerate(history):
        by_game.setdefault(point["game"], []).append((x(i), y(float(point["rating"]))))
    lines = [
        Line(
            game,
            COLOURS[n % len(COLOURS)],
            " ".join(f"{px},{py}" for px, py in points),
            points[-1],
            (max(2.0, min(points[-1][0] - 40, WIDTH - 110.0)), max(12.0, points[-1][1] - 6)),
        )
        for n, (game, points) in enumerate(sorted(by_game.items()))
    ]
    return Chart(WIDTH, HEIGHT, lines, round(low), round(high))
