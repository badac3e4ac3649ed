"""Group commit: appends from concurrent tables share one transaction and one durable COMMIT.

A durable commit costs an fsync (SQLite with `synchronous=FULL`, PostgreSQL's WAL flush); one
per click caps a process at a few thousand clicks a second however many tables play. So each
`GroupCommit.submit` queues its item and waits; a drain task takes everything waiting, writes it
with the backend's `write_batch` in one transaction, and only after that transaction committed
hands every waiter its own outcome. A click is still acknowledged only once its own action is
durable; nothing waits on purpose for a batch to fill (the batch is what queued up while the
previous commit ran), so one lone table pays no extra latency.

Outcomes are per item: `write_batch` returns, for each item, its result or the exception that
refuses it (a taken sequence number, a game not running), decided inside the transaction. Should
the transaction as a whole fail (COMMIT refused, the connection lost), no item is known to be
written: each is written again in a transaction of its own, once, and gets whatever that gives
(its result, or the error that is then its own). No retry without end. A storage failure (the
disk full: `LedgerUnavailable`) rolls the transaction back whole and is every item's outcome at
once: written one by one they would only fail as many times more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, TypeVar

from data.errors import LedgerError, LedgerUnavailable

I = TypeVar("I")  # noqa: E741 - an item to write
R = TypeVar("R")  # its result

MAX_BATCH = 1000  # items in one transaction: bounds its time and the memory a refusal re-reads


class Batch(list[I], Generic[I, R]):
    """The items of one transaction, as `write_batch` gets them. A backend that commits on a
    thread of its own may call `written(outcomes)` in the loop's callback that brings the
    thread's answer (after the COMMIT): each waiter then hears its outcome a turn of the event
    loop sooner than through the drain's task (which would settle the waiters only once it has
    woken, in the turn after that callback; under load each turn is a lag of its own). Called
    after the drain's own result is settled, so that the drain, woken first, sends the next
    batch before the waiters go on."""

    __slots__ = ("_deliver", "delivered")

    def __init__(
        self, items: list[I], deliver: Callable[[Sequence[R | Exception]], None] | None = None
    ) -> None:
        super().__init__(items)
        self._deliver = deliver
        self.delivered = False

    def written(self, outcomes: Sequence[R | Exception]) -> None:
        if self._deliver is not None and not self.delivered:
            self._deliver(outcomes)
            self.delivered = True


WriteBatch = Callable[[Batch[I, R]], Awaitable[Sequence[R | Exception]]]


@dataclass(eq=False, slots=True)
class _Waiting(Generic[I, R]):
    item: I
    outcome: asyncio.Future[R] = field(default_factory=lambda: _loop().create_future())
    # Set when a batch takes the item: it will be written, cancelled caller or not; done when
    # that batch has ended.
    batch: asyncio.Future[None] | None = None


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


class GroupCommit(Generic[I, R]):
    """Items submitted together are written together; see the module docstring.

    `drains` batches may be written at once, each on a connection of its own (PostgreSQL's
    pool: while one commits, the next is written). SQLite has one writer: one drain, whose next
    batch is what queued while its last one committed.
    """

    def __init__(
        self, write_batch: WriteBatch[I, R], *, drains: int = 1, max_batch: int = MAX_BATCH
    ) -> None:
        self._write_batch = write_batch
        self._drains = drains
        self._max_batch = max_batch
        self._queue: list[_Waiting[I, R]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._writing = 0  # drains writing a batch right now
        self.batches = 0  # transactions committed by `write_batch` (for tests and the bench)

    async def submit(self, item: I) -> R:
        """`item` written and durable: its result, or the exception refusing it.

        A caller cancelled before its item was taken into a batch leaves nothing written; once
        taken, the item is written whatever happens to the caller, who then waits for that batch
        to end (so that its next unit of work comes after it) before the cancellation goes on.
        """
        waiting: _Waiting[I, R] = _Waiting(item)
        self._queue.append(waiting)
        self._start_drain()
        try:
            # Not shielded (a shield per append costs a tenth of the time): a cancelled caller
            # cancels its own outcome future, which the batch then leaves alone.
            return await waiting.outcome
        except asyncio.CancelledError:
            if waiting.batch is None:
                self._queue.remove(waiting)
            else:
                with contextlib.suppress(BaseException):
                    await asyncio.shield(waiting.batch)
            raise

    async def close(self) -> None:
        """Wait until everything submitted so far is written."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _start_drain(self) -> None:
        if self._queue and len(self._tasks) < self._drains:
            self._tasks.add(_loop().create_task(self._drain()))

    def _share(self) -> int:
        """How many of the waiting items the next batch takes: with drains idle, a share each, so
        that they write at once (PostgreSQL: one part is written while another commits) instead
        of one drain taking all and the others nothing until it is done."""
        free = max(1, self._drains - self._writing)
        return min(self._max_batch, -(-len(self._queue) // free))

    async def _drain(self) -> None:
        batch: list[_Waiting[I, R]] = []
        ended: asyncio.Future[None] | None = None
        try:
            while self._queue:
                share = self._share()
                batch = self._queue[:share]
                del self._queue[:share]
                self._start_drain()  # an idle drain takes the rest
                ended = _loop().create_future()
                for waiting in batch:
                    waiting.batch = ended
                self._writing += 1
                items = Batch([w.item for w in batch], partial(self._written, batch))
                try:
                    outcomes = await self._outcomes(items)
                finally:
                    self._writing -= 1
                if not items.delivered:
                    _tell(batch, outcomes)
                _settle(ended, None)
                batch = []
        except BaseException as exc:  # cancelled (the loop is ending): nobody is left hanging
            if len(self._tasks) <= 1:  # no other drain will take what is still queued
                batch += self._queue
                self._queue.clear()
            for waiting in batch:
                _settle(waiting.outcome, _as_exception(exc))
            if ended is not None:
                _settle(ended, None)
            raise
        finally:
            # Now, not in a done callback: one scheduled for later would leave an append queued
            # in between with no drain to take it, while the count said one was running.
            task = asyncio.current_task()
            if task is not None:
                self._tasks.discard(task)

    def _written(self, batch: list[_Waiting[I, R]], outcomes: Sequence[R | Exception]) -> None:
        """The batch committed whole: its waiters told at once (`Batch.written`)."""
        self.batches += 1
        _tell(batch, outcomes)

    async def _outcomes(self, items: Batch[I, R]) -> list[R | Exception]:
        try:
            outcomes = list(await self._write_batch(items))
        except Exception as exc:
            if len(items) == 1 or isinstance(exc, LedgerUnavailable):
                # The item's own transaction failed: that is its outcome. Or the storage failed
                # (the disk full): the transaction was rolled back whole, and writing each item
                # alone would only fail as many times more.
                return [exc] * len(items)
            return [await self._alone(item) for item in items]
        if not items.delivered:
            self.batches += 1
        return outcomes

    async def _alone(self, item: I) -> R | Exception:
        """After a failed batch: the item in a transaction of its own, once."""
        try:
            (outcome,) = await self._write_batch(Batch([item]))
        except Exception as exc:
            return exc
        self.batches += 1
        return outcome


def _tell(batch: list[_Waiting[I, R]], outcomes: Sequence[R | Exception]) -> None:
    for waiting, outcome in zip(batch, outcomes, strict=True):
        _settle(waiting.outcome, outcome)


def _settle(future: asyncio.Future[Any], outcome: Any) -> None:
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def _as_exception(exc: BaseException) -> Exception:
    if isinstance(exc, Exception):
        return exc
    # Cancelled while its batch was being written, the append may be stored or not: a retry
    # with the same action tells (it returns False if it was).
    return LedgerError(f"the ledger stopped while this append was being written ({exc!r})")
