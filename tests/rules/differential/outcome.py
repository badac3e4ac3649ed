"""What the rules engine says about one log: the outcome the differential fixture records.

Shared by the recorder (`record.py`) and the test (`tests/rules/test_differential.py`), so both
compute it the same way. It uses only the entry points a rewrite of `rules/` keeps:
`rules.log.start` / `load` / `apply_entry` (what `python -m rules replay` uses), `state.next()`,
`legal_actions`, `scores`, `winners`, `ranking`, `details` (if any), `view`, the events' and
actions' `to_json()`, and the exceptions' class name, `rule` attribute and message.

An outcome (`compute`) is a JSON value; `summary` turns it into the compact record stored per
log: a sha256 digest of its canonical JSON, a few fields in full and short digests of the
others, which tell which one differs without storing every event.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from rules.log import apply_entry, load, start

# Legal actions and the acting player's view are recorded before about one action in five
# (`sampled`) and at the end. A list of legal actions longer than LEGAL_IN_FULL (a Rights of
# Losers build early in the game: up to 7,600) is recorded by its length only, to keep the
# replay fast.
LEGAL_IN_FULL = 1000
PART_DIGEST = 6  # hex digits of a part's digest (tells which part differs; `sha` decides)
FULL_DIGEST = 32


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sampled(index: int) -> bool:
    """Whether the position before action `index` is sampled: 19 in 97, with no short period
    (a period would always meet the same step of a round)."""
    return index * 37 % 97 < 19


def canonical(value: Any) -> str:
    """The canonical JSON text of a value: sorted keys, compact separators."""
    return _ENCODER.encode(value)


def digest(value: Any, length: int = FULL_DIGEST) -> str:
    """The sha256 of a value's canonical JSON, as `length` hex digits."""
    return _digest_text(canonical(value), length)


def refusal(at: int | str, exc: BaseException) -> dict[str, Any]:
    """Where and how the engine refused (or crashed on) a log."""
    return {
        "at": at,
        "error": type(exc).__name__,
        "rule": getattr(exc, "rule", None),
        "message": str(exc),
    }


def _guard(compute: Any) -> Any:
    """compute(), or a record of the exception it raised (an engine crash is an answer too)."""
    try:
        return compute()
    except Exception as exc:
        return {"crash": type(exc).__name__, "message": str(exc)}


def _legal(state: Any, player: str) -> list[str] | dict[str, int]:
    """`legal_actions(player)` as the sorted canonical JSON texts, or a long list's length."""
    actions = state.legal_actions(player)
    if len(actions) > LEGAL_IN_FULL:
        return {"count": len(actions)}
    return sorted(canonical(action.to_json()) for action in actions)


def _next_json(state: Any) -> dict[str, Any] | None:
    nxt = state.next()
    return nxt.to_json() if nxt is not None else None


def _acting(nxt: dict[str, Any] | None) -> list[str]:
    """The players who may act now: `players` of a simultaneous step, else `player`."""
    if nxt is None:
        return []
    return list(nxt.get("players") or [nxt["player"]])


def _sample(state: Any) -> dict[str, Any]:
    """A position before an action: who acts, their legal actions and their view."""
    nxt = _next_json(state)
    acting = _acting(nxt)
    return {
        "next": nxt,
        "legal": {p: _legal(state, p) for p in acting},
        "view": state.view(acting[0]) if acting else None,
    }


def _final(state: Any, players: list[str], applied: int) -> dict[str, Any]:
    """Everything public about the state the log ends in (`players`: the log's, as seated)."""
    viewer = players[applied % len(players)]
    details = getattr(state, "details", None)
    return {
        "over": _guard(lambda: state.next() is None),
        "scores": _guard(state.scores),
        "winners": _guard(state.winners),
        "next": _guard(lambda: _next_json(state)),
        "ranking": _guard(state.ranking),
        "details": _guard(details) if details is not None else None,
        "legal": _guard(lambda: {p: _legal(state, p) for p in players}),
        "view_spectator": _guard(lambda: state.view(None)),
        "view_player": {"player": viewer, "view": _guard(lambda: state.view(viewer))},
    }


