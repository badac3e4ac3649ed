"""End to end: /leaderboard, /stats, /season and /settings against the real bot process.

The ledger is seeded with finished games (random legal play) before the bot starts.
"""

from __future__ import annotations

import pytest
from community_seed import finish_random_game
from fakediscord.driver import SlashError
from kamiza_play import open_table

from data.backends import open_ledger

pytestmark = pytest.mark.e2e


async def seed(path, guild_id, games):
    """games: [(game, [FakeUser ...], seed)]: each finished in the ledger at `path`."""
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        for game, players, rng_seed in games:
            seats = [(u.id, u.name.title()) for u in players]
            await finish_random_game(ledger, guild_id, game, seats, rng_seed)
    finally:
        await ledger.close()


async def twelve_players_and_a_bot(fake_discord, launch_bot, users, tmp_path, locale="en-US"):
    """12 KAMIZA players (two pages), 3 of them also in a Kobayakawa game; the bot running."""
    players = [users(f"p{i:02d}", locale=locale) for i in range(12)]
    db = tmp_path / "seeded.sqlite3"
    games = [("kamiza", players[4 * n : 4 * n + 4], n) for n in range(3)]
    games.append(("kobayakawa", players[:3], 7))
    await seed(db, fake_discord.state.guild_id, games)
    bot = await launch_bot(DATABASE_URL=f"sqlite:///{db}")
    return players, bot, db


def rows(message) -> list[str]:
    return [line for line in message.text.splitlines() if line.startswith("`#")]


async def test_leaderboard_pages_survive_a_restart_and_stats_show_records(
    fake_discord, launch_bot, users, tmp_path
):
    state = fake_discord.state
    players, bot, _ = await twelve_players_and_a_bot(fake_discord, launch_bot, users, tmp_path)
    alice, bob = players[0], players[5]

    board = (await alice.slash("leaderboard")).response
    assert not board.ephemeral and board in bob.visible_messages()
    assert "KAMIZA leaderboard" in board.text and "Season 1 (current)" in board.text
    assert "Page 1 of 2 · 12 rated players" in board.text
    assert len(rows(board)) == 10 and rows(board)[0].startswith("`#1` **")
    assert "rating 1" in rows(board)[0] and " game" in rows(board)[0] and "points" in rows(board)[0]
    assert [(b["label"], b.get("disabled", False)) for b in board.buttons()] == [
        ("Previous", True),
        ("Next", False),
    ]

    page2 = (await bob.click(board, "Next")).response
    assert page2.id == board.id and "Page 2 of 2" in page2.text and len(rows(page2)) == 2

    await bot.restart()  # the buttons carry their meaning: they work after a restart
    page1 = (await bob.click(board, "Previous")).response
    assert "Page 1 of 2" in page1.text and len(rows(page1)) == 10

    kob = (await alice.slash("leaderboard", game="kobayakawa")).response
    assert "Kobayakawa leaderboard" in kob.text and len(rows(kob)) == 3 and not kob.buttons()
    empty = (await alice.slash("leaderboard", game="rights-of-losers")).response
    assert "No rated game has finished in this season yet." in empty.text
    missing = (await alice.slash("leaderboard", season=4)).response
    assert missing.ephemeral and "no season 4" in missing.text

    mine = (await alice.slash("stats")).response
    assert "P00's record" in mine.text
    assert "KAMIZA" in mine.text and "Kobayakawa" in mine.text
    assert "**All seasons:** 1 game," in mine.text and "best finish" in mine.text
    theirs = (await bob.slash("stats", member=players[11])).response
    assert "P11's record" in theirs.text and "Kobayakawa" not in theirs.text
    newcomer = users("neo")
    assert "has not finished a game" in (await newcomer.slash("stats")).response.text
    assert not state.failed_requests()
    assert "Traceback" not in bot.log


