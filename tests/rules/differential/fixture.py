"""Reading, writing and comparing the differential fixture (the files under `data/`).

Per title two gzip JSONL files, line N of one matching line N of the other:
`<title>.logs.jsonl.gz` holds `{"kind": ..., "log": ...}` (the input: a log and how it was made)
and `<title>.expected.jsonl.gz` the `outcome.summary` of that log as the recorded engine judged it.
"""

from __future__ import annotations

import difflib
import gzip
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from differential.outcome import SUMMARY_FIELDS, canonical, compute, locate, summary

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
REPO = HERE.parents[2]
TITLES = ("kamiza", "kobayakawa", "rights-of-losers")
DIFF_LINES = 60


def logs_path(title: str, root: Path = DATA) -> Path:
    return root / f"{title}.logs.jsonl.gz"


def expected_path(title: str, root: Path = DATA) -> Path:
    return root / f"{title}.expected.jsonl.gz"


def read_jsonl(path: Path, limit: int | None = None) -> Iterator[Any]:
    with gzip.open(path, "rt", encoding="utf-8") as file:
        for line in islice(file, limit):
            yield json.loads(line)


def write_jsonl(path: Path, values: Iterable[Any], *, sort_keys: bool = False) -> None:
    """Gzip level 9 with a zero mtime and no name, so equal content gives equal bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(path, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as file,
    ):
        for value in values:
            text = json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False)
            file.write(text.encode() + b"\n")


def cases(title: str, limit: int | None = None) -> Iterator[tuple[int, str, Any, dict[str, Any]]]:
    """(index, kind, log, expected summary) for the first `limit` logs of a title (all: None)."""
    logs = read_jsonl(logs_path(title), limit)
    expected = read_jsonl(expected_path(title), limit)
    count = 0
    for index, (entry, summary_) in enumerate(zip(logs, expected, strict=True)):
        yield index, entry["kind"], entry["log"], summary_
        count += 1
    assert count, f"no logs in {logs_path(title)}"


# -- comparing -------------------------------------------------------------------------------------


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """None when the summaries agree, else the first differing field, readably."""
    if expected["sha"] == actual["sha"]:
        return None
    for key in SUMMARY_FIELDS:
        if expected.get(key) != actual.get(key):
            return (
                f"field {key!r}:\n  recorded: {canonical(expected.get(key))}\n"
                f"  now:      {canonical(actual.get(key))}"
            )
    names = list(actual["parts"]) + [n for n in expected["parts"] if n not in actual["parts"]]
    for name in names:
        if expected["parts"].get(name) != actual["parts"].get(name):
            return f"field {name!r} (digest)"
    return "the outcome's digest (no field differs: the outcome's shape changed)"


def check(title: str, index: int, kind: str, log: Any, expected: dict[str, Any]) -> str | None:
    """None when today's engine agrees with the record of this log, else a readable report."""
    out = compute(log)
    difference = first_difference(expected, summary(out))
    if difference is None:
        return None
    return "\n".join(
        [
            f"log {index} of {title} ({kind}) differs in {difference}",
            explain(title, log, out),
            f"  whole log and current outcome: "
            f"python -m tests.rules.differential.record --show {title}:{index}",
        ]
    )


def explain(title: str, log: Any, out: dict[str, Any]) -> str:
    """The first difference, value by value, between the engine that recorded the fixture
    (rebuilt from git) and today's; without git, only today's value can be shown."""
    now = _plain(out)
    recorded = recorded_outcome(title, log)
    if isinstance(recorded, str):
        return f"  (no recorded value to compare with: {recorded})"
    found = locate(recorded, now)
    if found is None:
        return "  (the recorded engine, rebuilt from git, gives today's outcome: check the fixture)"
    where, before, after = found
    lines = [f"  first difference, under the recording engine vs now: {where}"]
    if where.startswith(("events of action", "sample before action")):
        index = int(where.rsplit(" ", 1)[1])
        actions = log.get("actions") if isinstance(log, dict) else None
        if isinstance(actions, list) and index < len(actions):
            lines.append(f"  the action: {canonical(actions[index])}")
    old, new = _pretty(before).splitlines(), _pretty(after).splitlines()
    diff = list(difflib.unified_diff(old, new, "recorded", "now", lineterm=""))
    if len(diff) > DIFF_LINES:
        diff = [*diff[:DIFF_LINES], f"... ({len(diff) - DIFF_LINES} more lines)"]
    lines.extend("  " + line for line in diff)
    return "\n".join(lines)


def _plain(value: Any) -> Any:
    return json.loads(canonical(value))


def _pretty(value: Any) -> str:
    return json.dumps(value, sort_keys=True, indent=1, ensure_ascii=False)


def recorded_commit(title: str) -> str | None:
    """The commit that last wrote a title's expected outcomes (None outside git)."""
    path = expected_path(title).relative_to(REPO)
    try:
        done = subprocess.run(
            ["git", "log", "-1", "--format=%H", "--", str(path)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def recorded_outcome(title: str, log: Any) -> Any:
    """The outcome of `log` under the engine of the commit that recorded the fixture, or a
    sentence saying why it cannot be had. Uses `git archive` into a temporary directory."""
    commit = recorded_commit(title)
    if commit is None:
        return "the recording commit is unknown (not a git checkout, or the fixture is uncommitted)"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            archive = subprocess.run(
                ["git", "archive", "--format=tar", commit, "rules", "tests/rules/differential"],
                cwd=REPO,
                capture_output=True,
                timeout=120,
                check=True,
            )
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                if hasattr(tarfile, "data_filter"):
                    tar.extractall(tmp, filter="data")
                else:  # Python < 3.11.4; the archive is our own repository's
                    tar.extractall(tmp)
            script = (
                "import json, sys; sys.path.insert(0, 'tests/rules');"
                "from differential.outcome import canonical, compute;"
                "print(canonical(compute(json.load(sys.stdin))))"
            )
            done = subprocess.run(
                [sys.executable, "-c", script],
                cwd=tmp,
                input=json.dumps(log),
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
            )
        except (OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
            return f"cannot replay under the recorded engine {commit[:10]}: {exc}"
    return json.loads(done.stdout)
