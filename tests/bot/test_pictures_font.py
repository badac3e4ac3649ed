"""The bundled CJK font: shipped with its licence, small, and drawing every Japanese character of
the project's texts and of a Japanese name in the Rights of Losers picture (not tofu)."""

from __future__ import annotations

import io
import json
import tomllib
import unicodedata
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from bot.losers import board_image, render
from bot.pictures import fonts
from rules.log import new_header, start
from rules.losers import RightsOfLosers

ROOT = Path(__file__).resolve().parents[2]
JAPANESE_NAME = "さくら"
TOFU = "\ue000"  # a private-use character: the font draws its .notdef box


def drawn(text: str) -> Image.Image:
    image = Image.new("L", (200, 40), 0)
    ImageDraw.Draw(image).text((4, 4), text, font=fonts.font(24), fill=255)
    return image


def test_the_font_ships_small_with_its_open_font_licence() -> None:
    assert fonts.FONT_FILE.is_file() and fonts.FONT_FILE.suffix == ".otf"
    assert fonts.FONT_FILE.stat().st_size < 4_000_000
    licence = (fonts.FONT_FILE.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = package_data["package-data"]["bot"]
    assert "assets/fonts/*.otf" in shipped and "assets/fonts/OFL.txt" in shipped


def test_every_character_of_the_catalogues_is_drawn_but_emoji() -> None:
    characters: set[str] = set()
    for catalogue in (ROOT / "bot" / "i18n").glob("*/*.json"):
        for value in json.loads(catalogue.read_text(encoding="utf-8")).values():
            characters |= set(value) if isinstance(value, str) else set()
    assert any("\u4e00" <= ch <= "\u9fff" for ch in characters)  # kanji are really checked
    missing = {ch for ch in characters if not fonts.has_glyph(ch)}
    assert {ch for ch in missing if unicodedata.category(ch) != "So"} == set()


def test_a_japanese_name_is_drawn_with_real_glyphs_not_tofu() -> None:
    assert fonts.draws(JAPANESE_NAME) and fonts.draws("上座 小早川 敗者の権利 高橋")
    assert not fonts.has_glyph(TOFU)
    tofu = drawn(TOFU * len(JAPANESE_NAME))
    name = drawn(JAPANESE_NAME)
    assert ImageChops.difference(name, tofu).getbbox() is not None
    for ch in JAPANESE_NAME:  # each glyph differs from the missing-glyph box
        assert ImageChops.difference(drawn(ch), drawn(TOFU)).getbbox() is not None


def test_the_field_picture_draws_a_japanese_name_in_its_legend() -> None:
    state = start(new_header("rights-of-losers", ["1", "2", "3"], {}, seed=4))
    assert isinstance(state, RightsOfLosers)
    seen = state.observation(None)
    points = seen.points_now()

    def picture(name: str) -> Image.Image:
        names = {"1": name, "2": "ben", "3": "cho"}
        png = board_image.render_field(seen, points, names=names, text=render.picture_text("ja"))
        return Image.open(io.BytesIO(png)).convert("RGB")

    with_name = picture(JAPANESE_NAME)
    fallback = picture(TOFU * 3)  # not drawable: the legend says "Player 1" instead
    changed = ImageChops.difference(with_name, fallback).getbbox()
    assert changed is not None
    _, top, right, _ = changed
    assert top >= board_image.LEGEND_Y and right <= board_image.WIDTH // 2  # the first name only
    assert board_image._shown(JAPANESE_NAME) == JAPANESE_NAME
    assert render.picture_text("ja")["trick"] == "第{trick}/{tricks}トリック"
