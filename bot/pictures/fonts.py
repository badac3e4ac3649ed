"""The font every picture draws with: a subset of Noto Sans CJK JP (SIL Open Font License 1.1,
see bot/assets/fonts/OFL.txt), so that Japanese names and labels render, not as empty boxes.

The subset keeps ASCII, Latin-1 and Latin Extended-A, kana, JIS X 0208 (level-1 kanji) and every
character of the project's texts (`tools/subset_font.py` builds it); `draws` tells whether a text
is covered, so that a picture can fall back for the rare character that is not.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_FILE = Path(__file__).resolve().parent.parent / "assets" / "fonts"
FONT_FILE /= "NotoSansCJKjp-Regular-subset.otf"
# A private-use character no font of ours has: what the font draws for a missing glyph.
_MISSING = "\ue000"


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size=size)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the font draws `char` (not its .notdef box for a missing glyph)."""
    if char.isspace():
        return True
    sample = font(19)
    missing, mask = sample.getmask(_MISSING), sample.getmask(char)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def draws(text: str) -> bool:
    return all(has_glyph(ch) for ch in text)


def shown(name: str) -> str:
    """The name as the font can draw it (accents dropped when it must), or "" when it cannot."""
    if draws(name):
        return name
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)
    )
    return plain if draws(plain) else ""


def fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """`text`, cut with "…" to be at most `width` pixels wide in `font`."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"
