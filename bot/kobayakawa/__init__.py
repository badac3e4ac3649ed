"""Kobayakawa in Discord."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from discord.ext.commands import Bot


async def setup(bot: Bot) -> None:
    from bot.kobayakawa import hand  # noqa: F401  (registers the card menu's buttons)
    from bot.kobayakawa.commands import kobayakawa
    from bot.kobayakawa.presenter import KobayakawaPresenter

    bot.presenters["kobayakawa"] = KobayakawaPresenter(bot)  # type: ignore[attr-defined]
    bot.tree.add_command(kobayakawa)


async def teardown(bot: Bot) -> None:
    bot.tree.remove_command("kobayakawa")
