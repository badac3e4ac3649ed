"""`python -m web`: serve the web companion over the ledger at DATABASE_URL (README "Web
companion"). Exit status 2, with one line, for settings or a ledger it cannot use, or for an
argument other than `--help` / `-h` (usage: the settings it reads, with their defaults)."""

from __future__ import annotations

import sys

from pydantic import ValidationError

from rules.plugins import PluginError, load_configured_rules
from web.serve import run, serve_in_workers, setup_logging
from web.settings import WebSettings

USAGE = """usage: python -m web [--help]

Serve the Kamiza web companion: a read-only site over the bot's ledger (README "Web companion").
Settings come from the environment or .env:
{settings}
Pages are in English or Japanese: ?lang=en|ja, else the browser's Accept-Language."""


def usage() -> str:
    described = {
        "database_url": "the bot's ledger, read only",
        "web_host": "the address to listen on",
        "web_port": "the port to listen on",
        "web_base_url": "the public address the bot links to",
        "web_workers": "processes sharing the port",
    }
    lines = []
    for name, about in described.items():
        default = WebSettings.model_fields[name].default
        lines.append(f"  {name.upper():<13} {about} (default: {default if default else 'none'})")
    return USAGE.format(settings="\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if args:
        print(f"web: unknown argument {args[0]!r} (python -m web --help)", file=sys.stderr)
        return 2
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
