"""Ledger URLs: `sqlite:///…` and `postgresql://…`, and showing any URL without its credentials.

Every URL that reaches a message or a log goes through `redact_url` first: a `DATABASE_URL`
like `postgresql://user:secret@host/db` is shown as `postgresql://user:***@host/db`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

SYNCHRONOUS = ("full", "normal")
SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgres://", "postgresql://")
MASK = "***"

# Query parameters that carry secrets (libpq's `password`, `sslpassword`; API keys and tokens).
_SECRET_PARAM = re.compile(r"([?&][^=&#]*(?:pass|secret|token|key)[^=&#]*=)[^&#]*", re.I)


@dataclass(frozen=True, slots=True)
class SqliteUrl:
    path: str
    synchronous: str = "full"


def redact_url(url: str) -> str:
    """`url` with the password in its user info and secret query values replaced by ***.

    Never raises: it also has to work on the malformed URLs that error messages quote.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return _redact_query(url)
    end = _authority_end(rest)
    authority, tail = rest[:end], rest[end:]
    userinfo, at, host = authority.rpartition("@")
    user, colon, _password = userinfo.partition(":")
    if at and colon:
        authority = f"{user}:{MASK}@{host}"
    return f"{scheme}://{authority}{_redact_query(tail)}"


def _authority_end(rest: str) -> int:
    """Where the authority ([user[:password]@]host[:port]) of `rest` (the URL after ://) ends."""
    end = _first_of(rest, "/?#", 0)
    authority = rest[:end]
    after_colon = authority.rpartition(":")[2]
    if (
        "@" not in authority
        and ":" in authority
        and not after_colon.isdigit()
        and not authority.endswith("]")  # an IPv6 host
        and "@" in rest
    ):
        # An unescaped '/', '?' or '#' in a password ends the authority early: what follows the
        # ':' is then no port, and the user info runs to the last '@'.
        return _first_of(rest, "/?#", rest.rindex("@"))
    return end


def _first_of(text: str, chars: str, start: int) -> int:
    return next((i for i in range(start, len(text)) if text[i] in chars), len(text))


def _redact_query(text: str) -> str:
    return _SECRET_PARAM.sub(rf"\1{MASK}", text)


def is_postgres(url: str) -> bool:
    return url.startswith(POSTGRES_SCHEMES)


def check_url(url: str) -> None:
    """Refuse (ValueError, without quoting the URL) what is no ledger URL: a SQLite one as
    `parse_url` reads it, or `postgresql://[user[:password]@]host[:port]/database[?...]`."""
    if not is_postgres(url):
        parse_url(url)
        return
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (reading it checks it)
    except ValueError:
        raise ValueError("not a PostgreSQL URL (postgresql://user@host/database)") from None
    if not parts.hostname and "host=" not in parts.query:
        raise ValueError("a PostgreSQL URL needs a host: postgresql://user@host/database")
    if not parts.path.strip("/"):
        raise ValueError("a PostgreSQL URL needs a database: postgresql://user@host/database")


def parse_url(url: str) -> SqliteUrl:
    """`sqlite:///relative.db`, `sqlite:////abs/path.db`, optional `?synchronous=full|normal`.

    Raises ValueError with a message that does not quote the URL: it may carry a password, and
    the caller shows it next to the message, redacted.
    """
    if not url.startswith(SQLITE_PREFIX):
        raise ValueError("not a SQLite ledger URL (sqlite:///path/to/ledger.sqlite3)")
    path = url[len(SQLITE_PREFIX) :].split("?", 1)[0]
    if not path or path == ":memory:":
        raise ValueError("the ledger needs a file: sqlite:///path/to/ledger.sqlite3")
    query = parse_qs(urlsplit(url).query)
    unknown = sorted(set(query) - {"synchronous"})
    if unknown:
        raise ValueError(f"unknown ledger URL parameter {unknown[0]!r}")
    synchronous = query.get("synchronous", ["full"])[-1].lower()
    if synchronous not in SYNCHRONOUS:
        raise ValueError("synchronous must be full or normal")
    return SqliteUrl(path, synchronous)
