"""Playout policies for search: quick, better than random, played on a search's own sample.

A search plays its samples (`InfoSet.sample`) to the end many times a decision, so these
policies are cheap rules of thumb rather than the `easy` heuristics (a Kobayakawa or Rights of
Losers `easy` decision costs 0.3-0.6 ms, a whole random playout 0.1-0.3 ms). They read the
sample, in which every hand is drawn: a rough model of how the table plays on. Kobayakawa's is
the CFR table `normal` plays (`ai.kobayakawa_table.table_policy`), a dictionary read per move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ai.kobayakawa_table import table_policy
from rules.agents import random_action
from rules.base import AnyGame
from rules.kamiza_agent import _KAMIZA_TASTE
from rules.losers_actions import CHIP_AT, PASS, PLAYS, Build
from rules.losers_board import CARD_NUMBER, CARD_SUIT, CELLS, LAND, TOUCHED_BY

Policy = Callable[[Any, str, random.Random], Any]


def kamiza_policy(state: Any, player: str, rng: random.Random) -> Any:
    """KAMIZA's `easy` heuristic: a weighted draw over (card, area) (`rules.kamiza_agent`)."""
    return state.computer_action(player, rng)


# KAMIZA's `easy` weights, doubled to whole numbers: (card, area) -> how many tickets in the draw.
_KAMIZA_TICKETS = {key: round(2 * weight) for key, weight in _KAMIZA_TASTE.items()}
_WARY_POLICEMAN = 0  # `easy` nearly never plays a policeman with 2 WANTED chips (K-10)
_KAMIZA_DRAWS: dict[tuple[Any, bool], tuple[Any, ...]] = {}
_KAMIZA_DRAWS_LIMIT = 1 << 16  # a long-running bot meets ever new player names


def _kamiza_draw(now: Any, wary: bool) -> tuple[Any, ...]:
    """The moves of a Holding (`rules.kamiza_moves`), each repeated by its tickets: a draw from
    it is `kamiza_policy`'s weighted draw. Holdings are shared and never change, and compare by
    identity: the key keeps its Holding alive, so it is never mistaken for another."""
    key = (now, wary)
    found = _KAMIZA_DRAWS.get(key)
    if found is None:
        if len(_KAMIZA_DRAWS) >= _KAMIZA_DRAWS_LIMIT:
            _KAMIZA_DRAWS.clear()
        _, picks, _ = now.draw
        tickets: list[Any] = []
        for play in picks:
            if play is None:
                continue
            count = _KAMIZA_TICKETS[play.card, play.area]
            if wary and play.card == "policeman":
                count = _WARY_POLICEMAN
            tickets += [now.moves[id(play)]] * count
        found = tuple(tickets) or tuple(now.moves[id(p)] for p in picks if p is not None)
        _KAMIZA_DRAWS[key] = found
    return found


def kamiza_play_out(state: Any, rng: random.Random) -> None:
    """`play_out` with `kamiza_policy` for every seat, six times quicker: the weighted draw
    read from a table per Holding and carried out as `Kamiza.playout` carries out its random
    draws (the Holding's own moves, no events)."""
    wanted = state.wanted
    while (nxt := state._next) is not None:
        player = nxt.player
        draw = _kamiza_draw(state._now, wanted[player] >= 2)
        state._play(player, draw[int(rng.random() * len(draw))], None)


def kamiza_step(state: Any, player: str, rng: random.Random) -> None:
    """One `kamiza_policy` move of `player` (on turn), the quick way of `kamiza_play_out`: the
    others' moves inside a search's tree (`ai.ismcts`), where the slow way took half the time.
    With the house rule (H-1) a choice is kept aside, not played: the rules' own way then."""
    if state.together():
        state.apply(player, kamiza_policy(state, player, rng))
        return
    draw = _kamiza_draw(state._now, state.wanted[player] >= 2)
    state._play(player, draw[int(rng.random() * len(draw))], None)


# What a card on the field is worth to its owner: its number; a land card, a share of the most-land
# bonus; an empty cell, nothing yet.
_WORTH: dict[str | None, int] = {LAND: 4, None: 0}
_WORTH.update(CARD_NUMBER)


def _losers_chip_at(state: Any, rng: random.Random) -> int:
    """Index in `_free` of the best of four free spots drawn at random: the one touching the
    most valuable cards."""
    free = state._free
    field = state.field
    worth_of = _WORTH
    n = len(free)
    best, best_worth = 0, -1
    for _ in range(4):
        at = int(rng.random() * n)
        worth = 0
        for cell in TOUCHED_BY[free[at]]:
            worth += worth_of[field[cell]]
        if worth > best_worth:
            best, best_worth = at, worth
    return best


def losers_policy(state: Any, player: str, rng: random.Random) -> Any:
    """R-4: win a trick worth building with the cheapest winning card, else give away the
    weakest card; R-5: chips on the best of a few free spots, the two highest cards built on
    random empty cells, and pass as the winner."""
    phase = state.next().expects
    if phase == "play":
        return PLAYS[_losers_card(state, player)]
    if phase == "chip":
        return CHIP_AT[state._free[_losers_chip_at(state, rng)]]
    if phase == "build":
        cards, cells = _losers_build(state, rng)
        return Build(cards, (CELLS[cells[0]], CELLS[cells[1]]))
    return PASS


