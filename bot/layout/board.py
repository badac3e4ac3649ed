"""A message as a board: what a presenter says, laid out as a Components V2 `LayoutView`.

A presenter describes its message as a `Board` (a title, blocks of text, seat lines with an
optional button beside them, pictures, separators and its controls) and `compose` lays it out:
one `Container` in the game's accent colour, a `Section` per seat that has an action, a
`MediaGallery` for pictures, and the controls in action rows inside it. `compose` keeps every
limit Discord sets by construction: past 40 components neighbouring texts merge into one text
display, and past 4,000 characters the longest blocks fold ("… and N more"), so a large table
degrades the same defined way every time instead of being refused by Discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.layout.fold import fit_lines
from bot.layout.limits import GALLERY_ITEMS, MAX_COMPONENTS, MAX_TEXT, ROW_BUTTONS, check

Control = discord.ui.Item[Any]
MAX_ROWS = 5


@dataclass(frozen=True, slots=True)
class Text:
    """A block of lines, with a bold title above them if it has one."""

    lines: tuple[str, ...]
    title: str | None = None

    def render(self) -> str:
        body = "\n".join(self.lines) if self.lines else "—"
        return f"**{self.title}**\n{body}" if self.title else body


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat: its name and state, and the button of what can be done to it (if anything)."""

    text: str
    action: Control | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """A separator between parts (a round and its history, say)."""

    visible: bool = True


@dataclass(frozen=True, slots=True)
class Picture:
    """An image of the message (`attachment://name.png` for an uploaded file), with what a
    screen reader reads in its place."""

    url: str
    description: str


Part = Text | SeatLine | Rule | Picture


@dataclass
class Board:
    """What a message says, in reading order, before it is laid out (`compose`)."""

    title: str
    accent: discord.Colour | None = None
    parts: list[Part] = field(default_factory=list)
    footer: str | None = None
    controls: list[Control] = field(default_factory=list)
    lang: str = "en"

    def text(self, *lines: str, title: str | None = None) -> Board:
        """Add a block of text (nothing if there are no lines and no title)."""
        kept = tuple(line for line in lines if line)
        if kept or title:
            self.parts.append(Text(kept, title))
        return self

    def seat(self, text: str, action: Control | None = None) -> Board:
        self.parts.append(SeatLine(text, action))
        return self

    def rule(self, visible: bool = True) -> Board:
        self.parts.append(Rule(visible))
        return self

    def picture(self, url: str, description: str) -> Board:
        self.parts.append(Picture(url, description))
        return self

    def note(self, text: str | None) -> Board:
        """Put a line above everything else (what was a message's `content`)."""
        if text:
            self.parts.insert(0, Text((text,)))
        return self


def compose(board: Board) -> discord.ui.LayoutView:
    """The board as a persistent `LayoutView` that Discord accepts, whatever its size."""
    rows = control_rows(board.controls)
    parts = _fit_count(board.parts, fixed=_fixed_count(board, rows))
    parts = _fit_text(parts, board)
    container: discord.ui.Container[discord.ui.LayoutView]
    container = discord.ui.Container(accent_colour=board.accent)
    if board.title:
        container.add_item(discord.ui.TextDisplay(f"### {board.title}"))
    for item in _items(parts):
        container.add_item(item)
    if board.footer:
        container.add_item(discord.ui.TextDisplay(f"-# {board.footer}"))
    for row in rows:
        container.add_item(discord.ui.ActionRow(*row))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    check(view)  # never: the fitting above keeps every limit (a failure here is a bug)
    return view


def control_rows(controls: Sequence[Control]) -> list[list[Control]]:
    """Controls in rows as a classic view places them: an item with a `row` goes there, the
    others fill the first row with room, in order (five buttons to a row, a select alone)."""
    rows: list[list[Control]] = [[] for _ in range(MAX_ROWS)]
    for control in controls:
        if control.row is not None:
            rows[control.row].append(control)
    for control in controls:
        if control.row is None:
            free = next((row for row in rows if _fits(row, control)), None)
            if free is None:
                raise ValueError(f"more controls than {MAX_ROWS} rows hold")
            free.append(control)
    for control in controls:
        control.row = None  # an action row places them now; a row number would be refused
    return [row for row in rows if row]


