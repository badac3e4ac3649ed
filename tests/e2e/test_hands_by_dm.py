"""Hands by DM (`bot.tables.delivery`), with High card, the tests' plugin game: two members choose
DMs from the hand menu and play every later turn from DM buttons, told by DM, never pinged in
the thread; the third chooses DMs and then closes them: the turn is pinged in the thread, they
are told once, privately, and play from the private menus; the game finishes."""

from __future__ import annotations

import re

import pytest
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from table_play import open_table, verb_button
from test_high_card import (
    PUT,
    assert_no_errors,
    card_buttons,
    final_standings,
    high_card_rules,  # noqa: F401  (the fixture)
    open_hand,
    other_sees,
    plugin_env,
    table_message,
    wait_turn,
)
from turn_record import notifications, thread_messages

pytestmark = pytest.mark.e2e

TURN_DM = "Your turn in **High card**"  # a turn's DM, before its first click edits it
FAILED = "could not be delivered"


def menus_by_dm(user: FakeUser) -> list[Message]:
    return [m for m in user.dms() if any(f"g:{PUT}:" in b["custom_id"] for b in m.buttons())]


async def choose_dms(user: FakeUser, thread: Channel) -> Message:
    """Press "Deliver my hand by DM" in the private hand: the menu comes by DM."""
    hand = await open_hand(user, thread)
    toggle = verb_button(hand, "dm")
    assert toggle is not None and toggle.endswith(":on"), hand.buttons()
    await user.click(hand, toggle)
    assert "come by DM" in hand.text and not hand.buttons(), hand.text
    found = await user.state.wait_for(lambda: menus_by_dm(user)[-1:], 5, "the hand by DM")
    return found[0]


async def play_from_dm(user: FakeUser, round_no: int) -> None:
    """Put the highest card from the newest menu the bot sent by DM for this round."""

    def menu() -> Message | None:
        found = menus_by_dm(user)
        cards = card_buttons(found[-1]) if found else {}
        ok = cards and all(f":{round_no}:" in custom for custom in cards.values())
        return found[-1] if ok else None

    dm: Message = await user.state.wait_for(menu, 5, f"round {round_no}'s menu by DM")
    cards = card_buttons(dm)
    answer = (await user.click(dm, cards[max(cards)])).response
    assert answer is dm and "face down" in dm.text, dm.text  # answered in the DM itself


async def test_two_members_play_from_dms_and_one_with_closed_dms_falls_back(
    fake_discord,
    launch_bot,
    users,
    high_card_rules,  # noqa: F811
):
    state = fake_discord.state
    bot = await launch_bot(**plugin_env())
    ann, ben, cy = users("ann"), users("ben"), users("cy")
    members = {u.id: u for u in (ann, ben, cy)}
    thread, lobby = await open_table(ann, "highcard")
    for member in (ben, cy):
        await member.click(lobby, verb_button(lobby, "join") or "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 3, 5, "three members seated")
    await ann.click(lobby, verb_button(lobby, "start") or "Start")
    player = await wait_turn(members, thread, None)

    for member in (ann, ben, cy):
        first = await choose_dms(member, thread)
        assert "Your hand in **High card**" in first.text and f"/{thread.id}" in first.text
        assert verb_button(first, "dm") is not None  # the way back, in the DM
    chosen_at = max(m.id for m in state.messages_in.get(thread.id, ()))
    cy.dms_open = False  # closed after choosing: the next DM fails with 50007

    notices, retried = 0, False
    while player is not None:
        table = table_message(ann, thread)
        assert table is not None
        version = (table.id, table.edits)
        round_no = int(re.search(r"Round (\d)/", table.text).group(1))  # type: ignore[union-attr]
        if player is cy:
            hand = await open_hand(cy, thread)
            notices += FAILED in hand.text
            assert not other_sees(members, cy, hand)
            if notices == 1 and not retried:  # choosing DMs again, still closed: told, kept here
                await cy.click(hand, verb_button(hand, "dm") or "")
                assert FAILED in hand.text and card_buttons(hand), hand.text
                retried = True
            cards = card_buttons(hand)
            await cy.click(hand, cards[max(cards)])
        else:
            await play_from_dm(player, round_no)
        player = await wait_turn(members, thread, version)
    assert final_standings(ann, thread)  # the game finished

    public = thread_messages(state, thread)  # deleted ones too: a ping goes when its turn ends
    for member in (ann, ben):  # every turn told: by DM once they chose, never in the thread
        in_thread = notifications(state, thread, member.id)
        by_dm = [m for m in member.dms() if TURN_DM in m.versions[0].text]
        assert len(in_thread) + len(by_dm) == 3 and len(by_dm) >= 2, (in_thread, by_dm)
        assert all(m.id < chosen_at for m in in_thread)
    # cy: the DM failed, their turns were pinged in the thread, they were told once, privately.
    assert len([m for m in notifications(state, thread, cy.id) if m.id > chosen_at]) >= 2
    assert notices == 1 and retried and len(menus_by_dm(cy)) == 1  # the one sent when they chose
    # Nothing hidden in public: no message of the thread carries a hand's buttons.
    assert not any(f"g:{PUT}:" in b["custom_id"] for m in public for b in m.buttons())
    # The only failures: DMs to cy (50007): their turn's, "Your hand" if pressed before that
    # failure was written, and their second choice of DMs; nothing else tries a DM again.
    dm_to_cy = state.dm_channel(cy.user, create=False)
    failed = state.failed_requests()
    assert dm_to_cy is not None and 2 <= len(failed) <= 3, [str(r) for r in failed]
    assert all(r.path.endswith(f"/channels/{dm_to_cy.id}/messages") for r in failed), failed
    assert_no_errors(bot.log)
