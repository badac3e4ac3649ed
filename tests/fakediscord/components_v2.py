"""What Discord refuses in a message laid out with components v2 (the IS_COMPONENTS_V2 flag).

From Discord's reference for message components: such a message has no `content` and no
`embeds`; all its components, nested ones and section accessories included, number at most 40;
its text displays hold at most 4,000 characters in all; a section has 1 to 3 text displays and
exactly one accessory (a button or a thumbnail); a media gallery holds 1 to 10 items; a container
holds no container. A message without the flag may use none of the layout types, and the flag
can be neither added to nor removed from a message that was sent (the fake refuses both; Discord
documents the second, and the bot needs neither).
"""

from __future__ import annotations

from typing import Any

from .state import invalid_form, iter_components

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 12, 13, 14, 17
LAYOUT_TYPES = {SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MEDIA_DESCRIPTION = 1024


def check_layout(components: list[dict[str, Any]], v2: bool) -> None:
    """Refuse (400, 50035) the layout Discord would refuse; action rows are checked elsewhere."""
    if not v2:
        if any(c.get("type") in LAYOUT_TYPES for c in iter_components(components)):
            raise invalid_form("components: layout components need the IS_COMPONENTS_V2 flag")
        return
    for top in components:
        if top.get("type") not in TOP_LEVEL:
            raise invalid_form(f"components: type {top.get('type')} cannot be at the top level")
    every = list(iter_components(components))
    if len(every) > MAX_COMPONENTS:
        raise invalid_form(f"components: {len(every)} components, at most {MAX_COMPONENTS}")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > MAX_TEXT:
        raise invalid_form(f"components: {text} characters of text, at most {MAX_TEXT}")
    ids = [c["id"] for c in every if c.get("id") is not None]
    if len(ids) != len(set(ids)):
        raise invalid_form("components: ids must be unique in a message")
    for component in every:
        _check_one(component)


def _check_one(c: dict[str, Any]) -> None:
    kind = c.get("type")
    if kind == CONTAINER:
        children = c.get("components") or []
        if not children or any(ch.get("type") not in IN_CONTAINER for ch in children):
            raise invalid_form("container: 1 or more rows, sections, texts, galleries, files")
        colour = c.get("accent_color")
        if colour is not None and not 0 <= int(colour) <= 0xFFFFFF:
            raise invalid_form("container: accent_color must be an RGB value")
    elif kind == SECTION:
        texts = c.get("components") or []
        if not 1 <= len(texts) <= 3 or any(t.get("type") != TEXT_DISPLAY for t in texts):
            raise invalid_form("section: 1 to 3 text displays")
        accessory = c.get("accessory")
        if not accessory or accessory.get("type") not in (BUTTON, THUMBNAIL):
            raise invalid_form("section: exactly one accessory, a button or a thumbnail")
    elif kind == TEXT_DISPLAY:
        if not isinstance(c.get("content"), str) or not c["content"]:
            raise invalid_form("text display: content is required")
    elif kind == THUMBNAIL:
        _check_media(c, "thumbnail")
    elif kind == MEDIA_GALLERY:
        items = c.get("items") or []
        if not 1 <= len(items) <= 10:
            raise invalid_form("media gallery: 1 to 10 items")
        for item in items:
            _check_media(item, "media gallery item")
    elif kind == FILE:
        if not str((c.get("file") or {}).get("url", "")).startswith("attachment://"):
            raise invalid_form("file: an attachment:// url is required")
    elif kind == SEPARATOR and c.get("spacing", 1) not in (1, 2):
        raise invalid_form("separator: spacing is 1 (small) or 2 (large)")


def _check_media(c: dict[str, Any], what: str) -> None:
    if not (c.get("media") or {}).get("url"):
        raise invalid_form(f"{what}: media.url is required")
    description = c.get("description")
    if description is not None and len(description) > MEDIA_DESCRIPTION:
        raise invalid_form(f"{what}: description of at most {MEDIA_DESCRIPTION} characters")


def check_message(content: str, embeds: list[dict[str, Any]], v2: bool) -> None:
    """A v2 message carries everything in its components."""
    if v2 and (content or embeds):
        raise invalid_form("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")


def check_flag_change(was_v2: bool, now_v2: bool) -> None:
    if was_v2 != now_v2:
        raise invalid_form("flags: IS_COMPONENTS_V2 cannot be added to or removed from a message")
