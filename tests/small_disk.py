"""A real full filesystem for the ledger tests: a small tmpfs mounted for one test, and a filler
file written into it until the kernel says ENOSPC (README "When the disk is full")."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

DISK_BYTES = 8 * 1024 * 1024  # room for the ledger of a few matches, filled in a blink


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of `DISK_BYTES`, mounted for this test and always unmounted after it; skipped
    where mounting is not permitted (not root, no CAP_SYS_ADMIN)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES},mode=0700", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield disk
    finally:
        # Lazily: a process still holding the ledger open must not leave the mount behind.
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """A filler file written until the filesystem says ENOSPC, down to its last byte."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        chunk = 1 << 20
        while chunk:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                chunk //= 2
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler
