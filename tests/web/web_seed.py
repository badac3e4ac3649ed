"""The web tests' community: a ledger with a server on the web, the site over it, a client.

`seed` holds, in a server that turned its pages on (ON): rated KAMIZA, Kobayakawa and Rights of
Losers games, a game still running, a lobby, and a member who hid themselves (HIDDEN); and a
server that did not (OFF). (A module of its own, not conftest.py: the test modules import it.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from community_seed import finish_random_game

from data.store import Ledger, Seat
from rules.random_play import random_match
from web.app import make_app

ON, OFF = 123456789012345678, 223456789012345678
MEMBERS = [(1001, "Ann"), (1002, "Ben"), (1003, "Cy"), (1004, "Dee")]
HIDDEN = (1005, "Hal the Hidden")


@dataclass
class Community:
    ledger: Ledger
    kamiza: list[int] = field(default_factory=list)
    kobayakawa: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)
    running: int = 0
    lobby: int = 0
    off: int = 0
    logs: dict[int, dict[str, Any]] = field(default_factory=dict)


async def running_game(ledger: Ledger, guild: int, players: list[tuple[int, str]], n: int) -> int:
    """A KAMIZA game with its first `n` actions played, not over."""
    by_player = {str(uid): Seat(str(uid), uid, name) for uid, name in players}
    _, log = random_match("kamiza", list(by_player), 3)
    game_id = await ledger.create_game(
        game="kamiza", options={}, guild_id=guild, channel_id=1, thread_id=None, host_id=1001
    )
    seats = [by_player[p] for p in log["players"]]
    await ledger.set_seats(game_id, seats)
    await ledger.start_game(game_id, {k: v for k, v in log.items() if k != "actions"}, seats)
    for seq, action in enumerate(log["actions"][:n]):
        await ledger.append_action(game_id, seq, action)
    return game_id


async def seed(ledger: Ledger, members: list[tuple[int, str]] | None = None) -> Community:
    members = members or MEMBERS
    everyone = [*members, HIDDEN]
    found = Community(ledger)
    for n in range(3):
        table = everyone[n : n + 4]
        found.kamiza.append(await finish_random_game(ledger, ON, "kamiza", table, seed=n))
    for n in range(4):
        table = everyone[n % 2 : n % 2 + 3]
        found.kobayakawa.append(await finish_random_game(ledger, ON, "kobayakawa", table, seed=n))
    found.losers.append(await finish_random_game(ledger, ON, "rights-of-losers", members, seed=1))
    found.running = await running_game(ledger, ON, everyone[:4], 5)
    found.lobby = await ledger.create_game(
        game="kamiza", options={}, guild_id=ON, channel_id=1, thread_id=None, host_id=1001
    )
    found.off = await finish_random_game(ledger, OFF, "kamiza", members, seed=5)
    await ledger.update_guild_settings(ON, web=True)
    await ledger.set_web_presence(HIDDEN[0], "hidden")
    async for record in ledger.iter_games():
        if record.log() is not None:
            found.logs[record.id] = record.log() or {}
    return found


async def client_of(ledger: Ledger) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(make_app(ledger)))  # type: ignore[arg-type]
    await client.start_server()
    return client
