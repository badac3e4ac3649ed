"""KAMIZA laid out as boards (Components V2): the table as the physical table shows it, the
reveal step by step, and the final standings.

Every board is drawn from what its viewer may see (G-3): the table from an observation (the
public one, or a player's with their own face-down card), the reveal from its events once every
card is face up.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.i18n import t
from bot.kamiza.render import (
    COLOUR,
    FACE_DOWN,
    STEP_ORDER,
    Namer,
    after_line,
    card,
    reason,
    step_line,
)
from bot.layout.board import Board
from bot.tables.reasons import with_clause
from rules.base import Event
from rules.kamiza_events import GameEnded, MatchEnded, RoundRevealed, RoundScored, RoundStarted
from rules.kamiza_judge import JudgeEvent
from rules.kamiza_view import KamizaObservation, TableCard


def table_board(
    seen: KamizaObservation, lang: str, name: Namer, autopilot: Collection[str] = ()
) -> Board:
    """The round's table: the options, a line per seat in seating order (who is to play, who
    has played, and each total), then what lies in kamiza and shimoza."""
    board = Board(
        title=t(lang, "kamiza.table.title", game=seen.game_number, round=seen.round),
        accent=COLOUR,
        footer=t(lang, "kamiza.table.footer"),
        lang=lang,
    )
    edition = t(lang, f"glossary.kamiza.edition.{seen.edition}")
    board.text(
        t(lang, "kamiza.table.edition", edition=edition),
        t(lang, "kamiza.table.advanced") if seen.advanced else "",
        t(lang, "kamiza.table.over") if seen.over else "",
    )
    board.text(f"**{t(lang, 'kamiza.table.seats')}**")
    played = {p.player: p for p in seen.table}
    for player in seen.players:
        board.seat(seat_line(seen, player, played.get(player), lang, name, autopilot))
    areas(board, [(p.area, shown_card(p, lang), name(p.player)) for p in seen.table], lang)
    return board


def seat_line(
    seen: KamizaObservation,
    player: str,
    played: TableCard | None,
    lang: str,
    name: Namer,
    autopilot: Collection[str],
) -> str:
    """One seat: its name (⭐ for the start player), its state this round, total, WANTED chips
    and cards left, e.g. "@Ann ⭐ — ✓ has played 🂠 · **7** pts 🚨 · 3 in hand"."""
    head = name(player)
    if player == seen.start_player and not seen.over:
        head += " ⭐"
    states = []
    if player in seen.dropped:
        states.append(t(lang, "kamiza.table.dropped"))
    elif player == seen.to_act or player in seen.waiting_for:  # H-1: several may be to play
        states.append(t(lang, "kamiza.table.to_play"))
    elif played is not None:
        states.append(t(lang, "kamiza.table.played", card=shown_card(played, lang)))
    elif player in seen.chosen:  # H-1: chosen, kept aside face down until all have chosen
        states.append(t(lang, "kamiza.table.played", card=FACE_DOWN))
    if player in autopilot:
        states.append(t(lang, "table.on_autopilot"))
    wanted = seen.wanted[player]
    facts = t(
        lang,
        "kamiza.table.seat_facts",
        total=seen.totals[player],
        wanted=f" {'🚨' * wanted}" if wanted else "",
        cards=seen.hand_sizes[player],
    )
    return t(lang, "kamiza.table.seat", player=head, state=" · ".join([*states, facts]))


def areas(board: Board, placed: Sequence[tuple[str, str, str]], lang: str) -> None:
    """Kamiza and shimoza as blocks: each card put there (as shown: `(area, card, player)`)
    and its player, in the order played; "—" for an empty area."""
    for area_name in ("kamiza", "shimoza"):
        board.text(
            *(f"{shown} · {player}" for area, shown, player in placed if area == area_name),
            title=t(lang, f"kamiza.table.area_{area_name}"),
        )


def shown_card(played: TableCard, lang: str) -> str:
    """A card on the table as the viewer sees it: face down, or named where it is face up."""
    return card(lang, played.card) if played.card else FACE_DOWN


def reveal_board(events: Sequence[Event], lang: str, name: Namer) -> Board | None:
    """The judging of a round, step by step in the order of RULES.md, each step with its rule
    clause; then the points, the totals and what follows. None when `events` reveal nothing."""
    revealed = next((e for e in events if isinstance(e, RoundRevealed)), None)
    if revealed is None:
        return None
    board = Board(
        title=t(lang, "kamiza.reveal.title", game=revealed.game, round=revealed.round),
        accent=COLOUR,
        lang=lang,
    )
    areas(board, [(p.area, card(lang, p.card), name(p.player)) for p in revealed.plays], lang)
    board.rule()
    steps = sorted(
        (e for e in events if isinstance(e, JudgeEvent)), key=lambda e: STEP_ORDER.index(type(e))
    )
    lines = [with_clause(step_line(e, lang, name), reason(e, lang)) for e in steps]
    board.text(
        *(lines or [t(lang, "kamiza.reveal.nothing")]), title=t(lang, "kamiza.reveal.judging")
    )
    scored = next((e for e in events if isinstance(e, RoundScored)), None)
    if scored is not None:
        board.text(scores(scored.points, name, "+"), title=t(lang, "kamiza.reveal.points"))
        board.text(scores(scored.totals, name), title=t(lang, "kamiza.reveal.totals"))
    after = [
        with_clause(after_line(e, lang, name), reason(e, lang))
        for e in events
        if isinstance(e, GameEnded | RoundStarted | MatchEnded)
    ]
    if after:  # what follows the round, set apart from its scoring
        board.rule().text(*after)
    return board


def scores(points: Mapping[str, int], name: Namer, sign: str = "") -> str:
    return " · ".join(f"{name(p)} {sign}{n}" for p, n in points.items())
