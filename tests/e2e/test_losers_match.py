"""Rights of Losers in Discord: whole games with members and bot seats, a crash and a restart,
interlopers and double clicks, Japanese menus and the field picture."""

from __future__ import annotations

import asyncio
import random

import pytest
from ledger_file import stored_game
from losers_play import (
    FINAL,
    HAND,
    gallery,
    open_menu,
    play_to_the_end,
    shown_attachments,
    start_with,
    table_message,
    wait_turn,
)

from rules.log import replay

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n"


def final_message(user, thread):
    return [m for m in user.visible_messages(thread) if FINAL in m.text][-1]


def assert_no_errors(log: str) -> None:
    """Nothing failed while presenting or handling a click (the bot logs those as errors)."""
    errors = [
        line
        for line in log.splitlines()
        if " ERROR " in line and "outbox lobby" not in line and "Task was destroyed" not in line
    ]
    assert not errors, "\n".join(errors)


async def test_full_game_with_three_members(fake_discord, bot_process, users):
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho")]
    thread, _ = await start_with(players[0], players[1:])
    table = table_message(players[0], thread)
    assert table is not None and len(table.attachments) == 1
    picture = table.attachments[0]
    assert picture.filename.endswith(".png") and picture.content.startswith(PNG)
    assert shown_attachments(table) == [picture]  # the picture inside the layout
    (item,) = gallery(table)
    assert item["description"] == picture.description  # described as the alt text says
    assert "On the field: " in table.text and "A1:" not in table.text  # short, not the grid
    assert picture.description and "start of trick 1 of 10" in picture.description  # alt text

    turns = await play_to_the_end({u.id: u for u in players}, thread, random.Random(5))
    # 10 tricks of 3 plays, the losers' chips (2 a trick while they last), build and choice
    assert 50 <= turns <= 70
    log, status, scores = stored_game(bot_process.database_path)
    assert status == "finished" and len(log["actions"]) == turns
    answer = replay(log)
    assert answer["scores"] == scores
    final = final_message(players[0], thread)
    for winner in answer["winners"]:
        assert f"🏆 <@{winner}>" in final.text
    # One gallery: the judged field and the standings card, each described.
    field, card = shown_attachments(final)
    assert field.content.startswith(PNG) and card.content.startswith(PNG)
    assert "end of the game" in field.description and card.filename == "standings.png"
    assert [item["description"] for item in gallery(final)] == [
        field.description,
        card.description,
    ]
    assert sum(c.get("type") == 12 for c in final.all_components()) == 1
    pictures = [m for m in players[0].visible_messages(thread) if m.attachments]
    assert len(pictures) == 11  # one picture per trick and the final one
    closed = [m for m in players[0].visible_messages(thread) if "is over.**" in m.text]
    assert len(closed) == 10
    # A closed trick keeps only its "?" (the rules that decided it: ), nothing to play,
    # and its picture: many edits later it still shows the attachment posted with it.
    for trick, m in enumerate(closed, start=1):
        assert [b["custom_id"].split(":")[1] for b in m.buttons()] == ["why"]
        assert "(R-4)" in m.text and "(R-5)" in m.text
        (picture,) = shown_attachments(m)
        assert m.edits > 3 and f"start of trick {trick} of 10" in picture.description
    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot_process.log)


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_member_and_two_bots_killed_mid_game_then_finished_after_restart(
    fake_discord, bot_process, users
):
    """Bot seats play by themselves; a crash (kill -9) loses nothing: after the restart the game
    goes on, bots included, and the stored result is the one its stored log replays to."""
    ann = users("ann")
    thread, _ = await start_with(ann, [], bots=2)
    rng = random.Random(8)
    assert await play_to_the_end({ann.id: ann}, thread, rng, limit=8, timeout=30) == 8
    await bot_process.kill9()
    before, status, _ = stored_game(bot_process.database_path)
    assert status == "running" and len(before["actions"]) > 8
    assert sum(p.startswith("bot-") for p in before["players"]) == 2
    await bot_process.restart()
    await ann.wait_for_message(lambda m: "restarted" in m.text and m.buttons(), channel=thread)
    turns = await play_to_the_end({ann.id: ann}, thread, rng, timeout=30)
    log, status, scores = stored_game(bot_process.database_path)
    assert status == "finished" and log["actions"][: len(before["actions"])] == before["actions"]
    assert 8 + turns < len(log["actions"])  # the bots took the other turns
    answer = replay(log)
    assert answer["scores"] == scores
    final = final_message(ann, thread)
    # Computers are named by their seat in play (seat ① is Bot 1), as on the picture.
    seat_of = {p: i + 1 for i, p in enumerate(log["players"])}
    for player, seat in seat_of.items():
        if player.startswith("bot-"):
            assert f"🤖 Bot {seat}" in final.text
    for winner in answer["winners"]:
        mark = f"🏆 <@{winner}>" if winner == str(ann.id) else f"🏆 🤖 Bot {seat_of[winner]}"
        assert mark in final.text
    assert_no_errors(bot_process.log)


