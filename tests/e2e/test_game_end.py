"""The end of a game, the same for every game (here High card, the tests' plugin game): the final
standings say why the game is unrated and carry Rematch and Leaderboard; the announcement in
#general shows the result; a rematch with one member opting in and one not; the thread archived
after the grace period; `/… status` in the finished thread links the result."""

from __future__ import annotations

import pytest
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from table_play import open_table, verb_button
from test_high_card import (
    assert_no_errors,
    card_buttons,
    final_standings,
    high_card_rules,  # noqa: F401  (the fixture)
    open_hand,
    plugin_env,
    table_message,
    wait_turn,
)

from data.backends import open_ledger

pytestmark = pytest.mark.e2e


async def play_to_the_end(members: dict[int, FakeUser], thread: Channel, games: int) -> Message:
    """Every member puts their highest card until the `games`-th final standings are out."""
    player = await wait_turn(members, thread, None, games)
    while player is not None:
        hand = await open_hand(player, thread)
        table = table_message(player, thread)
        version = (table.id, table.edits) if table else None
        cards = card_buttons(hand)
        await player.click(hand, cards[max(cards)])
        player = await wait_turn(members, thread, version, games)
    return final_standings(player or next(iter(members.values())), thread)[-1]


async def answer(user: FakeUser, message: Message, verb: str) -> str:
    """Click the message's `g:<verb>:` button; the private answer's text."""
    custom = verb_button(message, verb)
    assert custom is not None, (verb, message.text)
    reply = (await user.click(message, custom)).response
    assert reply is not None and reply.ephemeral, reply
    return reply.text


