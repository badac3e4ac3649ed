"""A computer player's decision as a worker process makes it (the bot's `AI_WORKERS` pool).

The bot sends a `Question` pickled: the game's log as it was when the decision was asked for
(LOG_FORMAT.md: the header and the actions), whether the player has looked at Kobayakawa's drawn
card (B-3, no log action), the player, the level, the time budget and a seed. The worker loads
the state from the log, as a restart does: a state itself does not survive a pickle intact (the
rules share their immutable parts by identity, `rules.kamiza_moves`), a log does. It then builds
the player's `info_set` itself: an `InfoSet` holds a closure over the state, which does not
pickle, and building it on this side keeps the agent behind the same wall as in-process (it sees
the observation, the legal actions and samples, never the state). This module imports only `ai`
and `rules`, so a worker starts without loading Discord.
"""

from __future__ import annotations

import os
import pickle
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai.infoset import LOOK, info_set
from ai.levels import make_agent
from rules.base import AnyGame
from rules.log import load

# What a worker answers: ("look", None) for LOOK (a singleton, which would not survive a
# pickle as itself), or ("act", the action).
Answer = tuple[str, Any]


@dataclass(frozen=True, slots=True)
class Question:
    """One decision to make: `player`'s move in the game of `log` at `level` within
    `budget_ms`; `looked`: they have seen the drawn card (Kobayakawa, B-3)."""

    log: Mapping[str, Any]
    looked: bool
    player: str
    level: str
    budget_ms: float
    seed: int

    def state(self) -> AnyGame:
        state = load(self.log)
        if self.looked:
            state.look(self.player)  # type: ignore[attr-defined]  # only Kobayakawa looks
        return state


def agent_answer(state: AnyGame, player: str, level: str, budget_ms: float, seed: int) -> Any:
    """The agent's answer: a legal action, or `LOOK` (Kobayakawa, B-3)."""
    agent = make_agent(level, state.name, budget_ms=budget_ms)
    return agent.act(info_set(state, player), random.Random(seed))


def answer(question: bytes) -> Answer:
    """The worker's entry point: a pickled `Question` in, an `Answer` out."""
    asked = pickle.loads(question)
    assert isinstance(asked, Question)
    state = asked.state()
    action = agent_answer(state, asked.player, asked.level, asked.budget_ms, asked.seed)
    return ("look", None) if action is LOOK else ("act", action)


def ready() -> int:
    """A no-op a new pool runs first: its worker starts (imports `ai` and `rules`) before the
    first real decision is timed. The worker's process id."""
    return os.getpid()


def watch_parent(parent: int) -> None:
    """A worker's initializer: the worker exits once the bot's process is gone. A bot killed
    with -9 shuts no pool down, and a worker waits on the pool's queue forever otherwise."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch the bot", daemon=True).start()
