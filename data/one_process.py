"""One process per SQLite ledger: an exclusive `flock` on a lock file beside it.

SQLite would let two processes share the file, but the SQLite ledger is built for one: it caches
members' choices that only it changes, and two bots on one file would both restore and drive the
same tables. Several processes share a PostgreSQL ledger instead. The lock is the kernel's
(`flock` on `<ledger>.lock`): it goes with the process however that ends, kill -9 included, so a
crash never leaves a stale lock to clear by hand. The file holds its holder's pid (for the
message) and is removed when the ledger closes, or when it could not be opened (a refused file
leaves nothing beside it); after a kill -9 it stays, unlocked, and the next process takes it.

Only the bot asks for it (`open_ledger(url, exclusive=True)`): tools and tests may open the file
meanwhile, as before (`python -m data check`, a test reading what a bot process stored). Within
one process the ledger may be held more than once: the lock is taken once per file and released
with its last holder.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading

from data.errors import LedgerOpenError

SUFFIX = ".lock"
PRIVATE_FILE_MODE = 0o600
ATTEMPTS = 10  # a lock file replaced under us this often is not a race but a bug

_guard = threading.Lock()
_held: dict[str, tuple[int, int]] = {}  # the ledger's real path -> (lock file fd, opens)


def lock_path(ledger_path: str) -> str:
    return ledger_path + SUFFIX


def acquire(ledger_path: str) -> str:
    """Hold the ledger for this process; LedgerOpenError (one line) when another one holds it.
    Returns the key `release` takes."""
    key = os.path.realpath(ledger_path)
    with _guard:
        fd, opens = _held.get(key, (-1, 0))
        if opens:
            _held[key] = (fd, opens + 1)
            return key
        for _attempt in range(ATTEMPTS):
            locked = _lock(key, ledger_path)
            if locked is not None:
                _held[key] = (locked, 1)
                return key
        raise LedgerOpenError(f"cannot lock {lock_path(key)}: it keeps being replaced")


def release(key: str) -> None:
    """One open of the ledger is over; the last one lets another process have it."""
    if not key:
        return  # a ledger opened without a hold
    with _guard:
        fd, opens = _held.pop(key, (-1, 0))
        if opens > 1:
            _held[key] = (fd, opens - 1)
        elif opens == 1:
            # Removed while still locked, so that whoever opened it meanwhile sees it replaced
            # (`_lock`); then closing the descriptor releases the flock.
            with contextlib.suppress(OSError):
                os.unlink(lock_path(key))
            os.close(fd)


def _lock(key: str, ledger_path: str) -> int | None:
    """The locked lock file's descriptor; None when the file was removed (by its last holder)
    between opening and locking it: try again. Beside the real file, whichever link named it."""
    path = lock_path(key)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    except OSError as exc:
        raise LedgerOpenError(f"cannot create the lock file {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd)
        os.close(fd)
        raise LedgerOpenError(
            f"the ledger {ledger_path} is in use by another process{holder}: a SQLite ledger "
            "serves one process; stop that one first, or share a PostgreSQL ledger between "
            "several processes (DATABASE_URL=postgresql://...)"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    try:
        current = os.stat(path).st_ino
    except FileNotFoundError:
        current = None
    if current != os.fstat(fd).st_ino:
        os.close(fd)
        return None
    with contextlib.suppress(OSError):  # the pid is only for the message
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode().strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""
