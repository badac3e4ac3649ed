"""Kobayakawa in words: the table as the physical table shows it (the embed `/kobayakawa status`
answers with), and the lines of each round's showdown (laid out in `bot.kobayakawa.boards`).

Pure functions of the rules' typed observations and events: no Discord calls, no table runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.i18n import t
from bot.tables.reasons import clause
from rules.base import Event
from rules.kobayakawa import DRAW, FIGHT, ROUNDS
from rules.kobayakawa_moves import (
    LONE_FIGHTER,
    TIE_CLOSEST_TO_START,
    Drew,
    Fought,
    GameEnded,
    KobayakawaReplaced,
    NobodyFought,
    Passed,
    PlayerOut,
    RoundStarted,
    RoundWon,
    Showdown,
)
from rules.kobayakawa_view import KobayakawaObservation

COLOUR = discord.Colour.from_rgb(110, 60, 140)
CARD = "🎴"
KOBAYAKAWA = "🏯"
Namer = Callable[[str], str]

# The events that close a round; they get their own message (the showdown).
RoundEnd = Showdown | NobodyFought


def card(number: int) -> str:
    """A card in text: `🎴 **12**` (scripted test users read the number after the emoji)."""
    return f"{CARD} **{number}**"


def fight_stake(round_no: int) -> int:
    """B-4: what a fight costs this round (before the 'all you have' exception)."""
    return 2 if round_no == ROUNDS else 1


def table_embed(
    seen: KobayakawaObservation, lang: str, name: Namer, autopilot: Sequence[str] = ()
) -> discord.Embed:
    """What the physical table shows, from an observation (G-3): the public one, or a player's
    with their own card."""
    embed = discord.Embed(
        title=t(lang, "kobayakawa.table.title", round=seen.round, rounds=ROUNDS),
        colour=COLOUR,
    )
    desc = []
    if seen.over:
        desc.append(t(lang, "kobayakawa.table.over"))
    elif seen.phase == DRAW:
        desc.append(t(lang, "kobayakawa.table.draw_phase"))
    else:
        desc.append(t(lang, "kobayakawa.table.fight_phase", stake=fight_stake(seen.round)))
    if seen.to_act:
        desc.append(t(lang, "kobayakawa.table.turn", player=name(seen.to_act)))
    if seen.card is not None and not seen.over:
        desc.append(t(lang, "kobayakawa.table.your_card", card=card(seen.card)))
    embed.description = "\n".join(desc)
    embed.add_field(
        name=t(lang, "kobayakawa.table.kobayakawa"),
        value=kobayakawa_text(seen.kobayakawa_history, lang),
        inline=True,
    )
    embed.add_field(
        name=t(lang, "kobayakawa.table.kamons"),
        value=t(lang, "kobayakawa.table.kamons_value", centre=seen.centre, pot=seen.pot),
        inline=True,
    )
    embed.add_field(
        name=t(lang, "kobayakawa.table.players"),
        value="\n".join(player_rows(seen, lang, name, autopilot)),
        inline=False,
    )
    lines = round_lines(seen, lang, name)
    embed.add_field(
        name=t(lang, "kobayakawa.table.this_round"),
        value="\n".join(lines) or t(lang, "kobayakawa.table.nothing_yet"),
        inline=False,
    )
    embed.set_footer(text=t(lang, "kobayakawa.table.footer"))
    return embed


def kobayakawa_text(history: Sequence[int], lang: str) -> str:
    """The Kobayakawa now, and the ones it covered this round (oldest first)."""
    text = f"{KOBAYAKAWA} **{history[-1]}**"
    if len(history) > 1:
        earlier = " → ".join(str(k) for k in history[:-1])
        text += "\n" + t(lang, "kobayakawa.table.history", history=earlier)
    return text


def player_rows(
    seen: KobayakawaObservation, lang: str, name: Namer, autopilot: Sequence[str] = ()
) -> list[str]:
    """One row per player still in (clockwise from the start player), then the players out."""
    rows = []
    for p in seen.order:
        if p in seen.out:
            continue
        marks = ""
        if p == seen.to_act:
            marks += "▶️ "
        if p == seen.start_player:
            marks += "⭐ "
        rows.append(player_row(seen, p, lang, name, marks, row_facts(seen, p, lang, autopilot)))
    for p in seen.players:
        if p in seen.out:
            rows.append(t(lang, "kobayakawa.table.out_row", player=name(p)))
    return rows


def player_row(
    seen: KobayakawaObservation, p: str, lang: str, name: Namer, marks: str, extra: str
) -> str:
    return t(
        lang,
        "kobayakawa.table.player_row",
        marks=marks,
        player=name(p),
        kamons=seen.kamons[p],
        extra=extra,
    )


def row_facts(seen: KobayakawaObservation, p: str, lang: str, autopilot: Sequence[str] = ()) -> str:
    """What the table shows of a player this round: the discard, the bet or the pass (never the
    card they hold, G-3), and whether the table plays for them."""
    extra = ""
    if p in seen.discards:
        extra += t(lang, "kobayakawa.table.discarded", card=seen.discards[p])
    if p in seen.bets:
        extra += t(lang, "kobayakawa.table.bet", bet=seen.bets[p])
    elif passed(seen, p):
        extra += t(lang, "kobayakawa.table.passed")
    if p in autopilot:
        extra += " " + t(lang, "table.on_autopilot")
    return extra


def passed(seen: KobayakawaObservation, p: str) -> bool:
    return any(isinstance(c, Passed) and c.player == p for c in seen.choices)


def round_lines(seen: KobayakawaObservation, lang: str, name: Namer) -> list[str]:
    """This round's public choices in order: discards, Kobayakawa replacements, bets, passes.

    A draw shows only the discarded card, never which card was kept.
    """
    lines = []
    history = seen.kobayakawa_history
    replaced = 0
    pot = 0
    for index, choice in enumerate(seen.choices):
        if index == len(seen.order):
            lines.append(t(lang, "kobayakawa.log.fight_phase"))
        who = name(choice.player)
        if isinstance(choice, Drew):
            lines.append(t(lang, "kobayakawa.log.drew", player=who, card=choice.discarded))
        elif isinstance(choice, KobayakawaReplaced):
            previous = history[replaced]
            replaced += 1
            lines.append(
                t(
                    lang,
                    "kobayakawa.log.replaced",
                    player=who,
                    previous=previous,
                    card=choice.kobayakawa,
                )
            )
        elif isinstance(choice, Fought):
            pot += choice.bet
            lines.append(t(lang, "kobayakawa.log.fought", player=who, bet=choice.bet, pot=pot))
        else:
            lines.append(t(lang, "kobayakawa.log.passed", player=who))
    if len(seen.choices) == len(seen.order) and seen.phase == FIGHT:
        lines.append(t(lang, "kobayakawa.log.fight_phase"))
    return lines


def event_line(e: Event, lang: str, name: Namer) -> str | None:
    """A one-line narration of a single action's event (None for events told elsewhere)."""
    if isinstance(e, Drew):
        return t(lang, "kobayakawa.log.drew", player=name(e.player), card=e.discarded)
    if isinstance(e, KobayakawaReplaced):
        return t(
            lang,
            "kobayakawa.log.replaced",
            player=name(e.player),
            previous=e.previous,
            card=e.kobayakawa,
        )
    if isinstance(e, Fought):
        return t(lang, "kobayakawa.log.fought", player=name(e.player), bet=e.bet, pot=e.pot)
    if isinstance(e, Passed):
        return t(lang, "kobayakawa.log.passed", player=name(e.player))
    return None


