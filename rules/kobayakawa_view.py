"""Kobayakawa: what a player sees (G-3), as a typed observation and as the bot's view dict."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.base import step_view
from rules.kobayakawa_moves import (
    Choice,
    Drew,
    Fought,
    KobayakawaEvent,
    KobayakawaReplaced,
    Showdown,
)
from rules.kobayakawa_tables import OVER
from rules.kobayakawa_together import choice_of, has_chosen

if TYPE_CHECKING:
    from rules.kobayakawa_state import KobayakawaState


@dataclass(frozen=True, slots=True)
class KobayakawaObservation:
    """What `you` may see now (None: a spectator), G-3: their own card only; the discards, every
    Kobayakawa of the round, the bets, the choices made and the last showdown are public.

    `drawn` is the top of the pile, shown only to the player whose draw turn it is once they
    have looked at it (B-3, `Kobayakawa.look`); it is not part of `view()`. `kobayakawa` is
    None only while the next round waits for a deck the setup does not have (B-2).
    """

    players: tuple[str, ...]
    you: str | None
    card: int | None
    drawn: int | None
    round: int
    phase: str
    start_player: str
    order: tuple[str, ...]
    to_act: str | None
    kobayakawa: int | None
    kobayakawa_history: tuple[int, ...]
    draw_pile: int
    discards: Mapping[str, int]
    bets: Mapping[str, int]
    choices: tuple[Choice, ...]
    stakes: Mapping[str, int]
    kamons: Mapping[str, int]
    centre: int
    pot: int
    box: int
    out: tuple[str, ...]
    last_round: tuple[KobayakawaEvent, ...]
    over: bool
    winners: tuple[str, ...]
    # H-2 (the `simultaneous` house rule): in the fight phase, who has chosen (seating order),
    # who still has to (clockwise), and the viewer's own choice; never anyone else's.
    simultaneous: bool = False
    chosen: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()
    my_choice: str | None = None

    def view(self) -> dict[str, Any]:
        """The JSON-ready view the bot and `Kobayakawa.view` have always given."""
        return {
            "game": "kobayakawa",
            "players": list(self.players),
            "you": self.you,
            "card": self.card,
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "order": list(self.order),
            "to_act": self.to_act,
            "kobayakawa": self.kobayakawa,
            "kobayakawa_history": list(self.kobayakawa_history),
            "draw_pile": self.draw_pile,
            "discards": dict(self.discards),
            "bets": dict(self.bets),
            "choices": [choice_json(choice) for choice in self.choices],
            "stakes": dict(self.stakes),
            "kamons": dict(self.kamons),
            "centre": self.centre,
            "pot": self.pot,
            "box": self.box,
            "out": list(self.out),
            "last_round": [event.to_json() for event in self.last_round],
            "over": self.over,
            "winners": list(self.winners),
            **step_view(self.simultaneous, self.chosen, self.waiting_for),
            **({"my_choice": self.my_choice} if self.simultaneous else {}),
        }


def public_card_event(event: Drew | Showdown) -> dict[str, Any]:
    """G-3 for the events that carry cards. B-3: a draw shows only the discarded card, never
    which of the two was kept. B-5: only fighters reveal, and only when two or more fight: a
    lone fighter's card and every card of a player who passed stay hidden."""
    if isinstance(event, Drew):
        return {"type": event.kind, "player": event.player, "discarded": event.discarded}
    shown = event.fighters if len(event.fighters) > 1 else ()
    data = event.to_json()
    data["cards"] = {p: event.cards[p] for p in shown if p in event.cards}
    data["totals"] = {p: event.totals[p] for p in shown if p in event.totals}
    return data


def choice_json(choice: Choice) -> dict[str, Any]:
    """One entry of the view's "choices": who did what, with only its public card or bet."""
    if isinstance(choice, Drew):
        return {"player": choice.player, "action": "draw", "discarded": choice.discarded}
    if isinstance(choice, KobayakawaReplaced):
        return {"player": choice.player, "action": "kobayakawa", "kobayakawa": choice.kobayakawa}
    if isinstance(choice, Fought):
        return {"player": choice.player, "action": "fight", "bet": choice.bet}
    return {"player": choice.player, "action": "pass"}


def observe(game: KobayakawaState, player: str | None) -> KobayakawaObservation:
    """`game` as `player` sees it (None: a spectator)."""
    nxt = game.next()
    out = game.out
    seated = player is not None and player in game.cards and player not in out
    return KobayakawaObservation(
        players=game.players,
        you=player,
        card=game.cards[player] if seated and player is not None else None,
        drawn=game.looked_card(player) if player is not None else None,
        round=game.round,
        phase=game.phase,
        start_player=game.start_player,
        order=game.order,
        to_act=nxt.player if nxt else None,
        kobayakawa=game.kobayakawa or None,  # 0: the round waits for a deck (B-2)
        kobayakawa_history=game.kobayakawa_history,
        draw_pile=len(game.pile) - game.pile_top,
        discards=dict(game.discards),
        bets=dict(game.bets),
        choices=tuple(game.round_choices),
        stakes={p: game.stake(p) for p in game.order if p not in out},
        kamons=dict(game.kamons),
        centre=game.centre,
        pot=game.pot,
        box=game.box,
        out=tuple(out),
        last_round=game.last_result,
        over=game.phase == OVER,
        winners=tuple(game.winners()),
        simultaneous=game.simultaneous,
        chosen=has_chosen(game),
        waiting_for=nxt.players if nxt else (),
        my_choice=choice_of(game, player),
    )
