"""Clicks on the tables' own buttons and menus go straight to their handlers.

For a `DynamicItem` discord.py rebuilds the whole view of the clicked message from its
components (`View.from_message`: every text, button and row of a table message), finds the
clicked item in it and swaps in the dynamic item, on every click, before calling it. Our
buttons and menus read nothing of that view: their meaning is the custom id (and a select's
values, in the interaction's data). So a click whose custom id is one of ours is handed to its
verb's handler at once (`Verbs.dispatch`, which answers every refusal itself); any other
(the standings' buttons, a custom id of no known shape) takes discord.py's own way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import discord
from discord.ui.view import BaseView

from bot.tables.buttons import BUTTONS, TableButton
from bot.tables.selects import SELECTS, TableSelect, chosen_values

log = logging.getLogger(__name__)

BUTTON: Final = discord.ComponentType.button.value
SELECT: Final = discord.ComponentType.string_select.value
Dispatch = Callable[[int, str, discord.Interaction], None]
V = TypeVar("V", bound=BaseView)


def route_directly(client: discord.Client) -> None:
    """Hand the clicks on our buttons and menus to their handlers without discord.py's view
    rebuilding (see the module docstring); call once, after `add_dynamic_items`."""
    store: Any = client._connection._view_store
    store.dispatch_dynamic_items = _direct(store.dispatch_dynamic_items, store.add_task)


def _direct(by_discord: Dispatch, add_task: Callable[[asyncio.Task[None]], None]) -> Dispatch:
    buttons = TableButton.__discord_ui_compiled_template__
    selects = TableSelect.__discord_ui_compiled_template__

    def dispatch(component_type: int, custom_id: str, interaction: discord.Interaction) -> None:
        handling: Awaitable[None] | None = None
        if interaction.message is None:
            pass  # discord.py drops such a click: so do we, the same way
        elif component_type == BUTTON and buttons.fullmatch(custom_id):
            handling = BUTTONS.dispatch(interaction, custom_id)
        elif component_type == SELECT and selects.fullmatch(custom_id):
            handling = SELECTS.dispatch(interaction, custom_id, chosen_values(interaction))
        if handling is None:
            by_discord(component_type, custom_id, interaction)
            return
        add_task(asyncio.create_task(_logged(handling, custom_id), name=f"click {custom_id}"))

    return dispatch


def unheld(view: V) -> V:
    """`view`, to be sent as a private answer, marked as needing nothing of discord.py's view
    store when every control in it is a dynamic item (ours, dispatched by custom id).

    discord.py gives a view sent in an ephemeral answer a 15-minute timeout and keeps it, with
    a task waiting out that timeout, for the 15 minutes: every "Your hand" of every member, a
    third of all clicks (about 27,000 views and tasks alive at 200 tables). A stopped view is
    sent all the same and kept by nobody; its buttons work by their custom ids."""
    if all(_dispatched_by_id(item) for item in view.walk_children()):
        view.stop()
    return view


def _dispatched_by_id(item: discord.ui.Item[Any]) -> bool:
    if isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable():
        return True
    return isinstance(getattr(item, "_parent", None), discord.ui.DynamicItem)


async def _logged(handling: Awaitable[None], custom_id: str) -> None:
    """As discord.py does for a dynamic item's callback: what escapes is logged, not lost."""
    try:
        await handling
    except Exception:
        log.exception("Ignoring exception in the click on %r", custom_id)
