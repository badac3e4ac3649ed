"""The games' rules: pure state machines with no Discord, no I/O, no clock, no global RNG."""

from rules.base import (
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    MalformedAction,
    Next,
    RulesError,
    UnclassifiedEvent,
)

__all__ = [
    "Event",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "MalformedAction",
    "Next",
    "RulesError",
    "UnclassifiedEvent",
]
