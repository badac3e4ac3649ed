"""The house rule `simultaneous` through the fake Discord (RULES.md H-1 to H-3): members all
choosing within the same 100 ms, a kill -9 between two choices of one step, a seat on
autopilot, and no public message naming a card or an area while a step is open."""

from __future__ import annotations

import asyncio
import random

import pytest
from fakediscord import FakeUser
from fakediscord.state import Channel, Message
from kamiza_play import HAND
from ledger_file import stored_game
from table_play import open_table, verb_button

from rules.log import replay

pytestmark = pytest.mark.e2e

QUICK = {"BOT_DELAY_SECONDS": 0, "TURN_SECONDS": 120}
CARD_WORDS = ("Boss", "Underboss", "Hitman", "Policeman", "Raid")
STEP_LINE = "Everyone chooses at once"


async def seated(host: FakeUser, others: list[FakeUser], command: str, **options) -> Channel:
    thread, lobby = await open_table(host, command, simultaneous=True, **options)
    for user in others:
        await user.click(lobby, "Join")
    await host.state.wait_for(lambda: lobby.text.count("<@") > len(others), 5, "every seat")
    await host.click(lobby, "Start")
    return thread


def open_step(user: FakeUser, thread: Channel) -> Message | None:
    """The newest table message, if it shows a step of choices made at once."""
    for message in reversed(user.state.messages_in.get(thread.id, ())):
        if message.ephemeral or message.deleted:
            continue
        if verb_button(message, "hand") and STEP_LINE in message.text:
            return message
        if verb_button(message, "hand"):
            return None
    return None


def match_over(user: FakeUser, thread: Channel) -> bool:
    return any("Final standings" in m.text for m in user.visible_messages(thread))


async def prepare_choice(user: FakeUser, table: Message, rng: random.Random) -> tuple[Message, str]:
    """Open the hand on `table`, pick a card and an area; the menu and the button left to press
    (the choice itself)."""
    hand = (await user.click(table, HAND)).response
    assert hand is not None and hand.ephemeral and "Choose now" in hand.text, hand.text
    cards = [b["custom_id"] for b in hand.buttons() if b["custom_id"].startswith("g:kzc:")]
    await user.click(hand, rng.choice(cards))
    area = rng.choice(["kamiza", "shimoza"])
    last = next(
        b["custom_id"]
        for b in hand.buttons()
        if f":{area}" in b["custom_id"] or (area == "shimoza" and "g:kzb:" in b["custom_id"])
    )
    if last.startswith("g:kzb:"):
        await user.click(hand, last)
        last = next(b["custom_id"] for b in hand.buttons() if b["custom_id"].startswith("g:kzp:"))
    return hand, last


async def test_h1_four_members_choose_within_100ms_and_nothing_leaks_before_the_reveal(
    fake_discord, launch_bot, users
):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho", "dev")]
    thread = await seated(players[0], players[1:], "kamiza")
    rng = random.Random(3)
    steps = 0
    while not match_over(players[0], thread):
        table = await state.wait_for(
            lambda: open_step(players[0], thread) or match_over(players[0], thread),
            10,
            "a step or the end",
            topic=thread.id,
        )
        if table is True:
            break
        assert "0 of 4" in table.text and "House rule: simultaneous choices" in table.text
        seen_before = {m.id: len(m.versions) for m in state.messages_in[thread.id]}
        prepared = [await prepare_choice(u, table, rng) for u in players]
        # nothing public has named a card while the menus were prepared
        for message in state.messages_in[thread.id]:
            if message.ephemeral:
                continue
            for version in message.versions[seen_before.get(message.id, 0) :]:
                assert not any(word in version.text for word in CARD_WORDS), version.text
        began = asyncio.get_running_loop().time()
        await asyncio.gather(
            *(u.click(hand, last) for u, (hand, last) in zip(players, prepared, strict=True))
        )
        assert asyncio.get_running_loop().time() - began < 2.0
        steps += 1
        await state.wait_for(
            lambda n=steps: len(reveals(players[0], thread)) >= n, 10, "the reveal"
        )
    assert steps == 9 and len(reveals(players[0], thread)) == 9  # one reveal per step, once
    final = [m for m in players[0].visible_messages(thread) if "Final standings" in m.text][-1]
    assert "House rule: simultaneous choices" in final.text  # the standings name it
    log, status, scores = stored_game(bot.database_path)
    assert status == "finished" and len(log["actions"]) == 36
    assert log["options"]["simultaneous"] is True and replay(log)["scores"] == scores
    assert not state.unknown_routes and not state.failed_requests()
    assert "Traceback" not in bot.log


