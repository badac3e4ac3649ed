"""Ids the bot sends as JSON numbers where Discord's published API schema has snowflake strings.

Discord itself accepts both; its OpenAPI document does not, and a client checked against it
fails. The fake records each one (`FakeState.schema_problems`); the end-to-end tests fail on any
(tests/e2e/conftest.py). The places checked are the ones where discord.py sends numbers unless
told otherwise (`bot/wire_format.py`) and the references a message can carry."""

from __future__ import annotations

from typing import Any


def number_snowflakes(body: Any) -> list[str]:
    """Where `body` (a request's JSON, or a multipart request's payload_json) holds a number for
    an id."""
    if not isinstance(body, dict):
        return []
    found: list[str] = []
    inner = body.get("data") if isinstance(body.get("data"), dict) else None  # a callback
    for where, payload in (("", body), ("data.", inner)):
        if payload is None:
            continue
        mentions = payload.get("allowed_mentions")
        if isinstance(mentions, dict):
            for key in ("users", "roles"):
                for value in mentions.get(key) or []:
                    if not isinstance(value, str):
                        found.append(f"{where}allowed_mentions.{key}: {value!r}")
        for item in payload.get("attachments") or []:
            if isinstance(item, dict) and not isinstance(item.get("id"), str):
                found.append(f"{where}attachments[].id: {item.get('id')!r}")
        reference = payload.get("message_reference")
        if isinstance(reference, dict):
            for key in ("message_id", "channel_id", "guild_id"):
                if key in reference and not isinstance(reference[key], str | None):
                    found.append(f"{where}message_reference.{key}: {reference[key]!r}")
    if "recipient_id" in body and not isinstance(body["recipient_id"], str):
        found.append(f"recipient_id: {body['recipient_id']!r}")
    return found
