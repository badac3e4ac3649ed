"""Rights of Losers as Discord messages: card and spot names, the table embed and its picture,
the lines that tell what happened in a trick, and the final standings.

Everything here reads the public view (`RightsOfLosers.view(None)`) or a player's own view, and
the events; it decides no rule. Public messages speak the guild's language, private menus the
reader's.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.i18n import language, t, text
from bot.losers import board_image
from bot.losers.names import cell_name, spot_name
from rules.base import Event
from rules.losers_board import (
    CARD_NUMBER,
    CARD_SUIT,
    CELLS,
    LAND,
    SUITS,
    TOUCHED_BY,
    TRICKS,
    spot_index,
)

COLOUR = discord.Colour.from_rgb(46, 139, 60)
SUIT_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦", "purple": "🟪"}
SEAT_MARK = ("①", "②", "③", "④", "⑤")
PICTURE = "field.png"
Namer = Callable[[str], str]

# The keys of `board_image.ENGLISH_TEXT` drawn on the picture, and those of the text summary.
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
# Events that go into the story of a trick (the plays are shown as the trick itself).
STORY = frozenset(("trick_won", "chip_placed", "chip_skipped", "built", "discarded"))
STORY |= {"appointed", "reversed", "chip_moved", "passed"}
_FIELD_LIMIT = 1024
_DESCRIPTION_LIMIT = 4096


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


def cell_card(lang: str, field: Sequence[Sequence[str | None]], cell: Sequence[int]) -> str:
    """What lies on a cell, briefly: "B3 red 7", "C3 land", "D2 empty"."""
    r, c = cell
    here = field[r][c]
    if here is None:
        what = t(lang, "losers.hand.empty_cell")
    elif here == LAND:
        what = t(lang, "losers.land")
    else:
        what = card_label(lang, here)
    return f"{cell_name(cell)} {what}"


def spot_touches(lang: str, view: Mapping[str, Any], at: Sequence[int]) -> str:
    """The cells a spot touches and what lies on them, for a select option's description."""
    index = spot_index(tuple(at))
    assert index is not None
    return " · ".join(cell_card(lang, view["field"], CELLS[cell]) for cell in TOUCHED_BY[index])


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
    view: Mapping[str, Any], points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> discord.File:
    """The field as a PNG attachment, with a short alternative text; `points` are the rules'
    points now (`RightsOfLosers.points_now()`)."""
    png = board_image.render_field(view, points, names=names, text=picture_text(lang))
    trick = view.get("trick_number", 1)
    alt = t(lang, "losers.table.picture_alt", trick=trick, tricks=TRICKS)
    return discord.File(io.BytesIO(png), filename=PICTURE, description=alt[:1000])


def summary(
    view: Mapping[str, Any], points: Mapping[str, int], lang: str, names: Mapping[str, str]
) -> str:
    return board_image.field_summary(
        view, points, names=names, words=spot_words(lang), text=summary_text(lang)
    )


# -- the table message -------------------------------------------------------------------------


def expectation(view: Mapping[str, Any], lang: str, name: Namer) -> str:
    """Whose turn it is and what they must do."""
    who, phase = view["to_act"], view["phase"]
    if who is None:
        return t(lang, "losers.table.over")
    player = name(who)
    if phase == "play":
        if not view["trick"]:
            return t(lang, "losers.table.expect_lead", player=player)
        led = CARD_SUIT[view["trick"][0]["card"]]
        return t(lang, "losers.table.expect_play", player=player, suit=suit(lang, led))
    return t(lang, f"losers.table.expect_{phase}", player=player)


def strength(view: Mapping[str, Any], lang: str) -> str:
    key = "strength_reversed" if view["reversed"] else "strength_normal"
    return t(lang, f"losers.table.{key}")


def trick_lines(view: Mapping[str, Any], lang: str, name: Namer) -> str:
    """The cards of the trick in play, or of the trick being settled with its winner."""
    if view["phase"] == "play" or view["last_trick"] is None:
        plays = [(p["player"], p["card"]) for p in view["trick"]]
        winner = None
    else:
        last = view["last_trick"]
        plays = [(p, c) for p, c in last["plays"]]
        winner = last["winner"]
    lines = [f"{card(lang, c)} · {name(p)}" + (" 🏆" if p == winner else "") for p, c in plays]
    return "\n".join(lines) or t(lang, "losers.table.trick_empty")


def player_rows(
    view: Mapping[str, Any],
    points: Mapping[str, int],
    lang: str,
    name: Namer,
    autopilot: Sequence[str] = (),
) -> str:
    rows = []
    for seat, player in enumerate(view["players"]):
        extra = " " + t(lang, "table.on_autopilot") if player in autopilot else ""
        if player == view["lead"] and not view["over"]:
            extra += " ⭐"
        rows.append(
            t(
                lang,
                "losers.table.player_row",
                seat=SEAT_MARK[seat],
                player=name(player),
                cards=view["hand_sizes"][player],
                chips=view["chips_left"][player],
                points=points[player],
            )
            + extra
        )
    return "\n".join(rows)


