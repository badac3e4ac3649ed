"""KAMIZA, `hard`'s model of the table, counted offline: self-play of four `normal`s
(`python -m ai train-kamiza` rewrites `ai/kamiza_normal.json` byte for byte). Apart from
`ai.kamiza_model`, which `normal`'s own level (`ai.levels`) loads: the counting plays `normal`."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from ai.infoset import decide
from ai.kamiza_model import context_key, context_of
from ai.levels import make_agent
from rules.log import new_header, start


def count_choices(games: int, seed: int) -> dict[str, dict[str, int]]:
    """Self-play of four `normal`s (second edition): each context's (card, area) counts."""
    counts: Counter[tuple[str, str]] = Counter()
    players = ["a", "b", "c", "d"]
    for index in range(games):
        state = start(
            new_header("kamiza", players, seed=seed * 1_000_003 + index, keep_seating=True)
        )
        agents = {player: make_agent("normal", "kamiza") for player in players}
        rng = random.Random(seed * 7_919 + index)
        while (nxt := state.next()) is not None:
            player = nxt.player
            context = context_key(context_of(state, player))
            action = decide(state, player, agents[player], rng)
            counts[context, f"{action.card}/{action.area}"] += 1
            state.apply(player, action)
    table: dict[str, dict[str, int]] = {}
    for (context, choice), count in sorted(counts.items()):
        table.setdefault(context, {})[choice] = count
    return table


def write_counts(table: dict[str, dict[str, int]], path: Path) -> None:
    path.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
