"""Kobayakawa: a full game drawn among those one player cannot tell from the real one."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from rules.kobayakawa_moves import Drew, KobayakawaReplaced, Showdown
from rules.kobayakawa_tables import CARDS, OVER, ROUNDS

if TYPE_CHECKING:
    from rules.kobayakawa_state import KobayakawaState

GameT = TypeVar("GameT", bound="KobayakawaState")


def unseen_cards(game: KobayakawaState, player: str) -> list[int]:
    """The cards of this round `player` has not seen (ascending): other players' hidden cards
    and the pile, except the drawn card once `player` has looked at it (B-3)."""
    seen = set(game.kobayakawa_history) | set(game.discards.values())
    if player in game.cards and player not in game.out:
        seen.add(game.cards[player])
    seen.update(_revealed(game).values())
    looked = game.looked_card(player)
    if looked is not None:
        seen.add(looked)
    return [card for card in CARDS if card not in seen]


def _revealed(game: KobayakawaState) -> dict[str, int]:
    """Cards still held that a showdown showed: only once the game is over (a new round
    deals new cards), the last round's fighters when two or more fought (B-5)."""
    if game.phase != OVER:
        return {}
    for event in game.last_result:
        if isinstance(event, Showdown):
            return dict(event.cards)
    return {}


def determinized(game: GameT, player: str, rng: random.Random) -> GameT:
    """A copy of `game` with everything `player` cannot see drawn at random: the other players'
    cards, the order of the unseen pile and the decks of the rounds to come (each a fresh
    shuffle, B-2). `player`'s observation is unchanged and play goes on legally.

    The decks of rounds already dealt are never read again; the copy holds them in card order
    rather than as they were, which would tell cards nobody saw. The current round's deck is
    rebuilt to match the copy, as if each draw had kept the held card.
    """
    new = game.clone()
    if game.waiting_for_deck:  # nothing dealt, nothing hidden
        new.decks = (CARDS,) * len(game.decks)
        return new
    revealed = _revealed(game)
    hidden = [p for p in game.order if p != player and p not in revealed]
    unseen = unseen_cards(game, player)
    rng.shuffle(unseen)
    for p, card in zip(hidden, unseen, strict=False):
        new.cards[p] = card
    rest = unseen[len(hidden) :]
    # The pile as drawn so far: each draw-phase choice took the top card, which became the
    # discard (when the held card was kept) or the new Kobayakawa -- all of them public.
    taken = tuple(
        c.discarded if isinstance(c, Drew) else c.kobayakawa
        for c in game.round_choices
        if isinstance(c, Drew | KobayakawaReplaced)
    )
    assert len(taken) == game.pile_top
    looked = game.looked_card(player)
    new.pile = taken + ((looked,) if looked is not None else ()) + tuple(rest)
    assert len(new.pile) == len(game.pile)
    dealt = tuple(new.cards[p] for p in game.order) + game.kobayakawa_history[:1]
    later = () if game.phase == OVER else range(game.round, ROUNDS)
    new.decks = (
        (CARDS,) * (game.round - 1)
        + (dealt + new.pile,)
        + tuple(tuple(_shuffled(rng)) for _ in later)
    )
    return new


def _shuffled(rng: random.Random) -> list[int]:
    deck = list(CARDS)
    rng.shuffle(deck)
    return deck
