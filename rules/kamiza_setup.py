"""What a KAMIZA match is made from and its log holds: the options (editions K-1, the advanced
rule, the house rule H-1), the start player drawn (K-12), and the plays of its log entries."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import InvalidSetup, MalformedAction, require_fields
from rules.choice_draw import CHOICE_RANDOM, draw_below
from rules.kamiza_moves import ALL_CARDS, AREAS, EDITIONS, PLAY_OF_FIELDS, PLAYS, SECOND, Play


class KamizaSetup:
    """The class methods of `Kamiza` that read its options, draw its setup and read its log."""

    @classmethod
    def normalise_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        if not options and (options is None or type(options) is dict):
            return {"edition": SECOND, "advanced": False}
        if type(options) is dict and len(options) == 2:  # already normal: as every log has them
            edition, advanced = options.get("edition"), options.get("advanced")
            if type(edition) is str and edition in EDITIONS and type(advanced) is bool:
                return {"edition": edition, "advanced": advanced}
        options = dict(options or {})
        unknown = sorted(set(options) - {"edition", "advanced", "simultaneous"})
        if unknown:
            raise InvalidSetup(f"unknown option {unknown[0]!r}")
        edition = options.get("edition", SECOND)
        if edition not in EDITIONS:
            raise InvalidSetup(f"edition must be 'second' or 'classic', not {edition!r}")
        advanced = options.get("advanced", False)
        if not isinstance(advanced, bool):
            raise InvalidSetup("advanced must be true or false")
        simultaneous = options.get("simultaneous", False)
        if not isinstance(simultaneous, bool):
            raise InvalidSetup("simultaneous must be true or false")
        normal: dict[str, Any] = {"edition": edition, "advanced": advanced}
        if simultaneous:  # the house rule (H-1); absent when off, as in every log before it
            normal["simultaneous"] = True
        return normal

    @classmethod
    def draw_setup(
        cls, players: Sequence[str], options: Mapping[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """K-12: the first start player is chosen at the table, at random if nobody chooses."""
        if type(rng) is CHOICE_RANDOM and players:
            return {"start_player": players[draw_below(rng, len(players))]}
        return {"start_player": rng.choice(list(players))}

    @classmethod
    def parse_action(cls, data: Mapping[str, Any]) -> Play:
        if type(data) is dict and len(data) == 2:  # the usual, well-formed entry: one lookup
            try:
                play = PLAY_OF_FIELDS.get((data.get("card"), data.get("area")))
            except TypeError:  # an unhashable value: refused below with the usual message
                play = None
            if play is not None:
                return play
        require_fields(data, ("card", "area"))
        card, area = data["card"], data["area"]
        if not isinstance(card, str) or card not in ALL_CARDS:
            raise MalformedAction(f"unknown card {card!r}")
        if not isinstance(area, str) or area not in AREAS:
            raise MalformedAction(f"area must be 'kamiza' or 'shimoza', not {area!r}")
        return PLAYS[card, area]
