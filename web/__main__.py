"""`python -m web`: serve the web companion over the ledger at DATABASE_URL (README "Web
companion"). Exit status 2, with one line, for settings or a ledger it cannot use."""

from __future__ import annotations

import asyncio
import logging
import sys

from aiohttp import web
from pydantic import ValidationError

from data.errors import LedgerOpenError
from data.sql_ledger import SqlLedger
from data.store import open_ledger
from data.urls import redact_url
from rules.plugins import PluginError, load_configured_rules
from web.app import make_app
from web.settings import WebSettings

log = logging.getLogger("web")


async def serve(settings: WebSettings) -> None:
    ledger = await open_ledger(settings.database_url)
    if not isinstance(ledger, SqlLedger):  # both backends are: they lend read snapshots
        raise TypeError(f"a ledger without read snapshots: {type(ledger).__name__}")
    runner = web.AppRunner(make_app(ledger))
    try:
        await runner.setup()
        site = web.TCPSite(runner, settings.web_host, settings.web_port)
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


def main() -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = WebSettings()
        load_configured_rules()
    except ValidationError as exc:
        for error in exc.errors():
            name = str(error["loc"][0]).upper() if error["loc"] else "settings"
            print(f"web: {name} is invalid: {error['msg']}", file=sys.stderr)
        return 2
    except PluginError as exc:
        print(f"web: {exc}", file=sys.stderr)
        return 2
    try:
        asyncio.run(serve(settings))
    except LedgerOpenError as exc:
        print(f"web: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
