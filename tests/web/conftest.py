"""Fixtures of the web tests: a ledger (`web_ledger` SQLite; `any_web_ledger` on both
backends), the community of `web_seed` in it, and a client of the site over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from web_seed import Community, client_of, seed

from data.backends import open_ledger
from data.store import Ledger


@pytest.fixture
async def web_ledger(tmp_path) -> AsyncIterator[Ledger]:
    ledger = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield ledger
    await ledger.close()


@pytest.fixture(params=("sqlite", "postgresql"))
async def any_web_ledger(request, tmp_path) -> AsyncIterator[Ledger]:
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
    ledger = await open_ledger(url)
    yield ledger
    await ledger.close()


@pytest.fixture
async def community(web_ledger) -> Community:
    return await seed(web_ledger)


@pytest.fixture
async def client(community) -> AsyncIterator[TestClient[Any, Any]]:
    client = await client_of(community.ledger)
    yield client
    await client.close()
