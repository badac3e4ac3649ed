"""Memory: replay a JSONL file of logs one line at a time and report the peak RSS.

`--memory N` writes N random logs to a temporary JSONL file, then replays it in a fresh
`python -m rules bench --jsonl FILE` child, so that the peak RSS measured is the replay's alone
(not this process's, which also generated the logs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rules.base import RulesError
from rules.bench.engines import current_engine, project_root
from rules.bench.race import Progress
from rules.bench.workloads import random_logs
from rules.log import load, result

RSS_TARGET_MB = 100.0


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB.

    Linux's `VmHWM` belongs to this program's own memory; `ru_maxrss` also keeps the peak of the
    process it was forked from (it survives exec), so a child of a large parent would report
    its parent's size.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2**10  # KiB
    except OSError:
        pass
    import resource  # POSIX only: imported here so that the other benchmarks run anywhere

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes there, KiB here


def write_logs(path: Path, games: Sequence[str], count: int, seed: int) -> None:
    """`count` random complete logs, the games in turn, one JSON object per line."""
    progress = Progress()
    engine = current_engine()
    with path.open("w", encoding="utf-8") as file:
        for index in range(count):
            if index % 500 == 0:
                progress.show(f"memory: writing log {index:,}/{count:,}")
            game = games[index % len(games)]
            (log,) = random_logs(engine, game, 1, seed * 1_000_003 + index)
            file.write(json.dumps(log, ensure_ascii=False, separators=(",", ":")) + "\n")
    progress.clear()


def replay_jsonl(path: str, out: TextIO) -> int:
    """Replay every line of `path` (a log each) with full checks, streaming; print the figures."""
    progress = Progress()
    before = peak_rss_mb()
    done = refused = 0
    begin = time.perf_counter()
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                if not line.strip():
                    continue
                try:
                    result(load(json.loads(line)))
                except (json.JSONDecodeError, RulesError):
                    refused += 1
                done += 1
                if done % 1000 == 0:
                    progress.show(f"memory: replayed {done:,} logs")
    except OSError as exc:
        print(f"{path}: cannot read: {exc.strerror}", file=out)
        return 2
    elapsed = time.perf_counter() - begin
    progress.clear()
    peak = peak_rss_mb()
    verdict = "met" if peak < RSS_TARGET_MB else "NOT met"
    print(
        f"memory: replayed {done:,} logs streamed from {path} ({refused} refused) in "
        f"{elapsed:.1f} s, {done / elapsed if elapsed else 0:,.0f} logs/s",
        file=out,
    )
    print(
        f"memory: peak RSS {peak:.1f} MB ({before:.1f} MB before the first log); "
        f"target < {RSS_TARGET_MB:g} MB: {verdict}",
        file=out,
    )
    return 0 if refused == 0 else 1


def memory_check(games: Sequence[str], count: int, seed: int, out: TextIO) -> int:
    """Write `count` logs to a temporary JSONL file and replay it in a child process."""
    with tempfile.TemporaryDirectory(prefix="rules-bench-") as folder:
        path = Path(folder) / "logs.jsonl"
        begin = time.perf_counter()
        write_logs(path, games, count, seed)
        size = path.stat().st_size / 2**20
        print(
            f"memory: wrote {count:,} random logs ({', '.join(games)}; {size:,.1f} MB) in "
            f"{time.perf_counter() - begin:.1f} s",
            file=out,
        )
        out.flush()
        env = dict(os.environ)
        # The child must import this tree's `rules`, wherever the command was started from.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(project_root()), env.get("PYTHONPATH")) if p
        )
        child = subprocess.run(
            [sys.executable, "-m", "rules", "bench", "--jsonl", str(path)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        out.write(child.stdout)
        return child.returncode
