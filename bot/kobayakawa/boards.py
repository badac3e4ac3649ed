"""Kobayakawa's messages laid out as boards (`bot.layout.board`): a round's table, its showdown
and the final standings.

Pure functions of the rules' typed observations and events, worded by `bot.kobayakawa.render`;
the presenter adds what belongs to the live table (the turn line, the accent of the seat to act,
the buttons). G-3 holds on every board: a card shows only to its holder's own view, or in a
showdown, where only fighters reveal; a player who passed keeps theirs hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import t
from bot.kobayakawa.render import (
    COLOUR,
    Namer,
    RoundEnd,
    after_line,
    card,
    event_line,
    fight_stake,
    passed,
    player_row,
    reason,
    revealed_lines,
    round_lines,
    row_facts,
    showdown_lines,
)
from bot.layout.board import Board
from bot.tables.reasons import with_clause
from rules.base import Event
from rules.kobayakawa import DRAW, FIGHT, ROUNDS
from rules.kobayakawa_moves import LONE_FIGHTER, KobayakawaReplaced, NobodyFought, Showdown
from rules.kobayakawa_view import KobayakawaObservation


def table_board(
    seen: KobayakawaObservation, lang: str, name: Namer, autopilot: Sequence[str] = ()
) -> Board:
    """The round's table from an observation (the public one, or a player's with their card):
    the phase, the Kobayakawa and the kamons in the centre, a line per seat in seat order, and
    the round so far below a rule."""
    board = Board(
        title=t(lang, "kobayakawa.table.title", round=seen.round, rounds=ROUNDS),
        accent=COLOUR,
        footer=t(lang, "kobayakawa.table.footer"),
        lang=lang,
    )
    board.text(
        phase_line(seen, lang),
        t(lang, "kobayakawa.table.your_card", card=card(seen.card))
        if seen.card is not None and not seen.over
        else "",
    )
    board.text(
        *centre_lines(seen.kobayakawa_history, lang),
        t(lang, "kobayakawa.board.kamons", centre=seen.centre, pot=seen.pot),
    )
    board.text(t(lang, "kobayakawa.board.seats"))
    for p in seen.players:
        board.seat(seat_line(seen, p, lang, name, autopilot))
    board.rule()
    told = round_lines(seen, lang, name) or [t(lang, "kobayakawa.table.nothing_yet")]
    board.text(*told, title=t(lang, "kobayakawa.table.this_round"))
    return board


def centre_lines(history: Sequence[int], lang: str) -> list[str]:
    """The Kobayakawa now, and the ones it covered this round (oldest first)."""
    if not history:  # never at a table: a round starts with its Kobayakawa turned up (B-2)
        return []
    lines = [t(lang, "kobayakawa.board.centre_card", card=history[-1])]
    if len(history) > 1:
        earlier = " → ".join(str(k) for k in history[:-1])
        lines.append(t(lang, "kobayakawa.table.history", history=earlier))
    return lines


def phase_line(seen: KobayakawaObservation, lang: str) -> str:
    if seen.over:
        return t(lang, "kobayakawa.table.over")
    if seen.phase == DRAW:
        return t(lang, "kobayakawa.table.draw_phase")
    if together(seen):
        return t(lang, "kobayakawa.board.fight_together", stake=fight_stake(seen.round))
    return t(lang, "kobayakawa.table.fight_phase", stake=fight_stake(seen.round))


def seat_line(
    seen: KobayakawaObservation, p: str, lang: str, name: Namer, autopilot: Sequence[str] = ()
) -> str:
    """One seat: ▶️ to play or ✓ done with this phase, ⭐ the start player, the kamons, what the
    table shows of their round (a replaced Kobayakawa, the discard, the bet or the pass) and
    whether the table plays for them. A computer's name says it (🤖)."""
    if p in seen.out:
        return t(lang, "kobayakawa.table.out_row", player=name(p))
    marks = ""
    if to_play(seen, p):
        marks += "▶️ "
    elif acted(seen, p):
        marks += "✓ "
    if p == seen.start_player:
        marks += "⭐ "
    facts = ""
    if any(isinstance(c, KobayakawaReplaced) and c.player == p for c in seen.choices):
        facts += t(lang, "kobayakawa.board.replaced")
    facts += row_facts(seen, p, lang, autopilot)
    if together(seen) and p in seen.chosen:  # H-2: that they chose, never what
        facts += t(lang, "kobayakawa.board.chosen")
    if to_play(seen, p):
        facts += t(lang, "kobayakawa.board.to_play")
    return player_row(seen, p, lang, name, marks, facts)


