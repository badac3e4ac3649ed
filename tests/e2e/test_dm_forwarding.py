"""Two bot processes, one shard each, on one PostgreSQL ledger: a member plays a table of the
second process from their DMs. Discord sends DM clicks on shard 0 only, to the first process,
which forwards them (LISTEN/NOTIFY) to the second: every click is played by the table's own
process and answered within Discord's 3 s. With the second process killed, a DM click is still
answered (try again in a moment); restarted, the game goes on to its end."""

from __future__ import annotations

import re

import pytest
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from table_play import open_table, verb_button, whose_turn
from test_hands_by_dm import choose_dms, menus_by_dm
from test_high_card import (
    assert_no_errors,
    card_buttons,
    final_standings,
    high_card_rules,  # noqa: F401  (the fixture)
    plugin_env,
    table_message,
)

pytestmark = pytest.mark.e2e

ELSEWHERE = "Press the button again in a moment"
PUT_DONE = "You put"  # the menu answered: the card is down (its menu says "face down" too)


def moment(
    user: FakeUser, members: dict[int, FakeUser], thread: Channel
) -> tuple[int, FakeUser | None]:
    """The round and the member on turn, as the table message shows them."""
    table = table_message(user, thread)
    found = re.search(r"Round (\d)/", table.text) if table is not None else None
    if table is None or found is None:
        return 0, None
    return int(found.group(1)), whose_turn(table, members)


async def next_turn(
    user: FakeUser,
    members: dict[int, FakeUser],
    thread: Channel,
    after: tuple[int, FakeUser | None] | None,
) -> FakeUser | None:
    """The member on turn once the moment differs from `after` (a restart that shows the table
    again is no new moment); None at the end of the game."""

    def ready() -> FakeUser | bool | None:
        if final_standings(user, thread):
            return True
        now = moment(user, members, thread)
        return now[1] if now[1] is not None and now != after else None

    found = await user.state.wait_for(ready, 10, "a member's turn or the end of the game")
    return None if found is True else found  # type: ignore[return-value]


def newest_menu(user: FakeUser, round_no: int) -> Message | None:
    """The newest menu sent by DM for this round, with cards to put."""
    found = menus_by_dm(user)
    cards = card_buttons(found[-1]) if found else {}
    # g:hcp:<game>:<round>:<card>
    ok = cards and all(custom.split(":")[3] == str(round_no) for custom in cards.values())
    return found[-1] if ok else None


async def menu_by_dm(user: FakeUser, round_no: int) -> Message:
    return await user.state.wait_for(lambda: newest_menu(user, round_no), 5, "a menu by DM")


async def put_highest(user: FakeUser, dm: Message, answer: str) -> Message:
    """Click the highest card of the DM menu; the message of the click's answer, once it says
    `answer` (the menu edited, or a note)."""
    cards = card_buttons(dm)
    click = await user.click(dm, cards[max(cards)])
    found = await user.state.wait_for(
        lambda: [m for m in (dm, *click.messages()) if answer in m.text], 5, answer
    )
    return found[-1]


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_a_dm_click_is_forwarded_to_the_process_running_its_table(
    fake_discord,
    launch_bot,
    users,
    pg_url,
    high_card_rules,  # noqa: F811
):
    state = fake_discord.state
    far = state.add_guild("far away", shard=(1, 2))
    shared = plugin_env() | {"DATABASE_URL": pg_url, "SHARD_COUNT": "2"}
    first = await launch_bot(**shared, SHARD_IDS="0")  # shard 0: every DM click comes here
    second = await launch_bot(**shared, SHARD_IDS="1")  # the guild's shard: its tables
    assert state.connected_shards() == {0, 1}

    ann, ben = users("ann"), users("ben")
    members = {u.id: u for u in (ann, ben)}
    thread, lobby = await open_table(ann, "highcard", where=state.channel_named("general", far))
    await ben.click(lobby, verb_button(lobby, "join") or "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 2, 5, "two members seated")
    await ann.click(lobby, verb_button(lobby, "start") or "Start")
    player = await next_turn(ann, members, thread, None)
    for member in (ann, ben):
        await choose_dms(member, thread)

    killed = False
    while player is not None:
        round_no = moment(ann, members, thread)[0]
        dm = await menu_by_dm(player, round_no)
        if not killed:  # the table's process dies: the click is answered all the same
            killed = True
            await second.kill9()
            note = await put_highest(player, dm, ELSEWHERE)
            assert note is not dm and card_buttons(dm)  # nothing was played: cards still there
            await second.start()
        assert await put_highest(player, dm, PUT_DONE) is dm  # edited by the table's process
        player = await next_turn(ann, members, thread, (round_no, player))
    assert final_standings(ann, thread)

    forwarded = first.log.count("a DM click forwarded to shard 1")
    assert forwarded >= 2, first.log
    assert "Restored 0 lobbies and 1 tables" in second.log  # the restarted owner took it back
    assert "Restored 0 lobbies and 0 tables" in first.log  # never another process's table
    late = [(i.name, i.elapsed) for i in state.interactions if not i.answered or i.late_callbacks]
    assert not late, late
    dm_clicks = [i for i in state.interactions if i.channel_id != thread.id and i.message]
    assert all(i.elapsed is not None and i.elapsed < 3 for i in dm_clicks)
    assert_no_errors(first.log)
    assert_no_errors(second.log)
