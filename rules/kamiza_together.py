"""KAMIZA with the house rule `simultaneous` (RULES.md H-1, H-3): a round's choices at once.

Every player still in chooses a card and an area in any order (under `advanced`, after the start
player's face-up play). A choice is kept aside, seen by nobody but its maker, until the last one
is made; then the choices are played in the round's clockwise order from the start player, so
judging (K-4..K-11, which reads positions in that order) is exactly the usual one and nothing
depends on the order in which the choices came in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.base import IllegalAction, Next
from rules.choice_draw import CHOICE_RANDOM
from rules.kamiza_events import ChoiceMade, KamizaEvent
from rules.kamiza_judge import PlayedCard
from rules.kamiza_moves import LEGAL, PLAYS, Holding, Play


class KamizaTogether:
    """The simultaneous steps of `Kamiza`, on the state's fields."""

    players: tuple[str, ...]
    edition: str
    cards: tuple[str, ...]
    advanced: bool
    simultaneous: bool
    finished: bool
    dropped: list[str]
    order: tuple[str, ...]
    plays: tuple[PlayedCard, ...]
    _holdings: dict[str, Holding]
    # Choices made this step, by player; replaced, never changed in place (clones share it).
    _chosen: Mapping[str, Play]

    def _carry_out(self, player: str, action: Play, events: list[KamizaEvent] | None) -> None:
        raise NotImplementedError

    def together(self) -> bool:
        """Whether a step of choices made at the same time is under way (H-1): every round of a
        simultaneous match, once the advanced start player has played face up."""
        return self.simultaneous and not self.finished and not (self.advanced and not self.plays)

    def choosing(self) -> tuple[str, ...]:
        """Who still has to choose in this step, clockwise from the start player."""
        chosen = self._chosen
        return tuple(p for p in self.order[len(self.plays) :] if p not in chosen)

    def has_chosen(self) -> tuple[str, ...]:
        """Who has chosen in this step, in seating order (never the order they chose in)."""
        return tuple(p for p in self.players if p in self._chosen)

    def choice_of(self, player: str | None) -> Play | None:
        return self._chosen.get(player) if player is not None else None

    def _together_next(self) -> Next:
        waiting = self.choosing()
        return Next(waiting[0], "play", waiting)

    def _together_legal(self, player: str) -> list[Play]:
        if player not in self.choosing():
            return []
        return list(LEGAL[self._holdings[player].hand])

    def _together_random(self, player: str, rng: random.Random) -> Play:
        """A pending player's random choice, drawn as a turn's play is drawn from their hand
        (`Holding.draw`): a random step plays the same game as a random round in turn."""
        if type(rng) is CHOICE_RANDOM:
            _, picks, bits = self._holdings[player].draw
            if picks:
                action = picks[rng.getrandbits(bits)]
                while action is None:
                    action = picks[rng.getrandbits(bits)]
                return action
        return rng.choice(self._together_legal(player))

    def _refuse(self, player: str, action: Any) -> None:
        raise NotImplementedError

    def _refuse_step(self, player: str) -> None:
        """A seated player still in, in a step: one choice each (H-3), from those who choose."""
        if player in self._chosen:
            raise IllegalAction("H-3", f"{player} has chosen already: a choice is not taken back")
        if player not in self.choosing():
            raise IllegalAction("H-1", f"{player} does not choose now: the start player played")

    def _choose(self, player: str, action: Any) -> list[KamizaEvent]:
        """H-1: keep the choice aside; the last one plays them all, clockwise (H-3: for good)."""
        self._refuse(player, action)
        self._chosen = {**self._chosen, player: PLAYS[action.card, action.area]}
        events: list[KamizaEvent] = [ChoiceMade(player)]
        if self.choosing():
            return events
        chosen, self._chosen = self._chosen, {}
        for seat in self.order[len(self.plays) :]:
            self._carry_out(seat, chosen[seat], events)
        return events

    def _determinize_choices(self, player: str, rng: random.Random) -> dict[str, Play]:
        """The choices kept aside, as `player` may know them: their own, and for everyone else
        who has chosen, a play drawn among those their hand allows (in seating order)."""
        drawn = {}
        for seat in self.players:
            if seat == player and seat in self._chosen:
                drawn[seat] = self._chosen[seat]
            elif seat in self._chosen:
                drawn[seat] = rng.choice(LEGAL[self._holdings[seat].hand])
        return drawn
