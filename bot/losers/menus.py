"""The private Rights of Losers menus: what the player holds and, on their turn, what they may do.

Every custom id carries the table's `seq` (the number of actions so far), so a menu from an
earlier turn answers with the current one instead of acting (`bot.losers.hand`). Offered values
are language-free: card ids ("red-7"), cell names ("B3") and spot codes ("B3|B4"); the labels are
in the reader's language. Discord's limits hold by construction: at most 10 cards (2 rows of 5
buttons), spot menus of at most 25 options, at most 5 rows.

What a menu shows comes from the player's own observation (`RightsOfLosers.observation`, G-3), or
the public one where only the table's facts are needed; what it offers from `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.losers import render
from bot.losers.names import cell_name, spot_code
from bot.losers.spot_groups import spot_menus
from bot.runtime.table import Table
from bot.tables.buttons import button, view_of
from bot.tables.selects import option, select
from data.store import Seat
from rules.losers import RightsOfLosers
from rules.losers_actions import Chip, Coord, Move, Play
from rules.losers_board import CARD_SUIT, CELLS, TOUCHING, TRICKS, cell_index
from rules.losers_view import LosersObservation

# Button verbs (`g:`) and select verbs (`s:`); all but REFRESH carry the seq first.
REFRESH, PLAY, REVERSE, MOVE, PASS = "rlh", "rlp", "rlr", "rlm", "rlx"
CHIP, BUILD, BUILD_FIRST, BUILD_SECOND = "rlc", "rlb", "rlba", "rlbb"
APPOINT, MOVE_FROM, MOVE_TO = "rla", "rlmf", "rlmt"
MAX_ROWS = 5

Menu = tuple[discord.Embed, discord.ui.View | None]


def seen_by(table: Table[RightsOfLosers], player: str | None) -> LosersObservation:
    """The table as `player` may see it (None: anybody at the table, G-3)."""
    return table.state.observation(player)


def seat_label(table: Table[RightsOfLosers], player: str, lang: str) -> str:
    """A player's name at this table, without a ping: a member's display name; a computer is
    "Bot N" with N its seat in play (the seats are drawn at the start), so seat ① is Bot 1 in
    the picture, the embeds and the menus alike."""
    seat = table.seats[player]
    if not seat.is_bot:
        return seat.display_name
    return t(lang, "table.bot_name", number=table.state.players.index(player) + 1)


def to_act(seen: LosersObservation, seat: Seat) -> str | None:
    """What `seat` must do now ("play", "chip", "build", "choice"), or None."""
    return seen.expects if seen.to_act == seat.player else None


def legal_moves(table: Table[RightsOfLosers], seat: Seat) -> list[Move]:
    return [a for a in table.state.legal_actions(seat.player) if isinstance(a, Move)]


def empty_cells(seen: LosersObservation) -> list[Coord]:
    """R-2: the building cells without a card, row by row (land cells are never empty)."""
    return [CELLS[i] for i, here in enumerate(seen.field) if here is None]


# -- the menu of the moment --------------------------------------------------------------------


def menu(table: Table[RightsOfLosers], seat: Seat, lang: str, note: str | None = None) -> Menu:
    """The player's hand and chips, and the controls of what they must do now (if anything)."""
    state = table.state
    seen = state.observation(seat.player)
    task = to_act(seen, seat)
    embed = _embed(table, seat, seen, lang, note, _status(table, seen, task, lang))
    if seen.over:
        return embed, None
    gid, seq = table.game_id, table.seq
    items: list[discord.ui.Item[Any]] = []
    if task == "play":
        legal = {a.card for a in state.legal_actions(seat.player) if isinstance(a, Play)}
        items = [
            button(
                PLAY,
                gid,
                seq,
                c,
                label=render.card_label(lang, c),
                emoji=render.SUIT_EMOJI[CARD_SUIT[c]],
                style=discord.ButtonStyle.primary if c in legal else discord.ButtonStyle.secondary,
                disabled=c not in legal,
            )
            for c in seen.hand or ()
        ]
    elif task == "chip":
        spots = [a.at for a in state.legal_actions(seat.player) if isinstance(a, Chip)]
        key = "losers.hand.chip_menu"
        items = spot_selects(CHIP, gid, (seq,), spots, seen, lang, key, seat.player)
    elif task == "build":
        options = [
            option(render.card_label(lang, c), c, emoji=render.SUIT_EMOJI[CARD_SUIT[c]])
            for c in seen.won_cards
        ]
        placeholder = t(lang, "losers.hand.build_cards_menu")
        items = [
            select(
                BUILD,
                gid,
                seq,
                options=options,
                placeholder=placeholder,
                min_values=2,
                max_values=2,
            )
        ]
    elif task == "choice":
        items = _choice_items(table, seat, seen, lang)
    else:
        items = [button(REFRESH, gid, label=t(lang, "losers.hand.refresh"), emoji="🔄")]
    return embed, view_of(*items)


