"""KAMIZA's entry in the game registry (`bot.games.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.registry import GameSpec
from rules.kamiza import Kamiza

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.runtime.presenter import Presenter
    from bot.tables.hand_view import HandView


def _commands() -> app_commands.Group:
    from bot.kamiza.commands import kamiza

    return kamiza


def _presenter(bot: discord.Client) -> Presenter[Kamiza]:
    from bot.kamiza.presenter import KamizaPresenter

    return KamizaPresenter(bot)


def _hand() -> HandView[Kamiza]:
    from bot.kamiza.hand import HAND

    return HAND


SPEC = GameSpec(
    rules=Kamiza,
    command="kamiza",
    i18n_prefix="kamiza",
    commands=_commands,
    presenter=_presenter,
    hand=_hand,
)
