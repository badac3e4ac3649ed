"""Ledger URLs: parsing, and `redact_url`, which every URL shown to a person goes through."""

from __future__ import annotations

import pytest

from data.urls import check_url, parse_url, redact_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://user:secret@host/db", "postgresql://user:***@host/db"),
        ("postgres://user:secret@host:5432/db", "postgres://user:***@host:5432/db"),
        ("https://proxy:pa55@example.com/api/v10", "https://proxy:***@example.com/api/v10"),
        ("wss://:secret@gateway.example/", "wss://:***@gateway.example/"),
        # a password with an unescaped '/', '?' or '#' still disappears entirely
        ("postgresql://user:se/cr?e#t@host/db", "postgresql://user:***@host/db"),
        # secrets in the query (libpq's password=, API tokens)
        (
            "postgresql://host/db?sslmode=require&password=secret",
            "postgresql://host/db?sslmode=require&password=***",
        ),
        ("wss://gw.example/?v=10&token=abc", "wss://gw.example/?v=10&token=***"),
        # nothing to hide: unchanged
        ("postgresql://user@host/db", "postgresql://user@host/db"),
        ("https://discord.com/api/v10", "https://discord.com/api/v10"),
        ("http://[::1]:8080/a@b", "http://[::1]:8080/a@b"),
        ("sqlite:///var/lib/kamiza/ledger.sqlite3", "sqlite:///var/lib/kamiza/ledger.sqlite3"),
        ("sqlite:///odd:name@x.db", "sqlite:///odd:name@x.db"),
        ("not a url", "not a url"),
        ("http://u:secret@[::1", "http://u:***@[::1"),  # malformed: still redacted, no error
    ],
)
def test_redact_url_hides_passwords_only(url, shown):
    assert redact_url(url) == shown
    assert "secret" not in redact_url(url) and "pa55" not in redact_url(url)


def test_parse_url():
    assert parse_url("sqlite:///kamiza.sqlite3").path == "kamiza.sqlite3"
    assert parse_url("sqlite:////var/lib/k.db").path == "/var/lib/k.db"
    assert parse_url("sqlite:///k.db?synchronous=NORMAL").synchronous == "normal"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://user:secret@host/db", "not a SQLite ledger URL"),
        ("mysql://user:secret@host/db", "not a SQLite ledger URL"),
        ("sqlite://relative.db", "not a SQLite ledger URL"),
        ("sqlite:///", "the ledger needs a file"),
        ("sqlite:///:memory:", "the ledger needs a file"),
        ("sqlite:///k.db?password=secret", "unknown ledger URL parameter 'password'"),
        ("sqlite:///k.db?synchronous=off", "synchronous must be full or normal"),
    ],
)
def test_parse_url_refuses_without_showing_a_password(url, says):
    """`parse_url` reads SQLite's URLs only; `check_url` takes PostgreSQL's as well."""
    with pytest.raises(ValueError) as caught:
        parse_url(url)
    assert says in str(caught.value)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://user:secret@/db", "needs a host"),
        ("postgresql://user:secret@host", "needs a database"),
        ("postgresql://user:secret@host:port/db", "not a PostgreSQL URL"),
    ],
)
def test_check_url_refuses_a_bad_postgres_url_without_showing_a_password(url, says):
    check_url("postgresql://user:secret@host:5432/db?sslmode=require")  # a good one
    check_url("sqlite:///k.db")
    with pytest.raises(ValueError) as caught:
        check_url(url)
    assert says in str(caught.value)
    assert "secret" not in str(caught.value)
