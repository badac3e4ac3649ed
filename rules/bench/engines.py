"""The two engines a benchmark races: the one in this tree, and the `rules` package of an older
git revision, imported under another name so that both live in one process."""

from __future__ import annotations

import importlib
import io
import re
import subprocess
import sys
import tarfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules

# The interface the benchmark relies on: only the entry points that scripts outside the project
# use, so that this module needs no change when the engines behind them are rewritten.
Log = Mapping[str, Any]
LoadLog = Callable[[Log], Any]
NewHeader = Callable[..., dict[str, Any]]
RandomAction = Callable[[Any, str, Any], Any]
RandomMatch = Callable[[str, list[str], int], tuple[Any, dict[str, Any]]]
Answer = Callable[[Any], dict[str, Any]]

OLD_PACKAGE = "rules_old"
# `from rules.x import y`, `from rules import y`, `import rules.x`, also indented (lazy imports).
_ABSOLUTE_IMPORT = re.compile(r"^(\s*)(from|import)\s+rules(?=[.\s])", re.MULTILINE)


@dataclass(frozen=True)
class Engine:
    """One version of the rules package, reached through its public entry points."""

    label: str
    load: LoadLog
    start: LoadLog
    new_header: NewHeader
    random_action: RandomAction
    random_match: RandomMatch
    result: Answer


def engine_from_package(label: str, package: str) -> Engine:
    """The entry points of the package named `package` (`rules` or the renamed old copy)."""
    log = importlib.import_module(f"{package}.log")
    agents = importlib.import_module(f"{package}.agents")
    random_play = importlib.import_module(f"{package}.random_play")
    return Engine(
        label=label,
        load=log.load,
        start=log.start,
        new_header=log.new_header,
        random_action=agents.random_action,
        random_match=random_play.random_match,
        result=log.result,
    )


def current_engine() -> Engine:
    return engine_from_package("new", "rules")


class OldEngineUnavailable(Exception):
    """No git, no repository around this tree (a source tarball), or an unknown revision."""


def project_root() -> Path:
    """The folder holding the `rules` package that runs now (the work tree, in a checkout)."""
    return Path(rules.__file__).resolve().parent.parent


def export_old_package(rev: str, into: Path) -> Path:
    """Write `rules/` of `rev` into `into/rules_old/`, its absolute imports renamed; its path.

    Raises OldEngineUnavailable with a one-line reason.
    """
    root = project_root()
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", rev, "rules"],
            capture_output=True,
            check=False,
        )
    except OSError as exc:
        raise OldEngineUnavailable(f"git is not available ({exc.strerror})") from None
    if archive.returncode != 0:
        reason = archive.stderr.decode(errors="replace").strip().splitlines()
        raise OldEngineUnavailable(reason[-1] if reason else f"git archive {rev} failed")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: refuse odd members
            tar.extractall(into, filter="data")
        else:  # pragma: no cover - older 3.11: the archive comes from our own repository
            tar.extractall(into)
    package = into / OLD_PACKAGE
    (into / "rules").rename(package)
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        source.write_text(_ABSOLUTE_IMPORT.sub(rf"\1\2 {OLD_PACKAGE}", text), encoding="utf-8")
    return package


def old_engine(rev: str, into: Path) -> Engine:
    """The engine of revision `rev`, imported as `rules_old` from a copy under `into`.

    `into` stays on sys.path while the process runs (an old module may import lazily); the
    caller removes the folder at exit.
    """
    if OLD_PACKAGE in sys.modules:
        raise OldEngineUnavailable(f"a module named {OLD_PACKAGE} is already imported")
    export_old_package(rev, into)
    sys.path.insert(0, str(into))
    importlib.invalidate_caches()
    engine = engine_from_package("old", OLD_PACKAGE)
    _check_isolated()
    return engine


def _check_isolated() -> None:
    """No module of the old copy may use a class or function of the current `rules`."""
    for name, module in list(sys.modules.items()):
        if name != OLD_PACKAGE and not name.startswith(f"{OLD_PACKAGE}."):
            continue
        for value in vars(module).values():
            origin = getattr(value, "__module__", None)
            if isinstance(origin, str) and (origin == "rules" or origin.startswith("rules.")):
                raise OldEngineUnavailable(f"{name} uses {origin} of the current tree")


def resolve_revision(rev: str) -> str:
    """The short commit id of `rev`, for the report; `rev` itself when git cannot tell."""
    try:
        done = subprocess.run(
            ["git", "-C", str(project_root()), "rev-parse", "--short", f"{rev}^{{commit}}"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return rev
    return done.stdout.strip() if done.returncode == 0 else rev
