"""Events as plain JSON values, the same as `dataclasses.asdict` makes them, without its cost.

`asdict` deep-copies every leaf and looks its fields up again for each object; an event holds
only strings, numbers, tuples, lists, dicts and other dataclasses, so a walk that knows those
kinds gives the same value several times faster (the differential test and the exports turn
hundreds of thousands of events into JSON).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

_LEAVES = frozenset({str, int, float, bool, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in dataclasses.fields(cls))
    return names


def plain(value: Any) -> Any:
    """`value` as `dataclasses.asdict` would leave it: dataclasses become dicts, tuples, lists
    and dicts are copied, anything else is deep-copied."""
    cls = type(value)
    if cls in _LEAVES:
        return value
    if cls is tuple or cls is list:
        return cls(plain(item) for item in value)
    if cls is dict:
        return {plain(key): plain(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: plain(getattr(value, name)) for name in _field_names(cls)}
    return copy.deepcopy(value)  # no event holds anything else (subclasses of the above neither)


def fields_of(value: Any) -> dict[str, Any]:
    """The fields of the dataclass instance `value`, as `dataclasses.asdict(value)`."""
    return {name: plain(getattr(value, name)) for name in _field_names(type(value))}