def table_embed(
    view: Mapping[str, Any],
    points: Mapping[str, int],
    lang: str,
    name: Namer,
    names: Mapping[str, str],
    story: Sequence[Event] = (),
    autopilot: Sequence[str] = (),
) -> discord.Embed:
    """The trick's table message: what is expected, the trick, the players, the field."""
    trick = view["trick_number"]
    embed = discord.Embed(
        title=t(lang, "losers.table.title", trick=trick, tricks=TRICKS), colour=COLOUR
    )
    head = [expectation(view, lang, name), strength(view, lang)]
    text = summary(view, points, lang, names)
    embed.description = _cut("\n".join(head) + "\n\n" + text, _DESCRIPTION_LIMIT)
    embed.add_field(
        name=t(lang, "losers.table.trick", trick=trick),
        value=_cut(trick_lines(view, lang, name), _FIELD_LIMIT),
        inline=False,
    )
    told = [story_line(e, lang, name) for e in story if e.kind != "trick_won"]
    if told:
        embed.add_field(
            name=t(lang, "losers.table.this_trick"),
            value=_cut("\n".join(told), _FIELD_LIMIT),
            inline=False,
        )
    embed.add_field(
        name=t(lang, "losers.table.players"),
        value=_cut(player_rows(view, points, lang, name, autopilot), _FIELD_LIMIT),
        inline=False,
    )
    embed.set_image(url=f"attachment://{PICTURE}")
    embed.set_footer(text=t(lang, "losers.table.footer"))
    return embed


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- what happened -----------------------------------------------------------------------------


def story_line(e: Any, lang: str, name: Namer) -> str:
    """One event of a trick in words."""
    k, key = e.kind, f"losers.event.{e.kind}"
    say: dict[str, Any] = {"player": name(e.player)} if hasattr(e, "player") else {}
    if k == "trick_won":
        key = f"losers.event.won_{e.why}"
        say = {"player": name(e.winner), "trick": e.trick, "card": card(lang, e.card)}
        say["suit"] = suit(lang, e.led_suit)
    elif k == "chip_placed":
        key, say["spot"], say["left"] = "losers.event.chip", spot(lang, e.at), e.chips_left
    elif k == "chip_skipped":
        key = f"losers.event.skipped_{e.reason}"
    elif k == "built":
        say |= {"card1": card(lang, e.cards[0]), "card2": card(lang, e.cards[1])}
        say |= {"cell1": cell_name(e.at[0]), "cell2": cell_name(e.at[1])}
    elif k == "discarded":
        say["cards"] = ", ".join(card(lang, c) for c in e.cards) or "—"
    elif k == "appointed":
        say["lead"] = name(e.lead)
    elif k == "reversed":
        key = "losers.event.reversed_on" if e.reversed else "losers.event.reversed_off"
    elif k == "chip_moved":
        key = "losers.event.moved"
        say |= {"source": spot(lang, e.source), "to": spot(lang, e.to)}
    return t(lang, key, **say)


def recap(story: Sequence[Event], trick: int, lang: str, name: Namer) -> str:
    """The closed table message of a trick: how it went, in a few lines."""
    lines = [t(lang, "losers.table.closed", trick=trick)]
    lines += [story_line(e, lang, name) for e in story if e.kind in STORY]
    return _cut("\n".join(lines), 2000)


# -- the end -----------------------------------------------------------------------------------


def final_fields(
    embed: discord.Embed,
    view: Mapping[str, Any],
    details: Mapping[str, Any],
    lang: str,
    name: Namer,
) -> None:
    """Land for sale, the tie-break and the field in words under the final standings."""
    land = details.get("land", {})
    most = max(land.values(), default=0)
    lines = [
        t(lang, "losers.end.land_line", player=name(p), land=land.get(p, 0))
        for p in view["players"]
    ]
    if most >= 1:
        holders = ", ".join(name(p) for p in view["players"] if land.get(p) == most)
        lines.append(t(lang, "losers.end.land_bonus", players=holders))
    else:
        lines.append(t(lang, "losers.end.no_land_bonus"))
    embed.add_field(name=t(lang, "losers.end.land"), value=_cut("\n".join(lines), 1024))
    tie_break = details.get("tie_break")
    if tie_break:
        embed.add_field(
            name=t(lang, "losers.end.tie"),
            value=t(lang, f"losers.end.tie_{tie_break}"),
            inline=False,
        )