def together(seen: KobayakawaObservation) -> bool:
    """Whether the fight phase is chosen by everyone at once now (the house rule H-2)."""
    return seen.simultaneous and seen.phase == FIGHT and not seen.over


def to_play(seen: KobayakawaObservation, p: str) -> bool:
    """Whether `p` has a choice to make now: the player to act, or, all at once (H-2), each
    player who has not chosen yet."""
    return p in seen.waiting_for if together(seen) else p == seen.to_act


def acted(seen: KobayakawaObservation, p: str) -> bool:
    """Whether `p` has made this phase's choice (drawn or replaced; fought or passed)."""
    if seen.over:
        return False
    if seen.phase == DRAW:
        return any(c.player == p for c in seen.choices)
    return p in seen.bets or passed(seen, p) or (together(seen) and p in seen.chosen)


def showdown_board(events: Sequence[Event], lang: str, name: Namer) -> Board | None:
    """The end of a round explained, or None when `events` do not end a round: the last
    action, each fighter's revealed card (the lowest adds the Kobayakawa, B-5), then below a
    rule who won and why, what each gains, who is out and what comes next, each with its rule."""
    end = next((e for e in events if isinstance(e, RoundEnd)), None)
    if end is None:
        return None
    nobody = isinstance(end, NobodyFought)
    title = "kobayakawa.showdown.title_nobody" if nobody else "kobayakawa.showdown.title"
    board = Board(title=t(lang, title, round=end.round), accent=COLOUR, lang=lang)
    board.text(*[line for e in events if (line := event_line(e, lang, name))])
    if isinstance(end, Showdown):
        fighters = ", ".join(name(p) for p in end.fighters)
        board.text(t(lang, "kobayakawa.showdown.fighters", players=fighters))
        if end.why != LONE_FIGHTER:  # a lone fighter shows no card (B-5)
            board.text(f"**{t(lang, 'kobayakawa.showdown.revealed')}**")
            for line in revealed_lines(end, name):
                board.seat(line)
    board.rule()
    board.text(*judging(end, events, lang, name), title=t(lang, "kobayakawa.showdown.judging"))
    return board


def judging(end: Event, events: Sequence[Event], lang: str, name: Namer) -> list[str]:
    """Who won and why (B-5), or that nobody fought (B-6), then what followed, each line with
    the clause of its rule."""
    if isinstance(end, Showdown):
        lines = showdown_lines(end, lang, name)
        lines[-1] = with_clause(lines[-1], reason(end, lang))  # the line saying who won
    else:
        assert isinstance(end, NobodyFought)
        nobody = t(
            lang, "kobayakawa.showdown.nobody", count=end.to_box, player=name(end.start_player)
        )
        lines = [with_clause(nobody, reason(end, lang))]
    for e in events:
        if line := after_line(e, lang, name):
            lines.append(with_clause(line, reason(e, lang)))
    return lines


def standings_board(lines: Sequence[str], lang: str, game_id: int) -> Board:
    """The final standings (B-8): the ranked lines and how kamons decide; the presenter adds
    the standings card's picture, and the end's buttons come with `post_results`."""
    board = Board(
        title=t(lang, "kobayakawa.end.title"),
        accent=COLOUR,
        footer=t(lang, "kobayakawa.end.footer", game_id=game_id),
        lang=lang,
    )
    return board.text(*lines).text(t(lang, "kobayakawa.end.kamons"))
