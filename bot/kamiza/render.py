"""KAMIZA in words: cards, areas, the table as an embed (`/kamiza status`) and the steps of the
reveal (laid out in `bot.kamiza.boards`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.i18n import t
from bot.tables.reasons import clause
from rules.base import Event
from rules.kamiza_events import GameEnded, MatchEnded, RoundStarted
from rules.kamiza_judge import (
    VALUE,
    Bribe,
    Cancelled,
    DroppedOut,
    Hit,
    JudgeEvent,
    PolicemanUnpaid,
    RemovedWrongArea,
    Seated,
    SeatLost,
    Squealed,
    WantedChip,
)
from rules.kamiza_view import KamizaObservation

CARD_EMOJI = {"boss": "👑", "underboss": "🎩", "hitman": "🔫", "policeman": "👮", "raid": "🚨"}
FACE_DOWN = "🂠"
COLOUR = discord.Colour.from_rgb(160, 30, 40)
Namer = Callable[[str], str]

# The order of RULES.md in which the reveal is explained (K-4, K-5, K-6, K-7, K-8, K-9, K-10).
STEP_ORDER: tuple[type[JudgeEvent], ...] = (
    RemovedWrongArea,
    Squealed,
    Cancelled,
    SeatLost,
    Hit,
    Seated,
    Bribe,
    PolicemanUnpaid,
    WantedChip,
    DroppedOut,
)


def card(lang: str, name: str) -> str:
    return f"{CARD_EMOJI[name]} {t(lang, f'glossary.kamiza.{name}')}"


def area(lang: str, name: str) -> str:
    return t(lang, f"glossary.kamiza.{name}")


def table_embed(
    seen: KamizaObservation, lang: str, name: Namer, autopilot: Sequence[str] = ()
) -> discord.Embed:
    """What the physical table shows, from an observation (G-3): the public one, or a player's
    with their own face-down card."""
    game_no, round_no = seen.game_number, seen.round
    embed = discord.Embed(
        title=t(lang, "kamiza.table.title", game=game_no, round=round_no),
        colour=COLOUR,
    )
    edition = t(lang, f"glossary.kamiza.edition.{seen.edition}")
    desc = [t(lang, "kamiza.table.edition", edition=edition)]
    if seen.advanced:
        desc.append(t(lang, "kamiza.table.advanced"))
    if seen.to_act:
        desc.append(t(lang, "kamiza.table.turn", player=name(seen.to_act)))
    elif seen.over:
        desc.append(t(lang, "kamiza.table.over"))
    embed.description = "\n".join(desc)
    for area_name in ("kamiza", "shimoza"):
        lines = [
            f"{card(lang, p.card) if p.card else FACE_DOWN} · {name(p.player)}"
            for p in seen.table
            if p.area == area_name
        ]
        embed.add_field(
            name=t(lang, f"kamiza.table.area_{area_name}"),
            value="\n".join(lines) or "—",
            inline=True,
        )
    rows = []
    for p in seen.players:
        marks = []
        if p == seen.start_player and not seen.over:
            marks.append("⭐")
        if p in seen.dropped:
            marks.append(t(lang, "kamiza.table.dropped"))
        if p in autopilot:
            marks.append(t(lang, "table.on_autopilot"))
        rows.append(
            t(
                lang,
                "kamiza.table.player_row",
                player=name(p),
                total=seen.totals[p],
                wanted="🚨" * seen.wanted[p],
                cards=seen.hand_sizes[p],
                marks=" ".join(marks),
            ).rstrip()
        )
    embed.add_field(name=t(lang, "kamiza.table.players"), value="\n".join(rows), inline=False)
    embed.set_footer(text=t(lang, "kamiza.table.footer"))
    return embed


def reason(e: Event, lang: str) -> str | None:
    """Why a step of the reveal came out as it did, with its rule's id (the rules say which)."""
    params: dict[str, str | int] = {}
    if isinstance(e, RemovedWrongArea | Cancelled | SeatLost | Seated | Bribe):
        params["card"] = card(lang, e.card)
    if isinstance(e, RemovedWrongArea | Cancelled | SeatLost | Seated):
        params["area"] = area(lang, e.area)
    if isinstance(e, Cancelled):
        params["count"] = len(e.players)
    if isinstance(e, SeatLost):
        params["beaten_by"] = card(lang, e.beaten_by)
    return clause(e, "kamiza", lang, **params)


def step_line(e: JudgeEvent, lang: str, name: Namer) -> str:
    """One judging step in words."""
    if isinstance(e, RemovedWrongArea):
        return t(lang, "kamiza.step.wrong_area", player=name(e.player), card=card(lang, e.card))
    if isinstance(e, Squealed):
        return t(lang, "kamiza.step.squeal", player=name(e.player))
    if isinstance(e, Cancelled):
        who = ", ".join(name(p) for p in e.players)
        return t(
            lang,
            "kamiza.step.cancelled",
            card=card(lang, e.card),
            area=area(lang, e.area),
            players=who,
        )
    if isinstance(e, SeatLost):
        return t(
            lang,
            "kamiza.step.seat_lost",
            player=name(e.player),
            card=card(lang, e.card),
            area=area(lang, e.area),
        )
    if isinstance(e, Hit):
        return t(lang, "kamiza.step.hit", hitman=name(e.hitman), boss=name(e.boss))
    if isinstance(e, Seated):
        return t(
            lang,
            "kamiza.step.seated",
            player=name(e.player),
            card=card(lang, e.card),
            area=area(lang, e.area),
            points=e.points,
        )
    if isinstance(e, Bribe):
        return t(
            lang,
            "kamiza.step.bribe",
            policeman=name(e.policeman),
            player=name(e.player),
            card=card(lang, e.card),
            points=e.points,
        )
    if isinstance(e, PolicemanUnpaid):
        return t(lang, "kamiza.step.unpaid", player=name(e.player))
    if isinstance(e, WantedChip):
        return t(lang, "kamiza.step.wanted", player=name(e.player), chips=e.chips)
    return t(lang, "kamiza.step.dropped", player=name(e.player), total=e.total)


def after_line(e: GameEnded | RoundStarted | MatchEnded, lang: str, name: Namer) -> str:
    if isinstance(e, GameEnded):
        return t(lang, "kamiza.after.game_ended", game=e.game)
    if isinstance(e, MatchEnded):
        return t(lang, "kamiza.after.match_ended")
    return t(
        lang,
        f"kamiza.after.start_{e.reason}",
        player=name(e.start_player),
        game=e.game,
        round=e.round,
    )


def hand_label(lang: str, name: str) -> str:
    return f"{t(lang, f'glossary.kamiza.{name}')} ({VALUE[name]})"
