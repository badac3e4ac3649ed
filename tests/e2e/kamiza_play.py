"""Scripted KAMIZA players for end-to-end tests: they read only what Discord shows them."""

from __future__ import annotations

import asyncio
import random

import table_play
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from table_play import has_button as _has
from table_play import whose_turn

HAND = "Your hand"


async def open_table(host: FakeUser, patience: float = 5.0, **options) -> tuple[Channel, Message]:
    """`/kamiza start` in #general: the thread and its lobby message."""
    return await table_play.open_table(host, "kamiza", patience=patience, **options)


def table_message(user: FakeUser, thread: Channel) -> Message | None:
    """The newest message with a "Your hand" button (newest first: cheap when many wait)."""
    for message in reversed(user.state.messages_in.get(thread.id, ())):
        if _has(message, HAND) and user.can_see(message):
            return message
    return None


def match_over(user: FakeUser, thread: Channel) -> bool:
    """The final standings have been posted (they come after the last table message)."""
    for message in reversed(user.state.messages_in.get(thread.id, ())):
        if message.ephemeral:
            continue
        if "Final standings" in message.text:
            return True
        if _has(message, HAND):
            return False
    return False


def table_version(user: FakeUser, thread: Channel) -> tuple[int, int] | None:
    table = table_message(user, thread)
    return (table.id, table.edits) if table else None


async def wait_turn(
    users: dict[int, FakeUser], thread: Channel, after: tuple | None = None, timeout: float = 10.0
) -> FakeUser | None:
    """The user whose turn the newest table message names (once it is newer than `after`),
    or None once the match is over."""
    anyone = next(iter(users.values()))

    def ready() -> FakeUser | bool | None:
        if match_over(anyone, thread):
            return True
        if after is not None and table_version(anyone, thread) == after:
            return None
        table = table_message(anyone, thread)
        return whose_turn(table, users) if table else None

    found = await anyone.state.wait_for(
        ready, timeout, "a turn or the end of the match", topic=thread.id
    )
    return None if found is True else found  # type: ignore[return-value]


async def play_turn(
    user: FakeUser, thread: Channel, rng: random.Random, rival: FakeUser | None = None
) -> str:
    """Open the hand, pick a card and an area (confirming a bluff); returns "card@area".

    With a `rival`, the play's last button is pressed twice at once while the rival opens their
    own hand on the table message at that very moment: concurrent clicks, one play."""
    table = table_message(user, thread)
    assert table is not None
    opened = await user.click(table, HAND)
    hand = opened.response
    assert hand is not None and hand.ephemeral and "Your turn" in hand.text, hand.text
    cards = [b for b in hand.buttons() if b["custom_id"].startswith("g:kzc:")]
    choice = rng.choice(cards)
    card = choice["custom_id"].split(":")[-1]
    await user.click(hand, choice["custom_id"])
    area = rng.choice(["kamiza", "shimoza"])
    target = next(
        b
        for b in hand.buttons()
        if f":{area}" in b["custom_id"]
        or (area == "shimoza" and b["custom_id"].startswith("g:kzb:"))
    )
    last = target["custom_id"]
    if last.startswith("g:kzb:"):
        await user.click(hand, last)
        assert "bluff" in hand.text.lower()
        last = next(b for b in hand.buttons() if b["custom_id"].startswith("g:kzp:"))["custom_id"]
    if rival is None:
        await user.click(hand, last)
        assert "face down" in hand.text, hand.text
    else:
        await asyncio.gather(
            user.click(hand, last), user.click(hand, last), rival.click(table, HAND)
        )
    return f"{card}@{area}"
