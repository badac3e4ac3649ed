"""One restart-proof button type for every table: `g:<verb>:<game id>[:arg...]` custom ids.

A game registers a handler per verb; the handler gets the interaction, the game id and the
arguments. Because the meaning lives in the custom id (discord.py `DynamicItem`), buttons keep
working after a restart and never trust anything but what the table says now.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.tables.replies import explain_error, refuse

Handler = Callable[[discord.Interaction, int, list[str]], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}
PREFIX = "g"


def handles(verb: str) -> Callable[[Handler], Handler]:
    """Register the handler of a verb."""

    def register(handler: Handler) -> Handler:
        if verb in _HANDLERS and _HANDLERS[verb] is not handler:
            raise ValueError(f"verb {verb!r} registered twice")
        _HANDLERS[verb] = handler
        return handler

    return register


def custom_id(verb: str, game_id: int, *args: object) -> str:
    text = ":".join([PREFIX, verb, str(game_id), *map(str, args)])
    if len(text) > 100:
        raise ValueError(f"custom id too long: {text!r}")
    return text


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"g:(?P<verb>[a-z_]+):(?P<gid>[0-9]{1,20})(?P<args>(?::[^:]*)*)",
):
    """A button whose custom id says what it does at which table."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: object, /
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        _, verb, gid, *args = self.custom_id.split(":")
        handler = _HANDLERS.get(verb)
        if handler is None:
            await refuse(interaction, "error.stale_button")
            return
        try:
            await handler(interaction, int(gid), args)
        except Exception as exc:  # every refusal becomes a private answer
            await explain_error(interaction, exc, int(gid))


def button(
    verb: str,
    game_id: int,
    *args: object,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> TableButton:
    return TableButton(
        discord.ui.Button(
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            row=row,
            custom_id=custom_id(verb, game_id, *args),
        )
    )


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    """A persistent view holding `items` (built in async code, see TESTING.md)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
