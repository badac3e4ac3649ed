"""Computer players (issue 18): rules decide what is legal, `ai` decides what to play.

An agent never sees a game's state: `info_set(state, player)` gives it the player's observation,
the legal actions and fresh samples of the hidden cards; `decide` asks an agent for a legal
action. Levels in `ai.levels`; the benchmark in `ai.arena` (`python -m ai arena`).
"""

from ai.infoset import LOOK, Agent, InfoSet, decide, info_set
from ai.levels import LEVELS, make_agent

__all__ = ["LEVELS", "LOOK", "Agent", "InfoSet", "decide", "info_set", "make_agent"]
