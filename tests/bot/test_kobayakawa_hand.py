"""Kobayakawa's private card menu (bot/kobayakawa/hand.py) for each moment of a turn."""

from __future__ import annotations

import random
from types import SimpleNamespace

from bot.kobayakawa.hand import hand_message
from bot.kobayakawa.presenter import SEEN_DRAW, KobayakawaPresenter
from data.store import Seat
from rules.agents import computer_action, random_action
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import FIGHT_ACTION, KEEP_DRAWN, KEEP_HELD, PASS_ACTION, REPLACE

SEATS = {p: Seat(p, n, p.title()) for n, p in enumerate(("ann", "ben", "cho"), start=1)}


def table(state: Kobayakawa, seq: int = 0) -> SimpleNamespace:
    """What the menu reads of a table: its state, seats, id, action count, notes, presenter."""
    notes: dict = {}

    async def keep_note(key: str, value: object) -> None:
        notes[key] = value

    return SimpleNamespace(
        state=state,
        seats=SEATS,
        game_id=7,
        seq=seq,
        presenter=KobayakawaPresenter(None),
        notes=notes,
        keep_note=keep_note,
    )


def new_game() -> Kobayakawa:
    deck = [8, 13, 11, 7, 2, 12, 14, 1, 3, 4, 5, 6, 9, 10, 15]
    return Kobayakawa.create(list(SEATS), {}, {"start_player": "ann", "decks": [deck] * 7})


def ids(view) -> list[str]:
    return [item.custom_id for item in view.children] if view else []


def labels(view) -> list[str]:
    return [item.item.label for item in view.children]


async def test_b3_draw_then_only_the_two_keep_choices():
    t = table(new_game())
    embed, view = hand_message(t, SEATS["ann"], "en")
    assert ids(view) == ["g:kbd:7:0", "g:kbr:7:0"]
    assert "🎴 **8**" in embed.fields[0].value and "Your turn" in embed.description
    assert await t.presenter.mark_seen_draw(t, "ann", 0) == 2
    assert t.notes == {SEEN_DRAW: ["ann", 0]}  # kept for a restart
    assert t.state.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD]  # the rules know it (B-3)
    embed, view = hand_message(t, SEATS["ann"], "en")
    assert ids(view) == ["g:kbk:7:0:held", "g:kbk:7:0:drawn"]
    assert labels(view) == ["Keep mine (8)", "Keep the drawn card (2)"]
    assert "You drew 🎴 **2**" in embed.description


async def test_the_drawn_card_mark_is_per_turn():
    t = table(new_game())
    await t.presenter.mark_seen_draw(t, "ann", 0)
    assert t.presenter.has_seen_draw(t, "ann", 0)
    t.state.apply("ann", KEEP_HELD)
    t.seq = 1
    assert not t.presenter.has_seen_draw(t, "ann", 0)  # that turn is over
    assert not t.presenter.has_seen_draw(t, "ann", 1) and not t.presenter.has_seen_draw(t, "ben", 1)
    _, view = hand_message(t, SEATS["ben"], "en")
    assert ids(view) == ["g:kbd:7:1", "g:kbr:7:1"]
    assert t.state.legal_actions("ben") == [KEEP_DRAWN, KEEP_HELD, REPLACE]


async def test_b3_a_turn_over_before_the_note_is_written_shows_nothing():
    t = table(new_game())

    async def slow_note(key: str, value: object) -> None:
        t.state.apply("ann", REPLACE)  # the turn clock acted meanwhile
        t.seq = 1

    t.keep_note = slow_note
    assert await t.presenter.mark_seen_draw(t, "ann", 0) is None
    assert not t.state.has_looked("ann") and not t.state.has_looked("ben")


async def test_b3_a_restart_gives_the_look_back_from_the_note():
    state = new_game()
    state.apply("ann", KEEP_HELD)
    t = table(state, seq=1)
    t.notes[SEEN_DRAW] = ["ben", 1]  # ben pressed Draw, then the bot restarted
    assert t.presenter.restore_seen_draw(t)
    assert state.legal_actions("ben") == [KEEP_DRAWN, KEEP_HELD]
    _, view = hand_message(t, SEATS["ben"], "en")
    assert ids(view) == ["g:kbk:7:1:held", "g:kbk:7:1:drawn"]
    for seed in range(50):  # a timeout or autopilot cannot replace either
        rng = random.Random(seed)
        assert random_action(state, "ben", rng) in (KEEP_DRAWN, KEEP_HELD)
        assert computer_action(state, "ben", rng) in (KEEP_DRAWN, KEEP_HELD)


async def test_b3_an_old_note_is_not_given_back():
    for note in (["ann", 0], ["ben", 0], ["ben", 2], "junk", ["ben"], [None, 1]):
        state = new_game()
        state.apply("ann", KEEP_HELD)
        t = table(state, seq=1)
        t.notes[SEEN_DRAW] = note
        assert not t.presenter.restore_seen_draw(t)
        assert state.legal_actions("ben") == [KEEP_DRAWN, KEEP_HELD, REPLACE]


async def test_a_player_waiting_sees_their_card_and_only_a_refresh():
    embed, view = hand_message(table(new_game()), SEATS["cho"], "en")
    assert ids(view) == ["g:kbh:7"]
    assert "Waiting for Ann." in embed.description and "🎴 **11**" in embed.fields[0].value


async def test_b4_fight_costs_two_in_round_seven():
    state = new_game()
    seq = 0
    while state.round < 7 or state.phase != "fight":
        nxt = state.next()
        state.apply(nxt.player, KEEP_HELD if state.phase == "draw" else PASS_ACTION)
        seq += 1
    embed, view = hand_message(table(state, seq), SEATS["ann"], "en")
    assert labels(view) == ["Fight (bet 2)", "Pass"]
    assert ids(view) == [f"g:kbf:7:{seq}", f"g:kbp:7:{seq}"]
    assert "Fight (bet 2 🏵️) or pass." in embed.description


async def test_a_player_out_is_told_so_and_offered_nothing():
    state = new_game()
    state.out.append("cho")
    embed, view = hand_message(table(state), SEATS["cho"], "ja")
    assert view is None and "脱落" in embed.description


async def test_japanese_menu():
    state = new_game()
    for player in ("ann", "ben", "cho"):
        state.apply(player, KEEP_HELD)
    state.apply("ann", FIGHT_ACTION)
    embed, view = hand_message(table(state, 4), SEATS["ben"], "ja")
    assert labels(view) == ["勝負（家紋1枚）", "降りる"]
    assert "あなたの番です" in embed.description
