"""Every game's private menu out of turn: the hand is shown, nothing in it can be played, and it
says whose turn it is (only Refresh can be pressed)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import t
from bot.kamiza import hand as kamiza_hand
from bot.kobayakawa import hand as kobayakawa_hand
from bot.losers import menus as losers_menus
from data.store import Seat
from rules.agents import computer_action
from rules.log import load, new_header

# The menu, its Refresh button, and what a player who left the game sees instead of a turn.
MENUS = {
    "kamiza": (kamiza_hand.hand_message, "g:kzh:", "kamiza.hand.dropped"),
    "kobayakawa": (kobayakawa_hand.hand_message, "g:kbh:", "kobayakawa.hand.out"),
    "rights-of-losers": (losers_menus.menu, "g:rlh:", None),
}


def controls(view: Any) -> list[dict[str, Any]]:
    if view is None:
        return []
    return [c for row in view.to_components() for c in row["components"]]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(MENUS))
def test_out_of_turn_menus_play_nothing_and_name_whose_turn_it_is(game: str, lang: str) -> None:
    draw, refresh, out = MENUS[game]
    state = load(new_header(game, ["1", "2", "3"], seed=3))
    rng, checked = random.Random(3), 0
    seats = {p: Seat(p, int(p), f"user{p}") for p in state.players}
    while (nxt := state.next()) is not None and checked < 40:
        table = SimpleNamespace(state=state, seats=seats, game_id=7, seq=checked, memory=None)
        for player in state.players:
            if player == nxt.player:
                continue
            embed, view = draw(table, seats[player], lang)
            enabled = [c["custom_id"] for c in controls(view) if not c.get("disabled")]
            assert all(i.startswith(refresh) for i in enabled), (game, enabled)
            text = embed.description or ""
            if out is None or t(lang, out) not in text:
                assert f"user{nxt.player}" in text, (game, text)
        state.apply(nxt.player, computer_action(state, nxt.player, rng))
        checked += 1
    assert checked >= 20  # a whole KAMIZA match of three is 27 moves
