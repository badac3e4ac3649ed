"""The Rights of Losers field as a picture (PNG); `board_text` says it in words, for screen
readers, and holds the English of the labels.

Both read only the public observation (`RightsOfLosers.observation(None)`, G-3): the 5x5
field, the chips on the 9x9 lattice, chips left, the strength marker and who would get each card
if the game ended now (`owners_now`); and the points each player would have then, as the rules
count them (`LosersObservation.points_now()`: R-6 and R-7 applied to the board as it stands). The
picture is drawn with Pillow and the font the package ships (`bot.pictures.fonts`: Noto Sans CJK
JP, so Japanese names and labels render), so nothing is downloaded; the same observation gives
the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.losers.board_text import ENGLISH_TEXT
from bot.losers.names import COLUMNS, cell_name
from bot.pictures import fonts
from bot.pictures.colours import BOARD, INK, MUTED, PAPER, SEAT_COLOURS, contrast
from rules.losers_board import CARD_NUMBER, CARD_SUIT, GRID, LAND, TRICKS
from rules.losers_judgement import CardOwner
from rules.losers_view import LosersObservation

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

# -- look ------------------------------------------------------------------------------------------

WIDTH = HEIGHT = 800
CELL = 116  # pixels per cell
GRID_X, GRID_Y = 110, 70  # top-left corner of the field
LEGEND_Y = GRID_Y + 5 * CELL + 10
CHIP_RADIUS = 15
GAP = 3  # between a cell's edge and its card

BACKGROUND: RGB = BOARD
EMPTY: RGB = (88, 92, 99)
EMPTY_INK: RGB = (140, 145, 152)
LAND_FILL: RGB = (222, 205, 160)
LAND_LINES: RGB = (204, 182, 128)
TIE: RGB = (150, 150, 150)
REVERSED_FILL: RGB = (230, 81, 0)

SUIT_COLOURS: Mapping[str, RGB] = {
    "red": (211, 47, 47),
    "yellow": (250, 192, 40),
    "green": (46, 139, 60),
    "blue": (25, 110, 210),
    "purple": (123, 31, 162),
}
# Chips and owner frames by seat: Okabe-Ito colours, at least 3:1 against the board
# (`bot.pictures.colours`); the seat number is on every chip too.
PLAYER_COLOURS: tuple[RGB, ...] = SEAT_COLOURS


# -- the picture -----------------------------------------------------------------------------------


def render_field(
    seen: LosersObservation,
    points: Mapping[str, int],
    colours: Mapping[str, RGB] | None = None,
    names: Mapping[str, str] | None = None,
    text: Mapping[str, str] | None = None,
) -> bytes:
    """A PNG of the public observation: cards, chips, owners now, strength marker and a legend
    with `points` (`LosersObservation.points_now()`).

    `colours` and `names` map players to their chip colour and display name (default: by seat,
    and the player id); `text` overrides the English labels (keys of `ENGLISH_TEXT`).
    """
    words = {**ENGLISH_TEXT, **(text or {})}
    players = list(seen.players)
    palette = _palette(players, colours)
    seats = {p: i + 1 for i, p in enumerate(players)}
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, seen, words)
    _draw_labels(draw)
    owners = {judged.cell: judged for judged in seen.owners_now}
    for index, card in enumerate(seen.field):
        r, c = divmod(index, GRID)
        left, top = GRID_X + c * CELL, GRID_Y + r * CELL
        if card is None:
            tile = _empty_tile(cell_name((r, c)))
        elif card == LAND:
            tile = _land_tile(words["land"])
        else:
            tile = _card_tile(card, words[CARD_SUIT[card]])
        image.paste(tile, (left + GAP, top + GAP), _card_mask())
        owner = owners.get((r, c))
        if owner is not None:
            _draw_owner(draw, left, top, owner, palette, seats)
    for (y, x), player in seen.chips:
        centre = (GRID_X + (x + 1) * CELL // 2, GRID_Y + (y + 1) * CELL // 2)
        if y % 2 == 0 and x % 2 == 0:  # on a card: below its number
            centre = (centre[0], centre[1] + 27)
        _paste(image, _chip(palette[player], seats[player]), centre)
    _draw_legend(image, draw, seen, points, palette, seats, names or {}, words)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _palette(players: Sequence[str], colours: Mapping[str, RGB] | None) -> dict[str, RGB]:
    chosen = colours or {}
    palette: dict[str, RGB] = {}
    for i, p in enumerate(players):
        red, green, blue = chosen.get(p, PLAYER_COLOURS[i % len(PLAYER_COLOURS)])
        palette[p] = (red, green, blue)  # a tuple, whatever sequence the caller gave
    return palette


def _font(size: int) -> Font:
    return fonts.font(size)


def _draw_header(
    draw: ImageDraw.ImageDraw, seen: LosersObservation, words: Mapping[str, str]
) -> None:
    title = (
        words["over"]
        if seen.over
        else words["trick"].format(trick=seen.trick_number, tricks=TRICKS)
    )
    draw.text((GRID_X - 60, 22), title, font=_font(24), fill=PAPER, anchor="lm")
    reversed_ = seen.reversed
    label = words["reversed" if reversed_ else "normal"]
    font = _font(18)
    width = draw.textlength(label, font=font)
    right = GRID_X + 5 * CELL
    box = (right - width - 28, 6, right, 38)
    if reversed_:
        draw.rounded_rectangle(box, radius=16, fill=REVERSED_FILL, outline=PAPER, width=2)
        colour = (255, 255, 255)
    else:
        draw.rounded_rectangle(box, radius=16, outline=MUTED, width=1)
        colour = MUTED
    draw.text(((box[0] + box[2]) / 2, 22), label, font=font, fill=colour, anchor="mm")


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    font = _font(20)
    for i in range(5):
        middle = i * CELL + CELL // 2
        draw.text((GRID_X + middle, GRID_Y - 13), COLUMNS[i], font=font, fill=MUTED, anchor="mm")
        draw.text((GRID_X - 20, GRID_Y + middle), str(i + 1), font=font, fill=MUTED, anchor="mm")


def _draw_owner(
    draw: ImageDraw.ImageDraw,
    left: int,
    top: int,
    owner: CardOwner,
    palette: Mapping[str, RGB],
    seats: Mapping[str, int],
) -> None:
    """Who gets the card now: a frame and a corner flag in the owner's colour ("=" if tied)."""
    flag = (left + CELL - 26, top + 26)
    if owner.owner is not None:
        colour = palette[owner.owner]
        frame = (left + GAP, top + GAP, left + CELL - GAP, top + CELL - GAP)
        draw.rounded_rectangle(frame, radius=9, outline=INK, width=8)
        inner = (frame[0] + 1, frame[1] + 1, frame[2] - 1, frame[3] - 1)
        draw.rounded_rectangle(inner, radius=8, outline=colour, width=6)
        _flag(draw, flag, colour, str(seats[owner.owner]))
    elif owner.by == "tie":
        _flag(draw, flag, TIE, "=")


