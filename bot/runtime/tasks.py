"""Background tasks that log their failures, and an ordered outbox per table."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.runtime.storage import note_storage_failure
from data.errors import LedgerUnavailable

log = logging.getLogger(__name__)


def spawn(coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
    """Run `coro` in the background; an exception is logged with the task's name, not lost."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    task.add_done_callback(_report)
    return task


def _report(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if isinstance(exc, LedgerUnavailable):  # the disk full: one line, not a traceback each time
        note_storage_failure(exc, f"for the task {task.get_name()}")
    elif exc is not None:
        log.error("task %s failed", task.get_name(), exc_info=exc)


class Outbox:
    """Runs queued coroutines one at a time, in order; a failure is logged and the next runs.

    Its worker task lives only while jobs wait, and so does their queue: an idle table (most
    of them, most of the time) keeps neither (issue 20: memory per idle table).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: deque[Callable[[], Awaitable[Any]]] | None = None
        self._worker: asyncio.Task[Any] | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def put(self, job: Callable[[], Awaitable[Any]]) -> None:
        if self._closed:
            raise RuntimeError(f"{self._name}: outbox closed")
        self._queue(job)

    def _queue(self, job: Callable[[], Awaitable[Any]]) -> None:
        if self._jobs is None:
            self._jobs = deque()
        self._jobs.append(job)
        if self._worker is None or self._worker.done():
            self._worker = spawn(self._run(), name=f"outbox {self._name}")

    async def _run(self) -> None:
        # No await between finding the queue empty and returning: a `put` meanwhile either
        # lands before the check or finds this task done and starts the next worker.
        while self._jobs:
            job = self._jobs.popleft()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except LedgerUnavailable as exc:  # a note or "announced" not saved: the game goes on
                note_storage_failure(exc, f"for {self._name}'s messages")
            except Exception:
                log.exception("%s: presenting failed", self._name)
        self._jobs = None

    async def drain(self) -> None:
        """Wait until everything queued so far has run, and what a job then queued as the
        outbox's last (closing it: a table's end, queued by the job that wrote it)."""
        if self._worker is None or self._worker.done():
            return
        if not self._closed:
            done = asyncio.get_running_loop().create_future()
            self._queue(lambda: _resolve(done))
            await done
        worker = self._worker
        if self._closed and worker is not None and not worker.done():
            await asyncio.shield(worker)

    def close(self) -> None:
        """Run what is queued, then stop; nothing may be queued after this."""
        self._closed = True

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()


async def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
