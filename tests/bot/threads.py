"""Which threads a function runs in: a spy for "drawn off the event loop" checks."""

from __future__ import annotations

import threading
from typing import Any

import pytest


def threads_running(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[str]:
    """Replace `owner.name` by a spy that records the thread of each call, then calls it."""
    seen: list[str] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spy)
    return seen


def off_the_loop(seen: list[str]) -> bool:
    """Whether there were calls and none ran in the main thread (where the event loop runs)."""
    return bool(seen) and threading.main_thread().name not in seen
