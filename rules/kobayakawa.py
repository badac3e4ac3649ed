"""Kobayakawa: RULES.md B-1..B-8.

Split for size: the state and its turns in `kobayakawa_state`; what each turn changes, and the
quick `playout`, in `kobayakawa_turns`; actions, events and the showdown judge in
`kobayakawa_moves`; a round's deal and end, and refusals, in `kobayakawa_round`;
constants, decks, random draws and the events shared by all games in `kobayakawa_tables`; what a
player sees in `kobayakawa_view`; `determinize` in `kobayakawa_determinize`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from rules import kobayakawa_together as together
from rules.base import Event, Game, InvalidSetup
from rules.kobayakawa_agent import kobayakawa_policy
from rules.kobayakawa_moves import (
    Action,
    Drew,
    KobayakawaAction,
    KobayakawaEvent,
    Showdown,
    parse_action,
)
from rules.kobayakawa_state import KobayakawaState
from rules.kobayakawa_tables import (
    CARDS,
    DRAW,
    FIGHT,
    OVER,
    ROUNDS,
    checked_decks,
    chosen,
    remember_decks,
    seating,
    shuffled_decks,
)
from rules.kobayakawa_turns import playout as quick_playout
from rules.kobayakawa_view import KobayakawaObservation, observe, public_card_event

__all__ = ["CARDS", "DRAW", "FIGHT", "OVER", "ROUNDS", "Action", "Kobayakawa"]


class Kobayakawa(KobayakawaState, Game[KobayakawaAction, KobayakawaEvent, KobayakawaObservation]):
    """A game of Kobayakawa: seven rounds for 3 to 6 players."""

    name: ClassVar[str] = "kobayakawa"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    draws_from_table: ClassVar[bool] = True
    phase_rules: ClassVar[Mapping[str, tuple[str, ...]]] = {DRAW: ("B-3",), FIGHT: ("B-4",)}
    # G-3: the Kobayakawa, discards, bets and passes are public as they happen (B-2..B-4, B-6);
    # `drew` and `showdown` carry cards and are shown through `public_event`.
    public_kinds: ClassVar[frozenset[str]] = frozenset(
        {
            "round_started",
            "kobayakawa_replaced",
            "fight_phase_started",
            "fought",
            "passed",
            "choice_made",
            "round_won",
            "nobody_fought",
            "player_out",
            "game_ended",
        }
    )
    __slots__ = ()

    # -- creation ----------------------------------------------------------------------------------

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = seating(players)  # B-1: 3 to 6 distinct names
        opts = cls.normalise_options(options) if options else {}
        if type(setup) is not dict and not isinstance(setup, Mapping):
            raise InvalidSetup("setup must be an object")
        start = setup.get("start_player")
        if start not in seats.players:
            raise InvalidSetup("setup.start_player must be one of the players (B-1)")
        game = cls(seats, start, checked_decks(setup.get("decks")))
        game.simultaneous = "simultaneous" in opts
        return game

    @classmethod
    def normalise_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """`simultaneous` (H-2), absent when off; nothing else."""
        if options is not None and not isinstance(options, Mapping):
            raise InvalidSetup("options must be an object")
        return together.options(dict(options or {}))

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """A random start player and a shuffled deck for each of the seven rounds (G-1)."""
        decks = shuffled_decks(rng, ROUNDS)
        remember_decks(decks, tuple(map(tuple, decks)))  # drawn right: no need to check them
        return {"start_player": chosen(rng, players), "decks": decks}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> KobayakawaAction:
        return parse_action(data)

    def opening_events(self) -> list[Event]:
        """The events of the set-up itself (the first round's deal), for the bot to narrate."""
        return list(self._opening)

    @classmethod
    def public_event(cls, event: Event) -> dict[str, Any] | None:
        if isinstance(event, Drew | Showdown):
            return public_card_event(event)  # B-3, B-5: what of its cards the table saw
        return super().public_event(event)

    def determinize(self, player: str, rng: random.Random) -> Self:
        from rules.kobayakawa_determinize import determinized

        twin = determinized(self, player, rng)
        if self._chosen:  # others' choices kept aside are as hidden as their cards (H-2)
            twin._chosen = together.determinized_choices(self, player, rng)
        return twin

    def playout(self, rng: random.Random) -> None:
        """The step loop's game (`Game.playout`), phase by phase without events (`playout` of
        `kobayakawa_turns`); the step loop itself where that one hands over."""
        while self._chosen:  # a step under way: its choosers first, as the step loop would
            nxt = self.next()
            assert nxt is not None
            self.apply(nxt.player, self.random_action(nxt.player, rng))
        if not quick_playout(self, rng):
            super().playout(rng)

    def still_in(self) -> list[str]:
        """B-7: players with kamons left, in seating order."""
        return [p for p in self.players if p not in self.out]

    # -- results and views -------------------------------------------------------------------------

    def scores(self) -> dict[str, int]:
        """Kamons held: a bet sits in the pot until the showdown; a player out holds 0."""
        return dict(self.kamons)

    def ranking(self) -> list[list[str]]:
        """B-8: by kamons held, most first; equal kamons share a place."""
        groups: list[list[str]] = []
        for p in sorted(self.players, key=lambda p: -self.kamons[p]):
            if groups and self.kamons[groups[-1][0]] == self.kamons[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        return groups

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "kobayakawa": self.kobayakawa or None,  # None: the round waits for a deck (B-2)
            "centre": self.centre,
            "pot": self.pot,
            "box": self.box,
            "out": list(self.out),
        }

    def round_number(self) -> int:
        return self.round

    def observation(self, player: str | None) -> KobayakawaObservation:
        """G-3: own card only (and the drawn card once looked at); the rest is public."""
        return observe(self, player)

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: own card only; discards, Kobayakawas, bets and the last showdown are public."""
        return observe(self, player).view()

    def computer_action(self, player: str, rng: random.Random) -> KobayakawaAction:
        return kobayakawa_policy(self, player, rng)
