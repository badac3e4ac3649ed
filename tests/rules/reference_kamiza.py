"""An independent reference judge for KAMIZA logs, written from RULES.md and LOG_FORMAT.md only.

`replay(log)` returns the replay answer of LOG_FORMAT.md (`over`, `scores`, `winners`, `next`,
plus `wanted` and `dropped`) or raises `RefError` whose `index` is the failing action's index
(None for a bad header). It shares no code with `rules/`.
"""

from __future__ import annotations

from typing import Any

VALUES = {
    "second": {"boss": 5, "underboss": 2, "hitman": 1, "policeman": 0},
    "classic": {"boss": 5, "underboss": 2, "hitman": 1, "raid": 0},
}
AREAS = ("kamiza", "shimoza")
SHIMOZA_OK = {"underboss", "hitman", "raid"}  # K-4: who can sit in shimoza
GAMES, ROUNDS = 3, 3  # K-2


class RefError(Exception):
    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(f"{'log' if index is None else f'action {index}'}: {reason}")
        self.reason = reason
        self.index = index


def _header(log: Any) -> tuple[list[str], str, str]:
    if not isinstance(log, dict):
        raise RefError("log is not an object")
    if log.get("format", 1) != 1 or log.get("game") != "kamiza":
        raise RefError("not a version-1 kamiza log")
    players = log.get("players")
    if (
        not isinstance(players, list)
        or not 3 <= len(players) <= 4  # K-1
        or not all(isinstance(p, str) for p in players)
        or len(set(players)) != len(players)
    ):
        raise RefError("players: 3 or 4 distinct names")
    options = log.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict) or set(options) - {"edition", "advanced"}:
        raise RefError("bad options")
    edition = options.get("edition", "second")
    if edition not in VALUES or not isinstance(options.get("advanced", False), bool):
        raise RefError("bad options")
    setup = log.get("setup")
    if not isinstance(setup, dict) or setup.get("start_player") not in players:
        raise RefError("setup.start_player must be a player")
    if not isinstance(log.get("actions", []), list):
        raise RefError("actions must be a list")
    return players, edition, setup["start_player"]


