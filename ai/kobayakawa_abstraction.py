"""Kobayakawa's abstract information sets: what the CFR table (`ai.kobayakawa_cfr`) is keyed by.

A round of Kobayakawa is one hidden card and a bet (B-2..B-6), and every round is the same small
game: the rounds differ only in the stakes (round 7 bets and takes 2 instead of 1, the same
ratio), so the table forgets the round and the chips. What it keeps, per decision:

- draw, before looking (B-3): players still in, the seat in the round's order, own card,
  Kobayakawa. Two moves: replace the Kobayakawa unseen, or draw and look.
- keep, once looked: players still in, the lower and the higher of the two cards, Kobayakawa.
  Two moves: keep the higher, or the lower (to add the Kobayakawa at the showdown, B-5).
- fight (B-4): players still in, the seat in the order, how many before it fought, own card,
  Kobayakawa. Two moves: fight or pass.

The discards and the replaced Kobayakawas (which cards are gone) are left out: they would
multiply the sets by thousands for a few points of card counting.
"""

from __future__ import annotations

from typing import Any

# The first of each pair of moves, whose probability the table stores.
REPLACE_FIRST = "replace"  # draw sets: P(replace the Kobayakawa)
KEEP_LOW_FIRST = "keep-low"  # keep sets: P(keep the lower card)
FIGHT_FIRST = "fight"  # fight sets: P(fight)


def draw_key(players: int, seat: int, card: int, kobayakawa: int) -> str:
    return f"d{players}.{seat}.{card}.{kobayakawa}"


def keep_key(players: int, low: int, high: int, kobayakawa: int) -> str:
    return f"k{players}.{low}.{high}.{kobayakawa}"


def fight_key(players: int, seat: int, fought: int, card: int, kobayakawa: int) -> str:
    return f"f{players}.{seat}.{fought}.{card}.{kobayakawa}"


def seat_of(seen: Any, player: str) -> tuple[int, int]:
    """(players still in, `player`'s place among them clockwise from the start player)."""
    active = [p for p in seen.order if p not in seen.out]
    return len(active), active.index(player)


def fought_before(seen: Any, player: str) -> int:
    """How many players before `player` in this round's order fought (B-4; 0 while the
    `simultaneous` house rule hides the bets, H-2)."""
    active = [p for p in seen.order if p not in seen.out]
    return sum(1 for p in active[: active.index(player)] if p in seen.bets)


def observed_key(seen: Any, player: str) -> str:
    """The abstract information set of `player`'s decision in observation `seen`."""
    players, seat = seat_of(seen, player)
    card, kobayakawa = seen.card, seen.kobayakawa
    if seen.phase == "draw":
        if seen.drawn is not None:
            low, high = sorted((card, seen.drawn))
            return keep_key(players, low, high, kobayakawa)
        return draw_key(players, seat, card, kobayakawa)
    return fight_key(players, seat, fought_before(seen, player), card, kobayakawa)
