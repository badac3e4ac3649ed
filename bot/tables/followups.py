"""A click's public follow-ups, posted and edited without reading Discord's answer back.

`Webhook.send` (an interaction's follow-ups always wait for the new message) and
`Webhook.edit_message` build a whole discord.py `Message` from Discord's answer: its author, its
components, its embeds. A table keeps only the new message's id (to edit or delete it later),
and nothing of an edited one; building the rest was a good part of what a play cost the bot.
These two make the same request as discord.py (the same parameters, through its webhook adapter,
with its retries and rate-limit buckets) and keep only the id.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import MultipartParameters, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context


async def post(webhook: discord.Webhook, **fields: Any) -> int:
    """`webhook.send(wait=True, **fields).id`, without building the message."""
    view = fields.pop("view", MISSING)
    previous = getattr(webhook._state, "allowed_mentions", None)
    with handle_message_parameters(
        view=view, previous_allowed_mentions=previous, **_given(fields)
    ) as params:
        data: Any = await async_context.get().execute_webhook(
            webhook.id,
            _token(webhook),
            wait=True,
            with_components=view is not MISSING,
            **_sent(webhook, params),
        )
    message_id = int(data["id"])
    _listen(webhook, view, message_id)
    return message_id


async def edit(webhook: discord.Webhook, message_id: int, **fields: Any) -> None:
    """`webhook.edit_message(message_id, **fields)`, without building the edited message."""
    view = fields.pop("view", MISSING)
    previous = getattr(webhook._state, "allowed_mentions", None)
    with handle_message_parameters(
        view=view, previous_allowed_mentions=previous, **_given(fields)
    ) as params:
        await async_context.get().edit_webhook_message(
            webhook.id,
            _token(webhook),
            message_id,
            with_components=bool(view),
            **_sent(webhook, params),
        )
    _listen(webhook, view, message_id)


def _given(fields: dict[str, Any]) -> dict[str, Any]:
    """discord.py's convention: a content of None is no content."""
    return {k: v for k, v in fields.items() if not (k == "content" and v is None)}


def _sent(webhook: discord.Webhook, params: MultipartParameters) -> dict[str, Any]:
    """The session and the message's parameters, as discord.py's own calls pass them."""
    return {
        "session": webhook.session,
        "proxy": webhook.proxy,
        "proxy_auth": webhook.proxy_auth,
        "payload": params.payload,
        "multipart": params.multipart,
        "files": params.files,
    }


def _token(webhook: discord.Webhook) -> str:
    if webhook.token is None:
        raise ValueError("a follow-up needs the interaction's token")
    return webhook.token


def _listen(webhook: discord.Webhook, view: Any, message_id: int) -> None:
    """As discord.py does: a view with items to dispatch (a dynamic item's pattern) is stored."""
    if view and not view.is_finished() and view.is_dispatchable():
        webhook._state.store_view(view, message_id)
