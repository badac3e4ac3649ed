"""Which guilds this process serves when the bot runs as shards over several processes.

Discord puts a guild on shard `(guild_id >> 22) % shard_count`; a process runs some of the
shards (`SHARD_IDS`). Its tables, timers and end-of-game chores are those of its shards' guilds:
another process serves the others, on the same PostgreSQL ledger. Direct messages come to shard
0 only (as Discord sends them), whoever runs it (`bot.forwarding`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

DM_SHARD = 0  # Discord sends every direct-message event (and DM click) on shard 0


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: the guild's creation time (the top bits of its id) modulo the count."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards of this process out of `count`; `Shards.single()` is the whole bot."""

    count: int
    ids: frozenset[int]

    @classmethod
    def single(cls) -> Shards:
        return cls(1, frozenset({0}))

    @classmethod
    def of(cls, count: int, ids: Iterable[int]) -> Shards:
        return cls(count, frozenset(ids))

    @property
    def whole_bot(self) -> bool:
        """Whether this process serves every guild (no other process to share with)."""
        return len(self.ids) == self.count

    def owner(self, guild_id: int) -> int:
        """The shard of a guild."""
        return shard_of(guild_id, self.count)

    def owns(self, guild_id: int) -> bool:
        """Whether the guild's tables are this process's to run."""
        return self.whole_bot or self.owner(guild_id) in self.ids

    @property
    def gets_dms(self) -> bool:
        """Whether this process receives the direct messages (runs shard 0)."""
        return DM_SHARD in self.ids
