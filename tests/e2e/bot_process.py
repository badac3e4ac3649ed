"""The real `python -m bot` process for end-to-end tests and benchmarks: start, kill -9, restart."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fakediscord import FakeDiscord

# Every setting of bot/settings.py: the bot process gets only the values the test chooses.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "TURN_SECONDS",
    "LOBBY_SECONDS",
    "BOT_DELAY_SECONDS",
    "EDIT_PACE_SECONDS",
    "LOG_LEVEL",
    "EXTRA_GAMES",
    "SHARD_COUNT",
    "SHARD_IDS",
    "AI_WORKERS",
    "AI_THINK_MS",
    "CLICK_TIMINGS_PATH",
)


class BotProcess:
    """`python -m bot` in its own working directory (no `.env`), logging to `bot.log`."""

    def __init__(self, fake: FakeDiscord, workdir: Path, env: dict[str, str]) -> None:
        self.fake = fake
        self.workdir = workdir
        self.env = env
        self.log_path = workdir / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def database_path(self) -> Path:
        return self.workdir / "ledger.sqlite3"

    @property
    def log(self) -> str:
        """Everything the process wrote to stdout and stderr, over all its starts."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, wait: bool = True, timeout: float = 15.0) -> BotProcess:
        """Start the process; with `wait`, return once it is connected and has synced."""
        state = self.fake.state
        synced, ready = len(state.command_overwrites), state.ready_count
        self.workdir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.workdir,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        self.starts += 1
        if wait:
            await self._until_ready(synced, ready, timeout)
        return self

    async def _until_ready(self, synced: int, ready: int, timeout: float) -> None:
        state = self.fake.state
        assert self.proc is not None
        exited = asyncio.ensure_future(self.proc.wait())
        connected = asyncio.ensure_future(
            state.wait_for(
                lambda: (
                    len(state.command_overwrites) > synced
                    and state.ready_count > ready
                    and state.connected
                ),
                timeout,
                "the bot to sync its commands and connect",
            )
        )
        done, _ = await asyncio.wait({exited, connected}, return_when=asyncio.FIRST_COMPLETED)
        if connected in done:
            exited.cancel()
            try:
                connected.result()
            except TimeoutError as exc:
                raise AssertionError(f"{exc}; its log:\n{self.log}") from None
        else:
            connected.cancel()
            raise AssertionError(
                f"the bot exited with status {self.proc.returncode} before it was ready; "
                f"its log:\n{self.log}"
            )

    async def wait_exit(self, timeout: float = 15.0) -> int:
        assert self.proc is not None
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def kill9(self) -> None:
        """SIGKILL: the process dies at once, as in a crash or a power cut."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM and wait for a clean exit; its exit status."""
        assert self.proc is not None
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                await self.kill9()
                raise AssertionError(f"the bot ignored SIGTERM; its log:\n{self.log}") from None
        assert self.proc.returncode is not None
        return self.proc.returncode

    async def restart(self, timeout: float = 15.0) -> BotProcess:
        """Start again on the same database (stopping it first if it still runs)."""
        if self.running:
            await self.stop()
        return await self.start(timeout=timeout)


def bot_env(fake: FakeDiscord, workdir: Path, **settings: str | int | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env |= {
        "DISCORD_TOKEN": fake.state.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DATABASE_URL": f"sqlite:///{workdir / 'ledger.sqlite3'}",
        "LOG_LEVEL": "DEBUG",
        "TURN_SECONDS": "10",
        "LOBBY_SECONDS": "30",
        "BOT_DELAY_SECONDS": "0.05",  # computer players need not pause for a human eye here
        "AI_THINK_MS": "40",  # a `hard` computer player need not search long here
        # Edits of a message paced 50 ms apart, not a second: the tests read every table state
        # without waiting on a budget that only a thousand tables need (a test of pacing itself
        # passes EDIT_PACE_SECONDS=1).
        "EDIT_PACE_SECONDS": "0.05",
        # Shards' session starts 0.2 s apart, not Discord's 5 s (the fake does not enforce it
        # unless a test sets `identify_spacing`; test_processes_identify passes 5).
        "IDENTIFY_SPACING_SECONDS": "0.2",
    }
    for name, value in settings.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = str(value)
    return env
