"""The shared final standings card: a podium and every player's score and rating change, drawn
off the event loop with the bundled CJK font, attached with alt text; KAMIZA and Kobayakawa
attach it to their final standings (an embed's image, or a picture inside a board's layout)."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image, ImageChops

from bot.kobayakawa.presenter import KobayakawaPresenter
from bot.layout.board import Picture
from bot.layout.payload import MEDIA_GALLERY, payload, walk
from bot.pictures import standings_card
from bot.pictures.standings_card import Placed, attach_card, card_pictures, placed, render_card
from data.store import ResultRow
from tests.bot.fakes import layout_text
from tests.bot.threads import off_the_loop, threads_running

ROWS = [
    ResultRow("1", 1, "さくら", False, 12, 1, True, 1500, 1517),
    ResultRow("bot-1", None, "Bot 1", True, 9, 2, False),
    ResultRow("3", 3, "ben", False, 9, 2, False, 1510, 1502),
    ResultRow("4", 4, "dev", False, 3, 4, False, 1490, 1483),
]


def test_a_computer_is_named_with_its_level_as_the_table_names_it() -> None:
    bot = ROWS[1]
    assert standings_card.player_name(bot, "en") == "Bot 1"
    assert standings_card.player_name(bot, "en", {"bot-1": "hard"}) == "Bot 1 (hard)"
    assert standings_card.player_name(bot, "ja", {"bot-1": "easy"}) == "ボット1（やさしい）"
    assert standings_card.player_name(ROWS[0], "en", {"bot-1": "hard"}) == "さくら"


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_rows_in_rank_order_with_whole_rating_changes() -> None:
    rows = placed(ROWS, lambda r: r.display_name)
    assert [(r.rank, r.name) for r in rows] == [(1, "さくら"), (2, "Bot 1"), (2, "ben"), (4, "dev")]
    assert [(r.rating, r.delta) for r in rows] == [(1517, 17), (None, None), (1502, -8), (1483, -7)]


def test_the_card_is_a_deterministic_png_that_grows_with_the_players() -> None:
    rows = placed(ROWS, lambda r: r.display_name)
    png = render_card("KAMIZA", rows, "en")
    assert png == render_card("KAMIZA", rows, "en")
    assert image(render_card("KAMIZA", rows[:2], "en")).height < image(png).height
    assert image(png).width == standings_card.WIDTH


def test_a_japanese_name_is_drawn_not_tofu() -> None:
    def card(name: str) -> Image.Image:
        rows = [Placed(1, name, 5, 1510, 10), Placed(2, "ben", 3, None, None)]
        return image(render_card("上座・最終結果", rows, "ja"))

    assert ImageChops.difference(card("さくら"), card("\ue000\ue000\ue000")).getbbox() is not None


async def test_attached_with_alt_text_and_drawn_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads = threads_running(monkeypatch, standings_card, "render_card")
    embed = discord.Embed(title="KAMIZA · Final standings")
    [card] = await attach_card(embed, ROWS, "en", 7)
    assert off_the_loop(threads)
    assert embed.image.url == f"attachment://{card.filename}"
    assert card.description is not None and len(card.description) <= 1024
    for shown in ("KAMIZA · Final standings", "さくら", "Bot 1", "1517 (+17)", "1502 (\u22128)"):
        assert shown in card.description
    assert image(card.fp.read()).height > 300
    japanese = await standings_card.standings_file("上座", ROWS, "ja", 7)
    assert japanese is not None and "ボット1" in (japanese.description or "")


async def test_no_results_no_card() -> None:
    embed = discord.Embed(title="KAMIZA")
    assert await attach_card(embed, [], "en", 7) == []
    assert embed.image.url is None
    assert await card_pictures("KAMIZA", [], "en", 7) == ([], [])


async def test_a_layout_shows_the_card_as_a_picture_with_its_alt_text() -> None:
    [card], pictures = await card_pictures("KAMIZA · Final standings", ROWS, "en", 7)
    assert pictures == [Picture(f"attachment://{card.filename}", card.description or "")]
    assert "さくら" in (card.description or "")


async def test_kobayakawa_attaches_the_card_to_its_final_standings() -> None:
    sent: list[dict[str, Any]] = []

    class Sending(KobayakawaPresenter):
        async def send(self, item: Any, key: str | None = None, **kwargs: Any) -> None:
            sent.append(kwargs)

        def lang(self, table: Any) -> str:
            return "en"

        def results_lines(self, table: Any, results: Any, lang: str) -> list[str]:
            return ["lines"]

    # a table whose ledger cannot be read: the standings go out without the end's extras
    place = SimpleNamespace(guild_id=1)
    facts = {"game_id": 5, "message_ids": {}, "ledger": None, "levels": {}, "place": place}
    table: Any = type("T", (), facts)()
    await Sending(None).finished(table, ROWS)  # type: ignore[arg-type]
    [message] = sent
    [card] = message["files"]
    assert card.filename == "standings.png"
    # the picture sits inside the layout, with the card's alt text for screen readers
    [gallery] = [c for c in walk(payload(message["view"])) if c["type"] == MEDIA_GALLERY]
    [item] = gallery["items"]
    assert item["media"]["url"] == "attachment://standings.png"
    assert item["description"] == card.description
    said = layout_text(message["view"])
    assert said.splitlines()[0] == "### Kobayakawa · Final standings"
    assert f"[image: {card.description}]" in said and "lines" in said
