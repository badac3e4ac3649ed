"""Rights of Losers names a computer by its seat in play, with its level ("🤖 Bot 1 (hard)" is
seat ①), at the table and in the standings: the private recap names it the same way, not by its
number in the lobby (`MessagePresenter.recorded_name`)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from bot.losers.presenter import LosersPresenter
from bot.runtime.recap import recap_of
from bot.tables.recap import recap_embed
from data.store import Seat
from rules.log import load
from tests.bot.fakes import FakeBot
from tests.bot.test_recap import played_log

PLAYERS = ["1", "bot-1", "bot-2", "bot-3"]
LEVELS = {"bot-1": "easy", "bot-2": "hard", "bot-3": "normal"}
SEATS = {p: Seat(p, None, p, is_bot=True) if p in LEVELS else Seat(p, 1, "Ann") for p in PLAYERS}


def test_the_recap_names_computers_as_the_table_does() -> None:
    # Seats drawn: bot-3, bot-2, 1, bot-1; bot-1 wins a trick Ann played in.
    doc = played_log("rights-of-losers", seed=15, players=PLAYERS)
    assert load(doc).players == ("bot-3", "bot-2", "1", "bot-1")
    recap = recap_of(1, doc, "1", 0)
    presenter = LosersPresenter(FakeBot())
    table: Any = SimpleNamespace(state=load(doc), seats=SEATS, levels=LEVELS)
    # seat ① bot-3, ② bot-2, ④ bot-1
    at_table = {
        "bot-3": "🤖 Bot 1 (normal)",
        "bot-2": "🤖 Bot 2 (hard)",
        "bot-1": "🤖 Bot 4 (easy)",
    }
    for player, name in at_table.items():
        assert presenter.plain_name(table, player, "en") == name
        assert presenter.recorded_name(SEATS, recap.seating, LEVELS, player, "en") == name
    description = recap_embed(presenter, recap, SEATS, "en", LEVELS).description or ""
    named = re.findall(r"🤖 Bot \d \(\w+\)", description)
    assert "🤖 Bot 4 (easy)" in named, description  # bot-1, in seat ④: not "Bot 1 (easy)"
    assert set(named) <= set(at_table.values())  # every computer by its seat in play
