"""Serving the site: one process, or WEB_WORKERS processes sharing the port (`python -m web`).

The workers' target lives here, not in `web.__main__`: a spawned process imports it by name.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import sys

from aiohttp import web

from data.backends import open_ledger
from data.errors import LedgerOpenError
from data.sql_ledger import SqlLedger
from data.urls import redact_url
from rules.plugins import load_configured_rules
from web.app import make_app
from web.settings import WebSettings
from web.told import warm

log = logging.getLogger("web")


async def serve(settings: WebSettings, *, reuse_port: bool = False) -> None:
    # The site only reads: it never creates nor upgrades the bot's ledger (README "Web companion").
    ledger = await open_ledger(settings.database_url, migrating=False)
    if not isinstance(ledger, SqlLedger):  # both backends are: they lend read snapshots
        raise TypeError(f"a ledger without read snapshots: {type(ledger).__name__}")
    warm()  # the bot's words of the replays, before the port opens
    runner = web.AppRunner(make_app(ledger))
    try:
        await runner.setup()
        site = web.TCPSite(
            runner, settings.web_host, settings.web_port, reuse_port=reuse_port or None
        )
        await site.start()
        log.info(
            "serving %s on http://%s:%s (public address %s)",
            redact_url(settings.database_url),
            settings.web_host,
            settings.web_port,
            settings.web_base_url or "not set",
        )
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await ledger.close()


def setup_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")


def run(settings: WebSettings, reuse_port: bool) -> int:
    try:
        asyncio.run(serve(settings, reuse_port=reuse_port))
    except LedgerOpenError as exc:
        print(f"web: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def _worker(settings: WebSettings) -> None:
    """One of WEB_WORKERS processes (spawned: a fresh interpreter, its own ledger)."""
    setup_logging()
    load_configured_rules()
    sys.exit(run(settings, reuse_port=True))


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)  # SIGTERM: stop the workers on the way out


def serve_in_workers(settings: WebSettings) -> int:
    spawn = multiprocessing.get_context("spawn")
    workers = [spawn.Process(target=_worker, args=(settings,)) for _ in range(settings.web_workers)]
    signal.signal(signal.SIGTERM, _stop)
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
    return max((worker.exitcode or 0) for worker in workers)
