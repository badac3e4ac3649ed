"""Rights of Losers: names of cells and spots, menu chunks, the field picture and its summary."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from typing import Any

import pytest
from PIL import Image

from bot.losers.board_image import _shown, render_field
from bot.losers.board_text import field_summary
from bot.losers.names import (
    cell_name,
    chunk_options,
    parse_cell,
    parse_spot,
    spot_code,
    spot_kind,
    spot_name,
)
from rules.agents import computer_action
from rules.log import new_header, start
from rules.losers import RightsOfLosers
from rules.losers_board import CARD_NUMBER, CARD_SUIT, LAND, TOUCHED_BY, spot_index

ALL_SPOTS = [(y, x) for y in range(9) for x in range(9)]
ALL_CELLS = [(r, c) for r in range(5) for c in range(5)]
JAPANESE = {"card": "札", "edge": "辺", "corner": "角"}
PNG = b"\x89PNG\r\n\x1a\n"


# -- names -----------------------------------------------------------------------------------------


def test_cell_names_round_trip() -> None:
    names = [cell_name(cell) for cell in ALL_CELLS]
    assert names[:6] == ["A1", "B1", "C1", "D1", "E1", "A2"]
    assert len(set(names)) == 25
    for cell, name in zip(ALL_CELLS, names, strict=True):
        assert parse_cell(name) == cell
        assert parse_cell(name.lower()) == cell


@pytest.mark.parametrize(
    ("spot", "name"),
    [
        ((4, 2), "card B3"),
        ((5, 2), "edge B3|B4"),
        ((4, 3), "edge B3|C3"),
        ((5, 3), "corner B3/C4"),
        ((0, 0), "card A1"),
        ((8, 8), "card E5"),
        ((7, 7), "corner D4/E5"),
    ],
)
def test_spot_names(spot: tuple[int, int], name: str) -> None:
    assert spot_name(spot) == name
    assert parse_spot(name) == spot


@pytest.mark.parametrize("words", [None, JAPANESE, {"card": "on", "edge": "at", "corner": "in"}])
def test_spot_names_round_trip_for_all_81_spots(words: dict[str, str] | None) -> None:
    names = [spot_name(spot, words) for spot in ALL_SPOTS]
    assert len(set(names)) == 81
    for spot, name in zip(ALL_SPOTS, names, strict=True):
        assert parse_spot(name, words) == spot
        assert parse_spot(spot_code(spot)) == spot  # the language-free select value
        # Only the word is language-dependent: the rest is letters, digits and | or /.
        word, code = name.rsplit(" ", 1)
        assert (
            word == (words or {"card": "card", "edge": "edge", "corner": "corner"})[spot_kind(spot)]
        )
        assert re.fullmatch(r"[A-E][1-5]([|/][A-E][1-5])?", code)
        # The cells named are cells the spot touches.
        touched = {divmod(cell, 5) for cell in TOUCHED_BY[spot_index(spot)]}
        assert {parse_cell(part) for part in re.split(r"[|/]", code)} <= touched


@pytest.mark.parametrize(
    "text", ["", "F1", "A6", "card", "edge B3", "corner B3|B4", "edge B3|C4", "B3/B4", "x A1", 7]
)
def test_parse_spot_refuses_junk(text: Any) -> None:
    with pytest.raises(ValueError):
        parse_spot(text)


def test_parse_spot_refuses_the_wrong_word() -> None:
    with pytest.raises(ValueError):
        parse_spot("edge B3")  # B3 alone is a card
    with pytest.raises(ValueError):
        parse_spot("card B3", JAPANESE)
    assert parse_spot("札 B3", JAPANESE) == (4, 2)


@pytest.mark.parametrize("count", [0, 1, 24, 25, 26, 50, 51, 80, 81])
def test_chunks_never_exceed_25_and_cover_every_spot(count: int) -> None:
    rng = random.Random(count)
    spots = rng.sample(ALL_SPOTS, count)
    groups = chunk_options(spots)
    assert all(1 <= len(group) <= 25 for _, group in groups)
    flat = [spot for _, group in groups for spot in group]
    assert flat == sorted(spots)
    assert len(groups) == -(-count // 25)
    for label, group in groups:
        assert re.fullmatch(r"[A-E][1-5](-[A-E][1-5])?", label)
        assert label.startswith(cell_name((group[0][0] // 2, group[0][1] // 2)))


def test_chunk_labels_give_the_range() -> None:
    groups = chunk_options(ALL_SPOTS)
    assert [len(group) for _, group in groups] == [21, 20, 20, 20]
    assert groups[0][0].startswith("A1-")
    assert groups[-1][0].endswith("-E5")
    assert chunk_options([(4, 4)]) == [("C3", [(4, 4)])]
    small = chunk_options(ALL_SPOTS, size=10)
    assert all(len(group) <= 10 for _, group in small)


# -- the picture -----------------------------------------------------------------------------------


def played(seed: int, players: int = 4, tricks: int = 6) -> RightsOfLosers:
    """A seeded game between computer players after some tricks."""
    names = ["ann", "ben", "cho", "dev", "eve"][:players]
    game = start(new_header("rights-of-losers", names, seed=seed))
    assert isinstance(game, RightsOfLosers)
    rng = random.Random(seed)
    while (nxt := game.next()) is not None and game.trick_number <= tricks:
        game.apply(nxt.player, computer_action(game, nxt.player, rng))
    return game


def picture(game: RightsOfLosers, **options: Any) -> bytes:
    """The picture the bot draws of a game: its public observation and the points now."""
    seen = game.observation(None)
    return render_field(seen, seen.points_now(), **options)


def test_the_field_picture_is_a_png_of_the_expected_size() -> None:
    png = picture(played(1))
    assert png.startswith(PNG)
    with Image.open(io.BytesIO(png)) as image:
        image.verify()
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.size == (800, 800)


def test_the_same_observation_gives_the_same_bytes() -> None:
    game = played(2)
    seen = game.observation(None)
    points = seen.points_now()
    names = {"ann": "Ann", "ben": "Ben"}
    assert render_field(seen, points, names=names) == render_field(
        game.clone().observation(None), dict(points), names=names
    )


def test_a_new_chip_changes_the_picture() -> None:
    game = played(3)
    seen = game.observation(None)
    points = seen.points_now()
    taken = {at for at, _ in seen.chips}
    free = next(spot for spot in ALL_SPOTS if spot not in taken)
    more = dataclasses.replace(seen, chips=(*seen.chips, (free, seen.players[0])))
    assert render_field(more, points) != render_field(seen, points)


def test_the_legend_shows_the_points_the_rules_count() -> None:
    game = played(3)
    seen = game.observation(None)
    points = seen.points_now()
    assert points == game.points_now()
    other = {p: n + 7 for p, n in points.items()}
    assert render_field(seen, other) != render_field(seen, points)


def test_colours_and_the_reversed_marker_change_the_picture() -> None:
    game = played(4)
    seen = game.observation(None)
    points = seen.points_now()
    plain = render_field(seen, points)
    colours = {seen.players[0]: (10, 200, 10)}
    assert render_field(seen, points, colours=colours) != plain
    flipped = dataclasses.replace(seen, reversed=not seen.reversed)
    assert render_field(flipped, points) != plain


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pictures_of_whole_games_from_start_to_end(players: int) -> None:
    for tricks in (0, 3, 10):
        with Image.open(io.BytesIO(picture(played(10 + players, players, tricks)))) as image:
            assert image.size == (800, 800)


def test_names_the_bundled_font_cannot_draw_fall_back() -> None:
    assert _shown("Ann") == "Ann"
    assert _shown("Chō") == "Chō" and _shown("デブ") == "デブ"  # Latin accents and kana
    assert _shown("Zoë😀") == ""  # an emoji: the legend says "Player N", as the chip does


# -- the summary -----------------------------------------------------------------------------------


def test_the_summary_mentions_every_card_and_owner() -> None:
    game = played(6, players=5, tricks=7)
    seen = game.observation(None)
    points = seen.points_now()
    names = {p: p.title() for p in seen.players}
    summary = field_summary(seen, points, names)
    buildings = [card for card in seen.field if card not in (None, LAND)]
    assert len(buildings) == 14
    for card in buildings:
        assert f"{CARD_SUIT[card]} {CARD_NUMBER[card]}" in summary
    for judged in seen.owners_now:
        line = next(x for x in summary.splitlines() if x.startswith(cell_name(judged.cell) + ":"))
        if judged.owner is not None:
            assert names[judged.owner] in line
        elif judged.by == "tie":
            assert "tied" in line
    for at, _ in seen.chips:
        assert spot_name(at) in summary
    assert any(points.values())  # seven tricks in: somebody would score
    for player in seen.players:
        assert f"{names[player]} {points[player]}" in summary
        assert f"{names[player]} (chips left: {seen.chips_left[player]})" in summary


def test_the_summary_speaks_the_callers_words() -> None:
    game = played(7)
    seen = game.observation(None)
    text = {"summary_land": "土地", "summary_scores": "今終われば: {scores}。"}
    summary = field_summary(seen, seen.points_now(), words=JAPANESE, text=text)
    assert "A1: 土地" in summary
    assert "今終われば: " in summary
    at, _ = seen.chips[0]
    assert spot_name(at, JAPANESE) in summary


def test_the_final_summary_gives_the_final_scores() -> None:
    game = played(8, tricks=10)
    seen = game.observation(None)
    assert seen.over and seen.points_now() == game.points_now() == seen.scores
    summary = field_summary(seen, seen.points_now())
    assert "Final scores: " in summary
    for player, score in seen.scores.items():
        assert f"{player} {score}" in summary
