"""Rights of Losers in Discord: `/losers`, the table message with the field picture, the private
menus (cards, chip spots, builds, the winner's choice), and the names of cells and spots."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.client import KamizaBot


async def setup(bot: KamizaBot) -> None:
    from bot.losers import hand  # noqa: F401  (registers the menus' buttons and selects)
    from bot.losers.commands import losers
    from bot.losers.presenter import LosersPresenter

    bot.presenters["rights-of-losers"] = LosersPresenter(bot)
    bot.tree.add_command(losers)


async def teardown(bot: KamizaBot) -> None:
    bot.tree.remove_command("losers")
