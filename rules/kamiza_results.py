"""How a KAMIZA match stands: ranking, winners, the tie-break (K-10, K-13), replay details."""

from __future__ import annotations

# K-13: the "chicken" order of unplayed cards, lowest first wins.
CHICKEN_VALUE = {"raid": 0, "policeman": 0, "hitman": 1, "underboss": 2, "boss": 5}
_GAMES_PER_MATCH = 3


class KamizaResults:
    """The results part of `Kamiza`, reading the state's public fields only."""

    players: tuple[str, ...]
    totals: dict[str, int]
    wanted: dict[str, int]
    dropped: list[str]
    unplayed: dict[str, str]
    game_index: int
    start_player: str
    finished: bool

    def active_players(self) -> list[str]:
        """Players still in (K-10), in seating order."""
        return [p for p in self.players if p not in self.dropped]

    def ranking(self) -> list[list[str]]:
        """K-10, K-13: players still in by total, then by unplayed card; then the dropped-out.
        Equal players keep their seating order within their group."""
        totals, dropped = self.totals, self.dropped
        unplayed = self.unplayed if self.game_index == _GAMES_PER_MATCH else {}
        rows = []  # (total key, chicken key, seat, player), sorted: ties keep the seating order
        out = []
        for seat, p in enumerate(self.players):
            if p in dropped:
                out.append((-totals[p], 0, seat, p))
            else:
                rows.append(
                    (-totals[p], CHICKEN_VALUE[unplayed[p]] if p in unplayed else 0, seat, p)
                )
        rows.sort()
        if out:
            out.sort()
            return _grouped(rows) + _grouped(out)
        return _grouped(rows)

    def winners(self) -> list[str]:
        if not self.finished:
            return []
        return list(self.ranking()[0])

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    @property
    def tie_break(self) -> str | None:
        """K-13: "chicken" when the unplayed card decided, "shared" when it could not."""
        return self._tie_break(self.ranking()) if self.finished else None

    def _tie_break(self, ranking: list[list[str]]) -> str | None:
        totals, dropped = self.totals, self.dropped
        best, tied = -1, 0  # totals are never negative
        for p in self.players:
            if p in dropped:
                continue
            total = totals[p]
            if total > best:
                best, tied = total, 1
            elif total == best:
                tied += 1
        if tied < 2:  # also when nobody is left in
            return None
        return "shared" if len(ranking[0]) == tied else "chicken"

    def tie_break_used(self) -> str | None:
        """`tie_break`: "chicken", "shared" or None (no tie, or not over)."""
        return self.tie_break


def _grouped(ranked: list[tuple[int, int, int, str]]) -> list[list[str]]:
    """The players of (total key, chicken key, seat, player) sorted rows, equal keys grouped."""
    groups: list[list[str]] = []
    last_total = last_chicken = None
    for total, chicken, _, p in ranked:
        if total == last_total and chicken == last_chicken:
            groups[-1].append(p)
        else:
            groups.append([p])
            last_total, last_chicken = total, chicken
    return groups
