"""A game's public replay: what the table showed after every action, and why (G-3 on the web).

Built from the stored log like `rules.log.public_record`, and nothing else: each step keeps its
events as a spectator saw them (`Game.public_event`), the rule behind each (`Event.because`),
and the spectator's view of the table after it (`Game.view(None)`). The setup (seed, decks,
hands) and the actions themselves never leave the rules; a game that is not over has no result
and shows nothing beyond its public table. Players are named by seat ("seat-1", ...) so that
no member id, hidden or not, is written into a replay; the page names the seats. The log itself
is renamed before it is replayed: the rules keep what they work out per (player, hand) for
the next game, which games between the same seats share and games between other members
would not.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import AnyGame, Event, IllegalAction
from rules.log import LogError, apply_entry, load, start


def seat_key(seat: int) -> str:
    """The replay's name of the player at `seat` (0-based): "seat-1" for the first."""
    return f"seat-{seat + 1}"


class Renamer:
    """Every string (and key) of a JSON value that is a player, replaced by its seat key: on the
    value's JSON text at once (a player is a whole JSON string, quotes included), several times
    quicker than walking the value."""

    def __init__(self, players: Sequence[Any]) -> None:
        quoted = {
            json.dumps(p, ensure_ascii=False): json.dumps(seat_key(i))
            for i, p in enumerate(players)
        }
        self._quoted = quoted
        self._pattern = re.compile("|".join(re.escape(q) for q in sorted(quoted, key=len)[::-1]))

    def __call__(self, value: Any) -> Any:
        text = json.dumps(value, ensure_ascii=False)
        return json.loads(self._pattern.sub(lambda m: self._quoted[m[0]], text))


def seated(log: Mapping[str, Any]) -> dict[str, Any]:
    """The log with its players renamed by seat, everywhere (the setup's deals by player too)."""
    renamed: dict[str, Any] = Renamer(list(log.get("players", [])))(log)
    return renamed


def _public(game: AnyGame, events: Sequence[Event]) -> list[tuple[Event, dict[str, Any]]]:
    """The events a spectator saw, each with its public data."""
    shown = []
    for event in events:
        data = type(game).public_event(event)  # UnclassifiedEvent for an undecided kind
        if data is not None:
            shown.append((event, data))
    return shown


def _entry(event: Event, data: dict[str, Any]) -> dict[str, Any]:
    because = event.because()
    entry: dict[str, Any] = {"event": data, "rule": None, "case": None}
    if because is not None:
        entry["rule"], entry["case"] = because.rule, because.case
    return entry


def _step(game: AnyGame, index: int, player: str | None, events: Sequence[Event]) -> dict[str, Any]:
    return {
        "index": index,
        "player": player,
        "events": [_entry(event, data) for event, data in _public(game, events)],
        "table": game.view(None),
    }


def _result(game: AnyGame) -> dict[str, Any] | None:
    return {"scores": game.scores(), "winners": game.winners()} if game.over else None


def public_replay(log: Mapping[str, Any]) -> dict[str, Any]:
    """{"game", "steps": [{"index", "player", "events", "table"}], "result"}: step 0 is the
    opening (no player), step i the table after the i-th action; "result" (scores and winners by
    seat key) only once the game is over. Raises LogError for a log that does not replay."""
    log = seated(log)
    game = start(log)
    steps = [_step(game, 0, None, game.opening_events())]
    for index, entry in enumerate(log.get("actions", [])):
        try:
            events = apply_entry(game, entry)
        except IllegalAction as exc:
            raise LogError(str(exc), index) from None
        steps.append(_step(game, index + 1, entry["player"], events))
    return {"game": game.name, "steps": steps, "result": _result(game)}


def public_step(log: Mapping[str, Any], index: int) -> dict[str, Any]:
    """One step of `public_replay` (clamped to the last) without building the others: the game
    replayed quickly to the action before it (`rules.log.load`), then that action applied.
    {"step", "last" (the last step's index), "result" (at the last step of a game over),
    "shown" (the step's events themselves, one per entry of its "events": the page tells them
    in the bot's words, `web.told`; not JSON)}."""
    log = seated(log)
    actions = list(log.get("actions", []))
    index = max(0, min(index, len(actions)))
    if index == 0:
        game = start(log)
        events = game.opening_events()
        step = _step(game, 0, None, events)
    else:
        game = load({**log, "actions": actions[: index - 1]})
        entry = actions[index - 1]
        try:
            events = apply_entry(game, entry)
        except IllegalAction as exc:
            raise LogError(str(exc), index - 1) from None
        step = _step(game, index, entry["player"], events)
    result = _result(game) if index == len(actions) else None
    shown = [event for event, _ in _public(game, events)]
    return {"step": step, "result": result, "last": len(actions), "shown": shown}


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
