"""A computer player's decision as a worker process makes it (the bot's `AI_WORKERS` pool).

The bot sends a `Question` pickled: the state as it was when the decision was asked for, the
player, the level, the time budget and a seed. The worker builds the player's `info_set` itself,
here: an `InfoSet` holds a closure over the state, which does not pickle, and building it on
this side keeps the agent behind the same wall as in-process (it sees the observation, the legal
actions and samples, never the state). This module imports only `ai` and `rules`, so a worker
starts without loading Discord.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import Any

from ai.infoset import LOOK, info_set
from ai.levels import make_agent
from rules.base import AnyGame

# What a worker answers: ("look", None) for LOOK (a singleton, which would not survive a
# pickle as itself), or ("act", the action).
Answer = tuple[str, Any]


@dataclass(frozen=True, slots=True)
class Question:
    """One decision to make: `player`'s move in `state` at `level` within `budget_ms`."""

    state: AnyGame
    player: str
    level: str
    budget_ms: float
    seed: int


def agent_answer(state: AnyGame, player: str, level: str, budget_ms: float, seed: int) -> Any:
    """The agent's answer: a legal action, or `LOOK` (Kobayakawa, B-3)."""
    agent = make_agent(level, state.name, budget_ms=budget_ms)
    return agent.act(info_set(state, player), random.Random(seed))


def answer(question: bytes) -> Answer:
    """The worker's entry point: a pickled `Question` in, an `Answer` out."""
    asked = pickle.loads(question)
    assert isinstance(asked, Question)
    action = agent_answer(asked.state, asked.player, asked.level, asked.budget_ms, asked.seed)
    return ("look", None) if action is LOOK else ("act", action)


def ready() -> bool:
    """A no-op a new pool runs first: its worker starts (imports `ai` and `rules`) before the
    first real decision is timed."""
    return True
