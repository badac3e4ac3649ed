"""Group commit: concurrent appends share one transaction; each caller hears its own outcome.

`GroupCommit` itself with a fake writer (batches, a failing batch retried one by one, cancelled
callers), then the ledger on both backends: many tables at once take few commits, and a refused
append among them fails only its own caller."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from ledger_helpers import play

from data.errors import LedgerError, LedgerFull, SequenceConflict
from data.group_commit import Batch, GroupCommit


class Writer:
    """A fake `write_batch`: records the batches; `bad` items refuse themselves, a `poison`
    item fails any batch it is in (as a COMMIT refused would), `gate` holds a batch open."""

    def __init__(self, poison: frozenset[int] = frozenset()) -> None:
        self.batches: list[list[int]] = []
        self.poison = poison
        self.gate: asyncio.Event | None = None

    async def __call__(self, items: Sequence[int]) -> list[int | Exception]:
        self.batches.append(list(items))
        if self.gate is not None:
            await self.gate.wait()
        await asyncio.sleep(0.001)  # a commit takes time: what comes meanwhile waits for it
        if self.poison & set(items):
            raise OSError("disk full")
        return [ValueError(f"bad {i}") if i < 0 else i * 10 for i in items]


async def test_one_caller_after_another_each_gets_its_own_commit():
    writer = Writer()
    commits = GroupCommit(writer)
    # Each next call comes as soon as the last is told: just as its drain ends (a drain counted
    # as running after it ended would leave this call waiting for ever, hence the timeout).
    assert [await asyncio.wait_for(commits.submit(i), 5) for i in range(5)] == [0, 10, 20, 30, 40]
    assert writer.batches == [[0], [1], [2], [3], [4]]  # nothing waits for a batch to fill


async def test_callers_at_once_share_a_commit_and_each_hears_its_own_outcome():
    writer = Writer()
    commits = GroupCommit(writer)
    outcomes = await asyncio.gather(
        *(commits.submit(i) for i in [*range(1, 100), -5]), return_exceptions=True
    )
    assert outcomes[:99] == [i * 10 for i in range(1, 100)]
    assert isinstance(outcomes[99], ValueError) and str(outcomes[99]) == "bad -5"
    assert len(writer.batches) <= 2 and commits.batches == len(writer.batches)


async def test_a_batch_written_whole_tells_its_callers_as_the_writer_says_so():
    """A backend that commits on a thread of its own hands the outcomes over in the callback
    that brings the thread's answer (`Batch.written`): the callers hear them then, a turn of
    the loop before the drain's task would wake."""
    told = asyncio.Event()  # the drain's own await of the writer: held until the callers heard

    async def writer(items: Batch[int, int]) -> list[int | Exception]:
        outcomes: list[int | Exception] = [i * 10 for i in items]
        items.written(outcomes)  # after the COMMIT, in the thread's callback
        await told.wait()
        return outcomes

    commits = GroupCommit(writer)
    callers = asyncio.gather(*(commits.submit(i) for i in range(3)))
    assert await asyncio.wait_for(callers, 5) == [0, 10, 20]
    assert commits.batches == 1
    told.set()
    await commits.close()
    assert commits.batches == 1  # counted once


async def test_a_failed_batch_is_written_again_one_by_one_and_only_once():
    writer = Writer(poison=frozenset({7}))
    commits = GroupCommit(writer)
    outcomes = await asyncio.gather(*(commits.submit(i) for i in range(10)), return_exceptions=True)
    assert [o for i, o in enumerate(outcomes) if i != 7] == [i * 10 for i in range(10) if i != 7]
    assert isinstance(outcomes[7], OSError)  # its own failure, told to it alone
    assert writer.batches == [list(range(10)), *([i] for i in range(10))]  # no retry after that


async def test_a_batch_the_storage_refuses_fails_every_caller_without_writing_one_by_one():
    class FullDisk(Writer):
        async def __call__(self, items: Sequence[int]) -> list[int | Exception]:
            self.batches.append(list(items))
            await asyncio.sleep(0.001)
            raise LedgerFull("disk full")

    writer = FullDisk()
    commits = GroupCommit(writer)
    outcomes = await asyncio.gather(*(commits.submit(i) for i in range(10)), return_exceptions=True)
    assert all(isinstance(o, LedgerFull) for o in outcomes)
    assert writer.batches == [list(range(10))] and commits.batches == 0  # no one-by-one retries


async def test_a_caller_cancelled_before_its_batch_leaves_nothing_written():
    writer = Writer()
    writer.gate = asyncio.Event()
    commits = GroupCommit(writer)
    first = asyncio.create_task(commits.submit(1))
    await asyncio.sleep(0.01)  # the batch [1] is being written; 2 waits for the next one
    second = asyncio.create_task(commits.submit(2))
    await asyncio.sleep(0.01)
    second.cancel()
    writer.gate.set()
    assert await first == 10
    with pytest.raises(asyncio.CancelledError):
        await second
    await commits.close()
    assert writer.batches == [[1]]


async def test_a_caller_cancelled_once_its_batch_is_taken_waits_for_it_to_end():
    writer = Writer()
    writer.gate = asyncio.Event()
    commits = GroupCommit(writer)
    caller = asyncio.create_task(commits.submit(3))
    await asyncio.sleep(0.01)
    caller.cancel()
    await asyncio.sleep(0.01)
    assert not caller.done()  # its item is being written: the caller goes on after that
    writer.gate.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert writer.batches == [[3]]


