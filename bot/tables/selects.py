"""One restart-proof select menu type for every table: `s:<verb>:<game id>[:arg...]` custom ids.

The select-menu twin of `bot.tables.buttons`: a game registers a handler per verb with
`@handles(verb)`; the handler gets the interaction, the game id, the arguments of the custom id
and the values the user chose. The meaning lives in the custom id (discord.py `DynamicItem`), so
menus keep working after a restart, and the values are checked by the handler against what the
table says now, never trusted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.tables.buttons import Verbs

PREFIX = "s"
MAX_OPTIONS = 25  # Discord: options in one select menu
OPTION_TEXT = 100  # Discord: characters of an option's label or description
PLACEHOLDER = 150  # Discord: characters of a select's placeholder
SELECTS = Verbs(PREFIX)
handles = SELECTS.handles
custom_id = SELECTS.custom_id


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values the user chose, as Discord sent them."""
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return [str(v) for v in values]


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"s:(?P<verb>[a-z_]+):(?P<gid>[0-9]{1,20})(?P<args>(?::[^:]*)*)",
):
    """A string select whose custom id says what it does at which table."""

    def __init__(self, select: discord.ui.Select[discord.ui.View]) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: object, /
    ) -> TableSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await SELECTS.dispatch(interaction, self.custom_id, chosen_values(interaction))


def clip(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: whole, or cut at the last word boundary that keeps
    most of it, with "…" saying something was left out (Japanese has no spaces: cut anywhere)."""
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    boundary = kept.rstrip().rfind(" ")
    if boundary >= limit // 2:
        kept = kept[:boundary]
    return kept.rstrip(" ,;:·-—") + "…"


def option(
    label: str, value: str, description: str | None = None, emoji: str | None = None
) -> discord.SelectOption:
    """A select option, its texts shortened to Discord's 100 characters (see `clip`)."""
    return discord.SelectOption(
        label=clip(label, OPTION_TEXT),
        value=value,
        description=clip(description, OPTION_TEXT) if description else None,
        emoji=emoji,
    )


def select(
    verb: str,
    game_id: int,
    *args: object,
    options: Iterable[discord.SelectOption],
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    disabled: bool = False,
    row: int | None = None,
) -> TableSelect:
    """A persistent select menu of at most 25 options (ValueError beyond)."""
    chosen = list(options)
    if not 1 <= len(chosen) <= MAX_OPTIONS:
        raise ValueError(f"a select menu holds 1 to {MAX_OPTIONS} options, not {len(chosen)}")
    return TableSelect(
        discord.ui.Select(
            custom_id=custom_id(verb, game_id, *args),
            options=chosen,
            placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
            min_values=min_values,
            max_values=max_values,
            disabled=disabled,
            row=row,
        )
    )