def _status(
    table: Table[RightsOfLosers], seen: LosersObservation, task: str | None, lang: str
) -> str:
    waiting = seen.to_act
    if seen.over or waiting is None:  # nobody acts only once the game is over
        return t(lang, "losers.hand.over")
    if task == "play":
        if not seen.trick:
            return t(lang, "losers.hand.play_lead")
        led = CARD_SUIT[seen.trick[0][1]]
        return t(lang, "losers.hand.play_follow", suit=render.suit(lang, led))
    if task is not None:
        return t(lang, f"losers.hand.{task}")
    return t(
        lang,
        "losers.hand.waiting",
        player=seat_label(table, waiting, lang),
        task=t(lang, f"losers.task.{seen.expects}"),
    )


def _embed(
    table: Table[RightsOfLosers],
    seat: Seat,
    seen: LosersObservation,
    lang: str,
    note: str | None,
    status: str,
) -> discord.Embed:
    embed = discord.Embed(
        title=t(lang, "losers.hand.title", trick=seen.trick_number, tricks=TRICKS),
        colour=render.COLOUR,
    )
    lines = [note] if note else []
    lines += [status, render.strength(seen, lang)]
    embed.description = "\n".join(lines)
    if seen.trick:
        name = lambda p: seat_label(table, p, lang)  # noqa: E731
        embed.add_field(
            name=t(lang, "losers.table.trick", trick=seen.trick_number),
            value=render.trick_lines(seen, lang, name),
            inline=False,
        )
    hand = " ".join(render.card(lang, c) for c in seen.hand or ()) or "—"
    embed.add_field(name=t(lang, "losers.hand.cards"), value=hand, inline=False)
    embed.add_field(
        name=t(lang, "losers.hand.chips_title"),
        value=t(lang, "losers.hand.chips", chips=seen.chips_left[seat.player]),
        inline=False,
    )
    return embed


def _choice_items(
    table: Table[RightsOfLosers], seat: Seat, seen: LosersObservation, lang: str
) -> list[discord.ui.Item[Any]]:
    gid, seq = table.game_id, table.seq
    trick = seen.trick_number + 1
    leads = t(lang, "losers.hand.appoint_option", trick=trick) if trick <= TRICKS else None
    options = [
        option(seat_label(table, p, lang), p, description=leads, emoji=render.SEAT_MARK[i])
        for i, p in enumerate(seen.players)
    ]
    return [
        select(APPOINT, gid, seq, options=options, placeholder=t(lang, "losers.hand.appoint_menu")),
        button(REVERSE, gid, seq, label=t(lang, "losers.hand.reverse"), emoji="🔄"),
        button(
            MOVE,
            gid,
            seq,
            label=t(lang, "losers.hand.move"),
            emoji="↔️",
            disabled=not legal_moves(table, seat),
        ),
        button(
            PASS, gid, seq, label=t(lang, "losers.hand.pass"), style=discord.ButtonStyle.success
        ),
    ]


# -- spots in select menus ---------------------------------------------------------------------


def spot_selects(
    verb: str,
    game_id: int,
    args: Sequence[object],
    spots: Iterable[Sequence[int]],
    seen: LosersObservation,
    lang: str,
    placeholder_key: str,
    player: str,
) -> list[discord.ui.Item[Any]]:
    """The spots as select menus of at most 25 readable options each (one row per menu),
    grouped by the card they touch, those next to `player`'s chips first."""
    groups = spot_menus(spots, seen.field, seen.chips, player, most=MAX_ROWS - 1)
    items: list[discord.ui.Item[Any]] = []
    for i, group in enumerate(groups):
        options = [
            option(render.spot(lang, at), spot_code(at), render.spot_touches(lang, seen, at))
            for at in group.spots
        ]
        key = placeholder_key + ("_mine" if group.mine else "")
        placeholder = t(lang, key, range=group.cards, part=i + 1, parts=len(groups))
        items.append(select(verb, game_id, *args, i, options=options, placeholder=placeholder))
    return items


