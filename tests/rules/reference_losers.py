"""An independent reference judge for Rights of Losers logs, from RULES.md and LOG_FORMAT.md only.

`replay(log)` returns the replay answer of LOG_FORMAT.md (`over`, `scores`, `winners`, `next`,
plus `chips_left` and `land`) or raises `RefError` whose `index` is the failing action's index
(None for a bad header). It shares no code with `rules/`.
"""

from __future__ import annotations

from typing import Any

SUITS = ("red", "yellow", "green", "blue", "purple")
CARDS = {f"{s}-{n}" for s in SUITS for n in range(1, 11)}
LAND = {(0, 0), (0, 4), (4, 0), (4, 4), (2, 2)}
CELLS = [(r, c) for r in range(5) for c in range(5)]
SPOTS = [(y, x) for y in range(9) for x in range(9)]
TRICKS = 10
SHAPES = {
    "play": ({"player", "action", "card"}, "play"),
    "chip": ({"player", "action", "at"}, "chip"),
    "build": ({"player", "action", "cards", "at"}, "build"),
    "appoint": ({"player", "action", "lead"}, "choice"),
    "reverse": ({"player", "action"}, "choice"),
    "move": ({"player", "action", "from", "to"}, "choice"),
    "pass": ({"player", "action"}, "choice"),
}


class RefError(Exception):
    def __init__(self, reason: str, index: int | None = None) -> None:
        super().__init__(f"{'log' if index is None else f'action {index}'}: {reason}")
        self.reason = reason
        self.index = index


def suit(card: str) -> str:
    return card.rsplit("-", 1)[0]


