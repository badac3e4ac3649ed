"""KAMIZA, `hard`: a model of how the table plays, counted from `normal`'s own games.

`hard`'s search plays the others' moves (inside its tree and in its playouts) and weighs the
face-down cards they may have put down (its samples) with this model rather than `easy`'s
tastes: the chance that a player holding `hand` puts `card` in `area`, knowing what anybody
can see at that moment: how many cards went to kamiza and to shimoza before theirs this round,
and whether a policeman would cost them a third WANTED chip (K-10). The counts come from
self-play of four `normal`s (`ai.kamiza_training`, `python -m ai train-kamiza`), smoothed towards
`easy`'s tastes; a context never met (the classic edition's raid, say) is `easy`'s tastes.

Nothing here reads a hidden card of anybody but the player the model moves for (their own
hand, in the search's sample).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ai.infoset import InfoSet
from rules.kamiza_agent import _KAMIZA_TASTE
from rules.kamiza_moves import KAMIZA

TABLE_PATH = Path(__file__).with_name("kamiza_normal.json")
TRAINING_GAMES = 600
TRAINING_SEED = 101  # the shipped table: `python -m ai train-kamiza` rewrites it byte for byte
# How many of `easy`'s choices a context's counts start from: a rare context stays near them.
PRIOR_CHOICES = 4.0
_TICKETS = 40  # a move's chance in steps of 1/40 (2.5 %) in a draw table
_FLOOR = 0.02  # a choice the counts never saw keeps this chance in the beliefs

Context = tuple[tuple[str, ...], int, int, bool]  # hand, kamiza before, shimoza before, wary


def context_key(context: Context) -> str:
    hand, kamiza, shimoza, wary = context
    return f"{','.join(hand)}|{kamiza}|{shimoza}|{int(wary)}"


def _easy(context: Context) -> dict[tuple[str, str], float]:
    """`easy`'s choice probabilities in `context` (`rules.kamiza_agent.kamiza_policy`)."""
    hand, _, _, wary = context
    weights = {}
    for card in hand:
        for area in ("kamiza", "shimoza"):
            weight = _KAMIZA_TASTE.get((card, area), 1.0)
            if card == "policeman" and wary:
                weight = 0.1
            weights[card, area] = weight
    total = sum(weights.values()) or 1.0
    return {key: weight / total for key, weight in weights.items()}


def _load(path: Path) -> dict[str, dict[str, int]]:
    try:
        raw: dict[str, dict[str, int]] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return raw


_COUNTS = _load(TABLE_PATH)
_PROBABILITIES: dict[Context, dict[tuple[str, str], float]] = {}


def probabilities(context: Context) -> dict[tuple[str, str], float]:
    """(card, area) -> the chance the table plays it in `context`."""
    found = _PROBABILITIES.get(context)
    if found is None:
        easy = _easy(context)
        counts = _COUNTS.get(context_key(context), {})
        total = sum(counts.values()) + PRIOR_CHOICES
        found = {
            key: (counts.get(f"{key[0]}/{key[1]}", 0) + PRIOR_CHOICES * chance) / total
            for key, chance in easy.items()
        }
        _PROBABILITIES[context] = found
    return found


def context_of(state: Any, player: str) -> Context:
    """What `player` (on turn in `state`) knows that the model reads: their hand, and what is
    public."""
    kamiza = sum(1 for play in state.plays if play.area == KAMIZA)
    return (
        state._holdings[player].hand,
        kamiza,
        len(state.plays) - kamiza,
        state.wanted[player] >= 2,
    )


# -- playing the model on a search's sample ------------------------------------------------------

_DRAWS: dict[tuple[Any, int, int, bool], tuple[Any, ...]] = {}
_DRAWS_LIMIT = 1 << 16  # a long-running bot meets ever new player names


def _draw(now: Any, kamiza: int, shimoza: int, wary: bool) -> tuple[Any, ...]:
    """The moves of a Holding, each repeated by its tickets: a draw from it is the model's."""
    key = (now, kamiza, shimoza, wary)
    found = _DRAWS.get(key)
    if found is None:
        if len(_DRAWS) >= _DRAWS_LIMIT:
            _DRAWS.clear()
        chances = probabilities((now.hand, kamiza, shimoza, wary))
        tickets: list[Any] = []
        for play in now.draw[1]:
            if play is not None:
                count = round(_TICKETS * chances[play.card, play.area])
                tickets += [now.moves[id(play)]] * count
        found = tuple(tickets) or tuple(now.moves[id(p)] for p in now.draw[1] if p is not None)
        _DRAWS[key] = found
    return found


def model_step(state: Any, player: str, rng: random.Random) -> None:
    """One move of `player` (on turn) as the model plays it, carried out the quick way
    (`ai.rollout.kamiza_step`); under the house rule (H-1) `easy`'s way through `apply`."""
    if state.together():
        state.apply(player, state.computer_action(player, rng))
        return
    plays = state.plays
    kamiza = 0
    for play in plays:
        if play.area == KAMIZA:
            kamiza += 1
    draw = _draw(state._now, kamiza, len(plays) - kamiza, state.wanted[player] >= 2)
    state._play(player, draw[int(rng.random() * len(draw))], None)


def model_play_out(state: Any, rng: random.Random) -> None:
    """The match played to its end with the model for every seat."""
    if state.together():
        while (nxt := state.next()) is not None:
            model_step(state, nxt.player, rng)
        return
    wanted = state.wanted
    while (nxt := state._next) is not None:
        player = nxt.player
        plays = state.plays
        kamiza = 0
        for play in plays:
            if play.area == KAMIZA:
                kamiza += 1
        draw = _draw(state._now, kamiza, len(plays) - kamiza, wanted[player] >= 2)
        state._play(player, draw[int(rng.random() * len(draw))], None)


# -- beliefs: the others' face-down cards of this round -----------------------------------------

POOL = 48  # samples drawn once a search, then drawn from by their weight


def _likelihood(sample: Any, searcher: str) -> float:
    """The chance that the others, holding the sample's cards, made this round's plays."""
    weight = 1.0
    kamiza = shimoza = 0
    holdings = sample._holdings
    for play in sample.plays:
        if play.player != searcher:
            hand = (*holdings[play.player].hand, play.card)
            held = tuple(card for card in sample.cards if card in hand)  # set order (K-1)
            wary = sample.wanted[play.player] >= 2
            chances = probabilities((held, kamiza, shimoza, wary))
            weight *= max(_FLOOR, chances.get((play.card, play.area), 0.0))
        if play.area == KAMIZA:
            kamiza += 1
        else:
            shimoza += 1
    return weight


def pooled_sampler(info: InfoSet, rng: random.Random) -> Callable[[random.Random], Any]:
    """A sampler for one search: `POOL` samples of `info`, each kept with its likelihood
    (importance resampling); a call copies one drawn by weight. Before anyone has played this
    round nothing is hidden, and every call copies the one sample."""
    first: Any = info.sample(rng)
    if first.together():  # H-1: the choices kept aside are drawn by `determinize`, unweighted
        return info.sample
    if not any(play.player != info.player for play in first.plays):
        return lambda _rng: first.clone()
    pool = [first, *(info.sample(rng) for _ in range(POOL - 1))]
    weights = [_likelihood(sample, info.player) for sample in pool]
    cumulative = []
    total = 0.0
    for weight in weights:
        total += weight
        cumulative.append(total)

    def sample(draw_rng: random.Random) -> Any:
        chosen = draw_rng.choices(pool, cum_weights=cumulative)[0]
        return chosen.clone()

    return sample
