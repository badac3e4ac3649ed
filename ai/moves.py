"""Which moves a search tries at a decision, and how the searching player labels them.

KAMIZA and Kobayakawa have at most 8 actions a turn: a search tries them all, but for KAMIZA's
Boss or Corrupt Policeman put in shimoza, which only throws the card away (K-4) while doubling the
searcher's branching. Rights of Losers
has thousands of builds and dozens of chip spots and chip moves, so a search tries a few
promising ones (the playout policy's measures): the spots that touch the most valuable cards, the
two highest cards on the cells where its chips weigh most, and every choice but a chip move.
"""

from __future__ import annotations

from typing import Any

from ai.infoset import LOOK
from rules.kobayakawa_moves import REPLACE, Draw
from rules.losers_actions import CHIP_AT, PASS, REVERSE, Build
from rules.losers_board import CARD_NUMBER, CELLS, TOUCHED_BY, TOUCHING

_SEATLESS_BELOW = frozenset({"boss", "policeman"})  # K-4: removed from shimoza at the reveal
_CHIP_CHOICES = 6
_BUILD_CELLS = 3


def moves(state: Any, player: str, searcher: str) -> list[Any]:
    """The moves a search tries for `player` in its sample `state`; `searcher` (the player the
    search decides for) draws and looks in Kobayakawa rather than keeping a card unseen."""
    name = state.name
    if name == "rights-of-losers":
        return _losers_moves(state, player)
    legal: list[Any] = state.legal_actions(player)
    if name == "kamiza":
        sensible = [
            play for play in legal if play.area == "kamiza" or play.card not in _SEATLESS_BELOW
        ]
        return sensible or legal
    if (
        name == "kobayakawa"
        and player == searcher
        and state.phase == "draw"
        and not state.has_looked(player)
    ):
        return [REPLACE, LOOK]
    return legal


def label(state: Any, player: str, searcher: str, move: Any) -> Any:
    """What the searcher's tree calls `move`: the move itself, but for the searcher's keep after
    looking, which goes with the card seen (B-3: the next choice depends on it)."""
    if type(move) is not Draw:  # by type first: a KAMIZA play's equality test is slow
        return move
    if player == searcher and state.has_looked(player):
        return (move, state.looked_card(player))
    return move


def play(state: Any, player: str, move: Any) -> None:
    """Carry out a move on the sample (LOOK shows the drawn card, `Kobayakawa.look`)."""
    if move is LOOK:
        state.look(player)
    else:
        state.apply(player, move)


def _worth(card: str | None) -> int:
    if card is None:
        return 0
    return 4 if card == "land" else CARD_NUMBER[card]


def _losers_moves(state: Any, player: str) -> list[Any]:
    phase = state.next().expects
    if phase == "play":
        plays: list[Any] = state.legal_actions(player)
        return plays
    field = state.field
    if phase == "chip":
        free = state._free

        def touched_worth(spot: int) -> int:
            return sum(_worth(field[cell]) for cell in TOUCHED_BY[spot])

        best = sorted(free, key=lambda s: (-touched_worth(s), s))[:_CHIP_CHOICES]
        return [CHIP_AT[s] for s in best]
    if phase == "build":
        chips = state.chips

        def weight(cell: int) -> float:
            total = 0.0
            for spot, influence in TOUCHING[cell]:
                owner = chips.get(spot)
                if owner is not None:
                    share = 1.0 / (1 + influence)
                    total += share if owner == player else -share
            return total

        high, second = sorted(state.won, key=lambda c: (-CARD_NUMBER[c], c))[:2]
        cells = sorted(state._vacant, key=lambda c: (-weight(c), c))[:_BUILD_CELLS]
        return [Build((high, second), (CELLS[a], CELLS[b])) for a in cells for b in cells if a != b]
    return [*state._seating.appoints, REVERSE, PASS]
