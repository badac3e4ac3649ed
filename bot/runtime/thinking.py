"""Computer players' decisions, made off the event loop (issue 18, "In the bot").

A decision is the `ai` agent of a level: a computer seat's own level, `normal` when the table
plays for a member (a timeout, autopilot). A search holds the CPU for its whole budget
(`AI_THINK_MS`); on the event loop that would stall every table's clicks meanwhile, so the
`Thinker` asks a process pool (`AI_WORKERS` processes) instead, sending the game's log pickled
(`ai.workers`: the worker loads the state from it).

What can go wrong costs one decision, never a table: a worker with no answer within the budget
and a margin (the machine is busy, the queue is long), a pool broken by a worker that died, or
an agent that fails. The move is then made by `normal` in-process (tens of milliseconds) and one
warning line is logged; a broken pool is replaced for the next decisions, and so is a pool whose
worker is still stuck long after its answer was given up. A table that closes cancels its
clock, and with it the decision it awaits: one still queued never runs, one running is
discarded (the table refuses any action once closed).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ai.infoset import LOOK
from ai.workers import Answer, Question, agent_answer, answer, ready, watch_parent
from rules.base import AnyGame

logger = logging.getLogger(__name__)

DEFAULT_LEVEL = "normal"  # a computer seat's level unless chosen; timeouts and autopilot
OFFERED_LEVELS = ("easy", "normal", "hard")  # what players choose from (`random`: tests, arena)
MARGIN_MS = 1000.0  # how late past its budget a worker's answer may come
STUCK_AFTER = 10.0  # a worker still busy this many timeouts after its answer was given up


class Thinker:
    """Makes decisions in `workers` processes (None: in-process, for tests and tools)."""

    def __init__(
        self,
        workers: int | None = None,
        think_ms: float = 300.0,
        *,
        margin_ms: float = MARGIN_MS,
        work: Callable[[bytes], Answer] = answer,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.think_ms = think_ms
        self.margin_ms = margin_ms
        self._work = work
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def deadline(self) -> float:
        """Seconds to wait for a worker's answer."""
        return (self.think_ms + self.margin_ms) / 1000

    def start(self) -> None:
        """Start the pool now (its workers import the agents), not at the first decision."""
        if self.workers is None or self._closed:
            return
        pool = self._pool_now()
        for _ in range(self.workers):
            pool.submit(ready).add_done_callback(_tell_ready)

    def close(self) -> None:
        """Shut the pool down (with the bot): queued decisions are dropped, workers stop."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _kill(pool)

    async def decide(
        self,
        state: AnyGame,
        log: Mapping[str, Any] | None,
        player: str,
        level: str,
        seed: int,
        where: str,
    ) -> Any:
        """`player`'s move in `state` (the game of `log`) at `level`: an action, or LOOK
        (Kobayakawa, B-3). Without a `log` it is made in-process. `where` names the table in a
        warning."""
        if self.workers is None or self._closed or log is None:
            return agent_answer(state, player, level, self.think_ms, seed)
        looked = bool(getattr(state, "has_looked", lambda player: False)(player))
        question = pickle.dumps(Question(log, looked, player, level, self.think_ms, seed))
        snapshot = state.clone()  # what the fallback decides on: the state as it was asked about
        pool = self._pool_now()
        try:
            future: Future[Answer] = pool.submit(self._work, question)
            kind, action = await asyncio.wait_for(asyncio.wrap_future(future), self.deadline)
        except TimeoutError:
            logger.warning(
                "%s: no answer from the %s computer player within %.0f ms; normal decides",
                where,
                level,
                self.deadline * 1000,
            )
            self._watch(pool, future)
        except BrokenProcessPool:
            logger.warning("%s: a computer player's worker died; new pool, normal decides", where)
            self._replace(pool, broken=True)
        except Exception as exc:  # the agent failed, or the pool was shut down meanwhile
            logger.warning(
                "%s: the %s computer player failed (%r); normal decides", where, level, exc
            )
        else:
            return LOOK if kind == "look" else action
        # `normal`, in-process, on the very state the worker was asked about
        return agent_answer(snapshot, player, DEFAULT_LEVEL, self.think_ms, seed)

    def _pool_now(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # `spawn`: a fresh interpreter, not a fork of this one with its threads and sockets.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _replace(self, pool: ProcessPoolExecutor, broken: bool = False) -> None:
        """A new pool for the next decisions (once per pool, however many noticed). A broken
        pool is left to its own thread, which is failing its queue and ending its workers (a
        shutdown meanwhile would race it); a stuck one is killed."""
        if self._pool is pool:
            self._pool = None
            if not broken:
                _kill(pool)
            self.start()

    def _watch(self, pool: ProcessPoolExecutor, future: Future[Answer]) -> None:
        """The answer given up on: never run it if still queued; if it still runs long after,
        its worker is stuck (a search ignores its budget only by a bug): replace the pool."""
        if future.cancel():
            return

        def check() -> None:
            if not future.done() and self._pool is pool:
                logger.warning("a computer player's worker is stuck; its pool is replaced")
                self._replace(pool)

        asyncio.get_running_loop().call_later(STUCK_AFTER * self.deadline, check)


def _tell_ready(started: Future[int]) -> None:
    if not started.cancelled() and started.exception() is None:
        logger.info("computer players: worker process %d is ready", started.result())


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop a pool without waiting for a search to finish its budget."""
    processes = list((pool._processes or {}).values())  # before shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()


class ThinkingTable(Protocol):
    """What a decision uses of its table (`bot.runtime.table.Table`)."""

    game_id: int
    seq: int
    closed: bool
    state: Any
    presenter: Any
    thinker: Thinker
    game_log: dict[str, Any] | None
    decision_seeds: random.Random


async def choose(table: ThinkingTable, player: str, level: str) -> Any:
    """The move of `player` at `level` at `table` now (None when the turn passed meanwhile: the
    table refuses a stale action). An agent that asks to look at Kobayakawa's drawn card (LOOK)
    has it marked on the real table as the Draw button marks it, in the ledger first, so that a
    restart does not offer the unseen choice again; it is then asked again."""
    seq, where = table.seq, f"game {table.game_id}"
    action = await table.thinker.decide(
        table.state, table.game_log, player, level, table.decision_seeds.getrandbits(64), where
    )
    if action is not LOOK:
        return action
    if table.closed or table.seq != seq:
        return None
    mark = getattr(table.presenter, "mark_seen_draw", None)  # the presenter of a game with B-3
    if mark is not None:
        await mark(table, player, seq)
    else:
        table.state.look(player)
    if table.closed or table.seq != seq:
        return None
    action = await table.thinker.decide(
        table.state, table.game_log, player, level, table.decision_seeds.getrandbits(64), where
    )
    if action is LOOK:
        raise ValueError(f"{level}: LOOK twice in one draw turn")
    return action
