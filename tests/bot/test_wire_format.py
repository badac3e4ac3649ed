"""The ids discord.py would send as numbers go as snowflake strings (Discord's published schema),
and the fake Discord notices a number where a snowflake string belongs."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord.http import HTTPClient
from fakediscord.snowflakes import number_snowflakes

from bot.wire_format import use_string_snowflakes


def test_mentions_uploads_and_dm_recipients_are_strings() -> None:
    use_string_snowflakes()
    use_string_snowflakes()  # twice: no double wrapping
    mentions = discord.AllowedMentions(
        users=[discord.Object(42)], roles=[discord.Object(7)], everyone=False, replied_user=False
    )
    assert mentions.to_dict() == {"users": ["42"], "roles": ["7"], "parse": []}
    picture = discord.File(io.BytesIO(b"png"), filename="field.png", description="the field")
    assert picture.to_dict(0) == {"id": "0", "filename": "field.png", "description": "the field"}
    sent: list[Any] = []

    class Recording(HTTPClient):
        def request(self, route: Any, **kwargs: Any) -> Any:
            sent.append(kwargs["json"])

    Recording.start_private_message(Recording.__new__(Recording), 99)
    assert sent == [{"recipient_id": "99"}]
    body = {"content": "hi", "allowed_mentions": mentions.to_dict(), "attachments": [{"id": "0"}]}
    assert number_snowflakes(body) == []
    assert number_snowflakes({"type": 4, "data": body}) == []


def test_the_fake_notices_numbers_where_snowflakes_belong() -> None:
    body = {
        "allowed_mentions": {"users": [42], "parse": []},
        "attachments": [{"id": 0, "filename": "a.png"}],
        "message_reference": {"message_id": 5},
    }
    assert number_snowflakes(body) == [
        "allowed_mentions.users: 42",
        "attachments[].id: 0",
        "message_reference.message_id: 5",
    ]
    assert number_snowflakes({"type": 4, "data": body})[0] == "data.allowed_mentions.users: 42"
    assert number_snowflakes({"recipient_id": 3}) == ["recipient_id: 3"]
