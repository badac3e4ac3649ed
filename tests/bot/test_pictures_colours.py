"""Seat colours: readable on the dark board (WCAG contrast at least 3:1), told apart with the
common colour-vision deficiencies (simulated), and the seat numbers on them readable."""

from __future__ import annotations

import itertools

import pytest

from bot.losers import board_image
from bot.pictures.colours import BOARD, MIN_CONTRAST, RGB, SEAT_COLOURS, contrast, luminance

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def simulated(colour: RGB, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def encoded(v: float) -> float:
        v = min(max(v, 0.0), 1.0)
        return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)

    rgb = [linear(c) for c in colour]
    return tuple(encoded(sum(m * c for m, c in zip(row, rgb, strict=True))) for row in matrix)


def test_wcag_contrast_matches_known_values() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert luminance((255, 255, 255)) == pytest.approx(1.0)


def test_every_seat_colour_stands_out_from_the_board() -> None:
    assert board_image.BACKGROUND == BOARD and board_image.PLAYER_COLOURS == SEAT_COLOURS
    assert len(set(SEAT_COLOURS)) == len(SEAT_COLOURS) == 5  # five seats at most
    for colour in SEAT_COLOURS:
        assert contrast(colour, BOARD) >= MIN_CONTRAST, colour


def test_the_old_palette_would_fail_the_check() -> None:
    assert contrast((33, 33, 33), BOARD) < MIN_CONTRAST  # the black chips of before


@pytest.mark.parametrize("deficiency", sorted(SIMULATIONS))
def test_seat_colours_stay_apart_with_colour_blindness(deficiency: str) -> None:
    seen = [simulated(c, SIMULATIONS[deficiency]) for c in SEAT_COLOURS]
    for first, second in itertools.combinations(seen, 2):
        distance = sum((a - b) ** 2 for a, b in zip(first, second, strict=True)) ** 0.5
        assert distance > 40, (deficiency, first, second)


def test_seat_numbers_are_readable_on_their_chips() -> None:
    for colour in SEAT_COLOURS:
        assert contrast(board_image._contrast(colour), colour) >= 4.5, colour
