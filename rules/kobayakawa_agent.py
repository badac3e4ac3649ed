"""Kobayakawa's computer player: fights on good odds, estimated from what it has seen (B-3, B-4)."""

from __future__ import annotations

import random
from typing import Protocol

from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    KobayakawaAction,
    judge,
)
from rules.kobayakawa_tables import ROUNDS
from rules.kobayakawa_view import KobayakawaObservation


class KobayakawaTable(Protocol):
    """What the policy reads of a game (`rules.kobayakawa.Kobayakawa`, whose `computer_action`
    it is): typed so, this module stays below the game's and the game imports it like any other."""

    def observation(self, player: str | None) -> KobayakawaObservation: ...
    def drawn_card(self, player: str) -> int | None: ...


_KOBAYAKAWA_SAMPLES = 48


def _would_fight(card: int, kobayakawa: int) -> bool:
    """How a computer player guesses the others fight: a high card, or a low one and a high K."""
    return card >= 11 or (card <= 3 and kobayakawa >= 10)


def kobayakawa_policy(game: KobayakawaTable, player: str, rng: random.Random) -> KobayakawaAction:
    """Draw and keep the higher card (sometimes a low one under a high Kobayakawa), replace the
    Kobayakawa now and then; fight when a quick estimate over the unseen cards says it pays."""
    seen = game.observation(player)
    card, kobayakawa = seen.card, seen.kobayakawa
    assert card is not None and kobayakawa is not None, "only a player to act is asked"
    if seen.phase == "draw":
        drawn = seen.drawn  # set once the player has looked: keeping is all that is left
        if drawn is None:
            if card <= 4 and kobayakawa <= 7:
                replace = 0.5  # a low card wants a high Kobayakawa
            elif card >= 11 and kobayakawa >= 11:
                replace = 0.3  # a high Kobayakawa threatens a high card
            else:
                replace = 0.08
            if rng.random() < replace:
                return REPLACE
            drawn = game.drawn_card(player)  # the card the "draw" step shows
            assert drawn is not None
        high, low = max(card, drawn), min(card, drawn)
        keep = high
        if kobayakawa >= 10 and low <= 3 and low + kobayakawa > high and rng.random() < 0.6:
            keep = low  # the low card takes the Kobayakawa if anyone fights
        return KEEP_DRAWN if keep == drawn and keep != card else KEEP_HELD
    win, gain = _fight_odds(seen, player, rng)
    stake = seen.stakes[player]
    late = seen.round == ROUNDS or seen.kamons[player] <= stake
    if late and win < 0.55:
        return PASS_ACTION
    return FIGHT_ACTION if win * gain - (1 - win) * stake > 0.1 else PASS_ACTION


def _fight_odds(
    seen: KobayakawaObservation, player: str, rng: random.Random
) -> tuple[float, float]:
    """(chance to win if `player` fights, what a win brings) over samples of the unseen cards."""
    card, kobayakawa = seen.card, seen.kobayakawa
    assert card is not None and kobayakawa is not None
    visible = {card, *seen.discards.values(), *seen.kobayakawa_history}
    unseen = [c for c in range(1, 16) if c not in visible]
    order = seen.order
    others = [p for p in order if p != player]
    after = order[order.index(player) + 1 :]
    fought = seen.bets
    take = min(2 if seen.round == ROUNDS else 1, seen.centre)
    stakes = seen.stakes
    total = won = gained = 0.0
    for _ in range(_KOBAYAKAWA_SAMPLES):
        cards = dict(zip(others, rng.sample(unseen, len(others)), strict=True))
        cards[player] = card
        weight = 1.0
        for p in fought:
            if not _would_fight(cards[p], kobayakawa):
                weight *= 0.3
        fighters = [
            p
            for p in order
            if p == player or p in fought or (p in after and _would_fight(cards[p], kobayakawa))
        ]
        total += weight
        if judge(fighters, cards, kobayakawa)[0] == player:
            won += weight
            gained += weight * sum(stakes[p] for p in fighters if p in after)
    win = won / total
    extra = gained / won if won else 0.0
    return win, seen.pot + take + extra
