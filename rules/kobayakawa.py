"""Kobayakawa: RULES.md B-1..B-8 (actions, events and the showdown judge: `kobayakawa_moves`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from rules.base import Event, Game, IllegalAction, InvalidSetup, Next, check_players
from rules.kobayakawa_moves import (
    DRAW_ACTIONS,
    FIGHT_ACTIONS,
    KEEPS,
    Action,
    Draw,
    Drew,
    Fight,
    FightPhaseStarted,
    Fought,
    GameEnded,
    KobayakawaReplaced,
    NobodyFought,
    Pass,
    Passed,
    PlayerOut,
    ReplaceKobayakawa,
    RoundStarted,
    RoundWon,
    Showdown,
    judge_fight,
    parse_action,
)

CARDS = tuple(range(1, 16))  # B-1
ROUNDS = 7  # B-2
TOTAL_KAMONS = 32
START_KAMONS = 4
CENTRE_KAMONS = 8
DRAW, FIGHT, OVER = "draw", "fight", "over"


# -- the game --------------------------------------------------------------------------------------


class Kobayakawa(Game[Action, Event, dict[str, Any]]):  # the typed observation comes next
    """A game of Kobayakawa: seven rounds for 3 to 6 players."""

    name: ClassVar[str] = "kobayakawa"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    # G-3: the Kobayakawa, discards, bets and passes are public as they happen (B-2..B-4, B-6);
    # `drew` and `showdown` carry cards and are shown through `public_event`.
    public_kinds: ClassVar[frozenset[str]] = frozenset(
        {
            "round_started",
            "kobayakawa_replaced",
            "fight_phase_started",
            "fought",
            "passed",
            "round_won",
            "nobody_fought",
            "player_out",
            "game_ended",
        }
    )

    def __init__(
        self, players: tuple[str, ...], start: str, decks: tuple[tuple[int, ...], ...]
    ) -> None:
        self.players = players
        self.decks = decks
        self.kamons: dict[str, int] = dict.fromkeys(players, START_KAMONS)  # B-1
        self.centre = CENTRE_KAMONS
        self.box = TOTAL_KAMONS - CENTRE_KAMONS - START_KAMONS * len(players)
        self.pot = 0
        self.out: list[str] = []
        self.round = 0
        self.start_player = start
        self.phase = DRAW
        self.order: tuple[str, ...] = ()
        self.turn = 0
        self.cards: dict[str, int] = {}
        self.kobayakawa = 0
        self.kobayakawa_history: list[int] = []
        self.pile: tuple[int, ...] = ()
        self.pile_top = 0
        self.discards: dict[str, int] = {}
        self.bets: dict[str, int] = {}
        self.choices: list[dict[str, Any]] = []
        self.last_result: tuple[Event, ...] = ()
        self.end_reason: str | None = None
        self._next: dict[str, Next] = {}
        self._opening: list[Event] = [self._begin_round()]

    # -- creation ----------------------------------------------------------------------------------

    @classmethod
    def create(
        cls, players: Sequence[str], options: Mapping[str, Any] | None, setup: Mapping[str, Any]
    ) -> Self:
        seats = check_players(players, cls.min_players, cls.max_players)
        cls.normalise_options(options)
        if not isinstance(setup, Mapping):
            raise InvalidSetup("setup must be an object")
        start = setup.get("start_player")
        if start not in seats:
            raise InvalidSetup("setup.start_player must be one of the players (B-1)")
        decks = setup.get("decks")
        if not isinstance(decks, list | tuple) or not 1 <= len(decks) <= ROUNDS:
            raise InvalidSetup(f"setup.decks must be a list of 1 to {ROUNDS} decks (B-2)")
        for index, deck in enumerate(decks):
            if (
                not isinstance(deck, list | tuple)
                or not all(type(card) is int for card in deck)
                or tuple(sorted(deck)) != CARDS
            ):
                raise InvalidSetup(
                    f"setup.decks[{index}] must be a permutation of the cards 1 to 15 (B-2)"
                )
        return cls(seats, start, tuple(tuple(deck) for deck in decks))

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """A random start player and a shuffled deck for each of the seven rounds (G-1)."""
        decks = []
        for _ in range(ROUNDS):
            deck = list(CARDS)
            rng.shuffle(deck)
            decks.append(deck)
        return {"start_player": rng.choice(list(players)), "decks": decks}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Action:
        return parse_action(data)

    def opening_events(self) -> list[Event]:
        """The events of the set-up itself (the first round's deal), for the bot to narrate."""
        return list(self._opening)

    @classmethod
    def public_event(cls, event: Event) -> dict[str, Any] | None:
        """B-3: a draw shows only the discarded card, never which of the two was kept.
        B-5: only fighters reveal, and only when two or more fight: a lone fighter's card and
        every card of a player who passed stay hidden."""
        if isinstance(event, Drew):
            return {"type": event.kind, "player": event.player, "discarded": event.discarded}
        if isinstance(event, Showdown):
            shown = event.fighters if len(event.fighters) > 1 else ()
            data = event.to_json()
            data["cards"] = {p: event.cards[p] for p in shown if p in event.cards}
            data["totals"] = {p: event.totals[p] for p in shown if p in event.totals}
            return data
        return super().public_event(event)

    # -- whose turn --------------------------------------------------------------------------------

    def still_in(self) -> list[str]:
        """B-7: players with kamons left, in seating order."""
        return [p for p in self.players if p not in self.out]

    def next(self) -> Next | None:
        if self.phase == OVER:
            return None
        player = self.order[self.turn]
        nxt = self._next.get(player)
        if nxt is None or nxt.expects != self.phase:
            nxt = self._next[player] = Next(player, self.phase)
        return nxt

    def legal_actions(self, player: str) -> list[Action]:
        if self.phase == OVER or self.order[self.turn] != player:
            return []
        return list(DRAW_ACTIONS if self.phase == DRAW else FIGHT_ACTIONS)

    def stake(self, player: str) -> int:
        """B-4: what `player` would bet to fight now (round 7: 2, or 1 if that is all)."""
        if self.round == ROUNDS:
            return min(2, self.kamons.get(player, 0))
        return min(1, self.kamons.get(player, 0))

    def drawn_card(self, player: str) -> int | None:
        """The top of the draw pile, only for the player whose draw turn it is, else None.

        For the bot's two-step "Draw → keep which?" menu: call it only once the player has
        chosen to draw, and then offer only the two `draw` actions. A player who may still
        replace the Kobayakawa must not see this card (B-3: the replacement goes unseen).
        """
        if self.phase != DRAW or self.order[self.turn] != player:
            return None
        return self.pile[self.pile_top]

    # -- applying ----------------------------------------------------------------------------------

    def _refuse(self, player: str, action: Any) -> None:
        phase = self.phase
        if phase == OVER:
            rule = "B-2" if self.end_reason == "seven_rounds" else "B-7"
            raise IllegalAction(rule, "the game is over")
        rule = "B-3" if phase == DRAW else "B-4"
        current = self.order[self.turn]
        if player != current:
            if player not in self.kamons:
                raise IllegalAction("B-1", f"{player!r} is not seated at this table")
            if player in self.out:
                raise IllegalAction("B-7", f"{player} is out with no kamons left")
            raise IllegalAction(rule, f"it is {current}'s turn, not {player}'s")
        if phase == DRAW:
            if not isinstance(action, Draw | ReplaceKobayakawa):
                raise IllegalAction("B-3", "in the draw phase, draw or replace the Kobayakawa")
            if isinstance(action, Draw) and action.keep not in KEEPS:
                raise IllegalAction("B-3", "keep the 'drawn' card or the 'held' one")
            return
        if not isinstance(action, Fight | Pass):
            raise IllegalAction("B-4", "in the fight phase, fight or pass")
        if self.turn == len(self.order) - 1 and len(self.decks) <= self.round < ROUNDS:
            self._refuse_missing_deck(player, action)

    def _refuse_missing_deck(self, player: str, action: Fight | Pass) -> None:
        """B-2: the round this action would start has no deck in the setup."""
        fighters = [p for p in self.order if p in self.bets]
        if isinstance(action, Fight):
            fighters.append(player)
        left = len(self.order)
        if fighters:
            winner = judge_fight(fighters, self.cards, self.kobayakawa).winner
            for p in fighters:
                bet = self.stake(p) if p == player else 0
                if p != winner and self.kamons[p] - bet == 0:
                    left -= 1
        if left >= 2:
            raise IllegalAction("B-2", f"the setup has no deck for round {self.round + 1}")

    def apply(self, player: str, action: Any) -> list[Event]:
        self._refuse(player, action)
        events: list[Event]
        if self.phase == DRAW:
            events = [self._draw(player, action)]
            self.turn += 1
            if self.turn == len(self.order):
                self.phase = FIGHT
                self.turn = 0
                events.append(FightPhaseStarted(self.round, self.kobayakawa))
            return events
        if isinstance(action, Fight):
            bet = self.stake(player)
            self.kamons[player] -= bet
            self.pot += bet
            self.bets[player] = bet
            self.choices.append({"player": player, "action": "fight", "bet": bet})
            events = [Fought(player, bet, self.pot)]
        else:
            self.choices.append({"player": player, "action": "pass"})
            events = [Passed(player)]
        self.turn += 1
        if self.turn == len(self.order):
            self._end_round(events)
        return events

    def _draw(self, player: str, action: Draw | ReplaceKobayakawa) -> Event:
        """B-3: one draw-phase turn."""
        top = self.pile[self.pile_top]
        self.pile_top += 1
        if isinstance(action, ReplaceKobayakawa):
            previous = self.kobayakawa
            self.kobayakawa = top
            self.kobayakawa_history.append(top)
            self.choices.append({"player": player, "action": "kobayakawa", "kobayakawa": top})
            return KobayakawaReplaced(player, previous, top)
        if action.keep == "drawn":
            discarded = self.cards[player]
            self.cards[player] = top
        else:
            discarded = top
        self.discards[player] = discarded
        self.choices.append({"player": player, "action": "draw", "discarded": discarded})
        return Drew(player, discarded)

    # -- the round's end ---------------------------------------------------------------------------

    def _end_round(self, events: list[Event]) -> None:
        """B-5..B-7: the showdown, the pot, players going out, then the next round or the end."""
        take = 2 if self.round == ROUNDS else 1
        take = min(take, self.centre)
        first = len(events)
        fighters = tuple(p for p in self.order if p in self.bets)
        if not fighters:
            self.centre -= take
            self.box += take
            events.append(NobodyFought(self.round, take, self.start_player))
        else:
            judged = judge_fight(fighters, self.cards, self.kobayakawa)
            lone = judged.lowest is None
            cards = {} if lone else {p: self.cards[p] for p in fighters}
            winner = judged.winner
            events.append(
                Showdown(
                    self.round,
                    fighters,
                    cards,
                    self.kobayakawa,
                    judged.lowest,
                    judged.totals,
                    winner,
                    judged.why,
                )
            )
            pot = self.pot
            self.kamons[winner] += pot + take
            self.centre -= take
            self.pot = 0
            self.start_player = winner
            events.append(RoundWon(self.round, winner, pot, take, self.kamons[winner]))
        for p in self.order:
            if self.kamons[p] == 0:
                self.out.append(p)
                events.append(PlayerOut(p, self.round))
        self.last_result = tuple(events[first:])
        if self.round == ROUNDS or len(self.players) - len(self.out) < 2:
            self.phase = OVER
            self.end_reason = "seven_rounds" if self.round == ROUNDS else "too_few_players"
            events.append(
                GameEnded(self.round, self.end_reason, dict(self.kamons), tuple(self.winners()))
            )
        else:
            events.append(self._begin_round())

    def _begin_round(self) -> RoundStarted:
        """B-2: deal one card each clockwise from the start player, then the Kobayakawa."""
        self.round += 1
        deck = self.decks[self.round - 1]
        seat = self.players.index(self.start_player)
        out = self.out
        order = tuple(p for p in self.players[seat:] + self.players[:seat] if p not in out)
        n = len(order)
        self.order = order
        self.cards = dict(zip(order, deck, strict=False))
        self.kobayakawa = deck[n]
        self.kobayakawa_history = [deck[n]]
        self.pile = deck[n + 1 :]
        self.pile_top = 0
        self.phase = DRAW
        self.turn = 0
        self.discards = {}
        self.bets = {}
        self.choices = []
        return RoundStarted(self.round, self.start_player, order, deck[n], self.centre)

    # -- results -----------------------------------------------------------------------------------

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

    def winners(self) -> list[str]:
        if self.phase != OVER:
            return []
        best = max(self.kamons.values())
        return [p for p in self.players if self.kamons[p] == best]

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "kobayakawa": self.kobayakawa,
            "centre": self.centre,
            "pot": self.pot,
            "box": self.box,
            "out": list(self.out),
        }

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: own card only; discards, Kobayakawas, bets and the last showdown are public."""
        nxt = self.next()
        in_round = player in self.cards and player not in self.out
        return {
            "game": self.name,
            "players": list(self.players),
            "you": player,
            "card": self.cards[player] if in_round and player is not None else None,
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "order": list(self.order),
            "to_act": nxt.player if nxt else None,
            "kobayakawa": self.kobayakawa,
            "kobayakawa_history": list(self.kobayakawa_history),
            "draw_pile": len(self.pile) - self.pile_top,
            "discards": dict(self.discards),
            "bets": dict(self.bets),
            "choices": [dict(c) for c in self.choices],
            "stakes": {p: self.stake(p) for p in self.order if p not in self.out},
            "kamons": dict(self.kamons),
            "centre": self.centre,
            "pot": self.pot,
            "box": self.box,
            "out": list(self.out),
            "last_round": [event.to_json() for event in self.last_result],
            "over": self.phase == OVER,
            "winners": self.winners(),
        }
