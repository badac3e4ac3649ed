"""Child process of the crash tests: appends to its games forever, all at once, printing each
acknowledged action as `GAME SEQ`.

Usage: python crash_child.py URL GAME_ID [GAME_ID ...]. Each game is a table of its own appending
one action after another, so with several games their appends share commits (group commit). It
resumes from the stored logs, so it also shows that appending carries on after a kill."""

from __future__ import annotations

import asyncio
import sys

from data.backends import open_ledger
from data.store import Ledger


async def table(ledger: Ledger, game_id: int) -> None:
    record = await ledger.get_game(game_id)
    assert record is not None
    players = [seat.player for seat in record.seats]
    seq = len(record.actions)
    while True:
        action = {"player": players[seq % len(players)], "card": "boss", "area": "kamiza", "n": seq}
        await ledger.append_action(game_id, seq, action)
        sys.stdout.write(f"{game_id} {seq}\n")  # acknowledged: append_action returned after COMMIT
        sys.stdout.flush()
        seq += 1


async def main(url: str, game_ids: list[int]) -> None:
    ledger = await open_ledger(url)
    await asyncio.gather(*(table(ledger, game_id) for game_id in game_ids))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], [int(arg) for arg in sys.argv[2:]]))
