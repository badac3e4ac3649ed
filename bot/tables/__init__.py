"""Discord side of the table runtime, shared by every game: buttons, replies, messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from discord.ext.commands import Bot


async def setup(bot: Bot) -> None:
    from bot.tables import (  # noqa: F401  (register their verbs)
        delivery_buttons,
        end_buttons,
        lobby_buttons,
        reasons,
        recap,
        rules_pages,
    )
    from bot.tables.buttons import TableButton
    from bot.tables.direct_clicks import route_directly
    from bot.tables.selects import TableSelect

    bot.add_dynamic_items(TableButton, TableSelect)
    route_directly(bot)
