"""Ratings: openskill's Plackett-Luce model, free-for-all with ties, one rating per member,
guild, season and game.

The leaderboard shows the ordinal (mu - 3 sigma), a cautious estimate that rises as a player wins
and as the model becomes certain of them, on a scale people know from chess: a newcomer has 1500,
and a unit of the ordinal is 20 points, in whole numbers. The ordinal cannot fall below
-3 sigma (25 at first), so no rating is ever below 1000: never negative, even after a first loss.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    def __iter__(self) -> Iterator[float]:
        return iter((self.mu, self.sigma))

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> float:
        return display(self.mu, self.sigma)


DISPLAY_BASE = 1500  # a newcomer's rating (their ordinal is 0)
DISPLAY_SCALE = 20  # points per unit of the ordinal


def display(mu: float, sigma: float) -> float:
    """The leaderboard rating: 1500 + 20 x the ordinal, rounded half up to a whole number (as
    SQL's ROUND does, so migration 4 and this agree)."""
    return float(math.floor(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma) + 0.5))


def competition_ranks(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """1-based ranks from best-to-worst groups of tied players: [[a], [b, c], [d]] -> 1, 2, 2, 4."""
    ranks: dict[str, int] = {}
    ahead = 0
    for group in ranking:
        for player in group:
            ranks[player] = ahead + 1
        ahead += len(group)
    return ranks


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings after one free-for-all game; lower rank is better, equal ranks are ties."""
    if len(before) != len(ranks):
        raise ValueError("one rank per rating")
    if len(before) < 2:
        return list(before)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in after]
