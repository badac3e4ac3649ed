"""A layout as plain text, in reading order: what a screen reader would read.

Used by tests (assert on what a player sees, not on the component tree) and by logs. One line per
text display line, section and row; an accessory follows its section's text in brackets.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import discord

from bot.layout.payload import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    MEDIA_GALLERY,
    SECTION,
    SELECTS,
    SEPARATOR,
    TEXT_DISPLAY,
    THUMBNAIL,
    Component,
    children,
    kind,
    payload,
    text_of,
)

SEPARATOR_LINE = "———"


def as_text(view: discord.ui.LayoutView) -> str:
    """The whole view as text, one line per thing read out."""
    return "\n".join(_lines(payload(view)))


def _lines(components: Sequence[Component]) -> Iterator[str]:
    for component in components:
        what = kind(component)
        if what == CONTAINER:
            yield from _lines(children(component))
        elif what == TEXT_DISPLAY:
            yield from text_of(component).splitlines()
        elif what == SECTION:
            yield _section(component)
        elif what == MEDIA_GALLERY:
            yield from (_image(item) for item in component.get("items") or [])
        elif what == SEPARATOR:
            # an invisible separator is only spacing: nothing is read, but the pause shows
            yield SEPARATOR_LINE if component.get("visible", True) else ""
        elif what == ACTION_ROW:
            yield " ".join(_control(c) for c in children(component))
        elif what == FILE:
            yield f"[file: {(component.get('file') or {}).get('url', '')}]"


def _section(section: Component) -> str:
    texts = " ".join(" ".join(text_of(t).splitlines()) for t in children(section))
    accessory = section.get("accessory")
    return f"{texts} {_control(accessory)}" if accessory is not None else texts


def _control(component: Component) -> str:
    """A button, select or thumbnail, bracketed as a screen reader announces a control."""
    what = kind(component)
    if what == THUMBNAIL:
        return _image(component)
    if what == BUTTON:
        label = component.get("label") or _emoji(component)
        shown = f"[{label}]"
    elif what in SELECTS:
        shown = f"[select: {component.get('placeholder') or ''}]"
    else:
        shown = f"[component {what}]"
    return f"{shown} (disabled)" if component.get("disabled") else shown


def _emoji(button: Component) -> str:
    return str((button.get("emoji") or {}).get("name") or "")


def _image(media: Component) -> str:
    return f"[image: {media.get('description') or ''}]"