def reason(e: Event, lang: str) -> str | None:
    """Why an outcome of the round came out as it did, with its rule's id (the rules say which)."""
    centre = e.from_centre if isinstance(e, RoundWon) else 0
    return clause(e, "kobayakawa", lang, centre=centre)


def revealed_lines(showdown: Showdown, name: Namer) -> list[str]:
    """Each revealed fighter's card; the lowest adds the Kobayakawa to it."""
    lines = []
    for p in showdown.fighters:
        line = f"{name(p)}: {card(showdown.cards[p])}"
        if p == showdown.lowest:
            line += f" + {KOBAYAKAWA} {showdown.kobayakawa} = **{showdown.totals[p]}**"
        if p == showdown.winner:
            line += " 🏆"
        lines.append(line)
    return lines


def showdown_lines(showdown: Showdown, lang: str, name: Namer) -> list[str]:
    """Why the winner won (B-5): the lowest's addition, then highest, tie or lone fighter."""
    winner = showdown.winner
    if showdown.why == LONE_FIGHTER:
        return [t(lang, "kobayakawa.showdown.why_lone", player=name(winner))]
    lowest = showdown.lowest
    assert lowest is not None  # revealed fighters: one of them added the Kobayakawa
    total = showdown.totals[winner]
    lines = [
        t(
            lang,
            "kobayakawa.showdown.lowest",
            player=name(lowest),
            card=showdown.cards[lowest],
            kobayakawa=showdown.kobayakawa,
            total=showdown.totals[lowest],
        )
    ]
    if showdown.why == TIE_CLOSEST_TO_START:
        tied = [p for p in showdown.fighters if showdown.totals[p] == total]
        lines.append(
            t(
                lang,
                "kobayakawa.showdown.why_tie",
                players=", ".join(name(p) for p in tied),
                total=total,
                player=name(winner),
            )
        )
    else:
        lines.append(t(lang, "kobayakawa.showdown.why_highest", player=name(winner), total=total))
    return lines


def after_line(e: Event, lang: str, name: Namer) -> str | None:
    """What follows a showdown: the winnings, players out, the end or the next round."""
    if isinstance(e, RoundWon):
        return t(
            lang,
            "kobayakawa.showdown.won",
            player=name(e.winner),
            pot=e.pot,
            centre=e.from_centre,
            kamons=e.kamons,
        )
    if isinstance(e, PlayerOut):
        return t(lang, "kobayakawa.showdown.out", player=name(e.player))
    if isinstance(e, GameEnded):
        return t(lang, f"kobayakawa.showdown.end_{e.reason}")
    if isinstance(e, RoundStarted):
        return t(
            lang,
            "kobayakawa.showdown.next_round",
            round=e.round,
            player=name(e.start_player),
            kobayakawa=e.kobayakawa,
        )
    return None
