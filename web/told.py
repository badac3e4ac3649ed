"""A replay's events in the bot's own words: the same event reads on the site as it did in the
game's Discord channel, in English or Japanese, with the same reason and rule id.

Only the functions the bot uses for its public table messages are called (what the channel
already showed everyone, so nothing beyond G-3), and only on the events the replay shows
(`Game.public_event` is not None). An event the bot does not tell in words (a card put face
down, a trick started), or a game without a teller here, gets None: the page shows its public
data. The bot's modules load discord.py, which the rest of the site does not need: they are
imported on first use, or by `warm` when the site starts (not on its first visitor's time).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from rules.base import Event

Namer = Callable[[str], str]
BOLD = re.compile(r"\*\*(.+?)\*\*")
ITALIC = re.compile(r"(?<!\*)\*(?!\*)(.+?)(?<!\*)\*(?!\*)")


@dataclass(frozen=True, slots=True)
class Told:
    lines: tuple[Markup, ...]  # what happened (the bot's Markdown as HTML)
    reason: Markup | None  # why, ending with the rule's id ("... (K-6)")


Teller = Callable[[Event, str, Namer], tuple[list[str], str | None] | None]


def as_html(text: str) -> Markup:
    """The bot's Markdown line as HTML: escaped first (names are user text), then its bold and
    italics as tags."""
    escaped = str(escape(text))
    return Markup(ITALIC.sub(r"<em>\1</em>", BOLD.sub(r"<strong>\1</strong>", escaped)))


def _kamiza(e: Event, lang: str, name: Namer) -> tuple[list[str], str | None] | None:
    from bot.kamiza import render
    from rules.kamiza_events import GameEnded, MatchEnded, RoundStarted
    from rules.kamiza_judge import JudgeEvent

    if isinstance(e, JudgeEvent):
        return [render.step_line(e, lang, name)], render.reason(e, lang)
    if isinstance(e, GameEnded | RoundStarted | MatchEnded):
        return [render.after_line(e, lang, name)], render.reason(e, lang)
    return None


def _kobayakawa(e: Event, lang: str, name: Namer) -> tuple[list[str], str | None] | None:
    from bot.i18n import t
    from bot.kobayakawa import render
    from rules.kobayakawa_moves import NobodyFought, Showdown

    if isinstance(e, Showdown):
        return render.showdown_lines(e, lang, name), render.reason(e, lang)
    if isinstance(e, NobodyFought):
        line = t(lang, "kobayakawa.showdown.nobody", count=e.to_box, player=name(e.start_player))
        return [line], render.reason(e, lang)
    told = render.event_line(e, lang, name) or render.after_line(e, lang, name)
    return ([told], render.reason(e, lang)) if told else None


def _losers(e: Event, lang: str, name: Namer) -> tuple[list[str], str | None] | None:
    from bot.losers import render
    from bot.tables.reasons import clause

    if isinstance(e, render.STORY):
        return [render.story_line(e, lang, name)], clause(e, "losers", lang)
    return None


TELLERS: dict[str, Teller] = {
    "kamiza": _kamiza,
    "kobayakawa": _kobayakawa,
    "rights-of-losers": _losers,
}


def warm() -> None:
    """Import the bot's words of every game now (a second or two) rather than on the first
    game page."""
    import bot.kamiza.render
    import bot.kobayakawa.render
    import bot.losers.render  # noqa: F401


def tell(game: str, event: Event, lang: str, name: Namer) -> Told | None:
    """`event` of `game` in the bot's words in `lang`, seats named by `name`; None when the bot
    has no words for it."""
    teller = TELLERS.get(game)
    said = teller(event, lang, name) if teller is not None else None
    if said is None:
        return None
    lines, reason = said
    return Told(tuple(as_html(line) for line in lines), as_html(reason) if reason else None)
