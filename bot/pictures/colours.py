"""Colours the pictures share, and the WCAG contrast that checks them.

Seats are told apart by the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008),
chosen to stay distinguishable with the common colour-vision deficiencies; every seat colour
keeps a contrast of at least 3:1 (WCAG 2.1, non-text contrast) against the dark board, so black
and Okabe-Ito's dark blue are left out. The seat number is written on every chip as well.
"""

from __future__ import annotations

from collections.abc import Mapping

RGB = tuple[int, int, int]

BOARD: RGB = (43, 45, 49)  # Discord's dark theme, where the pictures are seen
INK: RGB = (24, 24, 27)  # dark text and rims
PAPER: RGB = (236, 233, 226)  # light text on the board
MUTED: RGB = (181, 186, 193)  # secondary text on the board
MIN_CONTRAST = 3.0

# Okabe-Ito, by name, without its black and its dark blue (too dark on the board).
OKABE_ITO: Mapping[str, RGB] = {
    "orange": (230, 159, 0),
    "sky blue": (86, 180, 233),
    "bluish green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "vermillion": (213, 94, 0),
    "reddish purple": (204, 121, 167),
}
# Seat ① to ⑤.
SEAT_COLOURS: tuple[RGB, ...] = tuple(
    OKABE_ITO[name] for name in ("sky blue", "orange", "bluish green", "reddish purple", "yellow")
)


def luminance(colour: RGB) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: RGB, second: RGB) -> float:
    """WCAG 2.1 contrast ratio, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