async def test_a_game_ends_with_a_rematch_the_result_announced_and_the_thread_archived(
    fake_discord,
    launch_bot,
    users,
    high_card_rules,  # noqa: F811
):
    state = fake_discord.state
    bot = await launch_bot(**plugin_env(), ARCHIVE_SECONDS=4, REMATCH_SECONDS=2)
    ann, ben, cy = users("ann"), users("ben"), users("cy")
    members = {u.id: u for u in (ann, ben, cy)}

    thread, lobby = await open_table(ann, "highcard", bots=1)
    general = state.channel(thread.parent_id)
    announcement = state.message(general, thread.id)  # the thread opened from it
    for member in (ben, cy):
        await member.click(lobby, verb_button(lobby, "join") or "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 3, 5, "three members seated")
    await ann.click(lobby, verb_button(lobby, "start") or "Start")
    standings = await play_to_the_end(members, thread, 1)

    # Unrated, with the ledger's reason; Rematch and Leaderboard on the standings.
    assert "Not rated: computer players played" in standings.text, standings.text
    assert verb_button(standings, "rematch") and verb_button(standings, "board")
    # The announcement shows the result and links the standings.
    await state.wait_for(lambda: "is over" in announcement.text, 5, "the announcement edited")
    assert f"/{thread.id}/{standings.id}" in announcement.text and "Won by" in announcement.text

    # The leaderboard, privately (nobody is rated: the game was not).
    board = await answer(ben, standings, "board")
    assert "High card leaderboard" in board, board

    # The rematch: only the host offers it, once; ben opts in (once), cy does not.
    assert "Only the host" in await answer(ben, standings, "rematch")
    confirm = (await ann.click(standings, verb_button(standings, "rematch") or "")).response
    assert confirm is not None and confirm.ephemeral and "seconds to opt in" in confirm.text
    await ann.click(confirm, verb_button(confirm, "rematch_ok") or "")
    offer = await ann.wait_for_message(lambda m: verb_button(m, "rematch_in"), channel=thread)
    assert f"<@{ben.id}>" in offer.content and f"<@{cy.id}>" in offer.content
    assert "already been offered" in await answer(ann, standings, "rematch")
    assert "You're in" in await answer(ben, offer, "rematch_in")
    assert "already in" in await answer(ben, offer, "rematch_in")
    await state.wait_for(lambda: "is open" in offer.text, 10, "the rematch opened")
    assert f"<@{cy.id}>" in offer.text and not offer.buttons()  # cy's seat is offered
    rematch = await ann.wait_for_message(
        lambda m: m.id != lobby.id and verb_button(m, "join"), channel=thread
    )
    assert f"<@{ann.id}>" in rematch.text and f"<@{ben.id}>" in rematch.text
    assert f"<@{cy.id}>" not in rematch.text and "Bot 1" in rematch.text
    await cy.click(rematch, verb_button(rematch, "join") or "Join")  # the offered seat
    await state.wait_for(lambda: f"<@{cy.id}>" in rematch.text, 5, "cy in the rematch")
    assert not thread.archived  # the grace period passed while the rematch was on

    # The rematch is played; its end archives the thread after the grace period.
    await ann.click(rematch, verb_button(rematch, "start") or "Start")
    second = await play_to_the_end(members, thread, 2)
    await state.wait_for(lambda: f"/{second.id}" in announcement.text, 5, "the new result")
    await state.wait_for(lambda: thread.archived, 10, "the thread archived")

    # /status in the finished thread: the game is over, with a link to its standings.
    status = (await cy.slash("highcard", "status", where=thread)).response
    assert status is not None and status.ephemeral and "is over" in status.text, status
    assert f"/{thread.id}/{second.id}" in status.text

    ledger = await open_ledger(f"sqlite:///{bot.database_path}")
    try:
        first_game, rematch_game = [r async for r in ledger.iter_games()]
    finally:
        await ledger.close()
    assert rematch_game.rematch_of == first_game.id and first_game.rematch_of is None
    assert first_game.unrated_reason == "computer_seats" and rematch_game.status == "finished"
    assert {s.user_id for s in rematch_game.seats if not s.is_bot} == set(members)
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot.log)


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_a_rematch_offer_and_a_threads_archive_outlive_kill9(
    fake_discord,
    launch_bot,
    users,
    high_card_rules,  # noqa: F811
):
    """Killed while a rematch is offered: at restart its window has passed and the lobby opens
    with nobody clicking. Killed again right after the rematch's end: the restarted bot
    archives the thread, its grace period having passed while it was down."""
    state = fake_discord.state
    bot = await launch_bot(**plugin_env(), ARCHIVE_SECONDS=3, REMATCH_SECONDS=1)
    ann, ben = users("ann"), users("ben")
    members = {u.id: u for u in (ann, ben)}
    thread, lobby = await open_table(ann, "highcard", bots=1)
    await ben.click(lobby, verb_button(lobby, "join") or "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 2, 5, "two members seated")
    await ann.click(lobby, verb_button(lobby, "start") or "Start")
    standings = await play_to_the_end(members, thread, 1)
    confirm = (await ann.click(standings, verb_button(standings, "rematch") or "")).response
    assert confirm is not None
    await ann.click(confirm, verb_button(confirm, "rematch_ok") or "")
    offer = await ann.wait_for_message(lambda m: verb_button(m, "rematch_in"), channel=thread)
    await bot.kill9()
    assert "is open" not in offer.text

    await bot.restart()
    # The offer's message says so (or a new one, if the kill came before its id was noted).
    opened = await ann.wait_for_message(lambda m: "is open" in m.text, channel=thread, timeout=10)
    assert f"<@{ben.id}>" in opened.text  # ben did not opt in: his seat is offered
    rematch = await ann.wait_for_message(
        lambda m: m.id != lobby.id and verb_button(m, "start"), channel=thread
    )
    await ben.click(rematch, verb_button(rematch, "join") or "Join")
    await state.wait_for(lambda: f"<@{ben.id}>" in rematch.text, 5, "ben in the rematch")
    assert not thread.archived  # the first game's grace period passed while the rematch was on

    await ann.click(rematch, verb_button(rematch, "start") or "Start")
    await play_to_the_end(members, thread, 2)
    await bot.kill9()
    assert not thread.archived
    await bot.restart()
    await state.wait_for(lambda: thread.archived, 10, "the thread archived after the restart")
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot.log)
