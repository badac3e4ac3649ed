"""Which games the rules package knows, by their log name."""

from __future__ import annotations

from rules.base import AnyGame
from rules.kamiza import Kamiza
from rules.kobayakawa import Kobayakawa
from rules.losers import RightsOfLosers

GAMES: dict[str, type[AnyGame]] = {
    Kamiza.name: Kamiza,
    RightsOfLosers.name: RightsOfLosers,
    Kobayakawa.name: Kobayakawa,
}

# Named in LOG_FORMAT.md but not implemented yet: `replay` says so instead of "unknown game".
PLANNED_GAMES: frozenset[str] = frozenset()


def register(cls: type[AnyGame]) -> None:
    """Add a game class (a plugin, the tests' own game); registering it again is a no-op."""
    known = GAMES.get(cls.name)
    if known is not None and known is not cls:
        raise ValueError(f"two game classes are named {cls.name!r}")
    GAMES[cls.name] = cls


def game_class(name: str) -> type[AnyGame]:
    """The class for a game name; KeyError when unknown."""
    return GAMES[name]
