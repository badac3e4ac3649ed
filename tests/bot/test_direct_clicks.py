"""Clicks on our buttons and menus reach their handlers without discord.py's view rebuilding, and
a private answer's view is kept by nobody when its controls are all ours (issue 20)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.tables import direct_clicks
from bot.tables.buttons import BUTTONS, button, view_of
from bot.tables.selects import SELECTS


def a_store() -> SimpleNamespace:
    store = SimpleNamespace(by_discord=[], tasks=[])
    store.dispatch_dynamic_items = lambda *args: store.by_discord.append(args)
    store.add_task = store.tasks.append
    return store


async def test_our_custom_ids_go_to_their_handlers_and_others_to_discord_py(monkeypatch) -> None:
    handled: list[tuple[Any, ...]] = []

    async def dispatch(interaction: Any, custom: str, *extra: Any) -> None:
        handled.append((custom, *extra))

    monkeypatch.setattr(BUTTONS, "dispatch", dispatch)
    monkeypatch.setattr(SELECTS, "dispatch", dispatch)
    store = a_store()
    client = SimpleNamespace(_connection=SimpleNamespace(_view_store=store))
    direct_clicks.route_directly(client)  # type: ignore[arg-type]
    clicked = SimpleNamespace(message=object(), data={"values": ["2"]})
    store.dispatch_dynamic_items(2, "g:kzp:7:1.1:boss:kamiza", clicked)
    store.dispatch_dynamic_items(3, "s:pick:7", clicked)
    store.dispatch_dynamic_items(2, "lb:page:3", clicked)  # the standings' own: discord.py's way
    store.dispatch_dynamic_items(3, "g:kzp:7", clicked)  # a button's id on a select: not ours
    no_message = SimpleNamespace(message=None, data={})
    store.dispatch_dynamic_items(2, "g:kzp:7", no_message)  # discord.py drops it
    await asyncio.gather(*store.tasks)
    assert handled == [("g:kzp:7:1.1:boss:kamiza",), ("s:pick:7", ["2"])]
    assert [args[:2] for args in store.by_discord] == [
        (2, "lb:page:3"),
        (3, "g:kzp:7"),
        (2, "g:kzp:7"),
    ]


async def test_a_private_view_of_our_buttons_is_kept_by_nobody() -> None:
    ours = view_of(button("kzh", 7, label="Back"))
    assert direct_clicks.unheld(ours).is_finished()
    assert ours.to_components()  # sent all the same
    plain = discord.ui.View(timeout=None)
    plain.add_item(discord.ui.Button(label="Plain", custom_id="plain"))
    assert not direct_clicks.unheld(plain).is_finished()  # discord.py must dispatch it
