"""One restart-proof button type for every table: `g:<verb>:<game id>[:arg...]` custom ids.

A game registers a handler per verb; the handler gets the interaction, the game id and the
arguments. Because the meaning lives in the custom id (discord.py `DynamicItem`), buttons keep
working after a restart and never trust anything but what the table says now.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import discord

from bot.runtime.errors import ForgedCustomId
from bot.tables.replies import explain_error, refuse

T = TypeVar("T")
Handler = Callable[..., Awaitable[None]]
AfterClick = Callable[[discord.Interaction, int], Awaitable[None]]
# True when the click is played elsewhere (another process runs its table: `bot.forwarding`).
Elsewhere = Callable[[discord.Interaction, int], Awaitable[bool]]
PREFIX = "g"
log = logging.getLogger(__name__)


class CustomIdArgs(list[str]):
    """The arguments of a custom id; a missing or malformed one is a forged id, not a bug."""

    def __getitem__(self, index: Any) -> Any:
        try:
            return super().__getitem__(index)
        except IndexError:
            raise ForgedCustomId() from None

    def number(self, index: int) -> int:
        try:
            return int(self[index])
        except ValueError:
            raise ForgedCustomId() from None

    def one_of(self, index: int, allowed: Mapping[str, T]) -> T:
        try:
            return allowed[self[index]]
        except KeyError:
            raise ForgedCustomId() from None


class Verbs:
    """The handlers of one kind of component, by the verb in its custom id."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._handlers: dict[str, Handler] = {}
        self._after: list[AfterClick] = []
        self._elsewhere: list[Elsewhere] = []

    def handles(self, verb: str) -> Callable[[Handler], Handler]:
        """Register the handler of a verb."""

        def register(handler: Handler) -> Handler:
            if verb in self._handlers and self._handlers[verb] is not handler:
                raise ValueError(f"verb {self.prefix}:{verb!r} registered twice")
            self._handlers[verb] = handler
            return handler

        return register

    def then(self, hook: AfterClick) -> None:
        """Run `hook(interaction, game_id)` after every handled click, answered or refused
        (the recap of a returning member, `bot.tables.recap`)."""
        if hook not in self._after:
            self._after.append(hook)

    def elsewhere(self, hook: Elsewhere) -> None:
        """Ask `hook(interaction, game_id)` before every click: when it answers True, the click
        was handed to another process, which plays and answers it."""
        if hook not in self._elsewhere:
            self._elsewhere.append(hook)

    def handlers(self) -> Mapping[str, Handler]:
        """The handlers registered so far, by verb (documented in `bot.tables.verbs`)."""
        return dict(self._handlers)

    def custom_id(self, verb: str, game_id: int, *args: object) -> str:
        text = ":".join([self.prefix, verb, str(game_id), *map(str, args)])
        if len(text) > 100:
            raise ValueError(f"custom id too long: {text!r}")
        return text

    async def dispatch(self, interaction: discord.Interaction, custom: str, *extra: Any) -> None:
        """Run the verb's handler; every refusal or failure becomes a private answer."""
        _, verb, gid, *args = custom.split(":")
        handler = self._handlers.get(verb)
        if handler is None:
            await refuse(interaction, "error.stale_button")
            return
        for elsewhere in self._elsewhere:
            if await elsewhere(interaction, int(gid)):
                return
        try:
            await handler(interaction, int(gid), CustomIdArgs(args), *extra)
        except ForgedCustomId as exc:
            log.warning("ignored a malformed custom id %r", custom)
            await explain_error(interaction, exc, int(gid))
        except Exception as exc:
            await explain_error(interaction, exc, int(gid))
        for hook in self._after:
            await hook(interaction, int(gid))


BUTTONS = Verbs(PREFIX)
handles = BUTTONS.handles
custom_id = BUTTONS.custom_id


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"g:(?P<verb>[a-z_]+):(?P<gid>[0-9]{1,20})(?P<args>(?::[^:]*)*)",
):
    """A button whose custom id says what it does at which table."""

    def __init__(self, button: discord.ui.Button[discord.ui.View]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: object, /
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await BUTTONS.dispatch(interaction, self.custom_id)


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


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A persistent view holding `items` (built in async code, see TESTING.md)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
