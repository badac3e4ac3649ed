"""The ledger's storage failing (the disk full): a warning that does not flood the log, and a
write tried again later, a bounded number of times.

`data` raises `LedgerUnavailable` (`LedgerFull` for a full disk) when a unit of work could not be
written; nothing of it was kept. A click is refused with a clear private answer
(`bot.tables.replies.explain_error`); what the bot writes on its own (a game's end, a lobby's
expiry) is tried again here; a note is only logged (notes help, they never decide).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from data.errors import LedgerFull, LedgerUnavailable
from data.store import Ledger

log = logging.getLogger(__name__)

WARN_EVERY = 60.0  # seconds between two warnings of one kind; the ones between are counted
# Pauses before each new try of a write the bot makes on its own: about ten minutes in all, then
# it is left to the next start, which redoes it from the ledger's actions.
RETRY_PAUSES = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 120.0, 120.0, 120.0)

_warned: dict[tuple[str, str], float] = {}  # (failure kind, what) -> when last warned
_quiet: dict[tuple[str, str], int] = {}  # failures since then, not warned of


def storage_failure_key(exc: LedgerUnavailable) -> str:
    """The catalogue key of what a member is told when their request could not be saved."""
    return "error.storage_full" if isinstance(exc, LedgerFull) else "error.storage_failed"


def note_storage_failure(exc: LedgerUnavailable, what: str, game_id: int | None = None) -> None:
    """One warning line, no traceback, at most one a minute for each kind of failure and each
    thing not saved (a disk full fails every click: a line for each would bury the log)."""
    key = (exc.kind, what)
    now = time.monotonic()
    last = _warned.get(key)
    if last is not None and now - last < WARN_EVERY:
        _quiet[key] = _quiet.get(key, 0) + 1
        return
    _warned[key] = now
    quiet = _quiet.pop(key, 0)
    where = f"game {game_id}: " if game_id else ""
    more = f" ({quiet} more like it in the last minute)" if quiet else ""
    log.warning("%scould not save %s: %s%s", where, what, exc, more)


async def save_later(what: str, game_id: int, write: Callable[[], Awaitable[object]]) -> bool:
    """After a storage failure: `write` again after each of `RETRY_PAUSES`, until it is saved
    (True) or the pauses are spent (False, logged: a restart redoes it from the ledger)."""
    for pause in RETRY_PAUSES:
        await asyncio.sleep(pause)
        try:
            await write()
        except LedgerUnavailable as exc:
            note_storage_failure(exc, what, game_id)
        else:
            return True
    log.error(
        "game %s: gave up saving %s after %d tries; the next start redoes it from the ledger",
        game_id,
        what,
        len(RETRY_PAUSES) + 1,
    )
    return False


async def remember(ledger: Ledger, game_id: int, key: str, value: Any) -> None:
    """Write a game note; a failure is logged, never raised (notes help, they do not decide)."""
    try:
        await ledger.set_note(game_id, key, value)
    except LedgerUnavailable as exc:
        note_storage_failure(exc, "a game note", game_id)
    except Exception:
        log.exception("game %s: could not keep the note %r", game_id, key)
