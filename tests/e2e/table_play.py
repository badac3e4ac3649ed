"""What every game's scripted players do alike: open a table, find a button, whatever the game."""

from __future__ import annotations

import re
from collections.abc import Mapping

from fakediscord import FakeUser
from fakediscord.state import Channel, Message

# The table message names who is to play, by display name (no mention: the ping does that).
TURN = re.compile(r"▶️ \*\*(.+?)\*\*")


def whose_turn(message: Message, users: Mapping[int, FakeUser]) -> FakeUser | None:
    """The member the table message names as the one to play (None: a computer, or nobody)."""
    found = TURN.search(message.text)
    if found is None:
        return None
    # The fake's display name of a member is their user name, title-cased (`User.payload`).
    return next((u for u in users.values() if u.name.title() == found.group(1)), None)


async def open_table(
    host: FakeUser, command: str, where: Channel | None = None, **options
) -> tuple[Channel, Message]:
    """`/<command> start` in #general (or `where`): the thread and its lobby message."""
    state = host.state
    started = await host.slash(command, "start", where=where, **options)
    announcement = started.response
    assert announcement is not None and not announcement.ephemeral, started
    thread = await state.wait_for(lambda: state.channels.get(announcement.id), 5, "the thread")
    lobby = await host.wait_for_message(lambda m: verb_button(m, "join"), channel=thread)
    return thread, lobby


def has_button(message: Message, label: str) -> bool:
    return any(b.get("label") == label for b in message.buttons())


def verb_button(message: Message, verb: str) -> str | None:
    """The custom id of the message's `g:<verb>:...` button, whatever its label's language."""
    for button in message.buttons():
        if button.get("custom_id", "").startswith(f"g:{verb}:"):
            return button["custom_id"]
    return None
