"""`bot.tables.verbs` documents exactly the verbs the product's handlers answer."""

from __future__ import annotations

import bot.tables.delivery_buttons
import bot.tables.end_buttons
import bot.tables.lobby_buttons
import bot.tables.rules_pages  # noqa: F401  (registers the verbs)
from bot.games.registry import games
from bot.tables.buttons import BUTTONS
from bot.tables.selects import SELECTS
from bot.tables.verbs import BUTTON_VERBS, SELECT_VERBS


def product_verbs(handlers) -> set[str]:
    """Verbs whose handler lives in bot/ (a plugin game of the tests may register more)."""
    return {verb for verb, handler in handlers.items() if handler.__module__.startswith("bot.")}


def test_every_product_verb_is_in_the_table_and_nothing_else():
    for spec in games():
        spec.hand()
    assert product_verbs(BUTTONS.handlers()) == set(BUTTON_VERBS)
    assert product_verbs(SELECTS.handlers()) == set(SELECT_VERBS)


def test_verbs_leave_room_for_their_arguments():
    for verb in (*BUTTON_VERBS, *SELECT_VERBS):
        assert verb.replace("_", "").isalpha() and verb.islower() and len(verb) <= 10, verb
