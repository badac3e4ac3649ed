"""An independent reference judge for Kobayakawa logs, written from RULES.md and LOG_FORMAT.md only.

`replay(log)` returns the replay answer of LOG_FORMAT.md (`over`, `scores`, `winners`, `next`,
plus `out`, `centre`, `pot`, `box`) or raises `RefError` whose `index` is the failing action's
index (None for a bad header). It shares no code with `rules/`.
"""

from __future__ import annotations

from typing import Any

ROUNDS = 7  # B-2
SHAPES = {
    "draw": ({"player", "action", "keep"}, "draw"),
    "kobayakawa": ({"player", "action"}, "draw"),
    "fight": ({"player", "action"}, "fight"),
    "pass": ({"player", "action"}, "fight"),
}


class RefError(Exception):
    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(f"{'log' if index is None else f'action {index}'}: {reason}")
        self.reason = reason
        self.index = index


def _header(log: Any) -> tuple[list[str], str, list[list[int]]]:
    if not isinstance(log, dict):
        raise RefError("log is not an object")
    if log.get("format", 1) != 1 or log.get("game") != "kobayakawa":
        raise RefError("not a version-1 kobayakawa log")
    players = log.get("players")
    if (
        not isinstance(players, list)
        or not 3 <= len(players) <= 6  # B-1
        or not all(isinstance(p, str) for p in players)
        or len(set(players)) != len(players)
    ):
        raise RefError("players: 3 to 6 distinct names")
    options = log.get("options")
    if options not in (None, {}):
        raise RefError("kobayakawa takes no options")
    setup = log.get("setup")
    if not isinstance(setup, dict) or setup.get("start_player") not in players:
        raise RefError("setup.start_player must be a player")
    decks = setup.get("decks")
    if not isinstance(decks, list) or not 1 <= len(decks) <= ROUNDS:
        raise RefError("setup.decks: 1 to 7 lists")
    for deck in decks:
        if not isinstance(deck, list) or sorted(deck) != list(range(1, 16)):
            raise RefError("each deck is a permutation of 1..15")
        if any(isinstance(card, bool) or not isinstance(card, int) for card in deck):
            raise RefError("each deck is a permutation of 1..15")
    if not isinstance(log.get("actions", []), list):
        raise RefError("actions must be a list")
    return players, setup["start_player"], decks


class Game:
    def __init__(self, players: list[str], start: str, decks: list[list[int]]) -> None:
        self.players = players
        self.decks = decks
        self.kamons = dict.fromkeys(players, 4)  # B-1
        self.centre = 8
        self.box = 32 - 4 * len(players) - 8  # the sheet's 32 kamons; the rest stay boxed
        self.out: list[str] = []
        self.start = start
        self.round = 0
        self.over = False
        self.start_round()

    def clockwise_from(self, player: str) -> list[str]:
        i = self.players.index(player)
        ring = self.players[i:] + self.players[:i]
        return [p for p in ring if p not in self.out]

    def start_round(self) -> None:
        self.round += 1
        if self.round > len(self.decks):
            raise ValueError(f"no deck for round {self.round}")
        self.order = self.clockwise_from(self.start)
        deck = list(self.decks[self.round - 1])
        self.hand = {p: deck[i] for i, p in enumerate(self.order)}  # B-2
        self.kobayakawa = deck[len(self.order)]
        self.pile = deck[len(self.order) + 1 :]
        self.phase = "draw"
        self.turn = 0
        self.bets: dict[str, int] = {}

    def to_act(self) -> str | None:
        return None if self.over else self.order[self.turn]

    def apply(self, entry: Any) -> None:
        if not isinstance(entry, dict) or "player" not in entry:
            raise ValueError("action must be an object with a player")
        kind = entry.get("action")
        if not isinstance(kind, str) or kind not in SHAPES:
            raise ValueError(f"unknown action {kind!r}")
        fields, phase = SHAPES[kind]
        if set(entry) != fields:
            raise ValueError("malformed action")
        if kind == "draw" and entry["keep"] not in ("drawn", "held"):
            raise ValueError("keep: drawn or held")
        if self.over:
            raise ValueError("game is over")
        player = entry["player"]
        if player != self.to_act():
            raise ValueError("not this player's turn")
        if phase != self.phase:
            raise ValueError(f"this is the {self.phase} phase")
        if kind == "draw":  # B-3
            drawn = self.pile.pop(0)
            if entry["keep"] == "drawn":
                self.hand[player] = drawn
        elif kind == "kobayakawa":
            self.kobayakawa = self.pile.pop(0)
        elif kind == "fight":  # B-4
            bet = min(2, self.kamons[player]) if self.round == ROUNDS else 1
            self.kamons[player] -= bet
            self.bets[player] = bet
        self.turn += 1
        if self.turn == len(self.order):
            if self.phase == "draw":
                self.phase, self.turn = "fight", 0
            else:
                self.settle()

    def settle(self) -> None:
        stake = 2 if self.round == ROUNDS else 1
        fighters = [p for p in self.order if p in self.bets]
        self.centre -= stake
        if not fighters:  # B-6
            self.box += stake
        else:
            low = min(fighters, key=lambda p: self.hand[p])
            total = {p: self.hand[p] + (self.kobayakawa if p == low else 0) for p in fighters}
            best = max(total.values())
            winner = next(p for p in fighters if total[p] == best)  # B-5, order from start
            self.kamons[winner] += sum(self.bets.values()) + stake
            self.start = winner
        self.bets = {}
        for p in self.order:  # B-7
            if self.kamons[p] == 0:
                self.out.append(p)
        if self.round == ROUNDS or len(self.players) - len(self.out) < 2:
            self.over = True
        else:
            self.start_round()

    def pot(self) -> int:
        return sum(self.bets.values())

    def answer(self) -> dict[str, Any]:
        nxt = self.to_act()
        winners: list[str] = []
        if self.over:
            best = max(self.kamons.values())
            winners = [p for p in self.players if self.kamons[p] == best]  # B-8
        return {
            "game": "kobayakawa",
            "over": self.over,
            "scores": dict(self.kamons),
            "winners": winners,
            "next": None if nxt is None else {"player": nxt, "expects": self.phase},
            "out": list(self.out),
            "centre": self.centre,
            "pot": self.pot(),
            "box": self.box,
        }


def replay(log: Any) -> dict[str, Any]:
    players, start, decks = _header(log)
    try:
        game = Game(players, start, decks)
    except ValueError as exc:
        raise RefError(str(exc)) from None
    for index, entry in enumerate(log.get("actions", [])):
        try:
            game.apply(entry)
        except ValueError as exc:
            raise RefError(str(exc), index) from None
    return game.answer()
