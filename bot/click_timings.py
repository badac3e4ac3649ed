"""How long the bot itself takes to answer a click, for the table benchmark (`CLICK_TIMINGS_PATH`).

The benchmark measures from the moment the fake Discord sends an interaction to the moment the
bot's response reaches it: that includes the fake server's and the scripted members' share of
the shared CPU. This module measures the bot's own share: from the interaction's arrival at the
bot (discord.py has parsed the gateway event and dispatches it) to the moment its response (the
interaction callback) leaves, per kind of click. It also samples the event loop's lag (how late
a 50 ms sleep wakes up): a lag says the loop was busy, a slow answer without lag says the answer
waited on something (the ledger, a lock, a call).

Each line appended to the file: `<kind> <milliseconds>`; the loop's lag as kind `loop-lag`.
The file is written once a second (and on close) so that a `kill -9` loses at most a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any, Final

import aiohttp
import discord

CALLBACK: Final = re.compile(r"/interactions/(\d+)/[^/]+/callback")
LAG_PROBE: Final = 0.05  # seconds between two samples of the event loop's lag
FORGET_AFTER: Final = 60.0  # an interaction never answered (handed to another process)
LOOP_LAG: Final = "loop-lag"


def kind_of(interaction: discord.Interaction) -> str:
    """A button's verb (`g:kzp:…` -> `kzp`), or the command (`/<game> start`)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if isinstance(custom_id, str):
        parts = custom_id.split(":")
        return parts[1] if len(parts) > 1 else parts[0]
    name = f"/{data.get('name', '?')}"
    options = data.get("options") or []
    if options and options[0].get("type") in (1, 2):  # a subcommand (group)
        name += f" {options[0].get('name')}"
    return name


class ClickTimings:
    """The bot's own time per click, appended to `path` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._arrived: dict[int, tuple[float, str]] = {}
        self._lines: list[str] = []
        self._task: asyncio.Task[None] | None = None

    def arrived(self, interaction: discord.Interaction) -> None:
        self._arrived[interaction.id] = (asyncio.get_running_loop().time(), kind_of(interaction))

    def responding(self, interaction_id: int) -> None:
        """The response to the interaction leaves now."""
        found = self._arrived.pop(interaction_id, None)
        if found is not None:
            at, kind = found
            self._lines.append(f"{kind} {(asyncio.get_running_loop().time() - at) * 1000:.2f}\n")

    def watch(self, session: aiohttp.ClientSession) -> None:
        """Note every interaction callback `session` sends (discord.py's, which the interaction
        responses use too)."""
        original = session.request

        def request(method: str, url: Any, **kwargs: Any) -> Any:
            found = CALLBACK.search(str(url))
            if found is not None:
                self.responding(int(found.group(1)))
            return original(method, url, **kwargs)

        session.request = request  # type: ignore[method-assign]

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._write()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last_write = loop.time()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_PROBE)
            now = loop.time()
            self._lines.append(f"{LOOP_LAG} {(now - asked - LAG_PROBE) * 1000:.2f}\n")
            if now - last_write >= 1.0:
                last_write = now
                self._write()
                self._forget_unanswered(now)

    def _write(self) -> None:
        # A few kilobytes a second to a local file: not worth a thread.
        lines, self._lines = self._lines, []
        if lines:
            with self.path.open("a", encoding="utf-8") as out:
                out.writelines(lines)

    def _forget_unanswered(self, now: float) -> None:
        old = [i for i, (at, _) in self._arrived.items() if now - at > FORGET_AFTER]
        for interaction_id in old:
            del self._arrived[interaction_id]
