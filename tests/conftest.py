"""Shared test configuration.

pytest imports this file in its default "prepend" mode, which puts `tests/` on `sys.path`: test
modules anywhere below import the fake Discord server as `fakediscord`.
"""

from pg_server import pg_server, pg_url  # a real PostgreSQL server for the ledger tests
from small_disk import small_disk  # a real full filesystem for the ledger and the bot

__all__ = ["pg_server", "pg_url", "small_disk"]
