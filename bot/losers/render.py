"""Rights of Losers as Discord messages: card and spot names, the field's picture, whose turn
it is, the lines that tell what happened in a trick, and the final standings (the table message
itself is laid out in `bot.losers.boards`).

Everything here reads the public observation (`RightsOfLosers.observation(None)`) or a player's
own, and the typed events; it decides no rule. Public messages speak the guild's language, private
menus the reader's.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence

import discord

from bot.i18n import language, t, text
from bot.losers import board_image, board_text, glance
from bot.losers.names import cell_name, spot_name
from bot.tables.reasons import clause, with_clause
from rules.losers_board import (
    CARD_NUMBER,
    CARD_SUIT,
    CELLS,
    GRID,
    LAND,
    SUITS,
    TOUCHED_BY,
    spot_index,
)
from rules.losers_events import (
    Appointed,
    Built,
    CardPlayed,
    ChipMoved,
    ChipPlaced,
    ChipSkipped,
    Discarded,
    GameOver,
    LosersEvent,
    Passed,
    Reversed,
    TrickStarted,
    TrickWon,
)
from rules.losers_judgement import land_counts
from rules.losers_view import LosersObservation

COLOUR = discord.Colour.from_rgb(46, 139, 60)
SUIT_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦", "purple": "🟪"}
SEAT_MARK = ("①", "②", "③", "④", "⑤")
PICTURE = "field.png"
Namer = Callable[[str], str]

# The keys of `board_text.ENGLISH_TEXT` drawn on the picture, and those of the text summary.
_PICTURE_KEYS: tuple[str, ...] = (
    "trick",
    "over",
    "normal",
    "reversed",
    "land",
    "stats",
    "stats_now",
    "key",
)
_PICTURE_KEYS += ("key_over", "player")
_SUMMARY_KEYS: tuple[str, ...] = (
    "field",
    "cell",
    "building",
    "land",
    "empty",
    "owner",
    "tie",
    "nobody",
)
_SUMMARY_KEYS += ("chips", "no_chips", "scores", "final")
# Events that go into the story of a trick (the plays are shown as the trick itself); a tuple of
# classes, so that `isinstance(e, STORY)` narrows an event to `StoryEvent`.
STORY = (
    TrickWon,
    ChipPlaced,
    ChipSkipped,
    Built,
    Discarded,
    Appointed,
    Reversed,
    ChipMoved,
    Passed,
)
StoryEvent = (
    TrickWon
    | ChipPlaced
    | ChipSkipped
    | Built
    | Discarded
    | Appointed
    | Reversed
    | ChipMoved
    | Passed
)


# -- words -----------------------------------------------------------------------------------------


def suit(lang: str, name: str) -> str:
    return t(lang, f"losers.suit.{name}")


def card(lang: str, card_id: str) -> str:
    """ "🟥 red 7" (Japanese "🟥 赤7")."""
    name = CARD_SUIT[card_id]
    return t(
        lang,
        "losers.card",
        emoji=SUIT_EMOJI[name],
        suit=suit(lang, name),
        number=CARD_NUMBER[card_id],
    )


def card_label(lang: str, card_id: str) -> str:
    """A card on a button or in a select option (the emoji goes separately)."""
    name = CARD_SUIT[card_id]
    return t(lang, "losers.card_label", suit=suit(lang, name), number=CARD_NUMBER[card_id])


def spot_words(lang: str) -> dict[str, str]:
    return {kind: t(lang, f"losers.spot.{kind}") for kind in ("card", "edge", "corner")}


def spot(lang: str, at: Sequence[int]) -> str:
    """ "edge B3|B4" in the reader's words."""
    return spot_name(at, spot_words(lang))


def cell_card(lang: str, field: Sequence[str | None], cell: Sequence[int]) -> str:
    """What lies on a cell of the field (its 25 cells row by row), briefly: "B3 red 7",
    "C3 land", "D2 empty"."""
    r, c = cell
    here = field[r * GRID + c]
    if here is None:
        what = t(lang, "losers.hand.empty_cell")
    elif here == LAND:
        what = t(lang, "losers.land")
    else:
        what = card_label(lang, here)
    return f"{cell_name(cell)} {what}"


def spot_touches(lang: str, seen: LosersObservation, at: Sequence[int]) -> str:
    """The cells a spot touches and what lies on them, for a select option's description."""
    index = spot_index((at[0], at[1]))
    assert index is not None
    return " · ".join(cell_card(lang, seen.field, CELLS[cell]) for cell in TOUCHED_BY[index])


# -- the picture and its words -----------------------------------------------------------------


def picture_text(lang: str) -> dict[str, str]:
    """The picture's labels in `lang`, each in English where the bundled font cannot draw it.

    Templates stay unformatted (`board_image` fills them in), so they come raw from the catalogue.
    """
    words: dict[str, str] = {}
    for key in _PICTURE_KEYS:
        words[key] = text(language(lang), f"losers.image.{key}")
    for name in SUITS:
        words[name] = suit(lang, name)
    return {k: v for k, v in words.items() if board_image._shown(v) == v}


def summary_text(lang: str) -> dict[str, str]:
    words = {f"summary_{k}": text(language(lang), f"losers.summary.{k}") for k in _SUMMARY_KEYS}
    words.update({name: suit(lang, name) for name in SUITS})
    words["normal"] = t(lang, "losers.summary.normal")
    words["reversed"] = t(lang, "losers.summary.reversed")
    return words