def _back(table: Table[RightsOfLosers], lang: str) -> discord.ui.Item[Any]:
    return button(REFRESH, table.game_id, label=t(lang, "losers.hand.back"), emoji="↩️")


def _step(title: str, text: str) -> discord.Embed:
    return discord.Embed(title=title, description=text, colour=render.COLOUR)


# -- the steps of a build and of a move ------------------------------------------------------------


def build_cell_menu(
    table: Table[RightsOfLosers],
    lang: str,
    cards: tuple[str, str],
    first_cell: tuple[int, int] | None,
) -> Menu:
    """Where the next card of a build goes: a select of the empty building cells."""
    seen = seen_by(table, None)  # the field and the chips: public
    empty = [c for c in empty_cells(seen) if c != first_cell]
    placing = cards[0] if first_cell is None else cards[1]
    shown = render.card(lang, placing)
    options = [
        option(cell_name(c), cell_name(c), _chips_around(seen, c, table, lang)) for c in empty
    ]
    gid, seq = table.game_id, table.seq
    args: tuple[int | str, ...]
    if first_cell is None:
        verb, args = BUILD_FIRST, (seq, *cards)
        text = t(lang, "losers.hand.build_cell", card=shown)
    else:
        verb, args = BUILD_SECOND, (seq, *cards, cell_name(first_cell))
        text = t(
            lang,
            "losers.hand.build_cell_then",
            card=shown,
            first=render.card(lang, cards[0]),
            cell=cell_name(first_cell),
        )
    placeholder = t(lang, "losers.hand.build_cell_menu", card=render.card_label(lang, placing))
    items = [select(verb, gid, *args, options=options, placeholder=placeholder), _back(table, lang)]
    return _step(t(lang, "losers.hand.build_title"), text), view_of(*items)


def _chips_around(
    seen: LosersObservation, cell: Coord, table: Table[RightsOfLosers], lang: str
) -> str:
    index = cell_index(cell)
    assert index is not None
    spots = {s for s, _ in TOUCHING[index]}
    counts: dict[str, int] = {}
    for (y, x), player in seen.chips:
        if y * 9 + x in spots:
            counts[player] = counts.get(player, 0) + 1
    if not counts:
        return t(lang, "losers.hand.no_chips_around")
    shown = ", ".join(f"{seat_label(table, p, lang)} ×{n}" for p, n in counts.items())
    return t(lang, "losers.hand.chips_around", chips=shown)


def move_from_menu(table: Table[RightsOfLosers], seat: Seat, lang: str) -> Menu:
    """Which of the player's chips moves."""
    seen = seen_by(table, seat.player)
    sources = sorted({m.source for m in legal_moves(table, seat)})
    options = [
        option(render.spot(lang, at), spot_code(at), render.spot_touches(lang, seen, at))
        for at in sources
    ]
    items = [
        select(
            MOVE_FROM,
            table.game_id,
            table.seq,
            options=options,
            placeholder=t(lang, "losers.hand.move_from_menu"),
        ),
        _back(table, lang),
    ]
    embed = _step(t(lang, "losers.hand.move_title"), t(lang, "losers.hand.move_from"))
    return embed, view_of(*items)


def move_to_menu(
    table: Table[RightsOfLosers], seat: Seat, lang: str, source: tuple[int, int]
) -> Menu:
    """Where the chip on `source` goes: the free spots touching a card, in menus of 25."""
    seen = seen_by(table, seat.player)
    targets = [m.to for m in legal_moves(table, seat) if m.source == source]
    args = (table.seq, spot_code(source))
    key = "losers.hand.move_to_menu"
    items = spot_selects(MOVE_TO, table.game_id, args, targets, seen, lang, key, seat.player)
    items.append(_back(table, lang))
    text = t(lang, "losers.hand.move_to", spot=render.spot(lang, source))
    return _step(t(lang, "losers.hand.move_title"), text), view_of(*items)
