"""High card's entry in the game registry: `EXTRA_GAMES=tests.games.highcard.bot` loads it.

Like the product's games (`bot/kamiza/spec.py`): the factories import the Discord modules only
when called, after the registry has merged this package's catalogue (`catalogue`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.registry import GameSpec
from tests.games.highcard.rules import HighCard

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.runtime.presenter import Presenter
    from bot.tables.hand_view import HandView


def _commands() -> app_commands.Group:
    from tests.games.highcard.bot.commands import highcard

    return highcard


def _presenter(bot: discord.Client) -> Presenter[HighCard]:
    from tests.games.highcard.bot.presenter import HighCardPresenter

    return HighCardPresenter(bot)


def _hand() -> HandView[HighCard]:
    from tests.games.highcard.bot.hand import HAND

    return HAND


SPEC = GameSpec(
    rules=HighCard,
    command="highcard",
    i18n_prefix="highcard",
    commands=_commands,
    presenter=_presenter,
    hand=_hand,
    catalogue="tests.games.highcard.bot.i18n",
)
