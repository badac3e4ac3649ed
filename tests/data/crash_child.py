"""Child process of the crash test: appends to one game forever, printing each acknowledged seq.

Usage: python crash_child.py URL GAME_ID. It resumes from the stored log, so it also shows that
appending carries on after a kill."""

from __future__ import annotations

import asyncio
import sys

from data.store import open_ledger


async def main(url: str, game_id: int) -> None:
    ledger = await open_ledger(url)
    record = await ledger.get_game(game_id)
    assert record is not None
    players = [seat.player for seat in record.seats]
    seq = len(record.actions)
    while True:
        action = {"player": players[seq % len(players)], "card": "boss", "area": "kamiza", "n": seq}
        await ledger.append_action(game_id, seq, action)
        sys.stdout.write(f"{seq}\n")  # acknowledged: append_action returned after COMMIT
        sys.stdout.flush()
        seq += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
