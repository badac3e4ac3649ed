"""Select texts longer than Discord allows are shortened at a word, with an ellipsis."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.tables.selects import OPTION_TEXT, clip, option


def test_a_long_description_is_cut_at_a_word_with_an_ellipsis():
    text = "Place a chip next to the Bakery where your chips already touch the road " * 3
    cut = option("Bakery", "b", description=text).description
    assert cut is not None and len(cut) <= OPTION_TEXT and cut.endswith("…")
    assert text.startswith(cut[:-1]) and text[len(cut) - 1] == " "  # a whole word was kept


def test_japanese_is_cut_anywhere_and_short_texts_stay_whole():
    text = "パン屋の隣にチップを置きます" * 10
    assert clip(text, OPTION_TEXT) == text[: OPTION_TEXT - 1] + "…"
    assert clip("Bakery", OPTION_TEXT) == "Bakery"


@given(st.text(min_size=0, max_size=300), st.integers(min_value=10, max_value=150))
def test_clip_always_fits_and_keeps_a_prefix(text, limit):
    cut = clip(text, limit)
    assert len(cut) <= limit
    assert cut == text or (cut.endswith("…") and text.startswith(cut[:-1].rstrip(" ,;:·-—")))
