"""The final standings as an image card, for every game: a podium for the first three places,
then each player's score and rating change, drawn from the results rows every presenter's
`finished` gets (`data.store.ResultRow`).

Drawn with Pillow and the bundled CJK font (`bot.pictures.fonts`) in a worker thread
(`standings_file`), so the event loop never waits on it; the attachment carries alt text for
screen readers. Ratings are the 1500-based whole numbers of `data.ratings`; "+12" and "−8" are
written out, their colour only repeats them.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import discord
from PIL import Image, ImageDraw

from bot.i18n import t
from bot.layout.board import Picture
from bot.pictures import fonts
from bot.pictures.colours import (
    BOARD,
    INK,
    MUTED,
    OKABE_ITO,
    PAPER,
    RGB,
)
from bot.runtime.lobby import BOT_PREFIX
from data.store import ResultRow

FILENAME = "standings.png"
WIDTH = 800
PODIUM_TOP, PODIUM_BOTTOM = 70, 300
ROW_HEIGHT = 44
# The podium's steps: gold, silver, bronze, each dark ink on it.
MEDALS: Mapping[int, RGB] = {1: (240, 200, 80), 2: (200, 204, 210), 3: (214, 150, 100)}
STEP_HEIGHT: Mapping[int, int] = {1: 150, 2: 110, 3: 80}
# The left edge of each place's step: the first in the middle, the second on its left, the
# third on its right, as podiums stand.
PODIUM_X: tuple[int, ...] = (280, 40, 520)
STEP_WIDTH = 240


@dataclass(frozen=True)
class Placed:
    """One row of the card, already in words."""

    rank: int
    name: str
    score: int
    rating: int | None
    delta: int | None


def placed(results: Sequence[ResultRow], name: Callable[[ResultRow], str]) -> list[Placed]:
    rows = sorted(results, key=lambda r: (r.rank, r.display_name))
    return [
        Placed(
            r.rank,
            name(r),
            r.score,
            None if r.rating_after is None else round(r.rating_after),
            None
            if r.rating_after is None or r.rating_before is None
            else round(r.rating_after - r.rating_before),
        )
        for r in rows
    ]


def signed(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else f"\u2212{-delta}"


def render_card(title: str, rows: Sequence[Placed], lang: str, footer: str = "") -> bytes:
    """A PNG of the standings; the same rows give the same bytes."""
    height = PODIUM_BOTTOM + 30 + ROW_HEIGHT * len(rows) + 40
    image = Image.new("RGB", (WIDTH, height), BOARD)
    draw = ImageDraw.Draw(image)
    draw.text(
        (WIDTH // 2, 32),
        _fit(draw, title, 30, WIDTH - 40),
        font=fonts.font(30),
        fill=PAPER,
        anchor="mm",
    )
    _podium(draw, rows[:3], lang)
    top = PODIUM_BOTTOM + 30
    for i, row in enumerate(rows):
        _row(draw, row, top + i * ROW_HEIGHT, lang)
    if footer:
        draw.text((WIDTH // 2, height - 18), footer, font=fonts.font(15), fill=MUTED, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _podium(draw: ImageDraw.ImageDraw, rows: Sequence[Placed], lang: str) -> None:
    for place, row in enumerate(rows):
        step = min(row.rank, 3)
        left = PODIUM_X[place]
        top = PODIUM_BOTTOM - STEP_HEIGHT[step]
        box = (left + 10, top, left + STEP_WIDTH - 10, PODIUM_BOTTOM)
        draw.rounded_rectangle(box, radius=10, fill=MEDALS[step])
        middle = (box[0] + box[2]) // 2
        rank = t(lang, "pictures.card.rank", rank=row.rank)
        draw.text((middle, top + 30), rank, font=fonts.font(30), fill=INK, anchor="mm")
        score = t(lang, "pictures.card.score", score=row.score)
        draw.text((middle, top + 66), score, font=fonts.font(20), fill=INK, anchor="mm")
        name = _fit(draw, row.name, 22, STEP_WIDTH - 20)
        draw.text((middle, top - 20), name, font=fonts.font(22), fill=PAPER, anchor="mm")


def _row(draw: ImageDraw.ImageDraw, row: Placed, top: int, lang: str) -> None:
    middle = top + ROW_HEIGHT // 2
    font, small = fonts.font(22), fonts.font(18)
    if row.rank <= 3:
        draw.ellipse((40, middle - 14, 68, middle + 14), fill=MEDALS[row.rank])
    draw.text(
        (54, middle), str(row.rank), font=small, fill=INK if row.rank <= 3 else PAPER, anchor="mm"
    )
    draw.text((90, middle), _fit(draw, row.name, 22, 320), font=font, fill=PAPER, anchor="lm")
    score = t(lang, "pictures.card.score", score=row.score)
    draw.text((480, middle), score, font=font, fill=PAPER, anchor="rm")
    if row.rating is None:
        draw.text(
            (520, middle), t(lang, "pictures.card.unrated"), font=small, fill=MUTED, anchor="lm"
        )
        return
    rating = t(lang, "pictures.card.rating", rating=row.rating)
    draw.text((520, middle), rating, font=small, fill=MUTED, anchor="lm")
    if row.delta is not None:
        change = "sky blue" if row.delta == 0 else "bluish green" if row.delta > 0 else "vermillion"
        colour = OKABE_ITO[change]
        draw.text((WIDTH - 40, middle), signed(row.delta), font=font, fill=colour, anchor="rm")


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    return fonts.fit(draw, fonts.shown(text) or "?", fonts.font(size), width)


def alt_text(title: str, rows: Sequence[Placed], lang: str) -> str:
    lines = []
    for row in rows:
        rating = ""
        if row.rating is not None and row.delta is not None:
            rating = t(lang, "pictures.card.alt_rating", rating=row.rating, delta=signed(row.delta))
        lines.append(
            t(
                lang,
                "pictures.card.alt_row",
                rank=row.rank,
                player=row.name,
                score=row.score,
                rating=rating,
            )
        )
    text = t(lang, "pictures.card.alt", title=title, standings="; ".join(lines))
    return text if len(text) <= 1000 else text[:999] + "…"


def player_name(row: ResultRow, lang: str, levels: Mapping[str, str] | None = None) -> str:
    """A member's display name; a computer as "Bot N" in `lang`, as the table names it, with
    its level when `levels` has it ("Bot 2 (hard)")."""
    if not row.is_bot:
        return row.display_name
    name = t(lang, "table.bot_name", number=row.player.removeprefix(BOT_PREFIX))
    level = (levels or {}).get(row.player)
    if level is None:
        return name
    return t(lang, "table.bot_with_level", name=name, level=t(lang, f"level.{level}"))


async def standings_file(
    title: str,
    results: Sequence[ResultRow],
    lang: str,
    game_id: int,
    levels: Mapping[str, str] | None = None,
) -> discord.File | None:
    """The card as an attachment with alt text, drawn off the event loop (None: no results);
    `levels`: the computer seats' levels."""
    if not results:
        return None
    rows = placed(results, lambda row: player_name(row, lang, levels))
    footer = t(lang, "pictures.card.footer", game_id=game_id)
    png = await asyncio.to_thread(render_card, title, rows, lang, footer)
    return discord.File(io.BytesIO(png), filename=FILENAME, description=alt_text(title, rows, lang))


async def attach_card(
    embed: discord.Embed, results: Sequence[ResultRow], lang: str, game_id: int
) -> list[discord.File]:
    """Draw the card for the final standings `embed` (its title on top), show it as the embed's
    image, and return the files to send with the embed (none without results)."""
    card = await standings_file(embed.title or "", results, lang, game_id)
    if card is None:
        return []
    embed.set_image(url=f"attachment://{FILENAME}")
    return [card]


async def card_pictures(
    title: str,
    results: Sequence[ResultRow],
    lang: str,
    game_id: int,
    levels: Mapping[str, str] | None = None,
) -> tuple[list[discord.File], list[Picture]]:
    """The card for the final standings titled `title`: the files to send, and the pictures
    that show them inside a layout with their alt text for screen readers (none without
    results)."""
    card = await standings_file(title, results, lang, game_id, levels)
    if card is None:
        return [], []
    return [card], [Picture(f"attachment://{FILENAME}", card.description or title)]