async def test_a_japanese_reader_sees_japanese(fake_discord, launch_bot, users, tmp_path):
    state = fake_discord.state
    players, bot, _ = await twelve_players_and_a_bot(
        fake_discord, launch_bot, users, tmp_path, locale="ja"
    )
    hanako, english = players[0], users("eve")

    command = state.command("leaderboard")
    assert command["name_localizations"]["ja"] == "ランキング"
    assert command["options"][0]["choices"][1]["name_localizations"]["ja"] == "小早川"
    assert state.command("newseason")["name_localizations"]["ja"] == "新シーズン"

    board = (await hanako.slash("leaderboard")).response
    assert "KAMIZA（上座） ランキング" in board.text and "シーズン1（現在）" in board.text
    assert "1 / 2 ページ・レート対象 12人" in board.text and "レーティング" in board.text
    assert [b["label"] for b in board.buttons()] == ["前へ", "次へ"]
    page2 = (await english.click(board, "次へ")).response  # the board keeps its language
    assert "2 / 2 ページ" in page2.text

    assert "P00の戦績" in (await hanako.slash("stats")).response.text
    assert "通算" in (await hanako.slash("stats")).response.text
    assert "**シーズン1**（現在）" in (await hanako.slash("season", "list")).response.text
    for admin in ("newseason", "settings"):  # Discord hides them (Manage Server)
        with pytest.raises(SlashError, match="hidden"):
            await hanako.slash(admin)
    manager = users("kanri", locale="ja", manage_guild=True)
    shown = (await manager.slash("settings")).response
    assert "サーバー設定" in shown.text and "10秒（ボットの既定値）" in shown.text
    asked = (await manager.slash("newseason")).response
    assert "シーズン2" in asked.text and [b["label"] for b in asked.buttons()] == [
        "確定",
        "キャンセル",
    ]
    assert "キャンセルしました" in (await manager.click(asked, "キャンセル")).response.text

    english_board = (await english.slash("leaderboard")).response
    assert "KAMIZA leaderboard" in english_board.text
    assert "Traceback" not in bot.log


async def test_newseason_is_hidden_from_members_and_needs_a_confirmation(
    fake_discord, launch_bot, users, tmp_path
):
    alice, bob, carol = users("alice"), users("bob"), users("carol")
    boss = users("boss", manage_guild=True)
    db = tmp_path / "seeded.sqlite3"
    await seed(db, fake_discord.state.guild_id, [("kamiza", [alice, bob, carol], 3)])
    bot = await launch_bot(DATABASE_URL=f"sqlite:///{db}")

    with pytest.raises(SlashError, match="hidden"):  # Discord hides it from members
        await alice.slash("newseason")

    asked = (await boss.slash("newseason")).response
    assert asked.ephemeral and "Start **Season 2**? Season 1 ends now" in asked.text
    cancelled = (await boss.click(asked, "Cancel")).response
    assert cancelled.text == "Cancelled; nothing changed." and not cancelled.buttons()
    listed = (await alice.slash("season", "list")).response
    assert "**Season 1** (current)" in listed.text and "Season 2" not in listed.text

    first = (await boss.slash("newseason", name="Spring cup")).response
    second = (await boss.slash("newseason")).response
    done = await boss.click(first, "Confirm")
    assert done.response.text == "**Spring cup** has started; Season 1 is archived."
    announce = await alice.wait_for_message(lambda m: "started **Spring cup**" in m.text)
    assert not announce.ephemeral and announce in done.followups
    assert "started **Spring cup**. Season 1 is over. Champions: KAMIZA " in announce.text
    stale = (await boss.click(second, "Confirm")).response
    assert "The season has changed meanwhile (Spring cup is current)" in stale.text

    listed = (await alice.slash("season", "list")).response.text
    assert listed.index("**Spring cup** (current)") < listed.index("**Season 1**, ")
    assert "Champions: KAMIZA" in listed

    # a named proposal does not outlive the bot (its name is not in the custom id): it expires
    named = (await boss.slash("newseason", name="Summer cup")).response
    bot = await bot.restart()
    expired = (await boss.click(named, "Confirm")).response
    assert "This confirmation has expired" in expired.text and not expired.buttons()

    now = (await alice.slash("leaderboard")).response.text
    assert "Spring cup (current)" in now and "No rated game has finished" in now
    then = (await alice.slash("leaderboard", season=1)).response
    assert "Season 1" in then.text and len(rows(then)) == 3
    assert "Season 1: 1 game, " in (await alice.slash("stats")).response.text

    await bot.stop()
    ledger = await open_ledger(f"sqlite:///{db}")
    try:
        seasons = await ledger.seasons(fake_discord.state.guild_id)
    finally:
        await ledger.close()
    assert [(s.number, s.name, s.current) for s in seasons] == [
        (2, "Spring cup", True),
        (1, "Season 1", False),
    ]


