"""Game logs (LOG_FORMAT.md): create a header, rebuild a game from a log, replay it, and turn it
into the public record a spectator could have written down (G-3)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.base import AnyGame, Event, IllegalAction, InvalidSetup, RulesError, seat_players
from rules.registry import GAMES, PLANNED_GAMES

FORMAT_VERSION = 1


class UnsupportedGame(RulesError):
    """A game named by the log format that this version cannot judge yet."""


class LogError(RulesError):
    """A log that cannot be replayed; `index` is the failing action's index, if any."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        where = f"action {index}" if index is not None else "log"
        super().__init__(f"{where}: {reason}")
        self.reason = reason
        self.index = index


def new_header(
    game: str,
    joined: Sequence[str],
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    *,
    keep_seating: bool = False,
    **chosen: Any,
) -> dict[str, Any]:
    """A fresh log header: seating and setup drawn from a seeded RNG recorded in the setup (G-1).

    `chosen` overrides setup keys decided at the table (e.g. `start_player` for KAMIZA, K-12).
    `keep_seating`: the players sit in the order given (a benchmark that rotates the seats);
    the setup is then drawn from the seed's first draws instead.
    """
    cls = game_class_or_raise(game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    rng = random.Random(seed)
    players = list(joined) if keep_seating else seat_players(joined, rng)
    opts = cls.normalise_options(options)
    setup = cls.draw_setup(players, opts, rng)
    overridden = False
    for key, value in chosen.items():
        if value is not None:
            setup[key] = value
            overridden = True
    setup["seed"] = seed
    if overridden:  # what `draw_setup` drew is valid by construction; a table's choice may not be
        cls.create(players, opts, setup)
    return {
        "format": FORMAT_VERSION,
        "game": game,
        "options": opts,
        "players": players,
        "setup": setup,
        "actions": [],
    }


def game_class_or_raise(name: Any) -> type[AnyGame]:
    if not isinstance(name, str):  # JSON may hold an object here: refused, not a crash
        raise InvalidSetup(f"unknown game {name!r}")
    if name in GAMES:
        return GAMES[name]
    if name in PLANNED_GAMES:
        raise UnsupportedGame(f"{name}: not supported yet")
    raise InvalidSetup(f"unknown game {name!r}")


def start(log: Mapping[str, Any]) -> AnyGame:
    """The initial state described by a log's header; raises LogError or UnsupportedGame."""
    if not isinstance(log, Mapping):
        raise LogError("a log must be a JSON object")
    if log.get("format", FORMAT_VERSION) != FORMAT_VERSION:
        raise LogError(f"unsupported format {log.get('format')!r}")
    for key in ("game", "players", "setup"):
        if key not in log:
            raise LogError(f"missing key {key!r}")
    try:
        cls = game_class_or_raise(log["game"])
        options = log.get("options")
        if options is not None and not isinstance(options, Mapping):
            raise InvalidSetup("options must be an object")
        if not isinstance(log["setup"], Mapping):
            raise InvalidSetup("setup must be an object")
        return cls.create(log["players"], options, log["setup"])
    except InvalidSetup as exc:
        raise LogError(str(exc)) from None


def parse_entry(game: AnyGame, entry: Any) -> tuple[str, Any]:
    """The (player, action) of one log entry; raises IllegalAction when malformed."""
    if type(entry) is dict and "player" in entry:
        # What JSON gives, on every action of a replay: a plain copy without the player.
        fields = entry.copy()
        return fields.pop("player"), type(game).parse_action(fields)
    if not isinstance(entry, Mapping) or "player" not in entry:
        raise IllegalAction("LOG", "an action must be an object with a 'player'")
    player = entry["player"]
    fields = {k: v for k, v in entry.items() if k != "player"}
    return player, type(game).parse_action(fields)


def apply_entry(game: AnyGame, entry: Any) -> list[Event]:
    """Parse and apply one log entry."""
    player, action = parse_entry(game, entry)
    if player not in game.players:
        raise IllegalAction("LOG", f"unknown player {player!r}")
    return game.apply(player, action)


def load(log: Mapping[str, Any]) -> AnyGame:
    """The state after every action of a log; raises LogError naming the failing action."""
    game = start(log)
    actions = log.get("actions", [])
    if not isinstance(actions, list):
        raise LogError("actions must be a list")
    # A game may replay plain entries itself, quickly (`fast_forward(actions, index)` applies
    # from `index` on what `apply_entry` would apply, and returns where it stopped); every other
    # entry, and every refusal, goes through `apply_entry` here.
    fast_forward = getattr(game, "fast_forward", None)
    index = 0
    while index < len(actions):
        if fast_forward is not None:
            index = fast_forward(actions, index)
            if index >= len(actions):
                break
        try:
            apply_entry(game, actions[index])
        except IllegalAction as exc:
            raise LogError(str(exc), index) from None
        index += 1
    return game


def result(game: AnyGame) -> dict[str, Any]:
    """The replay answer of LOG_FORMAT.md for a state."""
    nxt = game.next()
    return {
        "game": game.name,
        "over": nxt is None,
        "scores": game.scores(),
        "winners": game.winners(),
        "next": nxt.to_json() if nxt else None,
        **game.details(),
    }


def replay(log: Mapping[str, Any]) -> dict[str, Any]:
    """Re-judge a whole log."""
    return result(load(log))


def public_record(log: Mapping[str, Any]) -> dict[str, Any]:
    """What the table showed of a game, step by step: nothing chance decided that stayed hidden.

    The log is replayed and each action's events are kept as a spectator saw them
    (`Game.public_event`); the setup (seed, decks, hands) and the actions themselves (which card
    was played face down, which card a Kobayakawa player kept) are left out. Shape::

        {"format": 1, "game": G, "options": {...}, "players": [...], "public": true,
         "opening": [event, ...],                      # the set-up as the table saw it
         "steps": [{"player": P, "events": [event, ...]}, ...],   # one per action, in order
         "result": {"scores": {...}, "winners": [...]}}           # only once the game is over

    Raises LogError (or UnsupportedGame) like `load`, and UnclassifiedEvent for an event kind
    whose visibility its game has not decided: an export then fails rather than leak.
    """
    game = start(log)
    cls = type(game)
    opening = _public(cls, game.opening_events())
    actions = log.get("actions", [])
    if not isinstance(actions, list):
        raise LogError("actions must be a list")
    steps: list[dict[str, Any]] = []
    for index, entry in enumerate(actions):
        try:
            events = apply_entry(game, entry)
        except IllegalAction as exc:
            raise LogError(str(exc), index) from None
        steps.append({"player": entry["player"], "events": _public(cls, events)})
    record: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "game": game.name,
        "options": cls.normalise_options(log.get("options")),
        "players": list(game.players),
        "public": True,
        "opening": opening,
        "steps": steps,
    }
    if game.over:
        record["result"] = {"scores": game.scores(), "winners": game.winners()}
    return record


def _public(cls: type[AnyGame], events: Sequence[Event]) -> list[dict[str, Any]]:
    shown = (cls.public_event(event) for event in events)
    return [_plain(data) for data in shown if data is not None]


def _plain(value: Any) -> Any:
    """JSON-ready: tuples become lists, so the record equals its own JSON round trip."""
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(inner) for inner in value]
    return value