async def test_interlopers_stale_menus_and_double_clicks_change_nothing(
    fake_discord, bot_process, users
):
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho")]
    thread, _ = await start_with(players[0], players[1:])
    by_id = {u.id: u for u in players}
    current = await wait_turn(by_id, thread)
    assert current is not None
    table = table_message(current, thread)

    stranger = users("eve")
    refused = await stranger.click(table, HAND)
    assert refused.response.ephemeral and "not seated" in refused.response.text
    refused = await stranger.slash("losers", "hand", where=thread)
    assert "not seated" in refused.response.text

    waiting = next(u for u in players if u is not current)
    early = await open_menu(waiting, thread)
    assert "Waiting for" in early.text
    labels = [b["label"] for b in early.buttons()]
    assert labels == ["Refresh", "Deliver my hand by DM"] and not early.selects()

    menu = await open_menu(current, thread)
    stale = await open_menu(current, thread)
    card = next(b for b in menu.buttons() if b["custom_id"].startswith("g:rlp:"))
    _, second = await asyncio.gather(
        current.click(menu, card["custom_id"]), current.click(menu, card["custom_id"], wait=False)
    )
    await current.answered(second)
    log, _, _ = stored_game(bot_process.database_path)
    assert len(log["actions"]) == 1

    other = next(b for b in stale.buttons() if b["custom_id"].startswith("g:rlp:"))
    await current.click(stale, other["custom_id"])  # a menu of the turn just played
    assert "out of date" in stale.text and "Waiting for" in stale.text
    await waiting.click(early, "Refresh")
    log, _, _ = stored_game(bot_process.database_path)
    assert len(log["actions"]) == 1
    assert not state.failed_requests()
    assert_no_errors(bot_process.log)


async def test_japanese_member_status_rules_and_cancel(fake_discord, bot_process, users):
    ann, ben, cho = users("ann"), users("ben"), users("cho", locale="ja")
    thread, _ = await start_with(ann, [ben, cho])
    menu = await open_menu(cho, thread)
    assert "あなたの手札" in menu.text and "手札" in menu.text
    assert any(s in menu.text for s in ("赤", "黄", "緑", "青", "紫"))

    status = (await ben.slash("losers", "status", where=thread)).response
    assert status.ephemeral and "Trick 1/10" in status.text
    assert status.attachments and status.attachments[0].content.startswith(PNG)
    japanese = (await cho.slash("losers", "status", where=thread)).response
    assert "第1/10トリック" in japanese.text and "売地" in japanese.text

    rules = (await ben.slash("losers", "rules")).response
    assert "Page 1 of 3" in rules.text and "land for sale" in rules.text.lower()
    await ben.click(rules, "Next")
    await ben.click(rules, "Next")
    assert "Page 3 of 3" in rules.text and "edge B2|C2" in rules.text
    rules_ja = (await cho.slash("losers", "rules")).response
    assert "売地" in rules_ja.text

    refused = await ben.slash("losers", "cancel", where=thread)
    assert "Only the host" in refused.response.text
    asked = (await ann.slash("losers", "cancel", where=thread)).response
    await ann.click(asked, "Yes, cancel the table")
    _, status_now, _ = stored_game(bot_process.database_path)
    assert status_now == "cancelled"
    assert_no_errors(bot_process.log)