def _fits(row: Sequence[Control], control: Control) -> bool:
    if _is_select(control):
        return not row
    return len(row) < ROW_BUTTONS and not _has_select(row)


def _has_select(row: Sequence[Control]) -> bool:
    return any(_is_select(c) for c in row)


def _is_select(control: Control) -> bool:
    """A select, or a persistent item wrapping one (`DynamicItem.item`): it fills a row."""
    inner = control.item if isinstance(control, discord.ui.DynamicItem) else control
    return isinstance(inner, discord.ui.Select)


def _fixed_count(board: Board, rows: Sequence[Sequence[Control]]) -> int:
    """Components that never give way: the container, title, footer and the controls."""
    titled = 1 if board.title else 0
    return 1 + titled + (1 if board.footer else 0) + sum(1 + len(row) for row in rows)


def _count(parts: Sequence[Part]) -> int:
    count, pictures = 0, 0
    for part in parts:
        if isinstance(part, Picture):
            pictures += 1
            continue
        count += _galleries(pictures)
        pictures = 0
        count += 3 if isinstance(part, SeatLine) and part.action is not None else 1
    return count + _galleries(pictures)


def _galleries(pictures: int) -> int:
    """Neighbouring pictures share a gallery, ten at most to each."""
    return -(-pictures // GALLERY_ITEMS[1])


def _fit_count(parts: list[Part], fixed: int) -> list[Part]:
    """Past 40 components, step by step until it fits: neighbouring texts merge into one,
    seats give up their buttons (what they did stays reachable from the controls or a
    command), separators go, and pictures share one gallery (past ten, only described)."""
    room = MAX_COMPONENTS - fixed
    steps = (
        lambda ps: ps,
        _merge_texts,
        lambda ps: _merge_texts([SeatLine(p.text) if isinstance(p, SeatLine) else p for p in ps]),
        lambda ps: _merge_texts([p for p in ps if not isinstance(p, Rule)]),
        lambda ps: _merge_texts(_one_gallery(ps)),
    )
    for step in steps:
        parts = step(parts)
        if _count(parts) <= room:
            break
    return parts


def _one_gallery(parts: Sequence[Part]) -> list[Part]:
    pictures = [p for p in parts if isinstance(p, Picture)]
    if not pictures:
        return list(parts)
    kept, told = pictures[: GALLERY_ITEMS[1]], pictures[GALLERY_ITEMS[1] :]
    first = parts.index(pictures[0])
    rest = [p for p in parts if not isinstance(p, Picture)]
    described = [Text(tuple(p.description for p in told))] if told else []
    return [*rest[:first], *kept, *described, *rest[first:]]


def _merge_texts(parts: Sequence[Part]) -> list[Part]:
    out: list[Part] = []
    for part in parts:
        text = _as_text(part)
        last = out[-1] if out else None
        if text is not None and last is not None and _as_text(last) is not None:
            out[-1] = Text((*_lines_of(last), *_lines_of(part)))
        else:
            out.append(part)
    return out


def _as_text(part: Part) -> Text | None:
    if isinstance(part, Text):
        return part
    if isinstance(part, SeatLine) and part.action is None:
        return Text((part.text,))
    return None


def _lines_of(part: Part) -> tuple[str, ...]:
    text = _as_text(part)
    assert text is not None
    return tuple(text.render().splitlines())


def _fit_text(parts: list[Part], board: Board) -> list[Part]:
    """Past 4,000 characters the longest block folds, then the next, until all fits."""
    fixed = (len(f"### {board.title}") if board.title else 0) + (
        len(f"-# {board.footer}") if board.footer else 0
    )
    parts = list(parts)
    while (over := fixed + _text_length(parts) - MAX_TEXT) > 0:
        blocks = [i for i, p in enumerate(parts) if isinstance(p, Text) and len(p.lines) > 1]
        if not blocks:  # seat lines and one-line texts: merged, they fold like any block
            merged = _merge_texts(
                [SeatLine(p.text) if isinstance(p, SeatLine) else p for p in parts]
            )
            if merged == parts:
                raise ValueError("a board whose fixed texts alone exceed 4,000 characters")
            parts = merged
            continue
        longest = max(blocks, key=lambda i: len(_render(parts[i])))
        block = parts[longest]
        assert isinstance(block, Text)
        budget = max(0, len(_render(block)) - over - (len(block.title or "") + 5))
        folded = fit_lines(block.lines, budget, board.lang)
        if len(folded) >= len(block.lines):  # could not shorten: drop its last line
            folded = list(block.lines[:-1])
        parts[longest] = replace(block, lines=tuple(folded))
    return parts


def _render(part: Part) -> str:
    if isinstance(part, Text):
        return part.render()
    if isinstance(part, SeatLine):
        return part.text
    return ""


def _text_length(parts: Iterable[Part]) -> int:
    return sum(len(_render(p)) for p in parts)


def _items(parts: Sequence[Part]) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    gallery: list[Picture] = []
    for part in [*parts, None]:
        if gallery and (not isinstance(part, Picture) or len(gallery) == GALLERY_ITEMS[1]):
            media = [discord.MediaGalleryItem(p.url, description=p.description) for p in gallery]
            items.append(discord.ui.MediaGallery(*media))
            gallery = []
        if part is None:
            break
        if isinstance(part, Picture):
            gallery.append(part)
        elif isinstance(part, SeatLine) and part.action is not None:
            items.append(
                discord.ui.Section(discord.ui.TextDisplay(part.text), accessory=part.action)
            )
        elif isinstance(part, Rule):
            items.append(discord.ui.Separator(visible=part.visible))
        else:
            text = _render(part)
            if text:
                items.append(discord.ui.TextDisplay(text))
    return items


def from_embed(embed: discord.Embed, controls: Sequence[Control] = (), lang: str = "en") -> Board:
    """A classic embed's content as a board: its description and fields become text blocks,
    its image a picture, its colour the accent. What a game has not laid out as a board yet
    (a reveal, a private menu) comes across unchanged in meaning this way."""
    board = Board(
        title=embed.title or "",
        accent=discord.Colour(embed.colour.value) if embed.colour else None,
        footer=embed.footer.text if embed.footer and embed.footer.text else None,
        controls=list(controls),
        lang=lang,
    )
    if embed.description:
        board.text(*embed.description.splitlines())
    for embed_field in embed.fields:
        name = (embed_field.name or "").strip("\u200b ") or None
        lines = (embed_field.value or "").splitlines()
        board.text(*[line for line in lines if line.strip("\u200b ")], title=name)
    if embed.image and embed.image.url:
        board.picture(embed.image.url, embed.title or "")
    return board


def controls_of(view: discord.ui.View | None) -> list[Control]:
    """A classic view's buttons and selects, to be placed on a board."""
    return list(view.children) if view is not None else []


def layout_of(
    embed: discord.Embed,
    view: discord.ui.View | None = None,
    note: str | None = None,
    lang: str = "en",
) -> discord.ui.LayoutView:
    """An embed and its buttons laid out (`from_embed`), with `note` above."""
    return compose(from_embed(embed, controls_of(view), lang).note(note))


def controls_in(view: discord.ui.LayoutView) -> list[Control]:
    """Every button and select of a layout, in reading order (accessories included)."""
    return [
        item
        for item in view.walk_children()
        if isinstance(item, discord.ui.Button | discord.ui.Select | discord.ui.DynamicItem)
        and not isinstance(getattr(item, "_parent", None), discord.ui.DynamicItem)
    ]
