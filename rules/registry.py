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


def game_class(name: str) -> type[AnyGame]:
    """The class for a game name; KeyError when unknown."""
    return GAMES[name]
