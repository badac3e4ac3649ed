"""Kobayakawa in Discord."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import KamizaBot


async def setup(bot: KamizaBot) -> None:
    from bot.kobayakawa import hand  # noqa: F401  (registers the card menu's buttons)
    from bot.kobayakawa.commands import kobayakawa
    from bot.kobayakawa.presenter import KobayakawaPresenter

    bot.presenters["kobayakawa"] = KobayakawaPresenter(bot)
    bot.tree.add_command(kobayakawa)


async def teardown(bot: KamizaBot) -> None:
    bot.tree.remove_command("kobayakawa")
