"""Edits of one message, paced (`bot.tables.edit_pacing`): at most one a second, the last state
always shown, and a message's final edit never followed by one asked for before it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.tables.edit_pacing import EditPacer
from bot.tables.messages import Messages


class _Message:
    def __init__(self) -> None:
        self.shown: list[str] = []
        self.at: list[float] = []

    def edit(self, state: str):
        async def send() -> None:
            self.at.append(asyncio.get_running_loop().time())
            await asyncio.sleep(0.01)  # the request's round trip
            self.shown.append(state)

        return send


async def test_edits_within_the_interval_collapse_into_the_last():
    pacer, message = EditPacer(interval=0.2), _Message()
    for state in "abcde":
        await pacer.edit(1, message.edit(state))
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.35)
    assert message.shown == ["a", "e"]
    assert message.at[1] - message.at[0] >= 0.2 - 0.005
    assert pacer.skipped == 3


async def test_an_edit_asked_while_the_kept_one_is_sent_is_not_lost():
    pacer, message = EditPacer(interval=0.1), _Message()
    await pacer.edit(1, message.edit("a"))
    await pacer.edit(1, message.edit("b"))
    await asyncio.sleep(0.105)  # "b" is on its way
    await pacer.edit(1, message.edit("c"))
    await asyncio.sleep(0.3)
    assert message.shown == ["a", "b", "c"]


async def test_the_final_edit_drops_what_was_kept_and_comes_last():
    pacer, message = EditPacer(interval=0.2), _Message()
    await pacer.edit(1, message.edit("play 1"))
    await pacer.edit(1, message.edit("play 2"))  # kept
    await pacer.final(1, message.edit("closed"))
    await asyncio.sleep(0.3)
    assert message.shown == ["play 1", "closed"]
    assert message.at[1] - message.at[0] >= 0.2 - 0.005  # paced too


async def test_the_final_edit_waits_for_an_edit_under_way():
    pacer, message = EditPacer(interval=0.05), _Message()
    await pacer.edit(1, message.edit("a"))
    await pacer.edit(1, message.edit("b"))
    await asyncio.sleep(0.055)  # "b" is being sent
    await pacer.final(1, message.edit("closed"))
    await asyncio.sleep(0.1)
    assert message.shown[-1] == "closed"


async def test_messages_are_paced_apart_and_forgotten_when_idle():
    pacer, one, two = EditPacer(interval=0.05), _Message(), _Message()
    await pacer.edit(1, one.edit("a"))
    await pacer.edit(2, two.edit("a"))  # another message: not held back
    assert one.shown == two.shown == ["a"]
    await asyncio.sleep(0.15)
    assert not pacer._messages


async def test_an_unpaced_final_edit_goes_at_once_after_the_edit_under_way():
    pacer, message = EditPacer(interval=1.0), _Message()
    await pacer.edit(1, message.edit("joined"))
    await pacer.edit(1, message.edit("joined again"))  # kept for a second
    await pacer.final(1, message.edit("started"), paced=False)
    assert message.shown == ["joined", "started"]  # at once, what was kept dropped
    await asyncio.sleep(0.05)
    assert message.shown == ["joined", "started"]


def test_a_games_messages_are_paced_as_the_bots_settings_say():
    bot = SimpleNamespace(settings=SimpleNamespace(edit_pace_seconds=0.05))
    assert Messages(bot).pacer.interval == 0.05  # type: ignore[arg-type]
