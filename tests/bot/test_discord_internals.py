"""The discord.py internals the bot leans on still exist, with the parameters it passes.

`bot/tables/responses.py`, `bot/tables/followups.py` and `bot/wire_format.py` call discord.py
below its public API (private attributes, its webhook adapter, its request helpers) to skip
work discord.py would do for nothing. Those are free to change in any release: pyproject pins
the minor series they were checked against. These checks read the real modules (no stand-ins),
so that a discord.py whose internals moved fails here, by name, before any click does.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import discord
import pytest

_RECHECK = (
    "discord.py {version} no longer has {what}, which {user} relies on. Re-check "
    "bot/tables/responses.py, bot/tables/followups.py and bot/wire_format.py against this "
    "version before widening the discord.py pin in pyproject.toml."
)

# (module, dotted attribute, the bot's module that uses it)
_ATTRIBUTES = [
    ("discord.enums", "InteractionResponseType.message_update", "responses"),
    ("discord.enums", "InteractionResponseType.channel_message", "responses"),
    ("discord.enums", "InteractionResponseType.deferred_message_update", "responses"),
    ("discord.enums", "InteractionType.component", "responses"),
    ("discord.enums", "InteractionType.modal_submit", "responses"),
    ("discord.errors", "InteractionResponded", "responses"),
    ("discord.http", "MultipartParameters", "responses, followups"),
    ("discord.http", "Route", "responses"),
    ("discord.http", "handle_message_parameters", "followups"),
    ("discord.http", "HTTPClient.start_private_message", "wire_format"),
    ("discord.interactions", "InteractionResponse.is_done", "responses"),
    ("discord.interactions", "Interaction.response", "responses"),
    ("discord.webhook.async_", "async_context", "responses, followups"),
    ("discord.webhook.async_", "AsyncWebhookAdapter.request", "responses"),
    ("discord.webhook.async_", "AsyncWebhookAdapter.execute_webhook", "followups"),
    ("discord.webhook.async_", "AsyncWebhookAdapter.edit_webhook_message", "followups"),
    ("discord.webhook.async_", "interaction_message_response_params", "responses"),
    ("discord.webhook.async_", "interaction_response_params", "responses"),
    ("discord.state", "ConnectionState.prevent_view_updates_for", "responses"),
    ("discord.state", "ConnectionState.store_view", "responses, followups"),
    ("discord", "MessageFlags._from_value", "responses"),
    ("discord", "AllowedMentions.to_dict", "wire_format"),
    ("discord", "File.to_dict", "wire_format"),
    ("discord.ui", "View.is_finished", "responses, followups"),
    ("discord.ui", "View.is_dispatchable", "responses, followups"),
]

# Instance attributes declared in a class's __slots__ (set in __init__, so not on the class).
_SLOTS = [
    ("discord.interactions", "InteractionResponse", "_response_type", "responses"),
    ("discord.interactions", "Interaction", "_state", "responses"),
    ("discord.interactions", "Interaction", "_session", "responses"),
    ("discord.webhook.async_", "Webhook", "_state", "followups"),
    ("discord.webhook.async_", "Webhook", "session", "followups"),
    ("discord.webhook.async_", "Webhook", "proxy", "followups"),
    ("discord.webhook.async_", "Webhook", "proxy_auth", "followups"),
]

# Keyword parameters the bot passes (a renamed one would fail only when the call is made).
_PARAMETERS = [
    (
        "discord.webhook.async_",
        "AsyncWebhookAdapter.request",
        {"session", "proxy", "proxy_auth", "payload", "multipart", "files"},
        "responses",
    ),
    (
        "discord.webhook.async_",
        "AsyncWebhookAdapter.execute_webhook",
        {"wait", "with_components", "session", "proxy", "proxy_auth", "payload", "multipart"},
        "followups",
    ),
    (
        "discord.webhook.async_",
        "AsyncWebhookAdapter.edit_webhook_message",
        {"with_components", "session", "proxy", "proxy_auth", "payload", "multipart", "files"},
        "followups",
    ),
    (
        "discord.webhook.async_",
        "interaction_message_response_params",
        {"type", "previous_allowed_mentions", "flags", "content", "view", "files"},
        "responses",
    ),
    ("discord.webhook.async_", "interaction_response_params", {"type"}, "responses"),
    (
        "discord.http",
        "handle_message_parameters",
        {"view", "previous_allowed_mentions", "content", "allowed_mentions", "files"},
        "followups",
    ),
    ("discord.http", "HTTPClient.start_private_message", {"user_id"}, "wire_format"),
    ("discord", "File.to_dict", {"index"}, "wire_format"),
]


_PATHS = {
    "responses": "bot/tables/responses.py",
    "followups": "bot/tables/followups.py",
    "wire_format": "bot/wire_format.py",
}


def _failure(what: str, users: str) -> str:
    paths = " and ".join(_PATHS[user] for user in users.split(", "))
    return _RECHECK.format(version=discord.__version__, what=what, user=paths)


def _resolve(module_name: str, dotted: str, user: str) -> Any:
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError:
        pytest.fail(_failure(f"the module {module_name}", user))
    for name in dotted.split("."):
        if not hasattr(found, name):
            pytest.fail(_failure(f"{module_name}.{dotted}", user))
        found = getattr(found, name)
    return found


@pytest.mark.parametrize(("module", "dotted", "user"), _ATTRIBUTES)
def test_attribute_exists(module: str, dotted: str, user: str) -> None:
    _resolve(module, dotted, user)


@pytest.mark.parametrize(("module", "cls", "slot", "user"), _SLOTS)
def test_instance_attribute_declared(module: str, cls: str, slot: str, user: str) -> None:
    klass = _resolve(module, cls, user)
    declared = {name for base in klass.__mro__ for name in getattr(base, "__slots__", ())}
    if slot not in declared:
        pytest.fail(_failure(f"the instance attribute {module}.{cls}.{slot}", user))


@pytest.mark.parametrize(("module", "dotted", "names", "user"), _PARAMETERS)
def test_parameters_accepted(module: str, dotted: str, names: set[str], user: str) -> None:
    accepted = set(inspect.signature(_resolve(module, dotted, user)).parameters)
    missing = sorted(names - accepted)
    if missing:
        pytest.fail(_failure(f"the parameters {missing} of {module}.{dotted}", user))


def test_multipart_parameters_fields() -> None:
    from discord.http import MultipartParameters

    missing = {"payload", "multipart", "files"} - set(MultipartParameters._fields)
    if missing:
        pytest.fail(_failure(f"the fields {sorted(missing)} of MultipartParameters", "responses"))


def test_webhook_adapter_is_the_context_default() -> None:
    from discord.webhook.async_ import AsyncWebhookAdapter, async_context

    if not isinstance(async_context.get(), AsyncWebhookAdapter):
        pytest.fail(_failure("an AsyncWebhookAdapter as async_context's value", "followups"))


def test_client_state_attributes() -> None:
    """A client built (never logged in) has the state and HTTP attributes the answers read."""
    client = discord.Client(intents=discord.Intents.none())
    state, http = client._connection, client.http
    for owner, name in ((state, "allowed_mentions"), (state, "http")):
        if not hasattr(owner, name):
            pytest.fail(_failure(f"ConnectionState.{name}", "responses"))
    for name in ("proxy", "proxy_auth"):
        if not hasattr(http, name):
            pytest.fail(_failure(f"HTTPClient.{name}", "responses"))
