"""SIGTERM stops the bot even when Discord has just gone away.

With Discord gone, discord.py's gateway reconnect fails at once; a SIGTERM arriving in that
same loop turn had its cancellation dropped by Python 3.11's `asyncio.wait_for`, and the bot
went on reconnecting until killed (`bot.client._cancel`). The signal sent right as the fake
Discord closes hits that turn every time here.
"""

from __future__ import annotations

import asyncio
import re
import time

# One log record: its time stamp, then its level and logger (a traceback's lines follow it).
RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (\w+ [\w.]+: .*)$", re.MULTILINE)
# discord.py's own record of a failed reconnect, written while Discord is gone, before the stop.
RECONNECTING = "ERROR discord.client: Attempting a reconnect"


async def _until_logged(bot, text: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in bot.log:
        assert time.monotonic() < deadline, f"{text!r} never logged; the log:\n{bot.log}"
        await asyncio.sleep(0.05)


async def test_sigterm_right_after_discord_went_away_stops_cleanly(fake_discord, launch_bot):
    bot = await launch_bot(LOG_LEVEL="INFO")
    # Its last start-up lines written (the computer players' worker is ready after the login).
    await _until_logged(bot, "worker process")
    await _until_logged(bot, "Resumed 0 rematch offers")
    logged = len(bot.log)
    await fake_discord.close()
    asked = time.monotonic()
    assert await bot.stop(timeout=5) == 0
    assert time.monotonic() - asked < 5
    after = RECORD.findall(bot.log[logged:])
    assert [r for r in after if not r.startswith(RECONNECTING)] == ["INFO bot.client: Stopped"]
    assert after[-1] == "INFO bot.client: Stopped"
