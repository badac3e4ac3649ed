"""Samples weighted by what the other players did: a little inference on top of `determinize`.

`determinize` draws the hidden cards uniformly among those the searcher has not seen. But a
KAMIZA player who put a card face down in kamiza holds a Boss more often than a Hitman, and a
Kobayakawa player who fought holds a high card more often than not. `believed_sample` keeps a
uniform sample with the chance that a plain player (the `easy` heuristic's tastes) would have
made the public choices seen with those cards, drawing again up to a few times: rejection
sampling, so the searcher's samples lean towards what the table's choices suggest. It reads the
observation (the choices made) and the sample only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ai.infoset import InfoSet
from rules.kamiza_agent import _KAMIZA_TASTE
from rules.kobayakawa_moves import Drew, Fought, Passed

TRIES = 6
_TASTE_MAX = max(_KAMIZA_TASTE.values())
_UNLIKELY = 0.05  # a bluff the rules allow (K-4) is rare, never ruled out


def _kamiza_likelihood(sample: Any, player: str) -> float:
    """How likely the others' face-down plays of this round are, by `easy`'s tastes."""
    weight = 1.0
    for play in sample.plays:
        if play.player != player:
            taste = _KAMIZA_TASTE.get((play.card, play.area), _TASTE_MAX)
            weight *= max(_UNLIKELY, taste / _TASTE_MAX)
    return weight


def _would_fight(card: int, kobayakawa: int) -> bool:
    return card >= 11 or (card <= 3 and kobayakawa >= 10)


def _kobayakawa_likelihood(sample: Any, player: str) -> float:
    """How likely the others' draws, fights and passes of this round are, with their cards in
    the sample: a draw mostly keeps the higher card (B-3); a fight mostly has a high card, or a
    low one under a high Kobayakawa (B-4, B-5)."""
    weight = 1.0
    cards = sample.cards
    kobayakawa = sample.kobayakawa
    for choice in sample.round_choices:
        other = choice.player
        if other == player or other not in cards:
            continue
        card = cards[other]
        if isinstance(choice, Drew):
            weight *= 1.0 if card > choice.discarded else 0.4
        elif isinstance(choice, Fought):
            weight *= 1.0 if _would_fight(card, kobayakawa) else 0.3
        elif isinstance(choice, Passed):
            weight *= 0.5 if _would_fight(card, kobayakawa) else 1.0
    return weight


LIKELIHOODS: dict[str, Callable[[Any, str], float]] = {
    "kamiza": _kamiza_likelihood,
    "kobayakawa": _kobayakawa_likelihood,
}


def believed_sample(info: InfoSet, rng: random.Random) -> Any:
    """A sample of `info` kept with the likelihood of the others' public choices (at most
    `TRIES` draws; the last one is kept whatever its likelihood)."""
    likelihood = LIKELIHOODS.get(info.game)
    sample = info.sample(rng)
    if likelihood is None:
        return sample
    for _ in range(TRIES - 1):
        if rng.random() < likelihood(sample, info.player):
            break
        sample = info.sample(rng)
    return sample
