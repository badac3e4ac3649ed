"""The component payload discord.py sends (`LayoutView.to_components()`), read as Discord does.

Every check works on this payload, not on discord.py's item objects, so that what is checked is
exactly what is sent. Component dicts are discord.py's own output; this module is the one place
that reads their keys.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord

Component = Mapping[str, Any]

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY = 9, 10, 11, 12
FILE, SEPARATOR, CONTAINER = 13, 14, 17
#: user, role, mentionable and channel selects take a row to themselves like a string select
SELECTS = frozenset({STRING_SELECT, 5, 6, 7, 8})


def payload(view: discord.ui.LayoutView) -> list[Component]:
    """The top-level components as they will be sent."""
    # discord.py leaves to_components untyped; it returns the list of component dicts it sends
    sent: list[Component] = view.to_components()  # type: ignore[no-untyped-call]
    return sent


def walk(components: Sequence[Component]) -> Iterator[Component]:
    """Every component depth first, in reading order: a section's texts, then its accessory.

    This is what Discord counts towards the 40 components: containers, rows, sections and each
    of their children, accessories included (gallery items are not components)."""
    for component in components:
        yield component
        yield from walk(children(component))
        accessory = component.get("accessory")
        if accessory is not None:
            yield from walk([accessory])


def children(component: Component) -> list[Component]:
    return list(component.get("components") or [])


def kind(component: Component) -> int:
    return int(component.get("type") or 0)


def text_of(component: Component) -> str:
    return str(component.get("content") or "")