async def test_two_drains_write_at_once_and_close_waits_for_both():
    writer = Writer()
    writer.gate = asyncio.Event()
    commits = GroupCommit(writer, drains=2)
    calls = [asyncio.create_task(commits.submit(0))]
    await asyncio.sleep(0.01)  # [0] is being written
    calls += [asyncio.create_task(commits.submit(i)) for i in (1, 2)]
    await asyncio.sleep(0.01)
    assert writer.batches == [[0], [1, 2]]  # written at once, on two connections
    calls.append(asyncio.create_task(commits.submit(3)))
    await asyncio.sleep(0.01)
    assert len(writer.batches) == 2  # both drains are busy: 3 waits for one of them
    writer.gate.set()
    await commits.close()
    assert [c.result() for c in calls] == [0, 10, 20, 30]
    assert writer.batches == [[0], [1, 2], [3]]


async def test_two_idle_drains_share_what_waits_and_write_it_side_by_side():
    writer = Writer()
    writer.gate = asyncio.Event()
    commits = GroupCommit(writer, drains=2)
    calls = [asyncio.create_task(commits.submit(i)) for i in range(9)]  # all in one loop pass
    await asyncio.sleep(0.01)
    assert writer.batches == [[0, 1, 2, 3, 4], [5, 6, 7, 8]]  # both open at once, not one of 9
    writer.gate.set()
    assert await asyncio.gather(*calls) == [i * 10 for i in range(9)]
    await commits.close()


async def test_a_drain_stopped_mid_batch_tells_every_caller_still_waiting():
    writer = Writer()
    writer.gate = asyncio.Event()
    commits = GroupCommit(writer)
    taken = asyncio.create_task(commits.submit(1))
    await asyncio.sleep(0.01)  # [1] is being written
    queued = asyncio.create_task(commits.submit(2))
    await asyncio.sleep(0.01)
    for drain in list(commits._tasks):  # as the loop's end cancels it
        drain.cancel()
    outcomes = await asyncio.gather(taken, queued, return_exceptions=True)
    assert all(isinstance(o, LedgerError) and "stopped" in str(o) for o in outcomes), outcomes


# -- the ledger, on both backends ----------------------------------------------------------------


def _action(player: str, n: int) -> dict:
    return {"player": player, "card": "boss", "area": "kamiza", "n": n}


async def test_200_tables_at_once_share_commits_and_every_action_is_stored(ledger):
    games = [(await play(ledger, actions=0))[0] for _ in range(200)]
    before = ledger._appends.batches

    async def table(game_id: int) -> None:
        for seq in range(5):
            assert await ledger.append_action(game_id, seq, _action("101", seq)) is True

    await asyncio.gather(*(table(g) for g in games))
    commits = ledger._appends.batches - before
    assert commits <= 1000 / 10  # 1,000 appends: batches of ten or more on average
    for game_id in games:
        assert [a["n"] for a in (await ledger.game_log(game_id))["actions"]] == list(range(5))
    assert await ledger.integrity_problems() == []


async def test_a_refused_append_in_a_shared_commit_fails_only_its_own_caller(ledger):
    games = [(await play(ledger, actions=2))[0] for _ in range(20)]
    appends = [ledger.append_action(g, 2, _action("101", g)) for g in games]
    appends.insert(7, ledger.append_action(games[3], 0, _action("102", -1)))  # taken, different
    appends.insert(12, ledger.append_action(games[4], 9, _action("102", -1)))  # a gap
    outcomes = await asyncio.gather(*appends, return_exceptions=True)
    gap, taken = outcomes.pop(12), outcomes.pop(7)
    assert isinstance(taken, SequenceConflict) and isinstance(gap, SequenceConflict)
    assert (taken.seq, gap.seq, gap.expected) == (0, 9, 3)
    assert outcomes == [True] * 20
    for g in games:
        assert [a.get("n") for a in (await ledger.game_log(g))["actions"]][2] == g


async def test_notes_from_many_tables_share_commits_and_the_last_value_wins(sqlite_ledger):
    """SQLite: game notes (a table's message ids, a dozen a round) are batched like appends,
    so they never hold the writer in front of a click's append (issue 20)."""
    ledger = sqlite_ledger
    games = [(await play(ledger, actions=0))[0] for _ in range(50)]
    before = ledger._notes.batches

    async def table(game_id: int) -> None:
        for n in range(4):
            await ledger.set_note(game_id, "messages", {"table": n})

    await asyncio.gather(*(table(g) for g in games))
    assert ledger._notes.batches - before <= 200 / 10
    for game_id in games:
        assert (await ledger.notes(game_id))["messages"] == {"table": 3}
    refused, written = await asyncio.gather(  # a note of no game: refused for itself only
        ledger.set_note(10**9, "x", 1), ledger.set_note(games[0], "y", 2), return_exceptions=True
    )
    assert isinstance(refused, Exception) and written is None
    assert (await ledger.notes(games[0]))["y"] == 2


async def test_a_note_dropped_after_it_was_set_stays_dropped_whatever_the_batches(sqlite_ledger):
    """A drop asked for after a set, from another task while the set still waits for its batch,
    is written after it: a restart must not find an archive or rematch offer already taken back."""
    ledger = sqlite_ledger
    games = [(await play(ledger, actions=0))[0] for _ in range(20)]
    busy = [asyncio.create_task(ledger.set_note(g, "messages", {"n": 1})) for g in games]
    set_first = asyncio.create_task(ledger.set_note(games[0], "archive", {"due": 1.0}))
    await asyncio.sleep(0)  # the set is queued (behind the batch under way)
    await ledger.drop_note(games[0], "archive")
    await asyncio.gather(set_first, *busy)
    assert "archive" not in await ledger.notes(games[0])
