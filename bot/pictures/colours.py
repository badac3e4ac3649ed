"""Colours the pictures share, and the WCAG contrast that checks them.

Seats are told apart by the Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008),
chosen to stay distinguishable with the common colour-vision deficiencies; every seat colour
keeps a contrast of at least 3:1 (WCAG 2.1, non-text contrast) against the dark board, so black
and Okabe-Ito's dark blue are left out. The seat number is written on every chip as well.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

BOARD: RGB = (43, 45, 49)  # Discord's dark theme, where the pictures are seen
MIN_CONTRAST = 3.0

ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

# Seat ① to ⑤.
SEAT_COLOURS: tuple[RGB, ...] = (SKY_BLUE, ORANGE, BLUISH_GREEN, REDDISH_PURPLE, YELLOW)


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