def compute(log: Any) -> dict[str, Any]:
    """The outcome of replaying `log`: a value JSON can encode (lists may be tuples)."""
    out: dict[str, Any] = {"refused": None, "events": [], "samples": {}, "final": None}
    try:
        state = start(log)
        if not isinstance(log.get("actions", []), list):
            load(log)  # the engine's own refusal of an `actions` that is not a list
            raise AssertionError("load accepted a log whose actions are not a list")
    except Exception as exc:
        out["refused"] = refusal("header", exc)
        return out
    for index, entry in enumerate(log.get("actions", [])):
        if sampled(index):
            out["samples"][str(index)] = _guard(lambda: _sample(state))
        try:
            events = apply_entry(state, entry)
        except Exception as exc:
            out["refused"] = refusal(index, exc)
            break
        out["events"].append([event.to_json() for event in events])
    # After a refusal this is the state the refused action left (G-2: the state before it).
    out["final"] = _final(state, list(log["players"]), len(out["events"]))
    return out


def _plain(value: Any) -> Any:
    """`value` as JSON would give it back (tuples become lists, keys strings)."""
    return json.loads(canonical(value))


# -- the compact record ----------------------------------------------------------------------------

READABLE = ("over", "scores", "winners")  # of `final`, stored in full rather than digested
SUMMARY_FIELDS = ("applied", "refused", *READABLE)


def readable(out: dict[str, Any]) -> dict[str, Any]:
    """The fields stored in full (SUMMARY_FIELDS): a mismatch in them reads at once."""
    final = out["final"] or {}
    fields = {"applied": len(out["events"]), "refused": out["refused"]}
    fields.update((key, final.get(key)) for key in READABLE)
    return _plain(fields)


def parts(out: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The digested fields of an outcome, each digested on its own to tell which one differs."""
    yield "events", out["events"]
    yield "samples", out["samples"]
    for key, value in (out["final"] or {}).items():
        if key not in READABLE:
            yield f"final.{key}", value


def summary(out: dict[str, Any]) -> dict[str, Any]:
    """What the fixture stores for one log. `sha` is the sha256 of `canonical(out)`, put
    together from the parts' canonical texts rather than encoding everything twice."""
    texts = {name: canonical(value) for name, value in parts(out)}
    final = out["final"]
    if final is None:
        final_text = "null"
    else:
        final_text = _object(
            {
                k: texts[f"final.{k}"] if k not in READABLE else canonical(v)
                for k, v in final.items()
            }
        )
    whole = {
        "events": texts["events"],
        "final": final_text,
        "refused": canonical(out["refused"]),
        "samples": texts["samples"],
    }
    return {
        "sha": hashlib.sha256(_object(whole).encode()).hexdigest()[:FULL_DIGEST],
        **readable(out),
        "parts": {name: _digest_text(text, PART_DIGEST) for name, text in texts.items()},
    }


def _object(texts: dict[str, str]) -> str:
    """The canonical text of an object from its values' canonical texts."""
    items = (f"{canonical(key)}:{texts[key]}" for key in sorted(texts))
    return "{" + ",".join(items) + "}"


def _digest_text(text: str, length: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def locate(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, Any, Any] | None:
    """The first difference between two full outcomes (plain JSON), in the order the replay
    meets it: (where, before's value, after's value), or None when they agree."""
    events = before["events"], after["events"]
    samples = before["samples"], after["samples"]
    positions = [len(events[0]), len(events[1])]
    positions += [int(i) + 1 for side in samples for i in side]
    for index in range(max(positions, default=0)):
        key = str(index)
        if samples[0].get(key) != samples[1].get(key):
            return f"sample before action {index}", samples[0].get(key), samples[1].get(key)
        b, a = (e[index] if index < len(e) else None for e in events)
        if b != a:
            return f"events of action {index}", b, a
    if before["refused"] != after["refused"]:
        return "refused", before["refused"], after["refused"]
    finals = before["final"] or {}, after["final"] or {}
    for key in dict.fromkeys([*finals[0], *finals[1]]):
        if finals[0].get(key) != finals[1].get(key):
            return f"final.{key}", finals[0].get(key), finals[1].get(key)
    return None
