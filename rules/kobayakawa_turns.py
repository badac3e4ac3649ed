"""Kobayakawa: what each turn changes (B-3, B-4), shared by `apply` and by `playout`.

`KobayakawaState.apply` carries out one checked action, returns its events and moves the turn
on; `playout` (a search's rollout) draws the actions of whole phases itself and makes no events.
Both change the game through these transitions, so a rule lives in one place: the draw phase's
three choices, the bet of a fight, the switch to the fight phase. A round's deal and end are
`kobayakawa_round`'s, used by both as well.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules.base import IllegalAction
from rules.kobayakawa_moves import (
    DRAWS,
    FIGHT_ACTION,
    FIGHT_ACTIONS,
    KEEP_DRAWN,
    REPLACE,
    SIMPLE,
    KobayakawaAction,
)
from rules.kobayakawa_round import end_round
from rules.kobayakawa_tables import COPIED_RANDOM, DRAW, FIGHT, NOBODY, ROUNDS

if TYPE_CHECKING:
    from rules.kobayakawa_state import KobayakawaState


def draw(game: KobayakawaState, player: str, keep_drawn: bool) -> int:
    """B-3: `player` draws the top card and keeps it (`keep_drawn`) or the held one; the other
    is discarded, face up. Returns the discarded card."""
    top = game.pile_top
    game.pile_top = top + 1
    discarded = game.pile[top]
    if keep_drawn:
        cards = game.cards
        discarded, cards[player] = cards[player], discarded
    game.discards[player] = discarded
    return discarded


def replace(game: KobayakawaState) -> int:
    """B-3: the top card of the pile, unseen, becomes the Kobayakawa. Returns it."""
    top = game.pile_top
    game.pile_top = top + 1
    kobayakawa = game.kobayakawa = game.pile[top]
    game.kobayakawa_history += (kobayakawa,)
    return kobayakawa


def fight(game: KobayakawaState, player: str) -> int:
    """B-4: `player` fights and bets 1 kamon (round 7: 2), or all they have if less. Returns
    the bet; the pot is `game.pot`."""
    kamons = game.kamons
    held = kamons[player]
    bet = 2 if game.round == ROUNDS else 1
    if held < bet:
        bet = held
    kamons[player] = held - bet
    game.pot += bet
    game.bets[player] = bet
    return bet


def start_fights(game: KobayakawaState) -> None:
    """B-4: everyone still in has drawn or replaced; bets follow in the same order."""
    game.phase = FIGHT
    game._options = FIGHT_ACTIONS
    game._turns = turns = game._fights
    game.turn = 0
    game._mover, game._next, game.draw_table = turns[0]


def playout(game: KobayakawaState, rng: random.Random) -> bool:
    """`Game.playout`'s game, phase by phase: each turn's action drawn from its draw table (the
    very draws of `rules.agents.random_action`) and carried out without events or the per-turn
    bookkeeping only a caller between turns would read. False where the step loop must play on
    instead: another kind of generator or a player who looked at the drawn card (B-3), before
    anything was drawn; a round the setup has no deck for (B-2), where nothing can be played."""
    if type(rng) is not COPIED_RANDOM or game._looked:
        return False
    bits = rng.getrandbits
    game._quiet = True  # the round ends make no events either
    try:
        while game._mover is not NOBODY:
            turns = game._turns
            if game.phase is DRAW:
                for player, _, (_, picks, width) in turns[game.turn :]:
                    action = picks[bits(width)]
                    while action is None:
                        action = picks[bits(width)]
                    if action is REPLACE:
                        replace(game)
                    else:
                        draw(game, player, action is KEEP_DRAWN)
                start_fights(game)
                turns = game._turns
            for player, _, (_, picks, width) in turns[game.turn :]:
                action = picks[bits(width)]
                while action is None:
                    action = picks[bits(width)]
                if action is FIGHT_ACTION:
                    fight(game, player)
            game.turn = game._turn_count - 1  # where `apply` leaves it at a round's last bet
            end_round(game, [])
    finally:
        game._quiet = False
    return game._next is None


def forward(game: KobayakawaState, entries: Sequence[Any], index: int) -> int:
    """`KobayakawaState.fast_forward`'s loop: the plain entries from `index` applied, the index
    of the first one left to `apply_entry` returned."""
    if game.simultaneous:
        return index  # fights are kept aside: every entry through apply_entry
    simple, draws, apply = SIMPLE, DRAWS, game.apply
    action: KobayakawaAction
    for entry in entries[index:] if index else entries:
        if type(entry) is not dict:
            return index
        try:
            size = len(entry)
            if size == 2:  # "player" and "action"
                action = simple[entry["action"]]
            elif size == 3 and entry["action"] == "draw":  # and "keep"
                action = draws[entry["keep"]]
            else:
                return index
            player = entry["player"]
        except (KeyError, TypeError):  # a missing field, an unknown or unhashable value
            return index
        if player != game._mover:  # anyone else, not on turn, not seated: apply_entry says
            return index
        try:
            apply(player, action)
        except IllegalAction:
            return index
        index += 1
    return index