def _flag(draw: ImageDraw.ImageDraw, centre: tuple[int, int], colour: RGB, label: str) -> None:
    x, y = centre
    draw.rounded_rectangle((x - 13, y - 13, x + 13, y + 13), radius=5, fill=INK)
    draw.rounded_rectangle((x - 11, y - 11, x + 11, y + 11), radius=4, fill=colour)
    draw.text((x, y + 1), label, font=_font(18), fill=_contrast(colour), anchor="mm")


def _draw_legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seen: LosersObservation,
    points: Mapping[str, int],
    palette: Mapping[str, RGB],
    seats: Mapping[str, int],
    names: Mapping[str, str],
    words: Mapping[str, str],
) -> None:
    players = list(seen.players)
    over = seen.over
    font, small = _font(19), _font(15)
    for i, player in enumerate(players):
        column, row = i % 2, i // 2
        x = 44 + column * 380
        y = LEGEND_Y + 18 + row * 32
        if seen.to_act == player:
            draw.polygon([(x - 26, y - 8), (x - 26, y + 8), (x - 14, y)], fill=PAPER)
        _paste(image, _chip(palette[player], seats[player]), (x, y))
        name = _shown(names.get(player, player)) or words["player"].format(seat=seats[player])
        draw.text((x + 24, y), _fit(draw, name, font, 150), font=font, fill=PAPER, anchor="lm")
        stats = words["stats" if over else "stats_now"].format(
            chips=seen.chips_left[player], points=points[player]
        )
        draw.text((x + 182, y), _fit(draw, stats, small, 180), font=small, fill=MUTED, anchor="lm")
    note = _fit(draw, words["key_over" if over else "key"], small, WIDTH - 40)
    draw.text((WIDTH // 2, HEIGHT - 12), note, font=small, fill=MUTED, anchor="mm")


def _fit(draw: ImageDraw.ImageDraw, label: str, font: Font, width: int) -> str:
    return fonts.fit(draw, label, font, width)


# -- tiles and chips, drawn once and reused --------------------------------------------------------

_SCALE = 4
_TILE = CELL - 2 * GAP


@lru_cache(maxsize=1)
def _card_mask() -> Image.Image:
    """Rounded corners, smoothed."""
    big = Image.new("L", (_TILE * _SCALE, _TILE * _SCALE), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, _TILE * _SCALE - 1, _TILE * _SCALE - 1), radius=9 * _SCALE, fill=255
    )
    return big.resize((_TILE, _TILE), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def _empty_tile(name: str) -> Image.Image:
    tile = Image.new("RGB", (_TILE, _TILE), EMPTY)
    ImageDraw.Draw(tile).text(
        (_TILE / 2, _TILE / 2), name, font=_font(20), fill=EMPTY_INK, anchor="mm"
    )
    return tile


@lru_cache(maxsize=8)
def _land_tile(label: str) -> Image.Image:
    """Land for sale: hatched, so that it never looks like a building."""
    tile = Image.new("RGB", (_TILE, _TILE), LAND_FILL)
    pen = ImageDraw.Draw(tile)
    for k in range(-_TILE, _TILE, 14):
        pen.line((k, _TILE, k + _TILE, 0), fill=LAND_LINES, width=4)
    font = _font(20)
    width = pen.textlength(label, font=font)
    middle = _TILE / 2 + 4
    pen.rounded_rectangle(
        (middle - width / 2 - 8, _TILE / 2 - 12, middle + width / 2 + 8, _TILE / 2 + 14),
        radius=6,
        fill=LAND_FILL,
    )
    pen.text((middle, _TILE / 2 + 1), label, font=font, fill=INK, anchor="mm")
    return tile


@lru_cache(maxsize=128)
def _card_tile(card: str, suit_label: str) -> Image.Image:
    """A building: its suit colour, its suit name small, its number big."""
    fill = SUIT_COLOURS[CARD_SUIT[card]]
    ink = _contrast(fill)
    tile = Image.new("RGB", (_TILE, _TILE), fill)
    pen = ImageDraw.Draw(tile)
    pen.text((14, 12), suit_label, font=_font(14), fill=ink, anchor="lt")
    pen.text(
        (_TILE / 2, _TILE / 2 - 8), str(CARD_NUMBER[card]), font=_font(46), fill=ink, anchor="mm"
    )
    return tile


@lru_cache(maxsize=64)
def _chip(colour: RGB, seat: int) -> Image.Image:
    """An RGBA chip sprite: black rim, white ring, the player's colour, the seat number."""
    size = 2 * CHIP_RADIUS + 2
    big = Image.new("RGBA", (size * _SCALE, size * _SCALE), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    edge = size * _SCALE - 1
    pen.ellipse((0, 0, edge, edge), fill=(*INK, 255))
    pen.ellipse((2 * _SCALE, 2 * _SCALE, edge - 2 * _SCALE, edge - 2 * _SCALE), fill=(*PAPER, 255))
    inset = 4 * _SCALE
    pen.ellipse((inset, inset, edge - inset, edge - inset), fill=(*colour, 255))
    sprite = big.resize((size, size), Image.Resampling.LANCZOS)
    ImageDraw.Draw(sprite).text(
        (size / 2, size / 2 + 1), str(seat), font=_font(16), fill=_contrast(colour), anchor="mm"
    )
    return sprite


def _paste(image: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    x, y = centre
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _contrast(colour: RGB) -> RGB:
    """Dark or white ink on `colour`, whichever contrasts more (WCAG)."""
    white = (255, 255, 255)
    return INK if contrast(INK, colour) >= contrast(white, colour) else white


def _shown(name: str) -> str:
    """The name as the font can draw it, or "" (the legend then says "Player N")."""
    return fonts.shown(name)
