"""How a KAMIZA match stands: ranking, winners, the tie-break (K-10, K-13), replay details."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

# K-13: the "chicken" order of unplayed cards, lowest first wins.
CHICKEN_VALUE = {"raid": 0, "policeman": 0, "hitman": 1, "underboss": 2, "boss": 5}
_GAMES_PER_MATCH = 3


class KamizaResults:
    """The results part of `Kamiza`, reading the state's public fields only."""

    players: tuple[str, ...]
    edition: str
    totals: dict[str, int]
    wanted: dict[str, int]
    dropped: list[str]
    unplayed: dict[str, str]
    game_index: int
    start_player: str
    finished: bool

    def position(self) -> tuple[int, int]:
        raise NotImplementedError

    def active_players(self) -> list[str]:
        """Players still in (K-10), in seating order."""
        return [p for p in self.players if p not in self.dropped]

    def ranking(self) -> list[list[str]]:
        """K-10, K-13: players still in by total, then by unplayed card; then the dropped-out."""
        totals = self.totals
        unplayed = self.unplayed if self.game_index == _GAMES_PER_MATCH else {}

        def still_in_key(p: str) -> tuple[int, int]:
            return (-totals[p], CHICKEN_VALUE[unplayed[p]] if p in unplayed else 0)

        dropped = [p for p in self.players if p in self.dropped]
        return _grouped(self.active_players(), still_in_key) + _grouped(
            dropped, lambda p: (-totals[p], 0)
        )

    def winners(self) -> list[str]:
        if not self.finished:
            return []
        return list(self.ranking()[0])

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
        return self._tie_break(self.ranking()) if self.finished else None

    def _tie_break(self, ranking: list[list[str]]) -> str | None:
        active = self.active_players()
        if not active:
            return None
        best = max(self.totals[p] for p in active)
        tied = sum(1 for p in active if self.totals[p] == best)
        if tied < 2:
            return None
        return "shared" if len(ranking[0]) == tied else "chicken"

    def tie_break_used(self) -> str | None:
        """`tie_break`: "chicken", "shared" or None (no tie, or not over)."""
        return self.tie_break


def _grouped(players: list[str], key: Callable[[str], tuple[int, int]]) -> list[list[str]]:
    """Players sorted by `key` (a stable sort: seating order among equals), equal keys grouped."""
    keyed = sorted(((key(p), p) for p in players), key=itemgetter(0))
    groups: list[list[str]] = []
    last: tuple[int, int] | None = None
    for k, p in keyed:
        if k == last:
            groups[-1].append(p)
        else:
            groups.append([p])
            last = k
    return groups
