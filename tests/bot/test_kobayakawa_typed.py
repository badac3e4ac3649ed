"""Kobayakawa's bot side reads the rules' typed interface: the table from an observation (the
public one, or a viewer's), choices and events told apart by class, the menu handlers from
`legal_actions` and the observation (bot/kobayakawa)."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.kobayakawa import boards, hand, render
from bot.kobayakawa.presenter import SEEN_DRAW, KobayakawaPresenter
from bot.layout import as_text
from bot.layout.board import compose
from bot.tables.buttons import CustomIdArgs
from data.backends import open_ledger
from data.store import Seat
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_HELD, PASS_ACTION, REPLACE
from tests.bot.fakes import FakeInteraction
from tests.bot.test_kobayakawa_restart import GUILD, manager, start_table

NAMES = {"a": "Ann", "b": "Ben", "c": "Cho"}


def name(player: str) -> str:
    return NAMES[player]


def game(a: int, b: int, c: int, kobayakawa: int, *pile: int) -> Kobayakawa:
    """Ann, Ben and Cho (Ann starts) dealt `a`, `b`, `c`; then the Kobayakawa and the pile."""
    head = [a, b, c, kobayakawa, *pile]
    deck = head + [n for n in range(1, 16) if n not in head]
    return Kobayakawa.create(["a", "b", "c"], {}, {"start_player": "a", "decks": [deck] * 7})


def field(embed: discord.Embed, title: str) -> str:
    return next(f.value or "" for f in embed.fields if title in (f.name or ""))


def test_g3_the_public_table_is_the_same_whatever_the_hidden_cards():
    """Another deal of every hidden card (`determinize`) draws the very same public table, and
    the same table for the player it was drawn for: nothing hidden reaches either."""
    hidden_differed = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = ["a", "b", "c", "d"][: rng.randint(3, 4)]
        names = {p: p.upper() for p in players}.__getitem__
        state = Kobayakawa.create(players, {}, Kobayakawa.draw_setup(players, {}, rng))
        while (nxt := state.next()) is not None:
            for player in players:
                other = state.determinize(player, rng)
                hidden_differed += other.cards != state.cards
                for viewer in (None, player):
                    ours = render.table_embed(state.observation(viewer), "en", names)
                    theirs = render.table_embed(other.observation(viewer), "en", names)
                    assert ours.to_dict() == theirs.to_dict()
                    board = boards.table_board(state.observation(viewer), "en", names)
                    same = boards.table_board(other.observation(viewer), "en", names)
                    assert as_text(compose(board)) == as_text(compose(same))
            state.apply(nxt.player, rng.choice(state.legal_actions(nxt.player)))
    assert hidden_differed > 30  # the other deals did hide other cards


def test_g3_the_presenter_draws_the_public_table_or_the_viewers_own():
    seats = {p: Seat(p, n, NAMES[p]) for n, p in enumerate("abc", start=1)}
    table = SimpleNamespace(
        state=game(8, 13, 11, 7),
        seq=0,
        seats=seats,
        autopilot={"c"},
        place=SimpleNamespace(guild_id=1),
        levels={},
    )
    presenter = KobayakawaPresenter(SimpleNamespace(get_guild=lambda guild_id: None))
    public = presenter.table_embed(table, "en")
    assert "Your card" not in (public.description or "")
    assert "(autopilot)" in field(public, "Players").splitlines()[2]
    bens = presenter.table_embed(table, "en", viewer="b")
    assert "Your card: 🎴 **13**" in (bens.description or "")
    shown = str(bens.to_dict())
    assert shown.count("🎴") == 1 and "🎴 **8**" not in shown and "🎴 **11**" not in shown
    # the table message's board, the same way
    public_board = as_text(compose(presenter.table_board(table, "en")))
    assert "Your card" not in public_board and "🎴" not in public_board
    cho = next(line for line in public_board.splitlines() if "<@3>" in line)
    assert "(autopilot)" in cho
    bens_board = as_text(compose(presenter.table_board(table, "en", viewer="b")))
    assert "Your card: 🎴 **13**" in bens_board and bens_board.count("🎴") == 1


def test_b3_b4_round_lines_and_rows_from_the_observations_choices():
    g = game(8, 13, 11, 7, 2, 12, 14)
    g.apply("a", KEEP_HELD)  # discards the drawn 2
    g.apply("b", REPLACE)  # the 12 covers the 7
    g.apply("c", KEEP_HELD)  # discards the drawn 14
    assert render.round_lines(g.observation(None), "en", name) == [
        "🂠 Ann drew a card and discarded 2.",
        "🔄 Ben replaced the Kobayakawa unseen: 7 → 12.",
        "🂠 Cho drew a card and discarded 14.",
        "— Fight phase —",
    ]
    g.apply("a", PASS_ACTION)
    g.apply("b", FIGHT_ACTION)
    assert render.player_rows(g.observation(None), "en", name) == [
        "⭐ Ann · 🏵️ 4 · discarded 2 · 🏳️ passed",
        "Ben · 🏵️ 3 · ⚔️ bet 1",
        "▶️ Cho · 🏵️ 4 · discarded 14",
    ]


@pytest.fixture
async def tables(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    started = manager(store)
    yield started
    await started.shutdown()
    await store.close()


async def test_b3_draw_pressed_on_a_fight_turn_shows_the_menu_and_looks_at_nothing(tables):
    table = await start_table(tables)
    while table.state.phase == "draw":
        await table.act(table.state.next().player, KEEP_HELD)
    player = table.state.next().player
    click = FakeInteraction(tables, table.seats[player].user_id, GUILD)
    await hand.draw(click, table.game_id, [str(table.seq)])
    assert SEEN_DRAW not in table.notes and not table.state.has_looked(player)
    assert any("Fight (bet 1 🏵️) or pass." in text for text in click.texts()), click.texts()


async def test_b3_a_keep_sent_before_any_look_still_names_both_cards(tables):
    """The menu offers keeping only after Draw; a keep sent without it (a forged id) acts and
    answers with the card kept and the one discarded, as it always has."""
    table = await start_table(tables)
    player = table.state.next().player
    held, drawn = table.state.cards[player], table.state.drawn_card(player)
    click = FakeInteraction(tables, table.seats[player].user_id, GUILD)
    await hand.keep(click, table.game_id, CustomIdArgs(["0", "drawn"]))
    assert table.seq == 1 and table.state.observation(player).card == drawn
    assert click.texts() == [f"You kept 🎴 **{drawn}** and discarded 🎴 **{held}** face up."]
