"""Playout policies for search: quick, better than random, played on a search's own sample.

A search plays its samples (`InfoSet.sample`) to the end many times a decision, so these
policies are cheap rules of thumb rather than the `easy` heuristics (a Kobayakawa or Rights of
Losers `easy` decision costs 0.3-0.6 ms, a whole random playout 0.1-0.3 ms). They read the
sample, in which every hand is drawn: a rough model of how the table plays on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.base import AnyGame
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
)
from rules.losers_actions import CHIP_AT, PASS, PLAYS, Build
from rules.losers_board import CARD_NUMBER, CARD_SUIT, CELLS, LAND, TOUCHED_BY

Policy = Callable[[Any, str, random.Random], Any]


def kamiza_policy(state: Any, player: str, rng: random.Random) -> Any:
    """KAMIZA's `easy` heuristic: a weighted draw over (card, area), cheap enough as it is."""
    return state.computer_action(player, rng)


def kobayakawa_policy(state: Any, player: str, rng: random.Random) -> Any:
    """B-3: replace a low Kobayakawa when holding a low card, else keep the higher card (the lower
    one under a high Kobayakawa). B-4: fight the last when nobody did (a lone fighter wins),
    with a high card, or with a very low card under a high Kobayakawa."""
    card, kobayakawa = state.cards[player], state.kobayakawa
    if state.phase == "draw":
        if not state.has_looked(player) and card <= 4 and kobayakawa <= 7 and rng.random() < 0.5:
            return REPLACE
        drawn = state.drawn_card(player)
        high, low = max(card, drawn), min(card, drawn)
        keep = low if kobayakawa >= 10 and low <= 3 and rng.random() < 0.5 else high
        return KEEP_DRAWN if keep == drawn and keep != card else KEEP_HELD
    order = state.order
    fought = state.bets
    last = order.index(player) == len(order) - 1 - sum(p in state.out for p in order)
    if last and not fought:
        return FIGHT_ACTION
    strong = card >= 12 - len(fought) or (card <= 2 and kobayakawa >= 11)
    return FIGHT_ACTION if strong or rng.random() < 0.1 else PASS_ACTION


def _card_worth(card: str | None) -> int:
    if card is None:
        return 0
    return 4 if card == LAND else CARD_NUMBER[card]


def losers_policy(state: Any, player: str, rng: random.Random) -> Any:
    """R-4: win a trick worth building with the cheapest winning card, else give away the
    weakest card; R-5: chips on the best of a few free spots, the two highest cards built on
    random empty cells, and pass as the winner."""
    phase = state.next().expects
    if phase == "play":
        return PLAYS[_losers_card(state, player, rng)]
    if phase == "chip":
        free = state._free
        field = state.field
        picks = [free[rng.randrange(len(free))] for _ in range(4)]
        best = max(picks, key=lambda s: sum(_card_worth(field[c]) for c in TOUCHED_BY[s]))
        return CHIP_AT[best]
    if phase == "build":
        won = sorted(state.won, key=CARD_NUMBER.__getitem__, reverse=True)
        cells = rng.sample(state._vacant, 2)
        return Build((won[0], won[1]), (CELLS[cells[0]], CELLS[cells[1]]))
    return PASS


def _losers_card(state: Any, player: str, rng: random.Random) -> str:
    hand: list[str] = state.hands[player]
    flip = state.reversed

    def strength(card: str) -> int:
        number = CARD_NUMBER[card]
        return 11 - number if flip else number

    trick: list[tuple[str, str]] = state.trick
    if not trick:
        return min(hand, key=lambda c: (strength(c), rng.random()))
    led = CARD_SUIT[trick[0][1]]
    follow = [c for c in hand if CARD_SUIT[c] == led]
    if not follow:
        return min(hand, key=lambda c: (CARD_NUMBER[c], rng.random()))
    best = max(strength(c) for _, c in trick if CARD_SUIT[c] == led)
    beaters = [c for c in follow if strength(c) > best]
    worth = sum(sorted((CARD_NUMBER[c] for _, c in trick), reverse=True)[:2])
    if beaters and worth >= 10:
        return min(beaters, key=strength)
    return min(follow, key=strength)


POLICIES: dict[str, Policy] = {
    "kamiza": kamiza_policy,
    "kobayakawa": kobayakawa_policy,
    "rights-of-losers": losers_policy,
}


def play_out(state: AnyGame, policy: Policy, rng: random.Random) -> None:
    """Play `state` to its end with `policy` for every seat."""
    while (nxt := state.next()) is not None:
        player = nxt.player
        state.apply(player, policy(state, player, rng))


def rewards(state: AnyGame) -> dict[str, float]:
    """What a finished game is worth to each player: mostly the win (shared wins split), and a
    little for the rank, so that a search still tells a near miss from a rout."""
    winners = state.winners()
    ranking = state.ranking()
    players = state.players
    worth = dict.fromkeys(players, 0.0)
    for p in winners:
        worth[p] = 0.8 / len(winners)
    place = 0
    last = max(1, len(players) - 1)
    for group in ranking:
        share = 0.2 * (last - (place + (len(group) - 1) / 2)) / last
        for p in group:
            worth[p] += share
        place += len(group)
    return worth
