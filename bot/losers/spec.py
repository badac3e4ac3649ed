"""Rights of Losers' entry in the game registry (`bot.games.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.registry import GameSpec
from rules.losers import RightsOfLosers

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.runtime.presenter import Presenter
    from bot.tables.hand_view import HandView


def _commands() -> app_commands.Group:
    from bot.losers.commands import losers

    return losers


def _presenter(bot: discord.Client) -> Presenter[RightsOfLosers]:
    from bot.losers.presenter import LosersPresenter

    return LosersPresenter(bot)


def _hand() -> HandView[RightsOfLosers]:
    from bot.losers.hand import HAND

    return HAND


SPEC = GameSpec(
    rules=RightsOfLosers,
    command="losers",
    i18n_prefix="losers",
    commands=_commands,
    presenter=_presenter,
    hand=_hand,
)
