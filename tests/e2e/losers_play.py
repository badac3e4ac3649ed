"""Scripted Rights of Losers players for end-to-end tests: they read only what Discord shows them
(the table message, their private menu) and choose at random among what is offered."""

from __future__ import annotations

import random

import table_play
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from table_play import has_button as _has
from table_play import whose_turn

HAND = "Your hand"
TITLE = "Rights of Losers · Trick"
FINAL = "Final standings"
# What a menu offers on the player's turn: cards, chip spots, two cards to build, the choice.
ACTIONS = ("g:rlp:", "s:rlc:", "s:rlb:", "s:rla:")


async def open_table(host: FakeUser, **options) -> tuple[Channel, Message]:
    """`/losers start` in #general: the thread and its lobby message."""
    return await table_play.open_table(host, "losers", **options)


async def start_with(host: FakeUser, others: list[FakeUser], **options) -> tuple[Channel, Message]:
    """Open a table, seat `others`, start it; returns once the first table message is up."""
    thread, lobby = await open_table(host, **options)
    for user in others:
        await user.click(lobby, "Join")
    await host.state.wait_for(
        lambda: lobby.text.count("<@") >= 1 + len(others), 5, "everyone seated"
    )
    await host.click(lobby, "Start")
    await host.state.wait_for(lambda: table_message(host, thread), 5, "the table")
    return thread, lobby


def _is_trick_message(message: Message) -> bool:
    """A trick's table message, open or closed: laid out under its title."""
    return message.text.startswith(f"### {TITLE}")


def gallery(message: Message) -> list[dict]:
    """The pictures a laid-out message shows (its media galleries' items), in order."""
    return [
        item
        for c in message.all_components()
        if c.get("type") == 12  # media gallery
        for item in c.get("items") or []
    ]


def shown_attachments(message: Message) -> list:
    """The message's attachments its pictures show, by their `attachment://` name; asserts
    each names an attachment the message still has (an edit keeps the picture)."""
    by_name = {a.filename: a for a in message.attachments}
    urls = [item["media"]["url"] for item in gallery(message)]
    assert all(url.startswith("attachment://") for url in urls), urls
    missing = [url for url in urls if url.removeprefix("attachment://") not in by_name]
    assert not missing, (missing, list(by_name))
    return [by_name[url.removeprefix("attachment://")] for url in urls]


def table_message(user: FakeUser, thread: Channel) -> Message | None:
    """The newest trick message, if it is still open (it has the Your hand button)."""
    tricks = [m for m in user.visible_messages(thread) if _is_trick_message(m)]
    return tricks[-1] if tricks and _has(tricks[-1], HAND) else None


def table_version(user: FakeUser, thread: Channel) -> tuple[int, int] | None:
    table = table_message(user, thread)
    return (table.id, table.edits) if table else None


def finished(user: FakeUser, thread: Channel) -> bool:
    return any(FINAL in m.text for m in user.visible_messages(thread))


async def wait_turn(
    users: dict[int, FakeUser], thread: Channel, after: tuple | None = None, timeout: float = 10.0
) -> FakeUser | None:
    """The user whose turn the open table message names (once it changed since `after`), or
    None once the game is over."""
    anyone = next(iter(users.values()))

    def ready() -> FakeUser | bool | None:
        if finished(anyone, thread):
            return True
        table = table_message(anyone, thread)
        if table is None or (after is not None and (table.id, table.edits) == after):
            return None
        return whose_turn(table, users)

    found = await anyone.state.wait_for(ready, timeout, "a turn or the end of the game")
    return None if found is True else found  # type: ignore[return-value]


def _offered(menu: Message, prefix: str) -> list[dict]:
    return [
        c
        for c in menu.all_components()
        if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")
    ]


async def _pick(user: FakeUser, menu: Message, prefix: str, rng: random.Random, k: int = 1):
    chosen = rng.choice(_offered(menu, prefix))
    values = rng.sample([o["value"] for o in chosen["options"]], k)
    await user.select(menu, chosen["custom_id"], values)
    return values


async def open_menu(user: FakeUser, thread: Channel) -> Message:
    table = table_message(user, thread)
    assert table is not None
    opened = await user.click(table, HAND)
    menu = opened.response
    assert menu is not None and menu.ephemeral, opened
    return menu


async def take_turn(user: FakeUser, thread: Channel, rng: random.Random) -> str | None:
    """Open the private menu and do what it offers, choosing at random; returns what was done,
    or None when the menu says it is not this user's turn (a mention a moment out of date)."""
    menu = await open_menu(user, thread)
    if not any(_offered(menu, verb) for verb in ACTIONS):
        verbs = [b["custom_id"].split(":")[1] for b in menu.buttons()]
        assert verbs == ["rlh", "dm"], menu.text  # Refresh, and the hand-by-DM toggle
        return None
    if cards := _offered(menu, "g:rlp:"):
        card = rng.choice(cards)
        await user.click(menu, card["custom_id"])
        done = "play " + card["custom_id"].split(":")[-1]
    elif _offered(menu, "s:rlc:"):
        done = "chip " + (await _pick(user, menu, "s:rlc:", rng))[0]
    elif _offered(menu, "s:rlb:"):
        cards = await _pick(user, menu, "s:rlb:", rng, k=2)
        first = await _pick(user, menu, "s:rlba:", rng)
        second = await _pick(user, menu, "s:rlbb:", rng)
        done = f"build {cards} on {first + second}"
    else:
        done = await _choose(user, menu, rng)
    assert "✅" in menu.text, menu.text
    return done


async def _choose(user: FakeUser, menu: Message, rng: random.Random) -> str:
    """The winner's choice: appoint, reverse, move a chip or pass, whichever is enabled."""
    kinds = [k for k in ("s:rla:", "g:rlr:", "g:rlm:", "g:rlx:") if _offered(menu, k)]
    assert kinds, menu.text
    kind = rng.choice(kinds)
    if kind == "s:rla:":
        return "appoint " + (await _pick(user, menu, kind, rng))[0]
    button = _offered(menu, kind)[0]
    await user.click(menu, button["custom_id"])
    if kind != "g:rlm:":
        return "reverse" if kind == "g:rlr:" else "pass"
    source = await _pick(user, menu, "s:rlmf:", rng)
    target = await _pick(user, menu, "s:rlmt:", rng)
    return f"move {source[0]} to {target[0]}"


async def play_to_the_end(
    users: dict[int, FakeUser],
    thread: Channel,
    rng: random.Random,
    limit: int | None = None,
    timeout: float = 10.0,
) -> int:
    """Take turns until the game is over (or `limit` turns were taken); the number taken.

    The table message is edited after the action it shows, so a mention can name a player
    whose turn has just passed (they acted through the previous trick's message); they find
    "Waiting for ..." in their menu and wait for the table to change, as a person would.
    """
    turns, early, version = 0, 0, None
    while limit is None or turns < limit:
        user = await wait_turn(users, thread, after=version, timeout=timeout)
        if user is None:
            break
        version = table_version(user, thread)
        if await take_turn(user, thread, rng) is None:
            early += 1
            assert early <= 20, "mentioned again and again without a turn"
            continue
        turns += 1
    return turns
