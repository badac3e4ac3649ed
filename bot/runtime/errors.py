"""Domain errors of the table runtime; each carries a catalogue key for the user's message."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """Refused request; `key` and `params` name the message shown to the user."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class TableExists(TableError):
    def __init__(self) -> None:
        super().__init__("error.table_exists")


class TableClosed(TableError):
    def __init__(self) -> None:
        super().__init__("error.table_closed")


class NotSeated(TableError):
    def __init__(self) -> None:
        super().__init__("error.not_seated")


class StaleButton(TableError):
    def __init__(self) -> None:
        super().__init__("error.stale_button")


class ForgedCustomId(TableError):
    """A component's custom id that no button of ours ever carried (edited by hand, or broken)."""

    def __init__(self) -> None:
        super().__init__("error.stale_button")
