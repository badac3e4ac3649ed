"""Fixtures for the ledger tests: a real ledger on each backend.

`ledger` runs every test that takes it twice: on a SQLite file under tmp_path and on a fresh
database of a real PostgreSQL server (`tests/pg_server.py`, its fixtures in `tests/conftest.py`).
`sqlite_ledger` and `ledger_url` are SQLite's, for the tests about the file itself.
"""

from __future__ import annotations

import pytest

from data.backends import open_ledger

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def ledger_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/ledger.sqlite3"


@pytest.fixture(params=BACKENDS)
def backend_url(request, ledger_url) -> str:
    """A ledger URL on each backend in turn."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return ledger_url


@pytest.fixture
async def ledger(backend_url):
    ledger = await open_ledger(backend_url)
    yield ledger
    await ledger.close()


@pytest.fixture
async def sqlite_ledger(ledger_url):
    ledger = await open_ledger(ledger_url)
    yield ledger
    await ledger.close()
