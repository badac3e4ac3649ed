"""`python -m web.bench` runs end to end: a site in its own process, a bounded load from this
one, the figures printed. On a small ledger and for a few seconds (marked slow: CI runs it after
the suite); the 100,000-game figures are the README's, measured with the command itself."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import still_running

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_load_bench_prints_its_figures_without_errors():
    done = subprocess.run(
        [sys.executable, "-m", "web.bench", "--games", "500", "--rate", "100", "--seconds", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: over the target on a busy machine
    lines = done.stdout.splitlines()
    assert any(line.startswith("sent 300 requests in ") and ", 0 errors" in line for line in lines)
    for kind in ("leaderboard pages", "game pages", "all: "):
        assert any(line.startswith(kind) and "p99" in line for line in lines), done.stdout
    print(done.stdout)


def test_several_workers_serve_one_port_and_stop_together(tmp_path, monkeypatch):
    """WEB_WORKERS=2: two spawned processes share the port; stopping the parent stops both."""
    import urllib.request

    from web.bench import serving

    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    asyncio.run(_created_by_the_bot(url))  # the site never creates nor migrates a ledger
    monkeypatch.setenv("WEB_WORKERS", "2")
    with serving(url, cwd=str(tmp_path)) as site:
        for _ in range(4):
            with urllib.request.urlopen(f"{site.url}/") as answer:
                assert answer.status == 200
        found = subprocess.run(["pgrep", "-P", str(site.pid)], capture_output=True, text=True)
        children = found.stdout.split()
        assert len(children) >= 2  # the workers (and multiprocessing's resource tracker)
    # The resource tracker ends when the parent's pipe closes: a moment after the parent.
    assert still_running([int(child) for child in children], 10) == []


async def _created_by_the_bot(url: str) -> None:
    from data.backends import open_ledger

    await (await open_ledger(url)).close()
