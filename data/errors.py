"""The ledger's exceptions; everything it raises on purpose derives from LedgerError."""

from __future__ import annotations


class LedgerError(Exception):
    """Base of every error the ledger raises on purpose."""


class LedgerOpenError(LedgerError):
    """The ledger cannot be opened: no such folder, not a Kamiza ledger, damaged, too new.

    Its message is one line that names the file and says what is wrong.
    """


class GameNotFound(LedgerError):
    """No game with this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class WrongStatus(LedgerError):
    """The game's status does not allow the operation (e.g. seating a running game)."""

    def __init__(self, game_id: int, status: str, wanted: str) -> None:
        super().__init__(f"game {game_id} is {status}, not {wanted}")
        self.game_id = game_id
        self.status = status


class GameNotRunning(WrongStatus):
    """Actions can only be appended to, and results only taken from, a running game."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(game_id, status, "running")


class SequenceConflict(LedgerError):
    """The sequence number is taken by a different action, or is not the next one expected."""

    def __init__(self, game_id: int, seq: int, expected: int, reason: str) -> None:
        super().__init__(f"game {game_id}, action {seq}: {reason} (next expected: {expected})")
        self.game_id = game_id
        self.seq = seq
        self.expected = expected


class GameNotOver(LedgerError):
    """`finish_game` on a log whose game is not over yet."""


class InvalidLog(LedgerError):
    """A header or stored log that the rules refuse to replay."""


class LedgerUnavailable(LedgerError):
    """The ledger's storage failed a write (a disk I/O error): nothing of that unit of work was
    written. The bot tells the user so and changes nothing; trying again later may work."""

    kind = "unavailable"


class LedgerFull(LedgerUnavailable):
    """The ledger's storage is full (SQLite's SQLITE_FULL, ENOSPC): nothing of that unit of work
    was written; it will be once space is freed."""

    kind = "full"
