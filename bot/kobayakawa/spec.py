"""Kobayakawa's entry in the game registry (`bot.games.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.registry import GameSpec
from rules.kobayakawa import Kobayakawa

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.runtime.presenter import Presenter
    from bot.tables.hand_view import HandView


def _commands() -> app_commands.Group:
    from bot.kobayakawa.commands import kobayakawa

    return kobayakawa


def _presenter(bot: discord.Client) -> Presenter[Kobayakawa]:
    from bot.kobayakawa.presenter import KobayakawaPresenter

    return KobayakawaPresenter(bot)


def _hand() -> HandView[Kobayakawa]:
    from bot.kobayakawa.hand import HAND

    return HAND


SPEC = GameSpec(
    rules=Kobayakawa,
    command="kobayakawa",
    i18n_prefix="kobayakawa",
    commands=_commands,
    presenter=_presenter,
    hand=_hand,
)
