"""A click's own answer, sent without asking Discord for the answer back.

discord.py sends every interaction response with `?with_response=1` and builds, from what
Discord returns, an `InteractionCallbackResponse` and an `InteractionMessage` of the answered
message (its author, its components, every text of the layout): for a private menu replaced on
each click, a good part of what the click cost the bot, and nobody reads it. These make the
same request as `interaction.response.edit_message` / `send_message` / `defer` (the same
parameters, through discord.py's webhook adapter, with its retries and rate-limit buckets)
without that query, so Discord answers 204 with no body, and keep discord.py's bookkeeping: the
interaction counts as answered (`response.is_done()`), a view with controls to dispatch is
stored as discord.py would.

A view that discord.py would key by the new message's id (an ephemeral answer's view still
listening) cannot be stored without that id: such answers take discord.py's own way.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.enums import InteractionResponseType, InteractionType
from discord.errors import InteractionResponded
from discord.http import MultipartParameters, Route
from discord.interactions import InteractionResponse
from discord.webhook.async_ import (
    async_context,
    interaction_message_response_params,
    interaction_response_params,
)

_ANSWERS_A_MESSAGE = (InteractionType.component, InteractionType.modal_submit)


async def update_message(interaction: discord.Interaction, **fields: Any) -> None:
    """`interaction.response.edit_message(**fields)`, without reading Discord's answer."""
    response = _discords(interaction)
    if response is None:
        await interaction.response.edit_message(**fields)
        return
    if response.is_done():
        raise InteractionResponded(interaction)
    if interaction.type not in _ANSWERS_A_MESSAGE:
        return  # as discord.py: only a click or a form answers by editing its message
    message_id = interaction.message.id if interaction.message is not None else None
    state = interaction._state
    view = fields.get("view", discord.utils.MISSING)
    if view is not discord.utils.MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    await _answer(interaction, params)
    response._response_type = InteractionResponseType.message_update
    if view and not view.is_finished() and view.is_dispatchable() and message_id is not None:
        state.store_view(view, message_id)


async def send_private(interaction: discord.Interaction, **fields: Any) -> None:
    """`interaction.response.send_message(ephemeral=True, **fields)` without reading Discord's
    answer, for a view listening for nothing (`direct_clicks.unheld`) or none (a view still
    listening takes discord.py's way: it is stored by the new message's id)."""
    view, response = fields.get("view"), _discords(interaction)
    listening = view is not None and not view.is_finished()  # stored by the new message's id
    if listening or response is None:
        await interaction.response.send_message(ephemeral=True, **fields)
        return
    if response.is_done():
        raise InteractionResponded(interaction)
    flags = discord.MessageFlags._from_value(0)
    flags.ephemeral = True
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value,
        previous_allowed_mentions=interaction._state.allowed_mentions,
        flags=flags,
        **fields,
    )
    await _answer(interaction, params)
    response._response_type = InteractionResponseType.channel_message


async def defer_update(interaction: discord.Interaction) -> None:
    """`interaction.response.defer()` for a click (its message to be edited through the click's
    token, `bot.tables.voice`), without reading Discord's answer: the clicked message, whole."""
    response = _discords(interaction)
    if response is None or interaction.type is not InteractionType.component:
        await interaction.response.defer()
        return
    if response.is_done():
        raise InteractionResponded(interaction)
    kind = InteractionResponseType.deferred_message_update
    await _answer(interaction, interaction_response_params(type=kind.value))
    response._response_type = kind


def _discords(interaction: discord.Interaction) -> InteractionResponse[Any] | None:
    """discord.py's own response, or None for any other (the unit tests' fakes; a forwarded
    click's `bot.forwarding.AfterDefer`, which answers through the token), asked as discord.py
    would be."""
    response: object = interaction.response
    return response if type(response) is InteractionResponse else None


async def _answer(interaction: discord.Interaction, params: MultipartParameters) -> None:
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files or None,
    )
