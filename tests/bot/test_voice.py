"""Which way a table speaks (`bot.tables.voice`): through the click that caused the change while
its token lives and once it is answered, else through the bot token; a refused token falls back
to the bot token and is not tried again."""

from __future__ import annotations

import asyncio
from itertools import count
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.runtime.memory import Memory
from bot.tables import voice
from bot.tables.voice import Voice

HOME = 5
IDS = count(100)


class Calls(list[tuple[str, Any]]):
    def message(self, what: str, message_id: int | None = None) -> SimpleNamespace:
        self.append((what, message_id))
        return SimpleNamespace(id=next(IDS))


class Channel:
    """The bot token's side: `calls` says what went through it."""

    id = HOME

    def __init__(self) -> None:
        self.calls = Calls()

    async def send(self, **kwargs: Any) -> SimpleNamespace:
        return self.calls.message("post")

    def get_partial_message(self, message_id: int) -> SimpleNamespace:
        async def edit(**kwargs: Any) -> None:
            self.calls.message("edit", message_id)

        async def delete() -> None:
            self.calls.message("delete", message_id)

        return SimpleNamespace(edit=edit, delete=delete)


class Interaction:
    """A click's token: its follow-ups and its original response."""

    def __init__(self, channel_id: int = HOME, on: int | None = None, refuse: bool = False):
        self.channel_id = channel_id
        flags = SimpleNamespace(ephemeral=False)
        self.message = None if on is None else SimpleNamespace(id=on, flags=flags)
        self.calls = Calls()
        self.refuse = refuse
        self.followup = SimpleNamespace(
            send=self._send, edit_message=self._edit, delete_message=self._delete
        )
        self.response = SimpleNamespace(is_done=lambda: True)

    def _check(self) -> None:
        if self.refuse:  # as Discord answers a token past its 15 minutes
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {
                "code": 10015, "message": "Unknown Webhook"})  # fmt: skip

    async def _send(self, wait: bool, **kwargs: Any) -> SimpleNamespace:
        assert wait  # its id is needed to edit it later
        self._check()
        return self.calls.message("follow-up")

    async def _edit(self, message_id: int, **kwargs: Any) -> None:
        self._check()
        self.calls.message("edit follow-up", message_id)

    async def _delete(self, message_id: int) -> None:
        self._check()
        self.calls.message("delete follow-up", message_id)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self._check()
        self.calls.message("edit original")


@pytest.fixture(autouse=True)
def follow_ups_reach_the_fake(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bot.tables.followups` speaks to discord.py's webhook adapter; here, to the fake token."""

    async def post(webhook: Any, **kwargs: Any) -> int:
        return int((await webhook.send(wait=True, **kwargs)).id)

    async def edit(webhook: Any, message_id: int, **kwargs: Any) -> None:
        await webhook.edit_message(message_id, **kwargs)

    monkeypatch.setattr(voice.followups, "post", post)
    monkeypatch.setattr(voice.followups, "edit", edit)


def a_table() -> SimpleNamespace:
    return SimpleNamespace(game_id=1, place=SimpleNamespace(home=HOME), memory=Memory())


def clicked(table: SimpleNamespace, interaction: Interaction) -> voice.Click:
    click = voice.heard(table, interaction)  # type: ignore[arg-type]
    assert click is not None
    click.settle(True)
    return click


async def test_a_click_carries_what_it_causes_and_its_token_edits_what_it_posted():
    table, channel, click = a_table(), Channel(), Interaction()
    clicked(table, click)
    speaking = Voice(table, channel)  # type: ignore[arg-type]
    table_id = await speaking.send(kept=True, view=None)
    await speaking.edit(table_id, view=None)
    await speaking.delete(table_id)
    assert [what for what, _ in click.calls] == ["follow-up", "edit follow-up", "delete follow-up"]
    assert channel.calls == []


async def test_a_later_click_edits_an_earlier_clicks_message_through_the_earlier_token():
    table, channel = a_table(), Channel()
    first, second = Interaction(), Interaction()
    clicked(table, first)
    speaking = Voice(table, channel)  # type: ignore[arg-type]
    table_id = await speaking.send(kept=True, view=None)
    clicked(table, second)
    await speaking.edit(table_id, view=None)
    await speaking.send(content="Your turn")
    assert [what for what, _ in first.calls] == ["follow-up", "edit follow-up"]
    assert [what for what, _ in second.calls] == ["follow-up"]
    assert channel.calls == []


async def test_the_message_clicked_on_is_edited_through_the_clicks_original_response():
    table, channel, click = a_table(), Channel(), Interaction(on=42)
    clicked(table, click)
    await Voice(table, channel).edit(42, view=None)  # type: ignore[arg-type]
    await Voice(table, channel).edit(43, view=None)  # type: ignore[arg-type]
    assert [what for what, _ in click.calls] == ["edit original"]
    assert channel.calls == [("edit", 43)]


@pytest.mark.parametrize(
    "why", ["no click", "another channel", "token expired", "answer failed"]
)  # fmt: skip
async def test_without_a_live_answered_click_in_the_channel_the_bot_token_speaks(why):
    table, channel = a_table(), Channel()
    click = Interaction(channel_id=HOME + 1 if why == "another channel" else HOME)
    kept = None if why == "no click" else voice.heard(table, click)  # type: ignore[arg-type]
    if kept is not None:
        kept.settle(why != "answer failed")
        if why == "token expired":
            kept.until = asyncio.get_running_loop().time() - 1
    await Voice(table, channel).send(content="Your turn")  # type: ignore[arg-type]
    assert click.calls == []
    assert channel.calls == [("post", None)]


async def test_a_refused_token_falls_back_to_the_bot_token_and_is_not_tried_again():
    table, channel, click = a_table(), Channel(), Interaction()
    clicked(table, click)
    speaking = Voice(table, channel)  # type: ignore[arg-type]
    click.refuse = True
    first = await speaking.send(kept=True, content="a")
    await speaking.send(content="b")
    await speaking.edit(first, content="c")
    assert [what for what, _ in channel.calls] == ["post", "post", "edit"]
    assert click.calls == []  # refused once, then left alone


async def test_a_follow_up_waits_for_its_clicks_answer():
    table, channel, click = a_table(), Channel(), Interaction()
    kept = voice.heard(table, click)  # type: ignore[arg-type]
    assert kept is not None
    posting = asyncio.ensure_future(Voice(table, channel).send(content="x"))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    assert not posting.done() and click.calls == []  # Discord takes no follow-up before
    kept.settle(True)
    await posting
    assert [what for what, _ in click.calls] == ["follow-up"]
