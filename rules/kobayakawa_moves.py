"""Kobayakawa: the actions, the events they cause and the showdown judge (RULES.md B-3..B-5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.base import Because, Event, MalformedAction, require_fields

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
# The actions by their log fields: "action" (and "keep" for a draw).
DRAWS: dict[str, Draw] = {"drawn": KEEP_DRAWN, "held": KEEP_HELD}
SIMPLE: dict[str, ReplaceKobayakawa | Fight | Pass] = {
    "kobayakawa": REPLACE,
    "fight": FIGHT_ACTION,
    "pass": PASS_ACTION,
}
DRAW_ACTIONS = (KEEP_DRAWN, KEEP_HELD, REPLACE)
KEEP_ACTIONS = (KEEP_DRAWN, KEEP_HELD)  # B-3: all that is left once the drawn card was seen
FIGHT_ACTIONS = (FIGHT_ACTION, PASS_ACTION)
# The legal actions by the 2 random bits `random.Random.choice` draws to pick one of two or
# three (None: draw again), for `Kobayakawa.random_action`.
DRAW_PICKS = (KEEP_DRAWN, KEEP_HELD, REPLACE, None)
KEEP_PICKS = (KEEP_DRAWN, KEEP_HELD, None, None)
FIGHT_PICKS = (FIGHT_ACTION, PASS_ACTION, None, None)
KobayakawaAction = Draw | ReplaceKobayakawa | Fight | Pass
Action = KobayakawaAction  # the older name
# Equal actions built elsewhere map to the shared instances the fast paths compare by identity.
CANONICAL: dict[KobayakawaAction, KobayakawaAction] = {a: a for a in DRAW_ACTIONS + FIGHT_ACTIONS}


def parse_action(data: Mapping[str, Any]) -> KobayakawaAction:
    """The action for a log entry's fields (LOG_FORMAT.md); raises MalformedAction."""
    # The shapes a well-formed log holds, answered without the general checks below.
    if type(data) is dict:
        if len(data) == 1:
            kind = data.get("action")
            if type(kind) is str and kind in SIMPLE:
                return SIMPLE[kind]
        elif len(data) == 2 and data.get("action") == "draw":
            keep = data.get("keep")
            if type(keep) is str and keep in DRAWS:
                return DRAWS[keep]
    require_fields(data, ("action",), ("keep",))
    kind = data["action"]
    if kind == "draw":
        if "keep" not in data:
            raise MalformedAction("missing field 'keep'")
        keep = data["keep"]
        if not isinstance(keep, str) or keep not in DRAWS:
            raise MalformedAction(f"keep must be 'drawn' or 'held', not {keep!r}")
        return DRAWS[keep]
    if not isinstance(kind, str) or kind not in SIMPLE:
        raise MalformedAction(f"unknown action {kind!r}")
    if "keep" in data:
        raise MalformedAction("unknown field 'keep'")
    return SIMPLE[kind]


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

    def because(self) -> Because:
        return Because("B-5", self.why)


# A showdown ends nearly every round: built through its slots, as a frozen dataclass's own
# `__init__` sets each field through `object.__setattr__` at twice the cost. Same value.
SHOWDOWN_SETTERS = tuple(getattr(Showdown, field.name).__set__ for field in fields(Showdown))


@dataclass(frozen=True, slots=True)
class RoundWon(Event):
    """B-6: the winner takes the pot and kamon(s) from the centre, and starts the next round."""

    kind: ClassVar[str] = "round_won"
    rule: ClassVar[str] = "B-6"
    round: int
    winner: str
    pot: int
    from_centre: int
    kamons: int


@dataclass(frozen=True, slots=True)
class NobodyFought(Event):
    """B-6: nobody fought; the round's centre kamon(s) went to the box, the start player stays."""

    kind: ClassVar[str] = "nobody_fought"
    rule: ClassVar[str] = "B-6"
    round: int
    to_box: int
    start_player: str


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """B-7: `player` has no kamons left and is out."""

    kind: ClassVar[str] = "player_out"
    rule: ClassVar[str] = "B-7"
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

    def because(self) -> Because:
        # B-7: fewer than two players still in; B-8: after round 7, the most kamons win.
        return Because("B-7" if self.reason == "too_few_players" else "B-8", self.reason)


# Made once a game: through its slots too (see `SHOWDOWN_SETTERS`).
_ENDED_SLOTS = tuple(getattr(GameEnded, field.name).__set__ for field in fields(GameEnded))


def game_ended(
    rounds_played: int, reason: str, kamons: dict[str, int], winners: tuple[str, ...]
) -> GameEnded:
    """`GameEnded(rounds_played, reason, kamons, winners)`."""
    event: GameEnded = object.__new__(GameEnded)
    set_rounds, set_reason, set_kamons, set_winners = _ENDED_SLOTS
    set_rounds(event, rounds_played)
    set_reason(event, reason)
    set_kamons(event, kamons)
    set_winners(event, winners)
    return event


@dataclass(frozen=True, slots=True)
class ChoiceMade(Event):
    """H-2: a player chose to fight or pass, revealed with everyone's once all have chosen; the
    table learns only *that* they chose (the choice itself is in the log)."""

    kind: ClassVar[str] = "choice_made"
    rule: ClassVar[str] = "H-2"
    player: str


KobayakawaEvent = (
    ChoiceMade
    | RoundStarted
    | Drew
    | KobayakawaReplaced
    | FightPhaseStarted
    | Fought
    | Passed
    | Showdown
    | RoundWon
    | NobodyFought
    | PlayerOut
    | GameEnded
)
# What a player did in a round, as the table saw it (B-3, B-4): the round's "choices".
Choice = Drew | KobayakawaReplaced | Fought | Passed


@dataclass(frozen=True, slots=True)
class Judgement:
    """The outcome of a fight with at least one fighter (B-5)."""

    winner: str
    why: str
    lowest: str | None
    totals: dict[str, int]


def judge(
    fighters: Sequence[str], cards: Mapping[str, int], kobayakawa: int
) -> tuple[str, str, str | None, dict[str, int]]:
    """B-5 for `fighters` (non-empty, clockwise from the start player, who comes first):
    (winner, why, the fighter who adds the Kobayakawa or None, totals) -- `judge_fight` as a
    plain tuple, for the round's end and for computer players estimating many fights."""
    if len(fighters) == 1:
        return fighters[0], LONE_FIGHTER, None, {}
    totals = list(map(cards.__getitem__, fighters))
    lowest = totals.index(min(totals))  # cards are all different: one lowest
    totals[lowest] += kobayakawa
    best = max(totals)
    # The first of the tied in clockwise order from the start player wins.
    winner = fighters[totals.index(best)]
    why = TIE_CLOSEST_TO_START if totals.count(best) > 1 else HIGHEST
    return winner, why, fighters[lowest], dict(zip(fighters, totals, strict=True))


def judge_fight(fighters: Sequence[str], cards: Mapping[str, int], kobayakawa: int) -> Judgement:
    """B-5 for `fighters` (non-empty, clockwise from the start player, who comes first)."""
    winner, why, lowest, totals = judge(fighters, cards, kobayakawa)
    return Judgement(winner, why, lowest, totals)
