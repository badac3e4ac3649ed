"""A click's private answer goes as discord.py would send it, without `with_response` (Discord
then returns nothing to parse), and the interaction counts as answered."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.tables import responses
from bot.tables.direct_clicks import unheld

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
USER = {"id": "444", "username": "ann", "discriminator": "0", "avatar": None}


def clicked(client: discord.Client) -> discord.Interaction:
    """A click on a button of a private menu, as the gateway delivers it."""
    menu = {
        "id": "555",
        "channel_id": "333",
        "type": 0,
        "content": "",
        "author": {**USER, "id": "222", "username": "bot"},
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": 64,
        "components": [],
    }
    data: Any = {
        "id": "111",
        "application_id": "222",
        "type": 3,
        "token": "the-token",
        "version": 1,
        "attachment_size_limit": 8 << 20,
        "entitlements": [],
        "authorizing_integration_owners": {},
        "app_permissions": "0",
        "channel_id": "333",
        "user": USER,
        "data": {"custom_id": "g:show:1", "component_type": 2},
        "message": menu,
    }
    return discord.Interaction(data=data, state=client._connection)


def menu() -> discord.ui.LayoutView:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("Your hand"))
    return view


@pytest.fixture
async def sent(monkeypatch: pytest.MonkeyPatch):
    """The requests discord.py's webhook adapter is asked to make: (route, keyword arguments)."""
    calls: list[tuple[discord.http.Route, dict[str, Any]]] = []
    fail: list[discord.HTTPException] = []

    async def request(route: discord.http.Route, session: Any, **kwargs: Any) -> None:
        calls.append((route, kwargs))
        if fail:
            raise fail.pop()

    monkeypatch.setattr(async_context.get(), "request", request)
    client = discord.Client(intents=discord.Intents.none())
    yield client, calls, fail
    await client.close()


async def test_a_menu_replaced_asks_nothing_back_and_counts_as_answered(sent) -> None:
    client, calls, _ = sent
    interaction = clicked(client)
    await responses.update_message(interaction, view=menu())
    [(route, kwargs)] = calls
    assert (route.method, route.path) == ("POST", CALLBACK)
    assert kwargs.get("params") is None  # no `with_response`: Discord answers 204, no body
    payload = kwargs["payload"]
    assert payload["type"] == discord.InteractionResponseType.message_update.value
    assert "Your hand" in str(payload["data"]["components"])
    assert interaction.response.is_done()
    assert interaction.response.type == discord.InteractionResponseType.message_update
    with pytest.raises(discord.InteractionResponded):
        await responses.update_message(interaction, view=menu())


async def test_a_refused_answer_leaves_the_click_unanswered(sent) -> None:
    """`hands.replace_menu` sends a fresh menu after a 400 only if nothing was answered."""
    client, calls, fail = sent
    response = type("Response", (), {"status": 400, "reason": "Bad Request"})()
    fail.append(discord.HTTPException(response, {"code": 50035, "message": "Invalid Form Body"}))
    interaction = clicked(client)
    with pytest.raises(discord.HTTPException):
        await responses.update_message(interaction, view=menu())
    assert not interaction.response.is_done()
    await responses.send_private(interaction, view=unheld(menu()))
    route, kwargs = calls[-1]
    assert route.path == CALLBACK and kwargs.get("params") is None
    payload = kwargs["payload"]
    assert payload["type"] == discord.InteractionResponseType.channel_message.value
    assert payload["data"]["flags"] & discord.MessageFlags.ephemeral.flag
    assert interaction.response.is_done()


async def test_a_lobby_click_deferred_asks_nothing_back(sent) -> None:
    client, calls, _ = sent
    interaction = clicked(client)
    await responses.defer_update(interaction)
    [(route, kwargs)] = calls
    assert route.path == CALLBACK and kwargs.get("params") is None
    assert kwargs["payload"] == {"type": 6}  # a deferred update of the clicked message
    assert interaction.response.type == discord.InteractionResponseType.deferred_message_update
    with pytest.raises(discord.InteractionResponded):
        await responses.defer_update(interaction)
