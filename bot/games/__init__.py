"""Every game's commands, table messages and private menus, from the game registry."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import KamizaBot


async def setup(bot: KamizaBot) -> None:
    from bot.games.registry import games

    for spec in games():
        spec.hand()
        bot.presenters[spec.name] = spec.presenter(bot)
        bot.tree.add_command(spec.commands())


async def teardown(bot: KamizaBot) -> None:
    from bot.games.registry import games

    for spec in games():
        bot.tree.remove_command(spec.command)
