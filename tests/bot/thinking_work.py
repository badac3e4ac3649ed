"""Worker functions for `tests/bot/test_thinking.py`, in their own module: a worker process
(spawned) imports it by name to run them, and should not import a test module for that."""

from __future__ import annotations

import os
import time

from ai.workers import Answer, answer


def where(question: bytes) -> Answer:
    """Answers the worker's process id instead of a move (where did the decision run?)."""
    return ("act", os.getpid())


def sleepy(question: bytes) -> Answer:
    """A worker that answers far too late (a machine under load, a search past its budget)."""
    time.sleep(3.0)
    return answer(question)


def slowish(question: bytes) -> Answer:
    """A worker that answers in a second: long enough to end a table meanwhile."""
    time.sleep(1.0)
    return answer(question)


def crash(question: bytes) -> Answer:
    """A worker that dies (out of memory, a segfault in a library): the pool breaks."""
    os._exit(3)
