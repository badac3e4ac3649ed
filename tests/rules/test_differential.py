"""The rules engine against the differential fixture (`tests/rules/differential/`).

Every stored log (complete random games and mutants of them, more than 10,000 per title) is
replayed and judged as the recorder did: events, refusals, results, legal actions and views must
be exactly what the engine said when the fixture was recorded. A change that alters a judgement
on purpose re-records the fixture: `python -m tests.rules.differential.record --expected-only`.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor

import pytest
from differential.fixture import TITLES, cases, check, first_difference
from differential.outcome import compute, digest, summary

from rules.log import LogError, load

QUICK = 300  # logs per title in the quick run
SHOWN = 5  # mismatches reported in full


def replay_share(title: str, limit: int | None, share: int, shares: int) -> tuple[int, list[str]]:
    """Replay every `shares`-th log from `share` on: (logs replayed, their problems; the first
    SHOWN explained in full, the rest named only)."""
    failures: list[str] = []
    total = 0
    for index, kind, log, expected in cases(title, limit):
        if index % shares != share:
            continue
        total += 1
        if len(failures) < SHOWN:
            problem = check(title, index, kind, log, expected)
        else:  # only count: `check` may rebuild the recording engine to explain a mismatch
            problem = first_difference(expected, summary(compute(log)))
        if problem:
            failures.append(problem)
    return total, failures


def replay_fixture(title: str, limit: int | None, workers: int = 1) -> None:
    """Replay a title's fixture, split over `workers` processes (the full fixture is minutes of
    pure computation: on a machine with two cores, two halves take half the time)."""
    began = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            jobs = [pool.submit(replay_share, title, limit, w, workers) for w in range(workers)]
            shares = [job.result() for job in jobs]
    else:
        shares = [replay_share(title, limit, 0, 1)]
    total = sum(count for count, _ in shares)
    failures = [problem for _, problems in shares for problem in problems]
    elapsed = time.perf_counter() - began
    assert not failures, (
        f"{len(failures)} of {total} {title} logs are judged differently from the fixture "
        f"(replayed in {elapsed:.0f} s); the first {min(len(failures), SHOWN)}:\n\n"
        + "\n\n".join(failures[:SHOWN])
    )


@pytest.mark.parametrize("title", TITLES)
def test_differential_quick(title: str) -> None:
    """The first QUICK logs of each title (complete games and their mutants)."""
    replay_fixture(title, QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("title", TITLES)
def test_differential_full(title: str) -> None:
    """Every log of the fixture, over as many processes as there are cores (up to four)."""
    replay_fixture(title, None, workers=min(4, os.cpu_count() or 1))


@pytest.mark.parametrize("title", TITLES)
def test_fixture_matches_load(title: str) -> None:
    """The fixture's step-by-step replay says what `rules.log.load` (the replay command's entry
    point) says: the same refusal, or the same end state."""
    for index, kind, log, expected in cases(title, QUICK):
        refused = expected["refused"]
        try:
            state = load(log)
        except Exception as exc:
            assert refused is not None, f"log {index} ({kind}): load refused it: {exc}"
            if refused["at"] == "header":
                assert (type(exc).__name__, str(exc)) == (refused["error"], refused["message"])
            elif isinstance(exc, LogError):
                assert exc.index == refused["at"], f"log {index} ({kind})"
                assert str(exc) == f"action {refused['at']}: {refused['message']}"
            else:  # an engine crash, passed on by load as it is
                assert (type(exc).__name__, str(exc)) == (refused["error"], refused["message"])
            continue
        assert refused is None, f"log {index} ({kind}): load accepted it"
        assert [state.next() is None, state.scores(), state.winners()] == [
            expected["over"],
            expected["scores"],
            expected["winners"],
        ], f"log {index} ({kind})"


def test_summary_digest_is_the_canonical_json_digest() -> None:
    """`summary` builds the sha256 of the outcome's canonical JSON from its parts' texts."""
    for title in TITLES:
        for _, _, log, _ in cases(title, 40):
            out = compute(log)
            assert summary(out)["sha"] == digest(out)
