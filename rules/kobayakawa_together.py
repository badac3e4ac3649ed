"""Kobayakawa with the house rule `simultaneous` (RULES.md H-2, H-3): the fight phase at once.

The draw phase stays clockwise (each draw changes the pile). In the fight phase every player still
in fights or passes in any order; a choice is kept aside, seen by nobody but its maker, until the
last one is made; then the bets are made in the round's clockwise order from the start player, so
the showdown and B-5's tie-break (by seat) are exactly the usual ones, whoever chose first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.base import IllegalAction, InvalidSetup, Next
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    FIGHT_ACTIONS,
    PASS_ACTION,
    ChoiceMade,
    Fight,
    KobayakawaAction,
    KobayakawaEvent,
    Pass,
)
from rules.kobayakawa_tables import COPIED_RANDOM, FIGHT

if TYPE_CHECKING:
    from rules.kobayakawa_state import KobayakawaState

FightTurn = Callable[[str, KobayakawaAction], list[KobayakawaEvent]]


def options(given: dict[str, Any]) -> dict[str, Any]:
    """The game's options normalised: `simultaneous` (absent when off, as in every older log)."""
    unknown = sorted(set(given) - {"simultaneous"})
    if unknown:
        raise InvalidSetup(f"unknown option {unknown[0]!r}")
    simultaneous = given.get("simultaneous", False)
    if not isinstance(simultaneous, bool):
        raise InvalidSetup("simultaneous must be true or false")
    return {"simultaneous": True} if simultaneous else {}


def together(game: KobayakawaState) -> bool:
    """Whether the fight phase is being chosen at the same time now (H-2)."""
    return game.simultaneous and game.phase is FIGHT


def choosing(game: KobayakawaState) -> tuple[str, ...]:
    """Who still has to choose, clockwise from the start player."""
    chosen = game._chosen
    return tuple(mover for mover, _, _ in game._turns[game.turn :] if mover not in chosen)


def has_chosen(game: KobayakawaState) -> tuple[str, ...]:
    """Who has chosen, in seating order (never the order they chose in)."""
    return tuple(p for p in game.players if p in game._chosen)


def next_of(game: KobayakawaState) -> Next:
    waiting = choosing(game)
    return Next(waiting[0], FIGHT, waiting)


def legal(game: KobayakawaState, player: str) -> list[KobayakawaAction]:
    return list(FIGHT_ACTIONS) if player in choosing(game) else []


def random_choice(game: KobayakawaState, player: str, rng: random.Random) -> KobayakawaAction:
    """A pending player's random choice, drawn from their own turn's draw table: a random
    simultaneous phase draws what the same phase in turn would, in the same order."""
    if type(rng) is COPIED_RANDOM:
        for mover, _, (_, picks, width) in game._turns[game.turn :]:
            if mover == player and mover not in game._chosen:
                action = picks[rng.getrandbits(width)]
                while action is None:
                    action = picks[rng.getrandbits(width)]
                return action
    return rng.choice(legal(game, player))


def refusal(game: KobayakawaState, player: str, action: Any) -> IllegalAction | None:
    if player not in game.kamons:
        return IllegalAction("B-1", f"{player!r} is not seated at this table")
    if player in game.out:
        return IllegalAction("B-7", f"{player} is out with no kamons left")
    if not isinstance(action, Fight | Pass):
        return IllegalAction("B-4", "in the fight phase, fight or pass")
    if player in game._chosen:
        return IllegalAction("H-3", f"{player} has chosen already: a choice is not taken back")
    return None


def choose(
    game: KobayakawaState, player: str, action: Any, fight_turn: FightTurn
) -> list[KobayakawaEvent]:
    """H-2: keep the choice aside; the last one makes every bet, clockwise (H-3: for good)."""
    refused = refusal(game, player, action)
    if refused is not None:
        raise refused
    shared = FIGHT_ACTION if isinstance(action, Fight) else PASS_ACTION
    game._chosen = {**game._chosen, player: shared}
    events: list[KobayakawaEvent] = [ChoiceMade(player)]
    if choosing(game):
        return events
    chosen, game._chosen = game._chosen, {}
    while game.phase is FIGHT and game._mover in chosen:
        mover = game._mover
        assert isinstance(mover, str)
        events += fight_turn(mover, chosen[mover])
    return events


def choice_of(game: KobayakawaState, player: str | None) -> str | None:
    """`player`'s own choice kept aside ("fight" or "pass"), or None."""
    action = game._chosen.get(player) if player is not None else None
    if action is None:
        return None
    return "fight" if action is FIGHT_ACTION else "pass"


def determinized_choices(
    game: KobayakawaState, player: str, rng: random.Random
) -> dict[str, KobayakawaAction]:
    """The choices kept aside as `player` may know them: their own; the others' drawn."""
    return {
        p: game._chosen[p] if p == player else rng.choice(FIGHT_ACTIONS)
        for p in game.players
        if p in game._chosen
    }
