"""Where a lobby or a table lives in Discord."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table lives: its guild, the channel it was opened from, and its thread if any."""

    guild_id: int
    channel_id: int
    thread_id: int | None

    @property
    def home(self) -> int:
        """The channel the table's messages go to."""
        return self.thread_id or self.channel_id
