"""Rights of Losers' field at a glance: the few words the table message carries beside its
picture, and the picture's alternative text for screen readers.

The picture is uploaded once per trick, so the words say what it shows (the field when the trick
began) and the text in the message stays short: how many cards are down, who would get how many
of them now and the points now. The whole field in words stays on `/… status` and in the menus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from bot.i18n import t
from rules.losers_board import LAND, TRICKS
from rules.losers_view import LosersObservation

# Discord's limit for an attachment's description (alt text) is 1024 characters.
ALT_LIMIT = 1000


def owners_line(seen: LosersObservation, lang: str, names: Mapping[str, str]) -> str:
    """Cards and land down, empty cells, and how many cards each player would get now."""
    down = [card for card in seen.field if card is not None]
    land = sum(1 for card in down if card == LAND)
    gets = Counter(judged.owner for judged in seen.owners_now if judged.owner is not None)
    owners = " · ".join(
        t(lang, "losers.glance.owner", player=names.get(p, p), cards=gets[p]) for p in seen.players
    )
    return t(
        lang,
        "losers.glance.field",
        buildings=len(down) - land,
        land=land,
        empty=len(seen.field) - len(down),
        owners=owners,
    )


def scores_line(
    seen: LosersObservation, points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> str:
    scores = ", ".join(f"{names.get(p, p)} {points[p]}" for p in seen.players)
    return t(lang, "losers.summary.final" if seen.over else "losers.summary.scores", scores=scores)


def short_summary(
    seen: LosersObservation, points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> str:
    """Two lines for the embed: the field in numbers, and the points now."""
    return owners_line(seen, lang, names) + "\n" + scores_line(seen, points, lang, names)


def alt_text(
    seen: LosersObservation, points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> str:
    """The picture's description for screen readers: what it is and what it shows."""
    key = "losers.glance.alt_over" if seen.over else "losers.glance.alt"
    head = t(lang, key, trick=seen.trick_number, tricks=TRICKS)
    alt = " ".join((head, owners_line(seen, lang, names), scores_line(seen, points, lang, names)))
    return alt if len(alt) <= ALT_LIMIT else alt[: ALT_LIMIT - 1] + "…"
