"""Kobayakawa's table embed (what `/kobayakawa status` answers) and its showdown board, from the
rules' typed observations and events (bot/kobayakawa/render.py, boards.py)."""

from __future__ import annotations

import discord

from bot.kobayakawa import boards, render
from bot.layout import as_text
from bot.layout.board import compose
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    GameEnded,
    Passed,
    PlayerOut,
    RoundWon,
    Showdown,
)

NAMES = {"a": "Ann", "b": "Ben", "c": "Cho"}


def name(player: str) -> str:
    return NAMES[player]


def game(a: int, b: int, c: int, kobayakawa: int, *pile: int) -> Kobayakawa:
    """Ann, Ben and Cho (Ann starts) dealt `a`, `b`, `c`; then the Kobayakawa and the pile."""
    head = [a, b, c, kobayakawa, *pile]
    deck = head + [n for n in range(1, 16) if n not in head]
    return Kobayakawa.create(["a", "b", "c"], {}, {"start_player": "a", "decks": [deck] * 7})


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return "\n".join(parts)


def field(embed: discord.Embed, title: str) -> str:
    return next(f.value for f in embed.fields if title in (f.name or ""))


def showdown(events: list, lang: str = "en") -> str:
    """The showdown board of `events`, read out (the title first)."""
    board = boards.showdown_board(events, lang, name)
    assert board is not None, "these events end no round"
    return as_text(compose(board))


def after(heading: str, said: str) -> str:
    """The lines of `said` after the line `heading` (bold, a block's title)."""
    lines = said.splitlines()
    return "\n".join(lines[lines.index(f"**{heading}**") + 1 :])


def test_b3_table_shows_discards_and_the_kobayakawa_history_never_the_kept_card():
    g = game(8, 13, 11, 7, 2, 12, 14)
    g.apply("a", KEEP_HELD)  # Ann keeps her 8, discards the drawn 2
    g.apply("b", REPLACE)  # the 12 covers the 7
    g.apply("c", KEEP_DRAWN)  # Cho keeps the drawn 14, discards her 11
    embed = render.table_embed(g.observation(None), "en", name)
    this_round = field(embed, "This round")
    assert "Ann drew a card and discarded 2." in this_round
    assert "Ben replaced the Kobayakawa unseen: 7 → 12." in this_round
    assert "Cho drew a card and discarded 11." in this_round
    assert "14" not in text(embed) and "8" not in this_round
    kobayakawa = field(embed, "Kobayakawa")
    assert "**12**" in kobayakawa and "7" in kobayakawa
    assert "Fight phase" in embed.description and "Turn: Ann" in embed.description


def test_g3_only_the_viewer_sees_their_own_card():
    g = game(8, 13, 11, 7)
    assert "Your card: 🎴 **13**" in render.table_embed(g.observation("b"), "en", name).description
    assert "Your card" not in render.table_embed(g.observation(None), "en", name).description


def test_b4_bets_are_public_as_they_are_made():
    g = game(8, 13, 11, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    g.apply("a", FIGHT_ACTION)
    g.apply("b", PASS_ACTION)
    embed = render.table_embed(g.observation(None), "en", name)
    rows = field(embed, "Players")
    assert "Ann · 🏵️ 3 · discarded 1 · ⚔️ bet 1" in rows
    assert "Ben · 🏵️ 4 · discarded 2 · 🏳️ passed" in rows
    assert "▶️ Cho" in rows
    assert "Pot: **1**" in field(embed, "Kamons")
    assert "Ann fights and bets 1 🏵️ (pot 1)." in field(embed, "This round")


def test_b5_the_sheet_example_lowest_adds_the_kobayakawa():
    g = game(8, 13, 11, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    g.apply("a", FIGHT_ACTION)
    g.apply("b", FIGHT_ACTION)
    events = g.apply("c", FIGHT_ACTION)
    said = showdown(events)
    assert said.splitlines()[0] == "### Round 1 · Showdown"
    revealed = after("Revealed cards", said).split("———")[0]
    assert "Ann: 🎴 **8** + 🏯 7 = **15** 🏆" in revealed
    judging = after("Judging", said)
    assert "Ann has the lowest card, 8, and adds the Kobayakawa 7: 15." in judging
    assert "Ann has the highest total, 15, and wins." in judging
    assert "Ann takes the pot (3 🏵️) and 1 🏵️ from the centre: 7 🏵️ now" in judging
    assert "Round 2: Ann starts" in judging


def test_b5_a_tie_goes_to_the_fighter_closest_to_the_start_player():
    g = game(5, 12, 1, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    g.apply("a", FIGHT_ACTION)
    g.apply("b", FIGHT_ACTION)
    events = g.apply("c", PASS_ACTION)
    said = showdown(events)
    judging = after("Judging", said)
    assert "Ann, Ben tie at 12; Ann sits closest clockwise to the start player and wins." in judging
    assert "Cho passes." in said.split("———")[0]
    assert "🎴 **1**" not in said  # G-3: Cho passed, her card stays hidden


def test_b5_a_lone_fighter_wins_without_showing_their_card():
    g = game(8, 13, 11, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    g.apply("a", PASS_ACTION)
    g.apply("b", FIGHT_ACTION)
    events = g.apply("c", PASS_ACTION)
    said = showdown(events)
    assert "Ben is the only fighter and wins without showing their card." in said
    assert "🎴" not in said and "13" not in said
    assert "Revealed" not in said


def test_b6_nobody_fought_sends_the_centre_kamon_to_the_box():
    g = game(8, 13, 11, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    g.apply("a", PASS_ACTION)
    g.apply("b", PASS_ACTION)
    events = g.apply("c", PASS_ACTION)
    said = showdown(events)
    assert said.splitlines()[0] == "### Round 1 · Nobody fought"
    assert "1 🏵️ from the centre go back to the box. Ann starts again." in said
    assert "🎴" not in said  # nobody fought: no card is shown (G-3)


def test_b7_players_out_and_the_end_are_told():
    events = [
        Passed("c"),
        Showdown(3, ("a", "b"), {"a": 4, "b": 9}, 2, "a", {"a": 6, "b": 9}, "b", "highest"),
        RoundWon(3, "b", 2, 1, 9),
        PlayerOut("a", 3),
        GameEnded(3, "too_few_players", {"a": 0, "b": 9, "c": 0}, ("b",)),
    ]
    judging = after("Judging", showdown(events))
    assert "☠️ Ann has no kamons left and is out." in judging
    assert "Fewer than two players are left: the game is over." in judging


def test_a_draw_turn_ends_no_round():
    g = game(8, 13, 11, 7)
    assert boards.showdown_board(g.apply("a", KEEP_HELD), "en", name) is None


def test_japanese_table_and_showdown():
    g = game(8, 13, 11, 7)
    for p in "abc":
        g.apply(p, KEEP_HELD)
    embed = render.table_embed(g.observation(None), "ja", name)
    assert embed.title == "小早川 · 第1/7ラウンド"
    assert "勝負フェイズ" in embed.description and "家紋" in text(embed)
    g.apply("a", FIGHT_ACTION)
    g.apply("b", FIGHT_ACTION)
    events = g.apply("c", FIGHT_ACTION)
    judging = after("判定", showdown(events, "ja"))
    # the honorific comes with a member's name (bot.tables.presenting.mention), not the text
    assert "Annの8が最も小さいので、小早川7を足して15です。" in judging
