"""The drawn card, seen (B-3): kept as a game note so that a restart gives the look back.

The rules know that the player to draw looked at the drawn card (`Kobayakawa.look`): from then
on every path -- the menu, a timeout, autopilot -- can only keep one of the two cards. A look is
no log action, so it is kept as a game note and given back to the state when a table is
restored after a restart, before anyone can act (the presenter's `table_opened`). The menu
(`bot.kobayakawa.hand`) and the presenter both use these; neither imports the other for them.
"""

from __future__ import annotations

from bot.runtime.table import Table
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import KEEP_HELD

SEEN_DRAW = "seen_draw"  # game note: [player, seq] of the turn whose drawn card was shown


async def mark_seen_draw(table: Table[Kobayakawa], player: str, seq: int) -> int | None:
    """Note, in the ledger and then in the rules, that `player` looks at the drawn card at turn
    `seq`; the card, or None if that turn is over meanwhile (nothing to show)."""
    await table.keep_note(SEEN_DRAW, [player, seq])
    if table.seq != seq:
        return None
    return table.state.look(player)


def has_seen_draw(table: Table[Kobayakawa], player: str, seq: int) -> bool:
    """Whether `player` has seen the drawn card at turn `seq`, which is the current one."""
    return seq == table.seq and table.state.observation(player).drawn is not None


def restore_seen_draw(table: Table[Kobayakawa]) -> bool:
    """Give the state back the look its note records, if the note is about this very turn (a
    restart); whether it did."""
    note = table.notes.get(SEEN_DRAW)
    if not isinstance(note, list) or len(note) != 2 or note[1] != table.seq:
        return False
    state, player = table.state, note[0]
    # A draw turn is one where keeping a card is legal (B-3, before or after the look).
    if not isinstance(player, str) or KEEP_HELD not in state.legal_actions(player):
        return False  # not that player's draw turn: an old note
    state.look(player)
    return True
