"""KAMIZA in Discord."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import KamizaBot


async def setup(bot: KamizaBot) -> None:
    from bot.kamiza import hand  # noqa: F401  (registers the hand's buttons)
    from bot.kamiza.commands import kamiza
    from bot.kamiza.presenter import KamizaPresenter

    bot.presenters["kamiza"] = KamizaPresenter(bot)
    bot.tree.add_command(kamiza)


async def teardown(bot: KamizaBot) -> None:
    bot.tree.remove_command("kamiza")
