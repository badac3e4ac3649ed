"""Kobayakawa: the actions, the events they cause and the showdown judge (RULES.md B-3..B-5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.base import Event, MalformedAction, require_fields

# -- actions ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    """B-3: draw the top card, keep the `drawn` one or the `held` one, discard the other."""

    keep: str

    def to_json(self) -> dict[str, str]:
        return {"action": "draw", "keep": self.keep}


@dataclass(frozen=True, slots=True)
class ReplaceKobayakawa:
    """B-3: turn the top card of the pile, unseen, onto the Kobayakawa."""

    def to_json(self) -> dict[str, str]:
        return {"action": "kobayakawa"}


@dataclass(frozen=True, slots=True)
class Fight:
    """B-4: fight, betting 1 kamon (round 7: 2, or 1 if that is all the player has)."""

    def to_json(self) -> dict[str, str]:
        return {"action": "fight"}


@dataclass(frozen=True, slots=True)
class Pass:
    """B-4: pass, betting nothing."""

    def to_json(self) -> dict[str, str]:
        return {"action": "pass"}


KEEP_DRAWN = Draw("drawn")
KEEP_HELD = Draw("held")
REPLACE = ReplaceKobayakawa()
FIGHT_ACTION = Fight()
PASS_ACTION = Pass()
KEEPS = ("drawn", "held")
_DRAWS = {"drawn": KEEP_DRAWN, "held": KEEP_HELD}
_SIMPLE: dict[str, Action] = {"kobayakawa": REPLACE, "fight": FIGHT_ACTION, "pass": PASS_ACTION}
DRAW_ACTIONS = (KEEP_DRAWN, KEEP_HELD, REPLACE)
FIGHT_ACTIONS = (FIGHT_ACTION, PASS_ACTION)
Action = Draw | ReplaceKobayakawa | Fight | Pass


def parse_action(data: Mapping[str, Any]) -> Action:
    """The action for a log entry's fields (LOG_FORMAT.md); raises MalformedAction."""
    require_fields(data, ("action",), ("keep",))
    kind = data["action"]
    if kind == "draw":
        if "keep" not in data:
            raise MalformedAction("missing field 'keep'")
        keep = data["keep"]
        if not isinstance(keep, str) or keep not in _DRAWS:
            raise MalformedAction(f"keep must be 'drawn' or 'held', not {keep!r}")
        return _DRAWS[keep]
    if not isinstance(kind, str) or kind not in _SIMPLE:
        raise MalformedAction(f"unknown action {kind!r}")
    if "keep" in data:
        raise MalformedAction("unknown field 'keep'")
    return _SIMPLE[kind]


# -- events ----------------------------------------------------------------------------------------


# Why a showdown went to its winner (B-5).
HIGHEST = "highest"
TIE_CLOSEST_TO_START = "tie_closest_to_start"
LONE_FIGHTER = "lone_fighter"


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """B-2: a round was dealt; `order` is clockwise from `start_player`, players still in."""

    kind: ClassVar[str] = "round_started"
    round: int
    start_player: str
    order: tuple[str, ...]
    kobayakawa: int
    centre: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """B-3: `player` drew and kept one of two cards; only the discarded card is public."""

    kind: ClassVar[str] = "drew"
    player: str
    discarded: int


@dataclass(frozen=True, slots=True)
class KobayakawaReplaced(Event):
    """B-3: `player` turned the top of the pile onto the Kobayakawa, unseen beforehand."""

    kind: ClassVar[str] = "kobayakawa_replaced"
    player: str
    previous: int
    kobayakawa: int


@dataclass(frozen=True, slots=True)
class FightPhaseStarted(Event):
    """B-4: every player still in has drawn or replaced; bets follow in the same order."""

    kind: ClassVar[str] = "fight_phase_started"
    round: int
    kobayakawa: int


@dataclass(frozen=True, slots=True)
class Fought(Event):
    """B-4: `player` fights and puts `bet` kamons in the pot (now `pot`)."""

    kind: ClassVar[str] = "fought"
    player: str
    bet: int
    pot: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """B-4: `player` passes and bets nothing."""

    kind: ClassVar[str] = "passed"
    player: str


@dataclass(frozen=True, slots=True)
class Showdown(Event):
    """B-5: who fought and who won, and why.

    `cards` and `totals` hold the revealed fighters; both are empty for a lone fighter, who
    wins without revealing. `lowest` is the fighter who added the Kobayakawa (None if lone).
    """

    kind: ClassVar[str] = "showdown"
    round: int
    fighters: tuple[str, ...]
    cards: dict[str, int]
    kobayakawa: int
    lowest: str | None
    totals: dict[str, int]
    winner: str
    why: str


@dataclass(frozen=True, slots=True)
class RoundWon(Event):
    """B-6: the winner takes the pot and kamon(s) from the centre, and starts the next round."""

    kind: ClassVar[str] = "round_won"
    round: int
    winner: str
    pot: int
    from_centre: int
    kamons: int


@dataclass(frozen=True, slots=True)
class NobodyFought(Event):
    """B-6: nobody fought; the round's centre kamon(s) went to the box, the start player stays."""

    kind: ClassVar[str] = "nobody_fought"
    round: int
    to_box: int
    start_player: str


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """B-7: `player` has no kamons left and is out."""

    kind: ClassVar[str] = "player_out"
    player: str
    round: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """B-7, B-8: the game is over; `reason` is "seven_rounds" or "too_few_players"."""

    kind: ClassVar[str] = "game_ended"
    rounds_played: int
    reason: str
    kamons: dict[str, int]
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Judgement:
    """The outcome of a fight with at least one fighter (B-5)."""

    winner: str
    why: str
    lowest: str | None
    totals: dict[str, int]


def judge_fight(fighters: Sequence[str], cards: Mapping[str, int], kobayakawa: int) -> Judgement:
    """B-5 for `fighters` (non-empty, clockwise from the start player, who comes first)."""
    if len(fighters) == 1:
        return Judgement(fighters[0], LONE_FIGHTER, None, {})
    lowest = min(fighters, key=cards.__getitem__)
    totals = {p: cards[p] for p in fighters}
    totals[lowest] += kobayakawa
    best = max(totals.values())
    # The first of the tied in clockwise order from the start player wins.
    winner = next(p for p in fighters if totals[p] == best)
    tied = sum(1 for t in totals.values() if t == best) > 1
    return Judgement(winner, TIE_CLOSEST_TO_START if tied else HIGHEST, lowest, totals)
