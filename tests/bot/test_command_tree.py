"""Every slash command, option and choice speaks Japanese too, and admin commands are hidden."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.client import EXTENSIONS
from bot.games import registry as games
from bot.i18n import CATALOGUES, t
from tests.bot.fakes import FakeInteraction
from tests.bot.test_runtime import GUILD


@pytest.fixture
async def tree() -> app_commands.CommandTree[commands.Bot]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.presenters = {spec.name: spec.presenter(bot) for spec in games.load(games.PACKAGES)}  # type: ignore[attr-defined]
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return bot.tree


def texts(
    tree: app_commands.CommandTree[commands.Bot],
) -> Iterator[tuple[str, app_commands.locale_str]]:
    """(where, text) for every name, description and choice name Discord shows."""
    for command in tree.walk_commands():
        where = f"/{command.qualified_name}"
        yield f"{where} name", command._locale_name or app_commands.locale_str(command.name)
        description = command._locale_description or app_commands.locale_str(command.description)
        yield f"{where} description", description
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                yield f"{where} {param.name} name", param.locale_name
                yield f"{where} {param.name} description", param.locale_description
                for choice in param.choices:
                    yield f"{where} {param.name} choice {choice.value}", choice._locale_name


async def test_every_command_text_has_a_japanese_text(tree):
    missing = [
        where for where, text in texts(tree) if text.extras.get("key") not in CATALOGUES["ja"]
    ]
    assert not missing, "no Japanese text for: " + ", ".join(missing)


async def test_settings_are_hidden_from_members_without_manage_server(tree):
    settings = tree.get_command("settings")
    assert settings is not None and settings.default_permissions is not None
    assert settings.default_permissions.manage_guild


async def test_a_new_season_is_hidden_from_members_and_the_seasons_list_is_not(tree):
    new_season = tree.get_command("newseason")
    assert new_season is not None and new_season.default_permissions is not None
    assert new_season.default_permissions.manage_guild
    season = tree.get_command("season")
    assert isinstance(season, app_commands.Group) and season.default_permissions is None
    assert [c.name for c in season.commands] == ["list"]  # the admin part lives apart


async def test_a_new_season_is_still_refused_at_runtime_without_manage_server(tree):
    """A server's admins may show `/newseason` to others: the command checks again."""
    new_season = tree.get_command("newseason")
    assert isinstance(new_season, app_commands.Command)
    member = FakeInteraction(None, 5, GUILD, locale="ja")
    await new_season.callback(new_season.binding, member)
    assert member.texts() == [t("ja", "common.need_manage_guild")]
    assert member.answers[0].ephemeral and member.answers[0].view is None
