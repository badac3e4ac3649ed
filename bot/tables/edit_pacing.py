"""At most one edit of a message a second; the edits asked for meanwhile collapse into the last.

A busy table edits its message after every play. Each edit spends the bot's global budget
(`bot.call_budget`), and an edit only shows the table as it is now: when several come within a
second, only the last needs to reach Discord. `EditPacer.edit` sends an edit at once when the
message was not edited for `interval`, else keeps it (replacing any kept before) and sends it when
the interval is over. `EditPacer.final` is a message's last edit (a closed round): what was kept
is dropped (the final state is newer), it waits its turn after an edit under way (and its second,
unless unpaced: a lobby's last), and it is never followed by another: nothing kept can be sent
after it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from bot.runtime.tasks import spawn

Edit = Callable[[], Awaitable[None]]
INTERVAL: Final = 1.0  # seconds between two edits of one message


@dataclass
class _Paced:
    """One message's edits: the last sent (loop time), the one kept, the task that sends it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last: float = float("-inf")
    kept: Edit | None = None
    later: asyncio.Task[Any] | None = None


class EditPacer:
    def __init__(self, interval: float | None = None) -> None:
        self.interval = INTERVAL if interval is None else interval  # read now: tests set it
        self._messages: dict[int, _Paced] = {}
        self.sent = 0
        self.skipped = 0  # edits replaced by a later one before they went

    def pending(self, message_id: int) -> bool:
        paced = self._messages.get(message_id)
        return paced is not None and (paced.kept is not None or paced.lock.locked())

    async def edit(self, message_id: int, send: Edit) -> None:
        """Send `send()` now if the message may be edited now, else keep it for later (it then
        replaces what was kept before). Returns without waiting for a kept edit."""
        paced = self._messages.setdefault(message_id, _Paced())
        now = asyncio.get_running_loop().time()
        if paced.kept is None and not paced.lock.locked() and now >= paced.last + self.interval:
            async with paced.lock:
                await self._send(paced, send)
            self._forget_later(message_id)
            return
        if paced.kept is not None:
            self.skipped += 1
        paced.kept = send
        if paced.later is None:
            paced.later = spawn(self._send_kept(message_id, paced), name=f"edit {message_id}")

    async def final(self, message_id: int, send: Edit, *, paced: bool = True) -> None:
        """The message's last edit: after any edit under way and (`paced`) `interval` after it,
        never before; whatever was kept is dropped, and the message is forgotten. Unpaced, it
        goes as soon as an edit under way is done: it replaces what was kept, so it costs no
        call more, and what its caller does next is not held up (a lobby's "started" before
        the table is posted below it)."""
        edits = self._messages.get(message_id)
        if edits is None:
            self.sent += 1
            await send()
            return
        if edits.kept is not None:
            self.skipped += 1
        edits.kept = None
        async with edits.lock:
            if paced:
                await self._wait_turn(edits)
            await self._send(edits, send)
        self._messages.pop(message_id, None)

    async def _send_kept(self, message_id: int, paced: _Paced) -> None:
        try:
            async with paced.lock:
                while paced.kept is not None:  # one kept while the previous was being sent
                    await self._wait_turn(paced)
                    send = _take(paced)
                    if send is None:
                        break  # dropped by `final` meanwhile
                    await self._send(paced, send)
        finally:
            paced.later = None
        self._forget_later(message_id)

    async def _wait_turn(self, paced: _Paced) -> None:
        delay = paced.last + self.interval - asyncio.get_running_loop().time()
        if delay > 0:
            await asyncio.sleep(delay)

    async def _send(self, paced: _Paced, send: Edit) -> None:
        paced.last = asyncio.get_running_loop().time()
        self.sent += 1
        await send()

    def _forget_later(self, message_id: int) -> None:
        """Forget a message once a second passed with nothing to send: the pacer keeps nothing
        of the messages it no longer paces."""
        asyncio.get_running_loop().call_later(self.interval, self._forget_if_idle, message_id)

    def _forget_if_idle(self, message_id: int) -> None:
        paced = self._messages.get(message_id)
        if paced is None or paced.kept is not None or paced.lock.locked() or paced.later:
            return
        if asyncio.get_running_loop().time() >= paced.last + self.interval:
            self._messages.pop(message_id, None)


def _take(paced: _Paced) -> Edit | None:
    """The edit kept, no longer kept (None: `final` dropped it while its turn was awaited)."""
    send, paced.kept = paced.kept, None
    return send
