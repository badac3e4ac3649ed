"""Discord's limits on a Components V2 message, checked on the payload that will be sent.

`check(view)` raises `LayoutTooLarge` naming every broken limit at once (not just the first), so a
presenter's test says everything that is wrong with a layout. The limits are Discord's (message
components reference): discord.py enforces only the 40-component count, and only as items are
added; the rest would come back as a 400 from Discord after the game had moved on.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.layout.payload import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    MEDIA_GALLERY,
    SECTION,
    SELECTS,
    TEXT_DISPLAY,
    Component,
    children,
    kind,
    payload,
    text_of,
    walk,
)

MAX_COMPONENTS = 40
MAX_TEXT = 4000
SECTION_TEXTS = (1, 3)
GALLERY_ITEMS = (1, 10)
ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100


class LayoutTooLarge(Exception):
    """A layout Discord would refuse; `reasons` names each broken limit."""

    def __init__(self, reasons: Sequence[str]) -> None:
        self.reasons: tuple[str, ...] = tuple(reasons)
        super().__init__("; ".join(self.reasons))


def check(view: discord.ui.LayoutView) -> None:
    """Raise `LayoutTooLarge` if Discord would refuse `view`; return quietly if it fits."""
    reasons = problems(payload(view))
    if reasons:
        raise LayoutTooLarge(reasons)


def problems(components: Sequence[Component]) -> list[str]:
    """Every broken limit of this payload, in a stable order (empty when it fits)."""
    every = list(walk(components))
    reasons: list[str] = []
    if len(every) > MAX_COMPONENTS:
        reasons.append(f"{len(every)} components, at most {MAX_COMPONENTS}")
    text = text_length(every)
    if text > MAX_TEXT:
        reasons.append(f"{text} characters of text, at most {MAX_TEXT}")
    reasons += _custom_id_problems(every)
    reasons += _numeric_id_problems(every)
    for component in every:
        reasons += _component_problems(component)
    return reasons


def text_length(every: Sequence[Component]) -> int:
    """Characters of all text displays among `every` (already walked)."""
    return sum(len(text_of(c)) for c in every if kind(c) == TEXT_DISPLAY)


def _custom_id_problems(every: Sequence[Component]) -> list[str]:
    reasons: list[str] = []
    seen: set[str] = set()
    for component in every:
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
            reasons.append(f"custom id {custom_id[:20]!r}…: {len(custom_id)} characters, 1 to 100")
        if custom_id in seen:
            reasons.append(f"custom id {custom_id!r} used twice")
        seen.add(custom_id)
    return reasons


def _numeric_id_problems(every: Sequence[Component]) -> list[str]:
    """The optional numeric `id` a component may carry (discord.py's `id=`) is unique too."""
    ids = [c["id"] for c in every if c.get("id") is not None]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    return [f"component id {i} used twice" for i in twice]


def _component_problems(component: Component) -> list[str]:
    what = kind(component)
    if what == SECTION:
        return _section_problems(component)
    if what == MEDIA_GALLERY:
        items = len(component.get("items") or [])
        if not GALLERY_ITEMS[0] <= items <= GALLERY_ITEMS[1]:
            return [f"media gallery of {items} items, 1 to 10"]
    if what == ACTION_ROW:
        return _row_problems(children(component))
    if what == CONTAINER and not children(component):
        return ["empty container"]
    if what == TEXT_DISPLAY and not text_of(component):
        return ["empty text display"]
    return []


def _section_problems(section: Component) -> list[str]:
    reasons: list[str] = []
    texts = children(section)
    if not SECTION_TEXTS[0] <= len(texts) <= SECTION_TEXTS[1]:
        reasons.append(f"section of {len(texts)} text displays, 1 to 3")
    if any(kind(t) != TEXT_DISPLAY for t in texts):
        reasons.append("section holding something other than text displays")
    if section.get("accessory") is None:
        reasons.append("section without its accessory")
    return reasons


def _row_problems(items: Sequence[Component]) -> list[str]:
    selects = sum(1 for c in items if kind(c) in SELECTS)
    buttons = sum(1 for c in items if kind(c) == BUTTON)
    if not items:
        return ["empty action row"]
    if selects and len(items) > 1:
        return [f"action row with a select and {len(items) - 1} other components"]
    if buttons > ROW_BUTTONS:
        return [f"action row of {buttons} buttons, at most {ROW_BUTTONS}"]
    return []
