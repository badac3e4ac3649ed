"""Rights of Losers' table message laid out as a board (`bot.layout.board`), and the same table
as an embed for `/losers status` (private answers stay embeds).

The board reads, top to bottom: whose move it is and the strength, the field's picture (drawn
when the trick began, uploaded once with the trick's first message) with its description for
screen readers, who would get how many cards now, one line per seat in seat order, then, after a
rule, the trick so far (its cards, then what happened after it). Everything comes from the
public observation (`RightsOfLosers.observation(None)`, G-3) and the typed events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.i18n import t
from bot.layout.board import Board
from bot.losers import glance
from bot.losers.render import (
    COLOUR,
    PICTURE,
    SEAT_MARK,
    Namer,
    StoryEvent,
    cut,
    expectation,
    story_line,
    strength,
    trick_lines,
)
from rules.losers_board import TRICKS
from rules.losers_events import TrickWon
from rules.losers_view import LosersObservation

PICTURE_URL = f"attachment://{PICTURE}"
_FIELD_LIMIT = 1024
_DESCRIPTION_LIMIT = 4096


@dataclass(frozen=True)
class Shown:
    """What the public table shows, taken on the loop: the public observation (G-3), the seats
    named in public (`name`: mentions, computers with 🤖) and without pings (`names`: the
    picture's and the summary's), the trick's story so far, the seats on autopilot."""

    seen: LosersObservation
    name: Namer
    names: Mapping[str, str]
    story: Sequence[StoryEvent] = ()
    autopilot: Sequence[str] = ()

    @property
    def points(self) -> Mapping[str, int]:
        """The rules' points now (`LosersObservation.points_now()`)."""
        return self.seen.points_now()


# -- the seats -------------------------------------------------------------------------------------


def played_this_trick(seen: LosersObservation) -> set[str]:
    """The players whose card lies in the trick in play, or in the trick being settled."""
    last = seen.last_trick
    plays = seen.trick if seen.phase == "play" or last is None else last.plays
    return {player for player, _ in plays}


def seat_state(seen: LosersObservation, player: str, lang: str) -> str:
    """ "▶ to play" for the seat whose move it is, "✓ played" for a card in this trick."""
    if seen.to_act == player:
        return t(lang, "losers.table.seat_to_play")
    if player in played_this_trick(seen):
        return t(lang, "losers.table.seat_played")
    return ""


def player_rows(
    seen: LosersObservation,
    points: Mapping[str, int],
    lang: str,
    name: Namer,
    autopilot: Sequence[str] = (),
    states: bool = False,
) -> list[str]:
    """One line per seat in seat order: name (a computer's with 🤖), with `states` what the
    seat is doing in this trick, cards, chips and points, "(autopilot)", ⭐ for the lead."""
    rows = []
    for seat, player in enumerate(seen.players):
        shown = name(player)
        state = seat_state(seen, player, lang) if states else ""
        if state:
            shown += f" · {state}"
        row = t(
            lang,
            "losers.table.player_row",
            seat=SEAT_MARK[seat],
            player=shown,
            cards=seen.hand_sizes[player],
            chips=seen.chips_left[player],
            points=points[player],
        )
        if player in autopilot:
            row += " " + t(lang, "table.on_autopilot")
        if player == seen.lead and not seen.over:
            row += " ⭐"
        rows.append(row)
    return rows


def after_the_trick(story: Sequence[StoryEvent], lang: str, name: Namer) -> list[str]:
    """What happened once the trick was won (its winner shows in the trick's cards)."""
    return [story_line(e, lang, name) for e in story if not isinstance(e, TrickWon)]


# -- the board -------------------------------------------------------------------------------------


def table_board(shown: Shown, lang: str, picture_alt: str | None = None) -> Board:
    """The trick's table message; `picture_alt` describes the picture uploaded with its first
    message (the field as the trick began), or the field now if that is not known."""
    seen, points, name, names = shown.seen, shown.points, shown.name, shown.names
    trick = seen.trick_number
    board = Board(
        title=t(lang, "losers.table.title", trick=trick, tricks=TRICKS),
        accent=COLOUR,
        footer=t(lang, "losers.table.footer"),
        lang=lang,
    )
    board.text(expectation(seen, lang, name), strength(seen, lang))
    board.picture(PICTURE_URL, picture_alt or glance.alt_text(seen, points, lang, names))
    board.text(
        glance.owners_line(seen, lang, names),
        "-# " + t(lang, "losers.glance.when"),
        f"**{t(lang, 'losers.table.players')}**",
    )
    for row in player_rows(seen, points, lang, name, shown.autopilot, states=True):
        board.seat(row)
    board.rule()
    board.text(
        *trick_lines(seen, lang, name).splitlines(),
        title=t(lang, "losers.table.trick", trick=trick),
    )
    told = after_the_trick(shown.story, lang, name)
    if told:
        board.text(*told, title=t(lang, "losers.table.this_trick"))
    return board


def closed_board(trick: int, lang: str, picture_alt: str) -> Board:
    """A closed trick's message: its picture kept (the story goes on top, `close_table`)."""
    title = t(lang, "losers.table.title", trick=trick, tricks=TRICKS)
    return Board(title=title, accent=COLOUR, lang=lang).picture(PICTURE_URL, picture_alt)


# -- the same table, as an embed (`/losers status`) ------------------------------------------------


def table_embed(shown: Shown, lang: str) -> discord.Embed:
    """What is expected, the trick, the players, the field: a private status answer."""
    seen, points, name, names = shown.seen, shown.points, shown.name, shown.names
    trick = seen.trick_number
    embed = discord.Embed(
        title=t(lang, "losers.table.title", trick=trick, tricks=TRICKS), colour=COLOUR
    )
    head = [expectation(seen, lang, name), strength(seen, lang)]
    text = glance.short_summary(seen, points, lang, names)
    when = t(lang, "losers.glance.when")
    embed.description = cut("\n".join(head) + "\n\n" + text + "\n-# " + when, _DESCRIPTION_LIMIT)
    embed.add_field(
        name=t(lang, "losers.table.trick", trick=trick),
        value=cut(trick_lines(seen, lang, name), _FIELD_LIMIT),
        inline=False,
    )
    told = after_the_trick(shown.story, lang, name)
    if told:
        embed.add_field(
            name=t(lang, "losers.table.this_trick"),
            value=cut("\n".join(told), _FIELD_LIMIT),
            inline=False,
        )
    embed.add_field(
        name=t(lang, "losers.table.players"),
        value=cut("\n".join(player_rows(seen, points, lang, name, shown.autopilot)), _FIELD_LIMIT),
        inline=False,
    )
    embed.set_image(url=PICTURE_URL)
    embed.set_footer(text=t(lang, "losers.table.footer"))
    return embed
