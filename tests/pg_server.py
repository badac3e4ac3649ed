"""A real PostgreSQL server for the ledger tests, started by the tests themselves.

pytest-postgresql's executor runs the machine's `pg_ctl` (found with `pg_config --bindir`), one
server for the whole session, with a fresh database per test. PostgreSQL refuses to run as root,
and CI runs as root: then `pg_ctl` runs as the `postgres` user Debian's package creates, through
`runuser`, in a directory that user owns. Without the binaries the PostgreSQL tests skip with a
one-line reason, except under `CI=true`, where they must run (`.ci/run` installs them).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import count

import pytest

INSTALL_HINT = "install Debian's postgresql package (apt-get install postgresql)"


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def wait_until_ready(self, seconds: float = 30) -> None:
        """The executor returns once the port accepts connections, which is before the server
        has finished starting up ("the database system is starting up"): wait for a query."""
        import psycopg

        deadline = time.monotonic() + seconds
        while True:
            try:
                self.admin("SELECT 1")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)


def bindir() -> str | None:
    """The server binaries' folder: `pg_config --bindir`, or Debian's versioned folder."""
    pg_config = shutil.which("pg_config")
    if pg_config:
        found = subprocess.run(
            [pg_config, "--bindir"], capture_output=True, text=True, check=False
        ).stdout.strip()
        if found and os.path.exists(os.path.join(found, "pg_ctl")):
            return found
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(debian[-1]) if debian else None


def unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL tests must run under CI=true: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_postgres_user(pg_ctl: str, workdir: str) -> str:
    """A `pg_ctl` that runs as the `postgres` user (for root); the work folder made theirs."""
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        unavailable(f"running as root and no postgres user to run the server; {INSTALL_HINT}")
        raise
    if shutil.which("runuser") is None:
        unavailable("running as root and runuser (util-linux) is missing")
    os.chown(workdir, user.pw_uid, user.pw_gid)
    fd, wrapper = tempfile.mkstemp(prefix="kamiza-pg_ctl-", suffix=".sh")
    with os.fdopen(fd, "w") as script:
        script.write(f'#!/bin/sh\nexec runuser -u postgres -- "{pg_ctl}" "$@"\n')
    os.chmod(wrapper, 0o755)
    return wrapper


# Tests, not production: no fsync, so the suite does not wait for the disk.
UNSAFE_FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


@contextmanager
def running_server(postgres_options: str = UNSAFE_FAST) -> Iterator[Server]:
    """A server of the machine's binaries in a temp folder, removed again when it stops."""
    from pytest_postgresql.executors.proc import PostgreSQLExecutor

    found = bindir()
    if found is None:
        unavailable(f"no PostgreSQL server binaries (pg_config --bindir); {INSTALL_HINT}")
        raise AssertionError  # unreachable: skip or fail raised
    pg_ctl = os.path.join(found, "pg_ctl")
    workdir = tempfile.mkdtemp(prefix="kamiza-pg-")
    executable = _as_postgres_user(pg_ctl, workdir) if os.geteuid() == 0 else pg_ctl
    server = Server("127.0.0.1", free_port(), "postgres")
    executor = PostgreSQLExecutor(
        executable=executable,
        host=server.host,
        port=server.port,
        datadir=os.path.join(workdir, "data"),
        unixsocketdir=workdir,
        logfile=os.path.join(workdir, "server.log"),
        startparams="-w",
        dbname="postgres",
        user=server.user,
        postgres_options=postgres_options,
    )
    executor.start()
    try:
        server.wait_until_ready()
        yield server
    finally:
        executor.stop()
        shutil.rmtree(workdir, ignore_errors=True)
        if executable != pg_ctl:
            os.unlink(executable)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    with running_server() as server:
        yield server


_databases = count(1)


@pytest.fixture
def pg_url(pg_server: Server) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    name = f"kamiza_test_{os.getpid()}_{next(_databases)}"
    pg_server.admin(f"CREATE DATABASE {name}")
    try:
        yield pg_server.url(name)
    finally:
        pg_server.admin(f"DROP DATABASE {name} WITH (FORCE)")


def main() -> None:
    """`python tests/pg_server.py`: a durable throwaway server (fsync on, the defaults) with an
    empty `kamiza_bench` database, for `python -m data bench --db URL`; Ctrl-C or SIGTERM stops
    it and removes its folder."""
    # A background job ignores SIGINT: SIGTERM too must unwind through `running_server`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with running_server(postgres_options="") as server:
        server.admin("CREATE DATABASE kamiza_bench")
        print(server.url("kamiza_bench"), flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
