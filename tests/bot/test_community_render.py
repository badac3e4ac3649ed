"""Leaderboards, stats, seasons and settings rendered from real ledger rows, in both languages.

No Discord here: the rendering functions are pure, the buttons' custom_ids are checked directly.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from community_seed import finish_random_game

from bot.guildsettings.render import settings_embed
from bot.i18n import count
from bot.standings import render
from bot.standings.buttons import (
    PROPOSED,
    CancelButton,
    LeaderboardPageButton,
    NewSeasonButton,
    leaderboard_reply,
)
from data.backends import open_ledger
from data.store import Champion, GuildSettings, Season, StatsRow

GUILD = 987654321098765432
PLAYERS = [(1000 + i, f"Player{i}") for i in range(12)]


@pytest.fixture
async def ledger(tmp_path):
    ledger = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    try:
        yield ledger
    finally:
        await ledger.close()


@pytest.fixture
async def seeded(ledger):
    """12 rated KAMIZA players (three 4-player games), one Kobayakawa game of three."""
    for n in range(3):
        await finish_random_game(ledger, GUILD, "kamiza", PLAYERS[4 * n : 4 * n + 4], seed=n)
    await finish_random_game(ledger, GUILD, "kobayakawa", PLAYERS[:3], seed=7)
    return ledger


def test_ordinals():
    en = [render.ordinal("en", n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert en == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "101st",
        "111th",
        "112th",
    ]
    assert [render.ordinal("ja", n) for n in (1, 2, 11)] == ["1位", "2位", "11位"]


def test_season_names_follow_the_reader_unless_chosen():
    assert render.season_name("en", 3, "Season 3") == "Season 3"
    assert render.season_name("ja", 3, "Season 3") == "シーズン3"
    assert render.season_name("ja", 3, "Spring cup") == "Spring cup"
    now = datetime.now(UTC)
    assert render.season_label("en", Season(1, GUILD, 2, "Season 2", now)) == "Season 2 (current)"
    assert render.season_label("ja", Season(1, GUILD, 2, "Season 2", now, now)) == "シーズン2"


async def test_leaderboard_page_in_english(seeded):
    season = await seeded.current_season(GUILD)
    board = await seeded.leaderboard(GUILD, "kamiza", season.id, page=0, page_size=10)
    embed = render.leaderboard_embed("en", board, season).to_dict()
    assert embed["title"] == "KAMIZA leaderboard"
    assert embed["author"]["name"] == "Season 1 (current)"
    lines = embed["description"].splitlines()
    assert len(lines) == 10
    top = board.rows[0]
    assert lines[0] == (
        f"`#{top.rank}` **{top.display_name}** · rating {top.rating:.0f} · "
        f"{count('en', 'game', top.games)} · {count('en', 'win', top.wins)} "
        f"({round(top.win_rate * 100)}%) · {count('en', 'point', top.points)}"
    )
    assert embed["footer"]["text"] == "Page 1 of 2 · 12 rated players"


async def test_leaderboard_page_in_japanese(seeded):
    season = await seeded.current_season(GUILD)
    board = await seeded.leaderboard(GUILD, "kobayakawa", season.id)
    embed = render.leaderboard_embed("ja", board, season).to_dict()
    assert embed["title"] == "小早川 ランキング"
    assert embed["author"]["name"] == "シーズン1（現在）"
    assert "レーティング" in embed["description"] and "戦" in embed["description"]
    assert embed["footer"]["text"] == "1 / 1 ページ・レート対象 3人"


async def test_an_empty_leaderboard_says_so(ledger):
    season = await ledger.current_season(GUILD)
    board = await ledger.leaderboard(GUILD, "rights-of-losers", season.id)
    assert "No rated game" in render.leaderboard_embed("en", board, season).description
    assert "まだ" in render.leaderboard_embed("ja", board, season).description


async def test_display_names_cannot_inject_markdown(ledger):
    players = [(1, "**bold**"), (2, "_it_"), (3, "x`y")]
    await finish_random_game(ledger, GUILD, "kamiza", players, seed=1)
    season = await ledger.current_season(GUILD)
    board = await ledger.leaderboard(GUILD, "kamiza", season.id)
    text = render.leaderboard_embed("en", board, season).description
    assert "\\*\\*bold\\*\\*" in text and "\\_it\\_" in text


async def test_leaderboard_buttons_page_and_carry_their_meaning(seeded):
    season = await seeded.current_season(GUILD)
    embed, view = await leaderboard_reply(seeded, "en", GUILD, "kamiza", season, 0)
    assert view is not None
    prev, nxt = view.children
    assert (prev.item.label, prev.item.disabled) == ("Previous", True)
    assert (nxt.item.label, nxt.item.disabled) == ("Next", False)
    assert nxt.custom_id == f"kz:lb:en:{GUILD}:kamiza:{season.id}:1"
    embed, view = await leaderboard_reply(seeded, "ja", GUILD, "kamiza", season, 1)
    assert embed.footer.text.startswith("2 / 2")
    assert [c.item.label for c in view.children] == ["前へ", "次へ"]
    assert [c.item.disabled for c in view.children] == [False, True]
    # a page that no longer exists shows the last one
    embed, _ = await leaderboard_reply(seeded, "en", GUILD, "kamiza", season, 7)
    assert embed.footer.text.startswith("Page 2 of 2")
    # one page: no buttons
    _, view = await leaderboard_reply(seeded, "en", GUILD, "kobayakawa", season, 0)
    assert view is None


async def test_custom_ids_fit_discord_and_parse_back():
    guild, season = 2**63 - 1, 2**31
    name = "春" * 50
    token = PROPOSED.propose(name)
    items = [
        LeaderboardPageButton("ja", guild, "rights-of-losers", season, 99999),
        NewSeasonButton(guild, season, token),
        NewSeasonButton(guild, season, None),
        CancelButton(guild),
    ]
    for item in items:
        assert len(item.custom_id) <= 100
        match = type(item).__discord_ui_compiled_template__.fullmatch(item.custom_id)
        assert match is not None
    again = NewSeasonButton.__discord_ui_compiled_template__.fullmatch(items[1].custom_id)
    assert again["token"] == token and int(again["season"]) == season
    assert name not in items[1].custom_id  # user text never rides in a custom id
    assert PROPOSED.take(again["token"]) == name and PROPOSED.take(token) is None
    assert (
        NewSeasonButton.__discord_ui_compiled_template__.fullmatch(items[2].custom_id)["token"]
        is None
    )


async def test_member_stats_in_both_languages(seeded):
    rows = await seeded.member_stats(GUILD, PLAYERS[0][0])
    embed = render.stats_embed("en", "Player0", rows).to_dict()
    assert embed["title"] == "Player0's record"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["KAMIZA", "Kobayakawa"]
    kamiza = next(r for r in rows if r.game == "kamiza")
    wins = count("en", "win", kamiza.wins)
    assert fields["KAMIZA"].startswith(f"**All seasons:** 1 game, {wins}")
    assert f"best finish {render.ordinal('en', kamiza.best_rank)}" in fields["KAMIZA"]
    assert f"Best standing: {render.ordinal('en', kamiza.position)} in Season 1" in fields["KAMIZA"]
    assert "Season 1: 1 game, " in fields["KAMIZA"]
    ja = render.stats_embed("ja", "Player0", rows).to_dict()
    assert ja["title"] == "Player0の戦績"
    assert [f["name"] for f in ja["fields"]] == ["KAMIZA（上座）", "小早川"]
    assert "通算" in ja["fields"][0]["value"] and "シーズン1" in ja["fields"][0]["value"]


def test_stats_of_a_newcomer():
    assert "has not finished a game" in render.stats_embed("en", "Neo", []).description
    assert "まだ対局を終えていません" in render.stats_embed("ja", "Neo", []).description


def test_stats_over_many_seasons_fit_a_field():
    rows = [
        StatsRow("kamiza", n, n, f"Season {n}", 10, 3, 40, 1, 12.5, 30.0, 5.0, 2)
        for n in range(200, 0, -1)
    ]
    embed = render.stats_embed("en", "Veteran", rows).to_dict()
    value = embed["fields"][0]["value"]
    assert len(value) <= 1024 and value.endswith("…")
    assert value.startswith("**All seasons:** 2000 games, 600 wins (30%), 8000 points")


async def test_seasons_with_champions(seeded):
    await seeded.new_season(GUILD, "Spring cup")
    seasons = await seeded.seasons(GUILD)
    embed = render.seasons_embed("en", seasons).to_dict()
    text = embed["description"]
    assert embed["title"] == "Seasons"
    assert text.index("**Spring cup** (current), since <t:") < text.index("**Season 1**, <t:")
    kamiza = [c for c in seasons[1].champions if c.game == "kamiza"]
    names = ", ".join(c.display_name for c in kamiza)
    assert f"Champions: KAMIZA {names} ({kamiza[0].rating:.0f}) · Kobayakawa " in text
    ja = render.seasons_embed("ja", seasons).description
    assert "**Spring cup**（現在）" in ja and "**シーズン1**・" in ja and "チャンピオン：" in ja


def test_a_season_without_rated_games_has_no_champion():
    now = datetime.now(UTC)
    past = Season(1, GUILD, 1, "Season 1", now, now)
    assert render.champions_text("en", past) == "No champions (no rated games)."
    tied = Season(
        1,
        GUILD,
        1,
        "Season 1",
        now,
        now,
        [Champion("kobayakawa", 1, "A", 1560.0), Champion("kobayakawa", 2, "B", 1560.0)],
    )
    assert render.champions_text("en", tied) == "Champions: Kobayakawa A, B (1560)"


def test_many_seasons_fit_the_embed():
    now = datetime.now(UTC)
    seasons = [Season(n, GUILD, n, "x" * 90, now, now) for n in range(300, 0, -1)]
    text = render.seasons_embed("en", seasons).description
    assert len(text) <= 4096 and "earlier seasons" in text


def test_settings_embed_defaults_and_choices():
    embed = settings_embed(
        "en", GuildSettings(), default_turn=90, default_lobby=900, default_archive=600
    ).to_dict()
    values = {f["name"]: f["value"] for f in embed["fields"]}
    assert values == {
        "Time for each decision": "90 s (the bot's default)",
        "Time before an unstarted lobby closes": "900 s (the bot's default)",
        "Time before a finished game's thread is archived": "600 s (the bot's default)",
        "Games with bot seats are rated": "no",
        "Pages on the web companion (members may hide themselves: /mysettings)": "no",
        "Default KAMIZA edition": "second generation",
    }
    chosen = GuildSettings(
        turn_seconds=30,
        lobby_seconds=600,
        rate_bot_games=True,
        editions={"kamiza": "classic"},
        archive_seconds=60,
        web=True,
    )
    ja = settings_embed("ja", chosen).to_dict()
    assert [f["value"] for f in ja["fields"]] == [
        "30秒",
        "600秒",
        "60秒",
        "はい",
        "はい",
        "クラシック版",
    ]
    assert ja["title"] == "サーバー設定"
