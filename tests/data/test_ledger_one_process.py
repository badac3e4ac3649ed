"""One bot process per SQLite ledger: a second one is refused at start (one line, exit status 2),
the hold goes with the first one however it ends (kill -9 included), and tools may still read the
file meanwhile."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.errors import LedgerOpenError
from tests.bot.test_startup import Listener, run_bot

TIMEOUT = 60
# A process holding the ledger as the bot does until it is killed: it says "open" once it does.
HOLDER = """
import asyncio, sys
from data.backends import open_ledger

async def main():
    ledger = await open_ledger(sys.argv[1], exclusive=True)
    print("open", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


@pytest.fixture
def holder(ledger_url) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, ledger_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "open\n", child.stderr and child.stderr.read()
        yield child
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=TIMEOUT)


def _in_use(line: str, path: str, pid: int) -> bool:
    return f"the ledger {path} is in use by another process (pid {pid})" in line


def test_a_second_bot_on_the_file_is_one_line_exit_2_before_discord(tmp_path, ledger_url, holder):
    path = ledger_url.removeprefix("sqlite:///")
    discord = Listener()
    try:
        done = run_bot(tmp_path, discord.port, DATABASE_URL=ledger_url)
        assert done.returncode == 2, done.stderr
        [line] = done.stderr.splitlines()
        assert line.startswith("kamiza: ") and _in_use(line, path, holder.pid)
        assert "PostgreSQL" in line and "Traceback" not in line
        assert not discord.contacted()
    finally:
        discord.sock.close()
    assert holder.poll() is None  # the first one runs on, untouched


def test_python_m_data_check_may_read_the_file_meanwhile(ledger_url, holder):
    done = _check(ledger_url)
    assert done.returncode == 0, done.stderr
    assert holder.poll() is None


async def test_the_hold_goes_with_a_killed_process(ledger_url, holder):
    with pytest.raises(LedgerOpenError, match="in use by another process"):
        await open_ledger(ledger_url, exclusive=True)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=TIMEOUT)
    ledger = await open_ledger(ledger_url, exclusive=True)  # no stale lock to clear by hand
    await ledger.close()


async def test_one_process_may_hold_its_ledger_twice_and_lets_go_with_the_last(ledger_url):
    lock = Path(ledger_url.removeprefix("sqlite:///") + ".lock")
    first = await open_ledger(ledger_url, exclusive=True)
    second = await open_ledger(ledger_url, exclusive=True)
    reader = await open_ledger(ledger_url)  # without a hold: it neither takes nor gives one
    await reader.close()
    await first.close()
    await first.close()  # closing twice does not let go of the other's hold
    assert lock.exists()
    assert _hold_elsewhere(ledger_url).returncode == 2
    await second.close()
    assert not lock.exists()  # removed with the last hold
    assert _hold_elsewhere(ledger_url).returncode == 0


def _check(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data", "check", "--db", url],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _hold_elsewhere(url: str) -> subprocess.CompletedProcess[str]:
    """Another process holding the ledger as the bot does, then closing it: exit 2 if refused."""
    script = (
        "import asyncio, sys\n"
        "from data.errors import LedgerOpenError\n"
        "from data.backends import open_ledger\n"
        "async def main():\n"
        "    try:\n"
        f"        await (await open_ledger({url!r}, exclusive=True)).close()\n"
        "    except LedgerOpenError:\n"
        "        sys.exit(2)\n"
        "asyncio.run(main())\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=TIMEOUT
    )
