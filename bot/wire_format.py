"""Snowflakes sent as strings, as Discord's published API schema types them.

Discord's OpenAPI document gives every id the `snowflake` type: a string of digits. discord.py
2.x sends a few as JSON numbers: the users and roles an `AllowedMentions` names (every turn
ping), the recipient of a new DM channel (hands by DM), and the index of an uploaded file in a
message's `attachments` (the Rights of Losers field picture). Discord accepts both today; a
client checked against the published schema must send strings, so the bot does, from its
start (`use_string_snowflakes`, idempotent). The fake Discord records any number it still gets
there (`tests/fakediscord/snowflakes.py`).
"""

from __future__ import annotations

import functools
from typing import Any

import discord
from discord.http import HTTPClient

_APPLIED = "_string_snowflakes_applied"


def use_string_snowflakes() -> None:
    if getattr(discord.AllowedMentions, _APPLIED, False):
        return
    mentions_to_dict = discord.AllowedMentions.to_dict
    file_to_dict = discord.File.to_dict
    start_dm = HTTPClient.start_private_message

    @functools.wraps(mentions_to_dict)
    def mentions(self: discord.AllowedMentions) -> Any:
        data: Any = mentions_to_dict(self)
        for key in ("users", "roles"):
            if key in data:
                data[key] = [str(snowflake) for snowflake in data[key]]
        return data

    @functools.wraps(file_to_dict)
    def upload(self: discord.File, index: int) -> Any:
        data: Any = file_to_dict(self, index)
        data["id"] = str(data["id"])
        return data

    @functools.wraps(start_dm)
    def dm_channel(self: HTTPClient, user_id: Any) -> Any:
        return start_dm(self, str(user_id))

    discord.AllowedMentions.to_dict = mentions  # type: ignore[method-assign]
    discord.File.to_dict = upload  # type: ignore[method-assign]
    HTTPClient.start_private_message = dm_channel  # type: ignore[method-assign]
    setattr(discord.AllowedMentions, _APPLIED, True)