async def test_settings_need_manage_server_and_refuse_bad_values(fake_discord, bot_process, users):
    member, boss = users("member"), users("boss", manage_guild=True)

    for options in ({}, {"turn_seconds": 30}):  # Discord does not offer it to them
        with pytest.raises(SlashError, match="needs permissions 32"):
            await member.slash("settings", **options)

    shown = (await boss.slash("settings")).response
    assert shown.ephemeral and "Server settings" in shown.text
    assert "10 s (the bot's default)" in shown.text  # TURN_SECONDS=10 in the e2e environment
    assert "30 s (the bot's default)" in shown.text  # LOBBY_SECONDS=30
    assert "second generation" in shown.text

    changed = (
        await boss.slash("settings", turn_seconds=45, rate_bot_games=True, edition="kamiza:classic")
    ).response
    assert changed.ephemeral and changed.content == "Settings saved."
    assert "45 s" in changed.text and "yes" in changed.text and "classic" in changed.text

    bad = (await boss.slash("settings", turn_seconds=5, edition="kamiza:second")).response
    assert bad.ephemeral and bad.text == (
        "Nothing changed: turn_seconds must be a whole number of seconds from 10 to 3600, or none."
    )
    again = (await boss.slash("settings")).response.text
    assert "45 s" in again and "classic" in again  # all or nothing

    reset = (await boss.slash("settings", turn_seconds=0, lobby_seconds=600)).response.text
    assert "10 s (the bot's default)" in reset and "600 s" in reset

    _, lobby = await open_table(boss)  # no edition named: the server's default
    assert "Edition: classic" in lobby.text
    option = next(
        o for o in fake_discord.state.command("settings")["options"] if o["name"] == "edition"
    )
    assert [(c["value"], c["name"], c["name_localizations"]["ja"]) for c in option["choices"]] == [
        ("kamiza:second", "KAMIZA: second generation", "KAMIZA（上座）：第二世代"),
        ("kamiza:classic", "KAMIZA: classic", "KAMIZA（上座）：クラシック版"),
    ]

    await bot_process.stop()
    ledger = await open_ledger(f"sqlite:///{bot_process.database_path}")
    try:
        stored = await ledger.guild_settings(fake_discord.state.guild_id)
    finally:
        await ledger.close()
    assert (stored.turn_seconds, stored.lobby_seconds) == (None, 600)
    assert (stored.rate_bot_games, stored.editions) == (True, {"kamiza": "classic"})
    assert "Traceback" not in bot_process.log


async def test_the_web_switches_and_the_leaderboards_link(fake_discord, launch_bot, users):
    """`/settings web` (Manage Server), `/mysettings web` (everyone), and the link button of
    `/leaderboard` once the server is on the web and the bot knows the site (WEB_BASE_URL)."""
    bot = await launch_bot(WEB_BASE_URL="https://kamiza.example.org/")
    member, boss = users("member"), users("boss", manage_guild=True)
    with pytest.raises(SlashError, match="needs permissions 32"):
        await member.slash("settings", web="on")
    hidden = (await member.slash("mysettings", web="hidden")).response
    assert hidden.ephemeral and "You are hidden from every web page" in hidden.text

    def links(message) -> list[str]:
        return [b["url"] for b in message.buttons() if b.get("url")]

    assert links((await member.slash("leaderboard")).response) == []  # the server is off
    on = (await boss.slash("settings", web="on")).response
    assert on.content == "Settings saved." and "Pages on the web companion" in on.text
    board = (await member.slash("leaderboard")).response
    guild = fake_discord.state.guild_id
    assert links(board) == [f"https://kamiza.example.org/s/{guild}/leaderboard/kamiza?season=1"]

    await bot.stop()
    ledger = await open_ledger(f"sqlite:///{bot.database_path}")
    try:
        assert (await ledger.guild_settings(guild)).web
        assert (await ledger.member_prefs(member.id)).web == "hidden"
    finally:
        await ledger.close()
    assert "Traceback" not in bot.log
