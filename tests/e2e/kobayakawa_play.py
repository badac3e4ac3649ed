"""Scripted Kobayakawa players for end-to-end tests: they read only what Discord shows them.

Finding the table message and whose turn it is works as for KAMIZA (`kamiza_play`); choosing
reads the private card menu: the card in it (`🎴 **9**`), the buttons offered and their labels.
Buttons are recognised by the verb of their custom id, so the same player works in Japanese.
"""

from __future__ import annotations

import random
import re

import table_play
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from kamiza_play import HAND
from table_play import has_button as _has
from table_play import whose_turn

__all__ = [
    "HAND",
    "choose",
    "menu_verbs",
    "open_hand",
    "open_table",
    "play_out",
    "play_turn",
    "table_message",
    "table_version",
    "wait_turn",
    "whose_turn",
]

CARD = re.compile(r"🎴 \*\*(\d+)\*\*")
NUMBER = re.compile(r"[(（](\d+)[)）]")
ROUND_OVER = re.compile(r"^Round \d+ is over", re.MULTILINE)  # a line of the closed round
DM_TOGGLE = "dm"  # the verb of the hand menu's "Deliver my hand by DM" (bot.tables.delivery)


async def open_table(host: FakeUser, **options) -> tuple[Channel, Message]:
    """`/kobayakawa start` in #general: the thread and its lobby message."""
    return await table_play.open_table(host, "kobayakawa", **options)


def table_message(user: FakeUser, thread: Channel) -> Message | None:
    """The newest table message: a round's table (with “Your hand”), or one whose round ended.

    (A table message from before a restart keeps its button: only the newest one counts.)
    """
    tables = [
        m
        for m in user.visible_messages(thread)
        if not m.ephemeral and (_has(m, HAND) or ROUND_OVER.search(m.text))
    ]
    return tables[-1] if tables else None


def table_version(user: FakeUser, thread: Channel) -> tuple[int, int] | None:
    table = table_message(user, thread)
    return (table.id, table.edits) if table else None


async def wait_turn(
    users: dict[int, FakeUser],
    thread: Channel,
    after: tuple[int, int] | None = None,
    timeout: float = 10.0,
) -> FakeUser | None:
    """The member whose turn the newest table message names (once it is newer than `after`),
    or None once the game is over."""
    anyone = next(iter(users.values()))

    def ready() -> FakeUser | bool | None:
        if any("Final standings" in m.text for m in anyone.visible_messages(thread)):
            return True
        if after is not None and table_version(anyone, thread) == after:
            return None
        table = table_message(anyone, thread)
        if table is None or not _has(table, HAND):
            return None
        return whose_turn(table, users)

    found = await anyone.state.wait_for(ready, timeout, "a turn or the end of the game")
    return None if found is True else found  # type: ignore[return-value]


def menu_verbs(menu: Message) -> dict[str, dict]:
    """The menu's buttons by verb (and keep choice): {"kbd": button, "kbk:held": button ...};
    the "Deliver my hand by DM" toggle of every hand menu (`g:dm:`) is left out."""
    found = {}
    for b in menu.buttons():
        parts = b["custom_id"].split(":")
        if parts[1] == DM_TOGGLE:
            continue
        key = parts[1] if parts[1] != "kbk" else f"kbk:{parts[-1]}"
        found[key] = b
    return found


def my_card(menu: Message) -> int:
    found = CARD.search(menu.text)
    assert found, menu.text
    return int(found.group(1))


async def open_hand(user: FakeUser, thread: Channel) -> Message:
    """Press "Your hand" on the newest table message; the private menu."""
    table = table_message(user, thread)
    assert table is not None
    opened = await user.click(table, HAND)
    menu = opened.response
    assert menu is not None and menu.ephemeral, opened
    return menu


async def choose(user: FakeUser, menu: Message, rng: random.Random) -> str:
    """Play the turn the menu offers: draw and keep the higher card (now and then replace the
    Kobayakawa), or fight with a high card (now and then with a low one)."""
    verbs = menu_verbs(menu)
    if "kbd" in verbs:
        if rng.random() < 0.2:
            await user.click(menu, verbs["kbr"]["custom_id"])
            assert not menu.buttons(), menu.text
            return "replace"
        await user.click(menu, verbs["kbd"]["custom_id"])
        keeps = menu_verbs(menu)
        assert set(keeps) == {"kbk:held", "kbk:drawn"}, menu.text  # no going back, no replacing
        held = int(NUMBER.search(keeps["kbk:held"]["label"]).group(1))
        drawn = int(NUMBER.search(keeps["kbk:drawn"]["label"]).group(1))
        which = "held" if held >= drawn else "drawn"
        await user.click(menu, keeps[f"kbk:{which}"]["custom_id"])
        assert not menu.buttons(), menu.text
        return f"keep {max(held, drawn)} of {held}/{drawn}"
    assert "kbf" in verbs, menu.text
    card = my_card(menu)
    verb = "kbf" if card >= 9 or rng.random() < 0.2 else "kbp"
    await user.click(menu, verbs[verb]["custom_id"])
    assert not menu.buttons(), menu.text
    return f"{'fight' if verb == 'kbf' else 'pass'} with {card}"


async def play_turn(user: FakeUser, thread: Channel, rng: random.Random) -> str:
    """Open the card menu from the table message and play the turn it offers."""
    menu = await open_hand(user, thread)
    return await choose(user, menu, rng)


async def play_out(
    users: dict[int, FakeUser],
    thread: Channel,
    rng: random.Random,
    turns: int | None = None,
    after: tuple[int, int] | None = None,
) -> tuple[int, tuple[int, int] | None]:
    """Play turns as they come (at most `turns`), once the table is newer than `after`.

    Returns the number of turns played and the table version the next turn must be newer than.
    """
    played = 0
    version = after
    while turns is None or played < turns:
        user = await wait_turn(users, thread, after=version)
        if user is None:
            break
        version = table_version(user, thread)
        await play_turn(user, thread, rng)
        played += 1
    return played, version