class Match:
    def __init__(self, players: list[str], edition: str, start: str) -> None:
        self.players = players
        self.edition = edition
        self.values = VALUES[edition]
        self.scores = dict.fromkeys(players, 0)
        self.wanted = dict.fromkeys(players, 0)
        self.dropped: list[str] = []
        self.hands = {p: set(self.values) for p in players}
        self.game = 1
        self.round = 1
        self.start = start
        self.over = False
        self.squealer: str | None = None
        self.plays: list[tuple[str, str, str]] = []  # (player, card, area)
        self.choose_start()

    # -- order ------------------------------------------------------------------------------
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.dropped]

    def clockwise_from(self, player: str) -> list[str]:
        """Players still in, clockwise, starting at `player` (or the next one still in)."""
        i = self.players.index(player)
        ring = self.players[i:] + self.players[:i]
        return [p for p in ring if p not in self.dropped]

    def choose_start(self) -> None:
        """K-12, with the K-5 squeal override."""
        if self.squealer is not None:
            self.start = self.squealer
            self.squealer = None
            return
        order = self.clockwise_from(self.start)
        best = max(self.scores[p] for p in order)
        self.start = next(p for p in order if self.scores[p] == best)

    def to_play(self) -> str | None:
        if self.over:
            return None
        order = self.clockwise_from(self.start)
        return order[len(self.plays)]

    # -- actions ----------------------------------------------------------------------------
    def apply(self, entry: Any) -> None:
        if not isinstance(entry, dict) or "player" not in entry:
            raise ValueError("action must be an object with a player")
        if set(entry) != {"player", "card", "area"}:
            raise ValueError("malformed action")
        player, card, area = entry["player"], entry["card"], entry["area"]
        if not isinstance(card, str) or card not in self.values:
            raise ValueError(f"unknown card {card!r}")
        if not isinstance(area, str) or area not in AREAS:
            raise ValueError(f"unknown area {area!r}")
        if self.over:
            raise ValueError("match is over")
        if player != self.to_play():
            raise ValueError("not this player's turn")
        if card not in self.hands[player]:
            raise ValueError("card not in hand (K-2)")
        self.hands[player].discard(card)
        self.plays.append((player, card, area))
        if len(self.plays) == len(self.active()):
            self.judge()

    # -- judging ----------------------------------------------------------------------------
    def judge(self) -> None:
        gains = dict.fromkeys(self.players, 0)
        raids = [p for p, c, _ in self.plays if c == "raid"]
        if self.edition == "classic" and len(raids) == 1:  # K-5
            self.squealer = raids[0]
        else:
            self.score_areas(gains)
        for p, g in gains.items():
            self.scores[p] += g
        self.plays = []
        if not self.over:
            self.advance()

    def score_areas(self, gains: dict[str, int]) -> None:
        for area in AREAS:
            here = [(p, c) for p, c, a in self.plays if a == area]
            kinds = [c for _, c in here]
            here = [(p, c) for p, c in here if kinds.count(c) == 1]  # K-6
            if area == "shimoza":
                here = [(p, c) for p, c in here if c in SHIMOZA_OK]  # K-4
                here.sort(key=lambda pc: -self.values[pc[1]])
                for p, c in here[:2]:  # K-7
                    gains[p] += self.values[c]
                continue
            cops = [p for p, c in here if c == "policeman"]
            rivals = [(p, c) for p, c in here if c != "policeman"]
            cards = {c: p for p, c in rivals}
            seat: tuple[str, int] | None = None
            if "boss" in cards and "hitman" in cards and "underboss" not in cards:
                seat = (cards["hitman"], 4)  # K-8
            elif rivals:
                p, c = max(rivals, key=lambda pc: self.values[pc[1]])
                seat = (p, self.values[c])
            if cops and seat is not None:  # K-9
                half = seat[1] // 2
                gains[seat[0]] += half
                gains[cops[0]] += half
                if half > 0:  # K-10
                    self.wanted[cops[0]] += 1
            elif seat is not None:
                gains[seat[0]] += seat[1]
        for p in self.active():
            if self.wanted[p] >= 3:
                self.dropped.append(p)
        if len(self.active()) < 2:
            self.over = True

    def advance(self) -> None:
        self.round += 1
        if self.round > ROUNDS:
            self.round = 1
            self.game += 1
            if self.game > GAMES:
                self.over = True
                return
            self.hands = {p: set(self.values) for p in self.players}
        self.choose_start()

    # -- answer -----------------------------------------------------------------------------
    def winners(self) -> list[str]:
        if not self.over:
            return []
        alive = self.active()
        if not alive:
            return []
        best = max(self.scores[p] for p in alive)
        tied = [p for p in alive if self.scores[p] == best]
        if len(tied) > 1 and self.game > GAMES:  # K-13 chicken tie-break
            left = {p: min(self.values[c] for c in self.hands[p]) for p in tied}
            low = min(left.values())
            tied = [p for p in tied if left[p] == low]
        return tied

    def answer(self) -> dict[str, Any]:
        nxt = self.to_play()
        return {
            "game": "kamiza",
            "over": self.over,
            "scores": dict(self.scores),
            "winners": self.winners(),
            "next": None if nxt is None else {"player": nxt, "expects": "play"},
            "wanted": dict(self.wanted),
            "dropped": list(self.dropped),
        }


def replay(log: Any) -> dict[str, Any]:
    players, edition, start = _header(log)
    match = Match(players, edition, start)
    for index, entry in enumerate(log.get("actions", [])):
        try:
            match.apply(entry)
        except ValueError as exc:
            raise RefError(str(exc), index) from None
    return match.answer()
