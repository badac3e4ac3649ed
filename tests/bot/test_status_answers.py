"""`/… status` never blocks the event loop nor misses Discord's 3-second deadline: a game's
status picture is drawn in a worker thread through the shared presenter, and an answer that
takes long is deferred first, then filled in (`bot.tables.replies.answer_in_time`)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.losers import render
from bot.losers.presenter import LosersPresenter
from bot.tables.replies import PrivateAnswer, answer_in_time
from tests.bot.fakes import FakeBot, FakeInteraction
from tests.bot.test_losers_presenter import make_table
from tests.bot.threads import off_the_loop, threads_running


class Deferrable(FakeInteraction):
    """Records the order of the calls that answer it, and what the answer carried."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.calls: list[str] = []
        self.carried: dict[str, Any] = {}
        response = self.response

        async def defer(**kw: Any) -> None:
            response._once()
            self.calls.append("defer" + (" ephemeral" if kw.get("ephemeral") else ""))

        async def send_message(**kw: Any) -> None:
            response._once()
            self.calls.append("send" + (" ephemeral" if kw.get("ephemeral") else ""))
            self.carried = kw

        response.defer = defer  # type: ignore[method-assign]
        response.send_message = send_message  # type: ignore[method-assign]

    async def edit_original_response(self, **kw: Any) -> None:
        self.calls.append("edit")
        self.carried = kw


async def slow_answer(seconds: float) -> PrivateAnswer:
    await asyncio.to_thread(time.sleep, seconds)  # a drawing in a worker thread
    return PrivateAnswer(discord.Embed(title="table"))


async def test_a_quick_answer_is_sent_at_once() -> None:
    asked = Deferrable(None, 1, 1)
    await answer_in_time(asked, slow_answer(0), patience=1)
    assert asked.calls == ["send ephemeral"] and asked.carried["embed"].title == "table"


async def test_a_slow_answer_is_deferred_then_filled_in_and_the_loop_stays_free() -> None:
    asked = Deferrable(None, 1, 1)
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(ticking())
    try:
        await answer_in_time(asked, slow_answer(0.4), patience=0.05)
    finally:
        ticker.cancel()
    assert asked.calls == ["defer ephemeral", "edit"]
    assert asked.carried["embed"].title == "table" and asked.carried["attachments"] == []
    assert ticks >= 10  # the loop kept running while the answer was being made


async def test_a_failed_answer_is_not_sent() -> None:
    async def broken() -> PrivateAnswer:
        raise RuntimeError("the picture could not be drawn")

    asked = Deferrable(None, 1, 1)
    with pytest.raises(RuntimeError):
        await answer_in_time(asked, broken())
    assert asked.calls == []  # the caller explains the error


async def test_losers_status_draws_its_picture_off_the_loop(monkeypatch) -> None:
    drawn_in = threads_running(monkeypatch, render, "picture")
    presenter = LosersPresenter(FakeBot())
    table = make_table(3, seed=2, presenter=presenter)
    asked = Deferrable(None, table.seats[table.state.players[0]].user_id or 0, 1)
    asked.client = SimpleNamespace(tables=None)
    await presenter.show_status(asked, table)
    assert off_the_loop(drawn_in)
    assert asked.calls == ["send ephemeral"]  # a picture takes well under the patience
    [picture] = asked.carried["files"]
    assert picture.filename == render.PICTURE
    assert asked.carried["embed"].image.url == f"attachment://{render.PICTURE}"
