"""bot.layout.board: a board laid out keeps Discord's limits by construction, whatever its size.

The fake Discord's own checker judges every composed layout too, so "fits" means what the test
server (and Discord) would accept, not only what `bot.layout.limits` thinks.
"""

from __future__ import annotations

import discord
import pytest
from fakediscord.components_v2 import check_layout
from fakediscord.server import validate_components
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.layout import as_text
from bot.layout.board import Board, compose, control_rows, controls_in, from_embed, layout_of
from bot.layout.limits import MAX_COMPONENTS, MAX_TEXT, problems
from bot.layout.payload import payload, walk
from bot.tables.buttons import button
from bot.tables.selects import select


def accepted(view: discord.ui.LayoutView) -> None:
    sent = payload(view)
    assert problems(sent) == []
    validate_components(sent, True)
    check_layout(sent, True)


async def test_a_board_reads_title_seats_with_their_buttons_pictures_then_controls() -> None:
    board = Board(title="Lobby", accent=discord.Colour.red(), footer="game 7")
    board.text("Join to play", title="Seats")
    board.seat("1. Hanako 👑")
    board.seat("2. Taro", button("kick_ask", 7, 42, label="Kick"))
    board.rule()
    board.picture("attachment://board.png", "the field")
    board.controls = [button("join", 7, label="Join"), button("leave", 7, label="Leave")]
    view = compose(board)
    accepted(view)
    assert as_text(view).splitlines() == [
        "### Lobby",
        "**Seats**",
        "Join to play",
        "1. Hanako 👑",
        "2. Taro [Kick]",
        "———",
        "[image: the field]",
        "-# game 7",
        "[Join] [Leave]",
    ]
    [container] = payload(view)
    assert container["accent_color"] == discord.Colour.red().value
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 10, 10, 9, 14, 12, 10, 1]  # the seat with a button is a section
    assert [c.custom_id for c in controls_in(view)] == ["g:kick_ask:7:42", "g:join:7", "g:leave:7"]


async def test_past_forty_components_texts_merge_and_seats_give_up_their_buttons() -> None:
    board = Board(title="Big")
    for n in range(20):
        board.seat(f"seat {n}", button("kick_ask", 1, n, label="Kick"))
        board.text(f"note {n}")
    board.controls = [button("v", 1, n, label=str(n)) for n in range(25)]
    view = compose(board)
    accepted(view)
    assert len(list(walk(payload(view)))) <= MAX_COMPONENTS
    ids = [c.custom_id for c in controls_in(view)]
    assert ids == [f"g:v:1:{n}" for n in range(25)]  # the controls never give way
    text = as_text(view)
    assert all(f"seat {n}" in text and f"note {n}" in text for n in range(20))


async def test_past_four_thousand_characters_the_longest_block_folds() -> None:
    board = Board(title="History", lang="en")
    board.text("short")
    board.text(*[f"round {n}: " + "x" * 60 for n in range(200)], title="Rounds")
    view = compose(board)
    accepted(view)
    text = as_text(view)
    assert "short" in text and "round 0:" in text
    assert "… and " in text and "more" in text
    assert sum(len(c.get("content", "")) for c in walk(payload(view))) <= MAX_TEXT


async def test_rows_follow_the_classic_placement() -> None:
    first = [button("a", 1, n, label="a") for n in range(7)]
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id="s", options=[discord.SelectOption(label="x")]
    )
    rows = control_rows([*first, select, button("b", 1, label="b")])
    assert [len(r) for r in rows] == [5, 3, 1]  # a later button fills an earlier row
    placed = [button("c", 1, label="c", row=1), button("d", 1, label="d", row=0)]
    assert [[c.custom_id for c in r] for r in control_rows(placed)] == [["g:d:1"], ["g:c:1"]]
    with pytest.raises(ValueError, match="rows hold"):
        control_rows([button("e", 1, n, label="e") for n in range(26)])


async def test_a_persistent_select_fills_its_row_as_a_plain_one_does() -> None:
    wrapped = select("f", 1, options=[discord.SelectOption(label="x")])  # a DynamicItem
    rows = control_rows([wrapped, button("g", 1, label="g")])
    assert [[c.custom_id for c in r] for r in rows] == [["s:f:1"], ["g:g:1"]]


async def test_an_embed_comes_across_with_all_it_says() -> None:
    embed = discord.Embed(title="Round 2", description="Edition: second", colour=0x123456)
    embed.add_field(name="Kamiza", value="👑 Boss · A\n🂠 · B")
    embed.add_field(name="\u200b", value="the end")
    embed.set_image(url="attachment://card.png")
    embed.set_footer(text="/kamiza rules")
    view = layout_of(embed, note="Hanako timed out")
    accepted(view)
    assert as_text(view).splitlines() == [
        "### Round 2",
        "Hanako timed out",
        "Edition: second",
        "**Kamiza**",
        "👑 Boss · A",
        "🂠 · B",
        "the end",
        "[image: Round 2]",
        "-# /kamiza rules",
    ]
    assert payload(view)[0]["accent_color"] == 0x123456
    assert from_embed(discord.Embed()).parts == []


LINE = st.text(alphabet="ab 漢字🂠*", min_size=1, max_size=120)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    board = Board(title=draw(LINE), footer=draw(st.none() | LINE))
    for n in range(draw(st.integers(0, 45))):
        what = draw(st.sampled_from(["text", "seat", "action", "rule", "picture"]))
        if what == "text":
            board.text(*draw(st.lists(LINE, min_size=1, max_size=80)), title=draw(st.none() | LINE))
        elif what == "seat":
            board.seat(draw(LINE))
        elif what == "action":
            board.seat(draw(LINE), button("kick_ask", 1, n, label="Kick"))
        elif what == "rule":
            board.rule(draw(st.booleans()))
        else:
            board.picture(f"attachment://p{n}.png", draw(LINE))
    board.controls = [button("c", 1, n, label="c") for n in range(draw(st.integers(0, 20)))]
    return board


@settings(max_examples=150, deadline=None)
@given(boards())
def test_any_board_composes_into_a_layout_discord_accepts(board: Board) -> None:
    accepted(compose(board))


async def test_many_long_seat_lines_fold_too() -> None:
    board = Board(title="Seats")
    for n in range(40):
        board.seat(f"{n} " + "漢" * 150)
    view = compose(board)
    accepted(view)
    assert "… and " in as_text(view)