def reveals(user: FakeUser, thread: Channel) -> list[Message]:
    return [m for m in user.visible_messages(thread) if m.text.startswith("### Reveal")]


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_h1_a_kill_9_between_two_choices_keeps_both_and_keeps_them_secret(
    fake_discord, launch_bot, users
):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho")]
    thread = await seated(players[0], players[1:], "kamiza")
    table = await state.wait_for(lambda: open_step(players[0], thread), 10, "the first step")
    rng = random.Random(5)
    for user in players[:2]:
        hand, last = await prepare_choice(user, table, rng)
        await user.click(hand, last)
        assert "waiting for" in hand.text
    await bot.kill9()
    await bot.restart()
    log, _, _ = stored_game(bot.database_path)
    assert [a["player"] for a in log["actions"]] == [str(u.id) for u in players[:2]]
    table = await state.wait_for(
        lambda: (m := open_step(players[0], thread)) and "2 of 3" in m.text and m, 10, "reposted"
    )
    for word in CARD_WORDS:
        assert word not in table.text  # the two choices stay secret after the restart
    mine = (await players[0].click(table, HAND)).response
    assert "You chose" in mine.text  # their own choice, kept
    hand, last = await prepare_choice(players[2], table, rng)
    await players[2].click(hand, last)
    await state.wait_for(lambda: len(reveals(players[0], thread)) == 1, 10, "the reveal")
    log, _, _ = stored_game(bot.database_path)
    assert len(log["actions"]) == 3 and replay(log)["over"] is False


@pytest.mark.slow  # over 10 s: run with the soak tests
async def test_h3_a_silent_seat_is_chosen_for_when_the_step_runs_out_then_put_on_autopilot(
    fake_discord, launch_bot, users
):
    bot = await launch_bot(BOT_DELAY_SECONDS=0, TURN_SECONDS=5)
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho")]
    thread = await seated(players[0], players[1:], "kamiza")
    rng = random.Random(9)
    for round_no in range(1, 3):
        table = await state.wait_for(
            lambda: open_step(players[0], thread), 10, f"step {round_no}", topic=thread.id
        )
        for user in players[:2]:  # cho never chooses
            hand, last = await prepare_choice(user, table, rng)
            await user.click(hand, last)
        await state.wait_for(lambda n=round_no: len(reveals(players[0], thread)) >= n, 10, "reveal")
    log, _, _ = stored_game(bot.database_path)
    assert sum(1 for a in log["actions"] if a["player"] == str(players[2].id)) == 2
    await state.wait_for(
        lambda: any("autopilot" in m.text for m in players[0].visible_messages(thread)),
        10,
        "autopilot announced",
    )


async def test_h2_kobayakawa_fights_at_once_and_draws_in_turn(fake_discord, launch_bot, users):
    bot = await launch_bot(**QUICK)
    state = fake_discord.state
    players = [users(name) for name in ("ann", "ben", "cho", "dev")]
    by_name = {u.name.title(): u for u in players}
    thread = await seated(players[0], players[1:], "kobayakawa")
    rng = random.Random(4)
    fights = 0
    while fights < 2:
        table = await state.wait_for(
            lambda: latest_table(players[0], thread), 10, "a table", topic=thread.id
        )
        if STEP_LINE in table.text:
            menus = []
            for user in players:
                if user.name.title() not in table.text.split("Still choosing:")[-1]:
                    continue
                menu = (await user.click(table, HAND)).response
                assert "at the same time" in menu.text, menu.text
                menus.append((user, menu, rng.choice(["g:kbf:", "g:kbp:"])))
            await asyncio.gather(
                *(
                    u.click(m, next(b["custom_id"] for b in m.buttons() if verb in b["custom_id"]))
                    for u, m, verb in menus
                )
            )
            fights += 1
            await state.wait_for(
                lambda n=fights: showdowns(players[0], thread) >= n, 10, "the showdown"
            )
            continue
        user = next((u for n, u in by_name.items() if f"**{n}** to play" in table.text), None)
        assert user is not None, table.text  # the draw phase: one member at a time
        menu = (await user.click(table, HAND)).response
        draw = next(b["custom_id"] for b in menu.buttons() if b["custom_id"].startswith("g:kbd:"))
        await user.click(menu, draw)
        keep = next(b["custom_id"] for b in menu.buttons() if b["custom_id"].startswith("g:kbk:"))
        version = (table.id, table.edits)
        await user.click(menu, keep)
        await state.wait_for(
            lambda v=version, shown=table: (
                (latest_table(players[0], thread) or shown).edits != v[1]
                or latest_table(players[0], thread) is not shown
            ),
            10,
            "the draw shown",
        )
    log, _, _ = stored_game(bot.database_path)
    assert log["options"] == {"simultaneous": True}
    assert replay(log)["over"] is False
    assert not state.failed_requests() and "Traceback" not in bot.log


def latest_table(user: FakeUser, thread: Channel) -> Message | None:
    for message in reversed(user.state.messages_in.get(thread.id, ())):
        if not message.ephemeral and not message.deleted and verb_button(message, "hand"):
            return message
    return None


def showdowns(user: FakeUser, thread: Channel) -> int:
    """Rounds judged so far: each ends with its showdown, or with nobody having fought."""
    headings = [m.text.splitlines()[0] for m in user.visible_messages(thread) if m.text]
    return sum(1 for h in headings if h.endswith(("· Showdown", "· Nobody fought")))
