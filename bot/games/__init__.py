"""Every game's commands and private menus, from the game registry (the bot's extension).

Their presenters are made by the client itself (`KamizaBot.setup_hook`), before any table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from discord.ext.commands import Bot


async def setup(bot: Bot) -> None:
    from bot.games.registry import games

    for spec in games():
        spec.hand()  # importing a hand view registers its verbs
        bot.tree.add_command(spec.commands())


async def teardown(bot: Bot) -> None:
    from bot.games.registry import games

    for spec in games():
        bot.tree.remove_command(spec.command)