def picture(
    seen: LosersObservation, points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> discord.File:
    """The field as a PNG attachment, with a short alternative text; `points` are the rules'
    points now (`LosersObservation.points_now()`)."""
    png = board_image.render_field(seen, points, names=names, text=picture_text(lang))
    alt = glance.alt_text(seen, points, lang, names)
    return discord.File(io.BytesIO(png), filename=PICTURE, description=alt)


def summary(
    seen: LosersObservation, points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> str:
    return board_text.field_summary(
        seen, points, names=names, words=spot_words(lang), text=summary_text(lang)
    )


# -- the table message -------------------------------------------------------------------------


def expectation(seen: LosersObservation, lang: str, name: Namer) -> str:
    """Whose turn it is and what they must do."""
    who, phase = seen.to_act, seen.phase
    if who is None:
        return t(lang, "losers.table.over")
    player = name(who)
    if phase == "play":
        if not seen.trick:
            return t(lang, "losers.table.expect_lead", player=player)
        led = CARD_SUIT[seen.trick[0][1]]
        return t(lang, "losers.table.expect_play", player=player, suit=suit(lang, led))
    return t(lang, f"losers.table.expect_{phase}", player=player)


def strength(seen: LosersObservation, lang: str) -> str:
    key = "strength_reversed" if seen.reversed else "strength_normal"
    return t(lang, f"losers.table.{key}")


def trick_lines(seen: LosersObservation, lang: str, name: Namer) -> str:
    """The cards of the trick in play, or of the trick being settled with its winner."""
    last = seen.last_trick
    if seen.phase == "play" or last is None:
        plays, winner = seen.trick, None
    else:
        plays, winner = last.plays, last.winner
    lines = [f"{card(lang, c)} · {name(p)}" + (" 🏆" if p == winner else "") for p, c in plays]
    return "\n".join(lines) or t(lang, "losers.table.trick_empty")


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, "…" marking a cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- what happened -----------------------------------------------------------------------------


def story_line(e: LosersEvent, lang: str, name: Namer) -> str:
    """One event of a trick in words."""
    match e:
        case TrickWon():
            return t(
                lang,
                f"losers.event.won_{e.why}",
                player=name(e.winner),
                trick=e.trick,
                card=card(lang, e.card),
                suit=suit(lang, e.led_suit),
            )
        case ChipPlaced():
            at, left = spot(lang, e.at), e.chips_left
            return t(lang, "losers.event.chip", player=name(e.player), spot=at, left=left)
        case ChipSkipped():
            return t(lang, f"losers.event.skipped_{e.reason}", player=name(e.player))
        case Built():
            return t(
                lang,
                "losers.event.built",
                player=name(e.player),
                card1=card(lang, e.cards[0]),
                card2=card(lang, e.cards[1]),
                cell1=cell_name(e.at[0]),
                cell2=cell_name(e.at[1]),
            )
        case Discarded():
            gone = ", ".join(card(lang, c) for c in e.cards) or "—"
            return t(lang, "losers.event.discarded", player=name(e.player), cards=gone)
        case Appointed():
            return t(lang, "losers.event.appointed", player=name(e.player), lead=name(e.lead))
        case Reversed():
            key = "losers.event.reversed_on" if e.reversed else "losers.event.reversed_off"
            return t(lang, key, player=name(e.player))
        case ChipMoved():
            source, to = spot(lang, e.source), spot(lang, e.to)
            return t(lang, "losers.event.moved", player=name(e.player), source=source, to=to)
        case Passed():
            return t(lang, "losers.event.passed", player=name(e.player))
        # Outside `STORY`, never told in words (a play shows in the trick, a new trick and the
        # end have messages of their own): `t` answers with the key itself.
        case CardPlayed():
            return t(lang, "losers.event.card_played", player=name(e.player))
        case TrickStarted():
            return t(lang, "losers.event.trick_started")
        case GameOver():
            return t(lang, "losers.event.game_over")


def recap(story: Sequence[LosersEvent], trick: int, lang: str, name: Namer) -> str:
    """The closed table message of a trick: how it went, in a few lines."""
    lines = [t(lang, "losers.table.closed", trick=trick)]
    lines += [
        with_clause(story_line(e, lang, name), clause(e, "losers", lang))
        for e in story
        if isinstance(e, STORY)
    ]
    return cut("\n".join(lines), 2000)


# -- the end -----------------------------------------------------------------------------------


def final_fields(
    embed: discord.Embed,
    seen: LosersObservation,
    tie_break: str | None,
    lang: str,
    name: Namer,
) -> None:
    """Land for sale, the tie-break and the field in words under the final standings; `seen` is
    the observation of the game over, `tie_break` the one its result names (R-7)."""
    # land is counted once the game is over; before that nobody holds any yet.
    land = land_counts(seen.players, seen.owners_now) if seen.over else {}
    most = max(land.values(), default=0)
    lines = [
        t(lang, "losers.end.land_line", player=name(p), land=land.get(p, 0)) for p in seen.players
    ]
    if most >= 1:
        holders = ", ".join(name(p) for p in seen.players if land.get(p) == most)
        lines.append(t(lang, "losers.end.land_bonus", players=holders))
    else:
        lines.append(t(lang, "losers.end.no_land_bonus"))
    embed.add_field(name=t(lang, "losers.end.land"), value=cut("\n".join(lines), 1024))
    if tie_break:
        embed.add_field(
            name=t(lang, "losers.end.tie"),
            value=t(lang, f"losers.end.tie_{tie_break}"),
            inline=False,
        )
