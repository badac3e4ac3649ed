"""The web companion in Discord: `/settings web`, `/mysettings web`, and the link buttons."""

from __future__ import annotations

from types import SimpleNamespace

import discord
from discord import app_commands

from bot.guildsettings.cog import GuildSettingsCog
from bot.i18n import t
from bot.layout.board import controls_in
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.standings.buttons import leaderboard_reply
from bot.tables import ending
from bot.weblinks import web_url
from data.backends import open_ledger
from data.store import GuildSettings, MemberPrefs
from rules.log import load
from tests.bot.fakes import FakeBot, FakeInteraction
from tests.bot.test_command_tree import tree  # noqa: F401 (a fixture)
from tests.bot.test_community_render import GUILD, ledger, seeded  # noqa: F401 (fixtures)
from tests.bot.test_end_buttons import THREAD, Standings, finished

BASE = "https://kamiza.example.org/"


def interaction(store, *, manage: bool, locale: str = "en-US", user: int = 5) -> FakeInteraction:
    fake = FakeInteraction(None, user, GUILD, manage_guild=manage, locale=locale)
    fake.client = SimpleNamespace(ledger=store, settings=SimpleNamespace(web_base_url=BASE))
    return fake


async def test_mysettings_is_every_members_and_settings_stays_the_admins(tree):  # noqa: F811
    mine = tree.get_command("mysettings")
    assert isinstance(mine, app_commands.Command) and mine.default_permissions is None
    assert [c.value for c in mine.parameters[0].choices] == ["shown", "hidden"]
    settings = tree.get_command("settings")
    assert isinstance(settings, app_commands.Command)
    assert settings.default_permissions is not None and settings.default_permissions.manage_guild
    web = next(p for p in settings.parameters if p.name == "web")
    assert [c.value for c in web.choices] == ["on", "off"]


async def test_an_admin_turns_the_web_on_and_a_member_cannot(ledger):  # noqa: F811
    cog = GuildSettingsCog(SimpleNamespace())  # type: ignore[arg-type]
    member = interaction(ledger, manage=False)
    await cog.settings.callback(cog, member, web="on")
    assert member.texts() == [t("en", "common.need_manage_guild")]
    assert not (await ledger.guild_settings(GUILD)).web

    admin = interaction(ledger, manage=True, locale="ja")
    await cog.settings.callback(cog, admin, web="on")
    assert (await ledger.guild_settings(GUILD)).web
    [text] = admin.texts()
    assert t("ja", "settings.changed") in text and f"{t('ja', 'settings.web')} はい" in text
    await cog.settings.callback(cog, interaction(ledger, manage=True), web="off")
    assert not (await ledger.guild_settings(GUILD)).web


async def test_a_member_hides_themselves_privately(ledger):  # noqa: F811
    cog = GuildSettingsCog(SimpleNamespace())  # type: ignore[arg-type]
    member = interaction(ledger, manage=False, user=42)
    await cog.mysettings.callback(cog, member, web="hidden")
    assert await ledger.member_prefs(42) == MemberPrefs(web="hidden")
    assert t("en", "mysettings.web.hidden") in member.texts()[0]
    assert member.answers[0].ephemeral
    shows = interaction(ledger, manage=False, user=42, locale="ja")
    await cog.mysettings.callback(cog, shows)  # no option: shows the choice, changes nothing
    assert t("ja", "mysettings.web.hidden") in shows.texts()[0]
    await cog.mysettings.callback(cog, interaction(ledger, manage=False, user=42), web="shown")
    assert (await ledger.member_prefs(42)).web == "shown"


def link_urls(view: discord.ui.View | None) -> list[str]:
    if view is None:
        return []
    return [item.url for item in view.children if isinstance(item, discord.ui.Button) and item.url]


async def test_the_leaderboard_links_to_the_web_only_for_a_server_on_it(seeded):  # noqa: F811
    season = await seeded.current_season(GUILD)
    _, view = await leaderboard_reply(seeded, "en", GUILD, "kobayakawa", season, 0, web_base=BASE)
    assert view is None  # one page, the web off: nothing
    await seeded.update_guild_settings(GUILD, web=True)
    _, view = await leaderboard_reply(seeded, "en", GUILD, "kobayakawa", season, 0)
    assert view is None  # the bot without WEB_BASE_URL: no link
    _, view = await leaderboard_reply(seeded, "ja", GUILD, "kobayakawa", season, 0, web_base=BASE)
    url = f"https://kamiza.example.org/s/{GUILD}/leaderboard/kobayakawa?season={season.number}"
    assert link_urls(view) == [url]
    assert view is not None and view.children[0].label == t("ja", "web.link")
    _, view = await leaderboard_reply(seeded, "en", GUILD, "kamiza", season, 0, web_base=BASE)
    assert view is not None and len(view.children) == 3  # Previous, Next and the link
    assert link_urls(view) == [url.replace("kobayakawa", "kamiza")]


def test_the_final_standings_link_their_game_when_the_server_is_on_the_web():
    client = SimpleNamespace(settings=SimpleNamespace(web_base_url=BASE))
    assert web_url(client, GuildSettings(), "/s/1/games/7") is None
    assert web_url(SimpleNamespace(), GuildSettings(web=True), "/s/1/games/7") is None
    assert web_url(client, None, "/s/1/games/7") is None
    url = web_url(client, GuildSettings(web=True), "/s/1/games/7")
    assert url == "https://kamiza.example.org/s/1/games/7"
    view = ending.end_view(7, "en", url)
    assert link_urls(view) == [url]
    ids = [getattr(c, "custom_id", None) for c in view.children]
    assert ids[:2] == ["g:rematch:7", "g:board:7"]
    assert link_urls(ending.end_view(7, "en")) == []


async def test_the_posted_final_standings_carry_the_link_when_the_server_is_on(tmp_path):
    """Through `post_results`, as every game ends: the link only once the server is on."""
    store = await open_ledger(f"sqlite:///{tmp_path / 'ends.sqlite3'}")
    try:
        client = FakeBot()
        client.settings = SimpleNamespace(web_base_url=BASE)  # type: ignore[attr-defined]
        presenter = Standings(client)
        record = await store.get_game(await finished(store, guild=GUILD))
        assert record is not None
        table = Table(
            game_id=record.id,
            place=Place(GUILD, 2, THREAD),
            host_id=1,
            seats=record.seats,
            state=load(record.log() or {}),
            seq=len(record.actions),
            ledger=store,
            presenter=presenter,
            timing=Timing(),
        )

        def links() -> list[str]:
            buttons = controls_in(client.posted[-1].view)
            return [b.url for b in buttons if isinstance(b, discord.ui.Button) and b.url]

        await presenter.post_results(table, record.results, discord.Embed(title="standings"))
        assert links() == []
        await store.update_guild_settings(GUILD, web=True)
        await presenter.post_results(table, record.results, discord.Embed(title="standings"))
        assert links() == [f"https://kamiza.example.org/s/{GUILD}/games/{record.id}"]
    finally:
        await store.close()