def number(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def cells_touched(spot: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells a lattice spot touches: 1 (on the card), 2 (an edge) or 4 (a corner)."""
    y, x = spot
    rows = [y // 2] if y % 2 == 0 else [y // 2, y // 2 + 1]
    cols = [x // 2] if x % 2 == 0 else [x // 2, x // 2 + 1]
    return [(r, c) for r in rows for c in cols]


def _pair(value: Any, top: int) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not all(0 <= v <= top for v in value)
    ):
        raise ValueError(f"not a position: {value!r}")
    return value[0], value[1]


def _header(log: Any) -> tuple[list[str], str, dict[str, list[str]]]:
    if not isinstance(log, dict):
        raise RefError("log is not an object")
    if log.get("format", 1) != 1 or log.get("game") != "rights-of-losers":
        raise RefError("not a version-1 rights-of-losers log")
    players = log.get("players")
    if (
        not isinstance(players, list)
        or not 3 <= len(players) <= 5
        or not all(isinstance(p, str) for p in players)
        or len(set(players)) != len(players)
    ):
        raise RefError("players: 3 to 5 distinct names")
    if log.get("options") not in (None, {}):
        raise RefError("rights-of-losers takes no options")
    setup = log.get("setup")
    if not isinstance(setup, dict) or setup.get("lead_player") not in players:
        raise RefError("setup.lead_player must be a player")
    hands = setup.get("hands")
    if not isinstance(hands, dict) or set(hands) != set(players):
        raise RefError("setup.hands: one hand per player")
    dealt: list[str] = []
    for hand in hands.values():
        if not isinstance(hand, list) or len(hand) != TRICKS:
            raise RefError("each hand holds 10 cards")
        dealt += hand
    if not all(isinstance(c, str) and c in CARDS for c in dealt) or len(set(dealt)) != len(dealt):
        raise RefError("hands: distinct building cards")
    if not isinstance(log.get("actions", []), list):
        raise RefError("actions must be a list")
    return players, setup["lead_player"], hands


class Game:
    def __init__(self, players: list[str], lead: str, hands: dict[str, list[str]]) -> None:
        self.players = players
        self.hands = {p: set(hands[p]) for p in players}
        self.chips_left = dict.fromkeys(players, 10)
        self.board: dict[tuple[int, int], str] = dict.fromkeys(LAND, "land")
        self.chips: dict[tuple[int, int], str] = {}
        self.lead = lead
        self.reversed = False
        self.trick = 1
        self.phase = "play"
        self.played: list[tuple[str, str]] = []
        self.winner = lead
        self.chip_queue: list[str] = []

    def clockwise_from(self, player: str) -> list[str]:
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]

    # -- chips --------------------------------------------------------------------------------
    def legal_spot(self, spot: tuple[int, int]) -> bool:
        return spot not in self.chips and any(cell in self.board for cell in cells_touched(spot))

    def any_legal_spot(self) -> bool:
        return any(self.legal_spot(s) for s in SPOTS)

    def skip_chippers(self) -> None:
        """R-5 (a): a player with no chip or no legal spot is skipped."""
        while self.chip_queue and (
            self.chips_left[self.chip_queue[0]] == 0 or not self.any_legal_spot()
        ):
            self.chip_queue.pop(0)
        if not self.chip_queue:
            self.phase = "build"

    # -- turn ---------------------------------------------------------------------------------
    def to_act(self) -> str | None:
        if self.phase == "over":
            return None
        if self.phase == "play":
            return self.clockwise_from(self.lead)[len(self.played)]
        if self.phase == "chip":
            return self.chip_queue[0]
        return self.winner

    def apply(self, entry: Any) -> None:
        if not isinstance(entry, dict) or "player" not in entry:
            raise ValueError("action must be an object with a player")
        kind = entry.get("action")
        if not isinstance(kind, str) or kind not in SHAPES:
            raise ValueError(f"unknown action {kind!r}")
        fields, phase = SHAPES[kind]
        if set(entry) != fields:
            raise ValueError("malformed action")
        if self.phase == "over":
            raise ValueError("game is over")
        player = entry["player"]
        if player != self.to_act():
            raise ValueError("not this player's turn")
        if phase != self.phase:
            raise ValueError(f"expected a {self.phase} action")
        getattr(self, f"do_{kind}")(player, entry)

    def do_play(self, player: str, entry: dict[str, Any]) -> None:
        card = entry["card"]
        if not isinstance(card, str) or card not in self.hands[player]:
            raise ValueError("card not in hand")
        if self.played:
            led = suit(self.played[0][1])
            if suit(card) != led and any(suit(c) == led for c in self.hands[player]):
                raise ValueError("must follow the led suit (R-4)")
        self.hands[player].discard(card)
        self.played.append((player, card))
        if len(self.played) < len(self.players):
            return
        led = suit(self.played[0][1])
        follow = [(p, number(c)) for p, c in self.played if suit(c) == led]
        pick = min if self.reversed else max
        self.winner = pick(follow, key=lambda pn: pn[1])[0]
        self.chip_queue = self.clockwise_from(self.winner)[1:]
        self.phase = "chip"
        self.skip_chippers()

    def do_chip(self, player: str, entry: dict[str, Any]) -> None:  # R-3, R-5 (a)
        spot = _pair(entry["at"], 8)
        if not self.legal_spot(spot):
            raise ValueError("spot taken or touching no card (R-3)")
        self.chips[spot] = player
        self.chips_left[player] -= 1
        self.chip_queue.pop(0)
        self.skip_chippers()

    def do_build(self, player: str, entry: dict[str, Any]) -> None:  # R-5 (b)
        cards, at = entry["cards"], entry["at"]
        if not isinstance(cards, list) or not isinstance(at, list) or len(cards) != 2:
            raise ValueError("build two cards")
        if len(at) != 2:
            raise ValueError("build two cards")
        trick = {c for _, c in self.played}
        if not all(isinstance(c, str) and c in trick for c in cards) or cards[0] == cards[1]:
            raise ValueError("two different cards of this trick")
        cells = [_pair(a, 4) for a in at]
        if cells[0] == cells[1] or any(cell in self.board for cell in cells):
            raise ValueError("two different empty building cells")
        for card, cell in zip(cards, cells, strict=True):
            self.board[cell] = card
        self.phase = "choice"

    def do_appoint(self, player: str, entry: dict[str, Any]) -> None:  # R-5 (c)
        lead = entry["lead"]
        if not isinstance(lead, str) or lead not in self.players:
            raise ValueError("appoint a player")
        self.end_trick(lead)

    def do_reverse(self, player: str, entry: dict[str, Any]) -> None:
        self.reversed = not self.reversed
        self.end_trick(player)

    def do_move(self, player: str, entry: dict[str, Any]) -> None:
        src, dst = _pair(entry["from"], 8), _pair(entry["to"], 8)
        if self.chips.get(src) != player:
            raise ValueError("not your chip")
        if dst == src or not self.legal_spot(dst):
            raise ValueError("move to another free spot touching a card")
        del self.chips[src]
        self.chips[dst] = player
        self.end_trick(player)

    def do_pass(self, player: str, entry: dict[str, Any]) -> None:
        self.end_trick(player)

    def end_trick(self, lead: str) -> None:
        self.played = []
        if self.trick == TRICKS:
            self.phase = "over"
            return
        self.trick += 1
        self.lead = lead
        self.phase = "play"

    # -- scoring ------------------------------------------------------------------------------
    def owner(self, cell: tuple[int, int]) -> str | None:
        count: dict[str, list[int]] = {}
        for spot, p in self.chips.items():
            if cell in cells_touched(spot):
                kind = len(cells_touched(spot))  # 1 on, 2 edge, 4 corner
                tally = count.setdefault(p, [0, 0, 0])
                tally[0] += 1
                tally[1] += kind == 1
                tally[2] += kind == 2
        if not count:
            return None
        for level in range(3):
            best = max(count[p][level] for p in count)
            count = {p: t for p, t in count.items() if t[level] == best}
        return next(iter(count)) if len(count) == 1 else None

    def results(self) -> tuple[dict[str, int], dict[str, int]]:
        points = dict.fromkeys(self.players, 0)
        land = dict.fromkeys(self.players, 0)
        for cell in CELLS:
            p = self.owner(cell)
            if p is None:
                continue
            if self.board[cell] == "land":
                land[p] += 1
            else:
                points[p] += number(self.board[cell])
        most = max(land.values())
        for p in self.players:
            if most >= 1 and land[p] == most:
                points[p] += 10
        return points, land

    def answer(self) -> dict[str, Any]:
        over = self.phase == "over"
        scores = dict.fromkeys(self.players, 0)
        winners: list[str] = []
        land = None
        if over:
            scores, land = self.results()
            best = max(scores.values())
            tied = [p for p in self.players if scores[p] == best]
            fewest = min(self.chips_left[p] for p in tied)
            winners = [p for p in tied if self.chips_left[p] == fewest]
        nxt = self.to_act()
        return {
            "game": "rights-of-losers",
            "over": over,
            "scores": scores,
            "winners": winners,
            "next": None if nxt is None else {"player": nxt, "expects": self.phase},
            "chips_left": dict(self.chips_left),
            "land": land,
            "reversed": self.reversed,
        }


def replay(log: Any) -> dict[str, Any]:
    players, lead, hands = _header(log)
    game = Game(players, lead, hands)
    for index, entry in enumerate(log.get("actions", [])):
        try:
            game.apply(entry)
        except ValueError as exc:
            raise RefError(str(exc), index) from None
    return game.answer()
