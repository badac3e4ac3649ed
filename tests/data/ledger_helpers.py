"""Helpers for the ledger tests: real KAMIZA logs from seeded random play, seated and stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.ratings import competition_ranks
from data.store import Ledger, Seat
from rules.base import Game
from rules.random_play import random_match

# Back from version 8 to 7 on SQLite (for the tests that roll a ledger back to an older version):
# the member-stats index goes, versions 1's and 7's indexes it replaced come back.
UNDO_MIGRATION_8 = (
    "DROP INDEX results_member;"
    "CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;"
    "CREATE INDEX results_user_game ON results (user_id, game_id) WHERE user_id IS NOT NULL;"
)


def seat_for(player: str) -> Seat:
    """Humans are str(user_id); bots are "bot-N"."""
    if player.startswith("bot-"):
        return Seat(player, None, f"Bot {player[4:]}", is_bot=True)
    return Seat(player, int(player), f"member {player}")


def header_of(log: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in log.items() if k != "actions"}


async def new_game(ledger: Ledger, guild: int = 1, host: int = 101) -> int:
    return await ledger.create_game(
        game="kamiza", options={}, guild_id=guild, channel_id=10, thread_id=20, host_id=host
    )


async def play(
    ledger: Ledger,
    users: Sequence[int] = (101, 102, 103, 104),
    *,
    bots: int = 0,
    seed: int = 0,
    guild: int = 1,
    actions: int | None = None,
    finish: bool = True,
) -> tuple[int, Game, dict[str, Any]]:
    """Create, seat, start and play a seeded random match; finish it unless told otherwise.

    `actions` stores only that many of the log's actions (and then does not finish)."""
    players = [str(u) for u in users] + [f"bot-{i + 1}" for i in range(bots)]
    state, log = random_match("kamiza", players, seed)
    game_id = await new_game(ledger, guild, users[0])
    await ledger.start_game(game_id, header_of(log), [seat_for(p) for p in log["players"]])
    for seq, action in enumerate(log["actions"][:actions]):
        assert await ledger.append_action(game_id, seq, action)
    if finish and actions is None:
        await ledger.finish_game(game_id)
    return game_id, state, log


def tied_seed(players: int, start: int = 0) -> int:
    """A seed whose random match ends with two or more players tied in the ranking."""
    names = [str(100 + i) for i in range(players)]
    for seed in range(start, start + 5000):
        state, _ = random_match("kamiza", names, seed)
        if any(len(group) > 1 for group in state.ranking()):
            return seed
    raise AssertionError("no tied match in 5000 seeds")


def expected_ranks(state: Game) -> dict[str, int]:
    return competition_ranks(state.ranking())
