"""A game's public replay: what the table showed after every action, and why (G-3 on the web).

Built from the stored log like `rules.log.public_record`, and nothing else: each step keeps its
events as a spectator saw them (`Game.public_event`), the rule behind each (`Event.because`),
and the spectator's view of the table after it (`Game.view(None)`). The setup (seed, decks,
hands) and the actions themselves never leave the rules; a game that is not over has no result
and shows nothing beyond its public table. Players are named by seat ("seat-1", ...) so that
no member id, hidden or not, is written into a replay; the page names the seats.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import AnyGame, Event, IllegalAction
from rules.log import LogError, apply_entry, start


def seat_key(seat: int) -> str:
    """The replay's name of the player at `seat` (0-based): "seat-1" for the first."""
    return f"seat-{seat + 1}"


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    """`value` with every string (and key) that is a player replaced by its seat key."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, Mapping):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_renamed(inner, names) for inner in value]
    return value


def _events(game: AnyGame, events: Sequence[Event], names: Mapping[str, str]) -> list[Any]:
    shown = []
    for event in events:
        data = type(game).public_event(event)  # UnclassifiedEvent for an undecided kind
        if data is None:
            continue
        because = event.because()
        entry = {"event": _renamed(data, names), "rule": None, "case": None}
        if because is not None:
            entry["rule"], entry["case"] = because.rule, because.case
        shown.append(entry)
    return shown


def _table(game: AnyGame, names: Mapping[str, str]) -> Any:
    # The view is JSON-ready (G-3); a JSON round trip makes it a plain copy of its own.
    return _renamed(json.loads(json.dumps(game.view(None))), names)


def public_replay(log: Mapping[str, Any]) -> dict[str, Any]:
    """{"game", "steps": [{"index", "player", "events", "table"}], "result"}: step 0 is the
    opening (no player), step i the table after the i-th action; "result" (scores and winners by
    seat key) only once the game is over. Raises LogError for a log that does not replay."""
    game = start(log)
    names = {player: seat_key(i) for i, player in enumerate(game.players)}
    steps = [
        {
            "index": 0,
            "player": None,
            "events": _events(game, game.opening_events(), names),
            "table": _table(game, names),
        }
    ]
    for index, entry in enumerate(log.get("actions", [])):
        try:
            events = apply_entry(game, entry)
        except IllegalAction as exc:
            raise LogError(str(exc), index) from None
        steps.append(
            {
                "index": index + 1,
                "player": names.get(entry["player"]),
                "events": _events(game, events, names),
                "table": _table(game, names),
            }
        )
    result = None
    if game.over:
        result = _renamed({"scores": game.scores(), "winners": game.winners()}, names)
    return {"game": game.name, "steps": steps, "result": result}


class ReplayCache:
    """Finished games' replays, the most recently asked kept: a finished game never changes,
    and replaying it is the dearest part of its page."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._kept: OrderedDict[int, dict[str, Any]] = OrderedDict()

    def replay(self, game_id: int, log: Mapping[str, Any], finished: bool) -> dict[str, Any]:
        kept = self._kept.get(game_id)
        if kept is not None:
            self._kept.move_to_end(game_id)
            return kept
        made = public_replay(log)
        if finished:
            self._kept[game_id] = made
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return made
