"""High card as embeds: the table as the physical table shows it, and each round's reveal.

Pure functions of the rules' typed observation and events (G-3: `observation(viewer)`), no
Discord calls, no table runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.i18n import t
from rules.base import Event
from tests.games.highcard.rules import ROUNDS, GameEnded, HighCard, Revealed

COLOUR = discord.Colour.from_rgb(40, 120, 90)
CARD = "🃏"
FACE_DOWN = "🂠"
Namer = Callable[[str], str]


def card(number: int) -> str:
    """A card in text: `🃏 **12**` (scripted test players read the number after the emoji)."""
    return f"{CARD} **{number}**"


def table_embed(
    state: HighCard,
    lang: str,
    name: Namer,
    viewer: str | None = None,
    autopilot: Sequence[str] = (),
) -> discord.Embed:
    """The round: who has put a card face down, whose turn it is, the points; the viewer's own
    cards when there is a seated viewer (`/highcard status`)."""
    seen = state.observation(viewer)
    embed = discord.Embed(
        title=t(lang, "highcard.table.title", round=seen.round, rounds=ROUNDS), colour=COLOUR
    )
    embed.description = t(lang, "highcard.table.over" if seen.over else "highcard.table.help")
    rows = []
    for player in seen.players:
        if player in seen.put:
            status = t(lang, "highcard.table.face_down", card=FACE_DOWN)
        elif player == seen.to_act:
            status = t(lang, "highcard.table.to_play")
        else:
            status = t(lang, "highcard.table.waiting")
        marks = "▶️ " if player == seen.to_act else ""
        away = f" {t(lang, 'table.on_autopilot')}" if player in autopilot else ""
        rows.append(
            t(lang, "highcard.table.row", marks=marks, player=name(player) + away, status=status)
        )
    if not seen.over:
        embed.add_field(
            name=t(lang, "highcard.table.this_round"), value="\n".join(rows), inline=False
        )
    points = [
        t(lang, "highcard.table.points_row", player=name(p), points=seen.points[p])
        for p in seen.players
    ]
    embed.add_field(name=t(lang, "highcard.table.points"), value="\n".join(points), inline=False)
    if seen.you is not None and seen.hand:
        embed.add_field(
            name=t(lang, "highcard.table.your_cards"), value=" ".join(card(c) for c in seen.hand)
        )
    embed.set_footer(text=t(lang, "highcard.table.footer"))
    return embed


def reveal_embed(events: Sequence[Event], lang: str, name: Namer) -> discord.Embed | None:
    """HC-3: the round's cards face up and who won it (HC-4: and that the game is over); None when
    the events hold no reveal."""
    reveal = next((e for e in events if isinstance(e, Revealed)), None)
    if reveal is None:
        return None
    cards = dict(reveal.cards)
    lines = [
        t(
            lang,
            "highcard.reveal.row",
            crown="🏆 " if player == reveal.winner else "",
            player=name(player),
            card=card(number),
        )
        for player, number in reveal.cards
    ]
    lines += [
        "",
        t(
            lang,
            "highcard.reveal.winner",
            player=name(reveal.winner),
            card=card(cards[reveal.winner]),
        ),
    ]
    if any(isinstance(e, GameEnded) for e in events):
        lines.append(t(lang, "highcard.reveal.end", rounds=ROUNDS))
    return discord.Embed(
        title=t(lang, "highcard.reveal.title", round=reveal.round),
        description="\n".join(lines),
        colour=COLOUR,
    )
