"""Whole Kobayakawa games through the fake Discord: members, bot seats, a crash and a restart."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest
from kobayakawa_play import (
    HAND,
    choose,
    menu_verbs,
    open_hand,
    open_table,
    play_out,
    table_message,
    table_version,
    wait_turn,
)

from data.backends import open_ledger
from rules.log import replay

pytestmark = pytest.mark.e2e

SHOWDOWN_TITLES = ("· Showdown", "· Nobody fought")


def count_actions(db_path) -> int:
    con = sqlite3.connect(db_path)
    try:
        return con.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        con.close()


async def stored_game(db_path):
    ledger = await open_ledger(f"sqlite:///{db_path}")
    try:
        records = [r async for r in ledger.iter_games()]
        return records[-1]
    finally:
        await ledger.close()


async def seat_and_start(state, host, others, **options):
    thread, lobby = await open_table(host, **options)
    for user in others:
        await user.click(lobby, "Join")
    seated = 1 + len(others)
    await state.wait_for(lambda: lobby.text.count("<@") >= seated, 5, "every seat")
    await host.click(lobby, "Start")
    # The table comes as the Start click's follow-up, once its answer is in: wait for it.
    await state.wait_for(lambda: table_message(host, thread), 5, "the table message")
    return thread


def assert_no_errors(log: str) -> None:
    """Nothing went wrong while presenting or handling a click (the bot logs those as errors).

    Ignored: the lobby's message queue, dropped once the table starts (the shared runtime's).
    """
    lines = log.splitlines()
    errors = [
        line
        for line in lines
        if " ERROR " in line and "outbox lobby" not in line and "Task was destroyed" not in line
    ]
    assert not errors, "\n".join(errors)


def final_standings(user, thread):
    return [m for m in user.visible_messages(thread) if "Final standings" in m.text]


def showdowns(user, thread):
    return [m for m in user.visible_messages(thread) if any(t in m.text for t in SHOWDOWN_TITLES)]


async def test_full_game_with_four_members(fake_discord, bot_process, users):
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho", "dev")]
    host, *others = players
    thread = await seat_and_start(state, host, others)
    by_id = {u.id: u for u in players}
    first = await wait_turn(by_id, thread)
    assert first is not None
    table = table_message(host, thread)
    assert "Kobayakawa · Round 1/7" in table.text and "Draw phase" in table.text

    # An interloper is refused, privately, and changes nothing.
    eve = users("eve")
    refused = await eve.click(table, HAND)
    assert refused.response.ephemeral and "not seated" in refused.response.text
    refused = await eve.slash("kobayakawa", "hand", where=thread)
    assert "not seated" in refused.response.text
    # A seated player whose turn it is not sees their card and no way to act.
    other = next(u for u in players if u is not first)
    menu = await open_hand(other, thread)
    assert "Waiting for" in menu.text and set(menu_verbs(menu)) == {"kbh"}

    # Draw shows the drawn card with only the two keep choices; a double click keeps once.
    menu = await open_hand(first, thread)
    assert {"kbd", "kbr"} <= set(menu_verbs(menu)), menu.text
    await first.click(menu, menu_verbs(menu)["kbd"]["custom_id"])
    assert set(menu_verbs(menu)) == {"kbk:held", "kbk:drawn"}
    again = await open_hand(first, thread)  # a second menu does not offer the replacement now
    assert set(menu_verbs(again)) == {"kbk:held", "kbk:drawn"}
    version = table_version(host, thread)
    keep = menu_verbs(menu)["kbk:held"]["custom_id"]
    clicks = [await first.click(menu, keep, wait=False) for _ in range(2)]
    await asyncio.gather(*(first.answered(c) for c in clicks))
    assert count_actions(bot_process.database_path) == 1
    # the stale second menu answers with the current one instead of acting
    await first.click(again, menu_verbs(again)["kbk:drawn"]["custom_id"])
    assert "out of date" in again.text
    assert count_actions(bot_process.database_path) == 1

    rng = random.Random(11)
    played, _ = await play_out(by_id, thread, rng, after=version)
    turns = 1 + played
    assert 3 * 2 <= turns <= 4 * 2 * 7
    final = final_standings(host, thread)
    assert len(final) == 1 and "🏆" in final[0].text
    record = await stored_game(bot_process.database_path)
    assert record.status == "finished" and len(record.actions) == turns
    rounds = replay(record.log())["round"]
    told = showdowns(host, thread)
    assert len(told) == rounds
    for message in told:
        text = message.text
        assert "wins" in text or "Nobody fought" in text, text
        if "adds the Kobayakawa" in text:
            assert "Revealed cards" in text
        if "only fighter" in text:
            assert "Revealed cards" not in text and "🎴" not in text
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot_process.log)

    # The rules, paged: the worked example is on the last page.
    rules = await host.slash("kobayakawa", "rules", where=thread)
    page = rules.response
    assert "How to play Kobayakawa" in page.text
    await host.click(page, "Next")
    await host.click(page, "Next")
    assert "8 + 7 = **15**" in page.text


async def test_one_member_with_two_bot_seats(fake_discord, bot_process, users):
    state = fake_discord.state
    host = users("ann")
    thread = await seat_and_start(state, host, [], bots=2)
    turns, _ = await play_out({host.id: host}, thread, random.Random(5))
    assert 3 <= turns <= 14
    final = final_standings(host, thread)
    assert len(final) == 1 and "🤖 Bot 1" in final[0].text and "🤖 Bot 2" in final[0].text
    record = await stored_game(bot_process.database_path)
    assert record.status == "finished"
    by = {a["player"] for a in record.actions}
    assert {"bot-1", "bot-2", str(host.id)} <= by
    assert len(showdowns(host, thread)) == replay(record.log())["round"]
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot_process.log)


async def test_killed_mid_game_then_finished_after_restart(fake_discord, bot_process, users):
    state = fake_discord.state
    ann, ben, kei = users("ann"), users("ben"), users("kei", locale="ja")
    thread = await seat_and_start(state, ann, [ben, kei])
    by_id = {u.id: u for u in (ann, ben, kei)}
    rng = random.Random(3)

    # The Japanese member reads Japanese: the rules, the status and their card.
    rules = await kei.slash("kobayakawa", "rules", where=thread)
    assert "小早川の遊び方" in rules.response.text
    status = await kei.slash("kobayakawa", "status", where=thread)
    assert "第1/7ラウンド" in status.response.text and "あなたの札" in status.response.text
    menu = await open_hand(kei, thread)
    assert "あなたの札" in menu.text

    played, version = await play_out(by_id, thread, rng, turns=8)
    assert played == 8
    user = await wait_turn(by_id, thread, after=version)
    menu = await open_hand(user, thread)  # a menu opened before the crash
    assert menu_verbs(menu).keys() - {"kbh"}, menu.text
    await bot_process.kill9()
    await bot_process.restart()
    restored = await ann.wait_for_message(
        lambda m: "The bot restarted" in m.text and m.buttons(), channel=thread
    )
    assert table_message(ann, thread) is restored
    before = table_version(ann, thread)
    # The old menu still works: its buttons carry the game and the turn.
    await choose(user, menu, rng)
    await play_out(by_id, thread, rng, after=before)

    assert len(final_standings(ann, thread)) == 1
    record = await stored_game(bot_process.database_path)
    assert record.status == "finished"
    replayed = replay(record.log())
    assert replayed["over"]
    assert {r.player: r.score for r in record.results} == replayed["scores"]
    assert {r.player for r in record.results if r.winner} == set(replayed["winners"])
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot_process.log)


async def test_b3_a_drawn_card_seen_before_a_crash_stays_seen(fake_discord, bot_process, users):
    """Draw, then the bot is killed: after the restart the player can still only keep (B-3),
    whichever menu they use; the game then plays to its end."""
    state = fake_discord.state
    ann, ben, cho = users("ann"), users("ben"), users("cho")
    thread = await seat_and_start(state, ann, [ben, cho])
    by_id = {u.id: u for u in (ann, ben, cho)}
    first = await wait_turn(by_id, thread)
    assert first is not None
    older = await open_hand(first, thread)  # a menu still offering Draw and Replace
    menu = await open_hand(first, thread)
    await first.click(menu, menu_verbs(menu)["kbd"]["custom_id"])
    assert set(menu_verbs(menu)) == {"kbk:held", "kbk:drawn"}
    await bot_process.kill9()
    await bot_process.restart()
    await ann.wait_for_message(
        lambda m: "The bot restarted" in m.text and m.buttons(), channel=thread
    )
    again = await open_hand(first, thread)
    assert set(menu_verbs(again)) == {"kbk:held", "kbk:drawn"}, again.text
    refused = await first.click(older, menu_verbs(older)["kbr"]["custom_id"])
    assert "already seen the drawn card" in refused.response.text
    assert count_actions(bot_process.database_path) == 0
    shown = table_version(ann, thread)  # the next turn is read once the table told the keep
    await first.click(again, menu_verbs(again)["kbk:drawn"]["custom_id"])
    assert count_actions(bot_process.database_path) == 1
    record = await stored_game(bot_process.database_path)
    assert record.actions[0]["action"] == "draw"
    await play_out(by_id, thread, random.Random(4), after=shown)
    assert len(final_standings(ann, thread)) == 1
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot_process.log)