def _losers_build(state: Any, rng: random.Random) -> tuple[tuple[str, str], tuple[int, int]]:
    """The two highest cards of the trick on two random empty building cells."""
    won = sorted(state.won, key=CARD_NUMBER.__getitem__, reverse=True)
    first, second = rng.sample(state._vacant, 2)
    return (won[0], won[1]), (first, second)


def losers_play_out(state: Any, rng: random.Random) -> None:
    """`play_out` with `losers_policy` for every seat, about eight times quicker: each decision
    carried out by the transitions `apply` and `RightsOfLosers.playout` use, without action
    objects, events or the checks (the policy only makes legal choices)."""
    state._drawn = None  # an earlier `random_action` draw is stale once this plays on
    while (nxt := state._next) is not None:
        player, phase = nxt.player, state._phase
        if phase == "play":
            card = _losers_card(state, player)
            trick = state.trick
            void = None
            if trick and CARD_SUIT[card] != CARD_SUIT[trick[0][1]]:
                void = CARD_SUIT[trick[0][1]]  # it could not follow
            state._play_card(player, card, void, None)
        elif phase == "chip":
            state._place_chip(player, _losers_chip_at(state, rng), None)
        elif phase == "build":
            state._build(player, *_losers_build(state, rng), None)
        else:
            state._choose(player, PASS, None, None)


_REVERSED_STRENGTH = {card: 11 - number for card, number in CARD_NUMBER.items()}


def _losers_card(state: Any, player: str) -> str:
    hand: list[str] = state.hands[player]
    strength = _REVERSED_STRENGTH.__getitem__ if state.reversed else CARD_NUMBER.__getitem__
    trick: list[tuple[str, str]] = state.trick
    if not trick:
        return min(hand, key=strength)
    led = CARD_SUIT[trick[0][1]]
    follow = [c for c in hand if CARD_SUIT[c] == led]
    if not follow:
        return min(hand, key=CARD_NUMBER.__getitem__)
    best = max(strength(c) for _, c in trick if CARD_SUIT[c] == led)
    beaters = [c for c in follow if strength(c) > best]
    worth = sum(sorted((CARD_NUMBER[c] for _, c in trick), reverse=True)[:2])
    if beaters and worth >= 10:
        return min(beaters, key=strength)
    return min(follow, key=strength)


def random_policy(state: Any, player: str, rng: random.Random) -> Any:
    """A uniformly random legal action: the playout policy of a game without its own."""
    return random_action(state, player, rng)


def policy_for(game: str) -> Policy:
    return POLICIES.get(game, random_policy)


POLICIES: dict[str, Policy] = {
    "kamiza": kamiza_policy,
    # The table `normal` plays: `hard`'s search models the table as it is. Measured against
    # three `normal`, 200 games each at 100 ms: 26.0 % with it, 24.2 % with a rule of thumb
    # (keep the higher card, fight with a high one).
    "kobayakawa": table_policy,
    "rights-of-losers": losers_policy,
}


def _random_play_out(state: Any, rng: random.Random) -> None:
    state.playout(rng)  # `Game.playout`: the random step loop, quick


QUICK_PLAY_OUTS: dict[Policy, Callable[[Any, random.Random], None]] = {
    random_policy: _random_play_out,
    kamiza_policy: kamiza_play_out,
    losers_policy: losers_play_out,
}


def _apply_policy(policy: Policy) -> Callable[[Any, str, random.Random], None]:
    def step(state: Any, player: str, rng: random.Random) -> None:
        state.apply(player, policy(state, player, rng))

    return step


QUICK_STEPS: dict[Policy, Callable[[Any, str, random.Random], None]] = {
    kamiza_policy: kamiza_step,
}


def step_for(policy: Policy) -> Callable[[Any, str, random.Random], None]:
    """How to play one move of `policy` on a sample: its quick way, if it has one."""
    return QUICK_STEPS.get(policy) or _apply_policy(policy)


def play_out(state: AnyGame, policy: Policy, rng: random.Random) -> None:
    """Play `state` to its end with `policy` for every seat."""
    quick = QUICK_PLAY_OUTS.get(policy)
    if quick is not None:
        quick(state, rng)
        return
    while (nxt := state.next()) is not None:
        player = nxt.player
        state.apply(player, policy(state, player, rng))


WIN_WEIGHT = 0.7


def rewards(state: AnyGame) -> dict[str, float]:
    """What a finished game is worth to each player, 0..1: mostly the win (a shared win split),
    and the rest for the score between the lowest and the highest, so that a search with few
    playouts still tells a near miss from a rout."""
    winners = state.winners()
    scores = state.scores()
    low, high = min(scores.values()), max(scores.values())
    spread = high - low
    worth = {}
    for p in state.players:
        scaled = (scores[p] - low) / spread if spread else 0.5
        won = 1 / len(winners) if p in winners else 0.0
        worth[p] = WIN_WEIGHT * won + (1 - WIN_WEIGHT) * scaled
    return worth
