"""The defined way a layout gives way when its text would not fit Discord's 4,000 characters.

A presenter asks `budget_left(view)` once the fixed parts are built, then `fit_lines` folds a list
that can grow without bound (round history, standings) into what is left: the first lines that
fit and one "… and N more" line, never a message Discord would refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import i18n
from bot.layout.limits import MAX_TEXT, text_length
from bot.layout.payload import payload, walk


def budget_left(view: discord.ui.LayoutView) -> int:
    """Characters of text the view can still take (negative when it is already over)."""
    return MAX_TEXT - text_length(list(walk(payload(view))))


def fit_lines(lines: Sequence[str], budget: int, locale: Any = None) -> list[str]:
    """The lines that fit `budget` characters once joined by newlines.

    All of them if they fit; else as many first lines as fit together with a final
    "… and N more" line (in `locale`'s language) counting the rest. If not even that line fits,
    nothing: the caller leaves the list out rather than send a cut-off line."""
    if _joined_length(lines) <= budget:
        return list(lines)

    def more(rest: int) -> str:
        return i18n.t(locale, "layout.more", n=rest)

    # Keeping one more line adds at least its newline and shortens the count by at most one
    # digit, so the folded length never decreases as lines are kept: stop at the first misfit.
    kept, used = 0, 0  # used: the kept lines, each with its newline
    for line in lines:
        if used + len(line) + 1 + len(more(len(lines) - kept - 1)) > budget:
            break
        used += len(line) + 1
        kept += 1
    last = more(len(lines) - kept)
    return [*lines[:kept], last] if used + len(last) <= budget else []


def _joined_length(lines: Sequence[str]) -> int:
    return sum(len(line) for line in lines) + max(0, len(lines) - 1)
