"""Rights of Losers: the final points alone (R-6, then R-7), judged for all the cards at once.

A playout needs only who scores what at its end, not why each card went where
(`rules.losers_judgement.judgements`): here every card's owner is found without a loop over the
cards, each player's keys for all the cells being one integer (`LANES`, 16 bits a cell).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

from rules.losers_board import CARD_IDS, CARD_NUMBER, CELLS, CELLS_RANGE, LAND
from rules.losers_judgement import LANE_BYTES, LANES, UNPACK_LANES, add_land_bonus

# `points` compares all the cards' keys at once, lane by lane: _TOP is the top bit of every
# cell's lane, _ONES a 1 in every lane. As a key stays below 2**15, a lane of
# `(keys | _TOP) - _ONES - other_keys` keeps its top bit exactly when the key beats the other
# (no lane borrows from the next).
_TOP = sum(0x8000 << (16 * cell) for cell in CELLS_RANGE)
_ONES = _TOP >> 15
_PACK = struct.Struct(f"<{len(CELLS)}H").pack
_BUILDING_NUMBER = dict.fromkeys((None, LAND), 0) | CARD_NUMBER  # a cell's card -> its points
_LAND_TOP = dict.fromkeys((None, *CARD_IDS), 0) | {LAND: 0x8000}  # land's lanes -> their top bit


def points(
    players: Sequence[str], field: Sequence[str | None], chips: Mapping[int, str]
) -> dict[str, int]:
    """R-6 then R-7, the points alone: `tally(players, judgements(field, chips))[0]` without
    saying why each card went where (a playout's end needs only the points). A card goes to the
    player whose key around it is above 0 and above everybody else's (`verdict`): compared for
    all the cells at once (`_TOP`), without a loop over the cells."""
    keys = dict.fromkeys(players, 0)  # each player's keys for all the cells (`LANES`)
    for spot, player in chips.items():
        keys[player] += LANES[spot]
    numbers = int.from_bytes(_PACK(*map(_BUILDING_NUMBER.__getitem__, field)), "little")
    lands = int.from_bytes(_PACK(*map(_LAND_TOP.__getitem__, field)), "little")
    scores = dict.fromkeys(players, 0)
    land = dict.fromkeys(players, 0)
    for player, mine in keys.items():
        if mine:
            above = (mine | _TOP) - _ONES  # a lane's top bit: the key is above 0
            won = above
            for other, theirs in keys.items():
                if other != player:
                    won &= above - theirs  # and above theirs
            won &= _TOP
            # The lanes won, filled with ones, pick the numbers of the cards won
            picked = numbers & (won >> 15) * 0xFFFF
            scores[player] = sum(UNPACK_LANES(picked.to_bytes(LANE_BYTES, "little")))
            land[player] = (won & lands).bit_count()
    add_land_bonus(scores, land)
    return scores
