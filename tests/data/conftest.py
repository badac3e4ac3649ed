"""Fixtures for the ledger tests: a real SQLite ledger file under tmp_path."""

from __future__ import annotations

import pytest

from data.store import open_ledger


@pytest.fixture
def ledger_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/ledger.sqlite3"


@pytest.fixture
async def ledger(ledger_url):
    ledger = await open_ledger(ledger_url)
    yield ledger
    await ledger.close()
