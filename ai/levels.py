"""The computer players' levels: `random`, `easy`, `normal`, `hard` (issue 18).

- `random`: a uniformly random legal action (tests and the arena's floor).
- `easy`: the game's own heuristic (`Game.computer_action`, `rules/<game>_agent.py`), played on a
  sample: it reads only what the player sees, so any sample gives the real table's answer.
- `normal`: a small, fixed ISMCTS (`ai.ismcts`): a few dozen iterations, well under 50 ms
  (Rights of Losers: 16, its settling steps searched too, `easy`'s move among those tried).
  Kobayakawa: the CFR table (`ai.kobayakawa_table`), as strong as that search head to head,
  stronger against `easy`, and microseconds a decision.
- `hard`: ISMCTS under a time budget (or a fixed iteration count, for reproducible runs).
  KAMIZA: the others' moves and face-down cards as `normal` plays them (`ai.kamiza_model`), not
  `easy`'s tastes: the most it buys is with few iterations, on a loaded core.
  Kobayakawa: a best response to `normal`'s table (`ai.kobayakawa_hard`), its bets computed
  exactly and its draws from a table trained against `normal`: stronger than the search there,
  and milliseconds a decision (the budget is not used).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ai.infoset import LOOK, Agent, InfoSet
from ai.ismcts import TableModel, search
from ai.kamiza_model import model_play_out, model_step, pooled_sampler
from ai.kobayakawa_hard import BestResponseAgent
from ai.kobayakawa_table import TableAgent
from rules.kobayakawa_moves import KEEP_DRAWN, KEEP_HELD

# KAMIZA's `hard`: the others played, and their face-down cards weighed, as `normal` plays
# (`ai.kamiza_model`).
KAMIZA_MODEL = TableModel(pooled_sampler, model_step, model_play_out)

LEVELS = ("random", "easy", "normal", "hard")
DEFAULT_BUDGET_MS = 300
# `normal`'s iterations per game: about 5-20 ms a decision on one core (README: Computer players);
# a game added later (`rules.plugins`) gets the default.
NORMAL_ITERATIONS = {"kamiza": 32, "rights-of-losers": 16}
DEFAULT_NORMAL_ITERATIONS = 32


@dataclass(frozen=True, slots=True)
class RandomAgent:
    level: str = "random"

    def act(self, info: InfoSet, rng: random.Random) -> Any:
        return info.legal_actions[rng.randrange(len(info.legal_actions))]


@dataclass(frozen=True, slots=True)
class EasyAgent:
    """The game's heuristic on a sample. Kobayakawa's looks at the drawn card before keeping
    one (B-3): on a sample it answers LOOK, and keeps once shown the real card."""

    level: str = "easy"

    def act(self, info: InfoSet, rng: random.Random) -> Any:
        sample = info.sample(rng)
        action = sample.computer_action(info.player, rng)
        if action is None:  # a game without a heuristic
            return RandomAgent().act(info, rng)
        if info.can_look and action in (KEEP_DRAWN, KEEP_HELD):
            return LOOK  # it read the sample's drawn card: look at the real one first
        return action


# Rights of Losers' settling steps (chips, build, the winner's choice) have too many moves for a
# few dozen iterations; its `easy` measures them with care (rules/losers_agent.py), so the search
# tries `easy`'s move there besides its own few. `normal` once just played it there and searched
# the card plays only: 26.0 % against three `easy` (300 games, seed 1), 33.7 % searching both.
_SETTLING = frozenset({"chip", "build", "choice"})


@dataclass(frozen=True, slots=True)
class SearchAgent:
    """ISMCTS: `iterations` when given (reproducible), else as many as `budget_ms` allows.
    Rights of Losers: the search also tries `easy`'s move at a settling step."""

    level: str
    iterations: int | None = None
    budget_ms: float | None = None
    model: TableModel | None = None

    def act(self, info: InfoSet, rng: random.Random) -> Any:
        if len(info.legal_actions) == 1 and not info.can_look:
            return info.legal_actions[0]
        heuristic = None
        if info.game == "rights-of-losers" and info.observation.phase in _SETTLING:
            heuristic = EasyAgent().act(info, rng)
        iterations, budget_ms = self.iterations, self.budget_ms
        if info.can_look or getattr(info.observation, "drawn", None) is not None:
            # Kobayakawa's draw turn asks twice (LOOK, then which card to keep): half each, so
            # that the turn keeps to the budget.
            iterations = None if iterations is None else max(1, iterations // 2)
            budget_ms = None if budget_ms is None else budget_ms / 2
        return search(
            info,
            rng,
            iterations=iterations,
            budget_ms=budget_ms,
            also_try=heuristic,
            model=self.model,
        )


def make_agent(
    level: str,
    game: str,
    *,
    budget_ms: float = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
) -> Agent:
    """The agent of `level` for `game`; `hard` searches `iterations` when given, else
    `budget_ms` of wall time."""
    if level == "random":
        return RandomAgent()
    if level == "easy":
        return EasyAgent()
    if level == "normal":
        if game == "kobayakawa":
            return TableAgent("normal", EasyAgent())
        count = NORMAL_ITERATIONS.get(game, DEFAULT_NORMAL_ITERATIONS)
        return SearchAgent("normal", iterations=count)
    if level == "hard":
        if game == "kobayakawa":
            return BestResponseAgent("hard", TableAgent("hard", EasyAgent()))
        model = KAMIZA_MODEL if game == "kamiza" else None
        if iterations is not None:
            return SearchAgent("hard", iterations=iterations, model=model)
        return SearchAgent("hard", budget_ms=budget_ms, model=model)
    raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
