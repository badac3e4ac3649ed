"""Finished games in a ledger, for leaderboard and stats tests: random legal play, seeded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from data.store import Ledger, Seat
from rules.random_play import random_match

Player = tuple[int, str]  # (user id, display name)


async def finish_random_game(
    ledger: Ledger,
    guild_id: int,
    game: str,
    players: Sequence[Player],
    seed: int,
    *,
    channel_id: int = 1,
    options: dict[str, Any] | None = None,
) -> int:
    """Create, seat, start, play (random legal actions) and finish one game; its id."""
    by_player = {str(uid): Seat(str(uid), uid, name) for uid, name in players}
    _, log = random_match(game, list(by_player), seed, options)
    seats = [by_player[p] for p in log["players"]]  # the seating the deal drew
    game_id = await ledger.create_game(
        game=game,
        options=options or {},
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=None,
        host_id=players[0][0],
    )
    await ledger.set_seats(game_id, seats)
    header = {k: v for k, v in log.items() if k != "actions"}
    await ledger.start_game(game_id, header, seats)
    for seq, action in enumerate(log["actions"]):
        await ledger.append_action(game_id, seq, action)
    await ledger.finish_game(game_id)
    return game_id
