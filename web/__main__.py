"""`python -m web`: serve the web companion over the ledger at DATABASE_URL (README "Web
companion"). Exit status 2, with one line, for settings or a ledger it cannot use."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from rules.plugins import PluginError, load_configured_rules
from web.serve import run, serve_in_workers, setup_logging
from web.settings import WebSettings


def main() -> int:
    setup_logging()
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
    if settings.web_workers > 1:
        return serve_in_workers(settings)
    return run(settings, reuse_port=False)


if __name__ == "__main__":
    sys.exit(main())
