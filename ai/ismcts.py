"""Information Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012), single observer.

Each iteration draws a fresh sample of the hidden cards (`InfoSet.sample`, leaning towards what
the others' choices suggest: `ai.beliefs`; or as a `TableModel` draws them, KAMIZA's `hard`:
`ai.kamiza_model`), walks the searcher's
tree with the moves available in that sample, and plays the rest out with a playout policy.
A node is an information set of the searcher (the sequence of moves as labelled in `ai.moves`;
in KAMIZA and Kobayakawa the searcher's own moves only, see OTHERS_PLAY_THE_POLICY);
UCB counts a child's trials against how often it was available, not against its parent's visits
(availability counts), since a move exists only in the samples where its card is held.

Deterministic for a given information set, RNG state and iteration count; a time budget stops at
the last iteration that fits in the budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.beliefs import believed_sample
from ai.infoset import InfoSet
from ai.moves import label, moves, play
from ai.rollout import play_out, policy_for, rewards, step_for

EXPLORATION = 0.7
# The share of a time budget spent searching: the rest is for what comes around a search (the
# information set's copy, the sample's first draw, the caller's own work), so that a decision
# keeps to its budget (issue 18: p99 within the default budget on one core).
BUDGET_SHARE = 0.9
# Games whose tree branches on the searcher's own moves only, the others playing the playout
# policy inside the tree too. In KAMIZA the searcher's card goes face down, and in Kobayakawa the
# card it keeps is hidden: a node of another player below the searcher's move would be told that
# card (single-observer ISMCTS's leak) and answer it as no real player could, so the search
# would fear every move. Measured (KAMIZA, hard at 300 iterations against 3 normal, 100 games
# each): 40.5 % with the others' nodes, 44.5 % without; normal against 3 easy unchanged.
OTHERS_PLAY_THE_POLICY = frozenset({"kamiza", "kobayakawa"})


@dataclass(frozen=True, slots=True)
class TableModel:
    """How a search sees the table: `sampler(info, rng)` makes the search's sampler (a state
    per iteration, the others' hidden cards drawn), `step` plays one move of another player
    inside the tree, `play_out` plays a sample to its end."""

    sampler: Callable[[InfoSet, random.Random], Callable[[random.Random], Any]]
    step: Callable[[Any, str, random.Random], None]
    play_out: Callable[[Any, random.Random], None]


def _believed_sampler(info: InfoSet, _rng: random.Random) -> Callable[[random.Random], Any]:
    return lambda rng: believed_sample(info, rng)


def policy_model(game: str) -> TableModel:
    """The table as the game's playout policy plays it (`ai.rollout`), the hidden cards drawn
    by `ai.beliefs`."""
    policy = policy_for(game)
    return TableModel(
        _believed_sampler, step_for(policy), lambda state, rng: play_out(state, policy, rng)
    )


class Node:
    """The searcher's information set after a move made by `player` (None: the root)."""

    __slots__ = ("available", "children", "move", "player", "reward", "visits")

    def __init__(self, player: str | None, move: Any) -> None:
        self.player = player
        self.move = move
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0

    def score(self) -> float:
        return self.reward / self.visits + EXPLORATION * math.sqrt(
            math.log(self.available) / self.visits
        )


def search(
    info: InfoSet,
    rng: random.Random,
    *,
    iterations: int | None = None,
    budget_ms: float | None = None,
    also_try: Any = None,
    model: TableModel | None = None,
) -> Any:
    """The most tried root move after `iterations` iterations, or as many as `budget_ms` allows
    (at least one); a move of `info.legal_actions`, or LOOK. `also_try`: a legal move to try at
    the root besides those `ai.moves` proposes (the `easy` heuristic's, say). `model`: how the
    others play and what they hold (default: `policy_model`)."""
    root = Node(None, None)
    began = time.perf_counter()
    model = model or policy_model(info.game)
    sample = model.sampler(info, rng)
    deadline = None if budget_ms is None else began + BUDGET_SHARE * budget_ms / 1000
    done = 0
    while True:
        _iterate(root, info, sample, model, rng, also_try)
        done += 1
        if iterations is not None and done >= iterations:
            break
        if deadline is not None:
            now = time.perf_counter()
            if now + (now - began) / done >= deadline:  # the next iteration would overrun
                break
        if iterations is None and deadline is None:
            break
    best = max(root.children.values(), key=lambda n: (n.visits, n.reward))
    return best.move


def _iterate(
    root: Node,
    info: InfoSet,
    sample: Callable[[random.Random], Any],
    model: TableModel,
    rng: random.Random,
    also_try: Any,
) -> None:
    state = sample(rng)
    searcher = info.player
    node = root
    path = [root]
    model_others = info.game in OTHERS_PLAY_THE_POLICY
    step = model.step
    while (nxt := state.next()) is not None:
        player = nxt.player
        if model_others and player != searcher:
            step(state, player, rng)
            continue
        proposed = moves(state, player, searcher)
        if node is root and also_try is not None and also_try not in proposed:
            proposed.append(also_try)
        options = [(label(state, player, searcher, m), m) for m in proposed]
        children = node.children
        untried = []
        for key, move in options:
            child = children.get(key)
            if child is None:
                untried.append((key, move))
            else:
                child.available += 1
        if untried:
            key, move = untried[rng.randrange(len(untried))]
            child = Node(player, move)
            child.available = 1
            children[key] = child
            play(state, player, move)
            path.append(child)
            break
        best = max((children[key] for key, _ in options), key=Node.score)
        play(state, player, best.move)
        path.append(best)
        node = best
    model.play_out(state, rng)
    worth = rewards(state)
    for visited in path[1:]:
        visited.visits += 1
        assert visited.player is not None
        visited.reward += worth[visited.player]
