"""Hands by DM (`bot.tables.delivery`): the turn of a member who chose DMs is told by DM with
their menu and no public ping; closed DMs fall back to the public ping and are remembered to be
told; the menu's toggle; a click from a DM reaches only a table where the clicker is seated."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

from bot.kamiza.presenter import KamizaPresenter
from bot.runtime.moment import Moment
from bot.tables import delivery, lookup
from bot.tables.buttons import button, view_of
from bot.tables.pings import PING_MESSAGE
from data.store import MemberPrefs
from tests.bot import fakes
from tests.bot.fakes import FakeBot, FakeInteraction, layout_text
from tests.bot.test_losers_presenter import Ledger
from tests.bot.test_turns import kamiza_table

CLOSED = discord.Forbidden(
    SimpleNamespace(status=403, reason="Forbidden"),  # type: ignore[arg-type]
    {"code": 50007, "message": "Cannot send messages to this user"},
)


class PrefsLedger(Ledger):
    """Members' choices kept in a dict; a failed DM recorded as the ledger would."""

    def __init__(self, prefs: dict[int, MemberPrefs]) -> None:
        self.prefs = prefs

    async def member_prefs(self, user_id: int) -> MemberPrefs:
        return self.prefs.get(user_id, MemberPrefs())

    async def dm_failed(self, user_id: int) -> None:
        self.prefs[user_id] = MemberPrefs("ephemeral", dm_failed=True)


@dataclass
class DmBot(FakeBot):
    """A `FakeBot` that sends DMs, recorded per user; `closed` users' DMs fail with 50007."""

    closed: set[int] = field(default_factory=set)
    dms: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    async def create_dm(self, user: discord.abc.Snowflake) -> Any:
        bot = self

        class Dm:
            async def send(self, content: str | None = None, **kwargs: Any) -> Any:
                if user.id in bot.closed:
                    raise CLOSED
                text = "\n".join(p for p in (content, layout_text(kwargs.get("view"))) if p)
                bot.dms.setdefault(user.id, []).append({"text": text, **kwargs})
                return SimpleNamespace(id=1, jump_url=f"https://discord.com/channels/@me/{user.id}")

        return Dm()


def setting(prefs: dict[int, MemberPrefs], closed: set[int] = frozenset()) -> tuple[DmBot, Any]:
    bot = DmBot(closed=set(closed))
    table = kamiza_table(bot)
    table.ledger = PrefsLedger(prefs)
    table.presenter = KamizaPresenter(bot)  # type: ignore[arg-type]
    return bot, table


def turn_of(table: Any, player: str) -> Moment[Any]:
    return Moment(table.seq, table.state, 1, frozenset(), player)


async def test_a_member_on_dm_is_told_their_turn_by_dm_with_their_menu_and_no_public_ping() -> None:
    bot, table = setting({1: MemberPrefs("dm", "ja")})
    await table.presenter.turn(table, turn_of(table, "1"))
    assert bot.posted == [] and PING_MESSAGE not in table.message_ids  # nothing in public
    [dm] = bot.dms[1]
    # In the language they chose, naming the game and linking the thread (guild 1, thread 2).
    said = "**KAMIZA（上座）**であなたの番です：https://discord.com/channels/1/2"
    assert said in dm["text"].splitlines()
    custom_ids = fakes.custom_ids(dm["view"])
    hand = table.state.hands["1"]
    assert len(custom_ids) == len(hand) + 2  # a card each, Refresh (not their move yet), the toggle
    assert custom_ids[-1] == "g:dm:7:off" and all("g:kz" in c for c in custom_ids[:-1])
    assert dm["allowed_mentions"].users is False  # a DM mentions nobody
    # The other member has not chosen: their turn is pinged in the thread as before.
    await table.presenter.turn(table, turn_of(table, "2"))
    assert [p.content for p in bot.posted] == ["Your turn, <@2>."] and 2 not in bot.dms


async def test_closed_dms_fall_back_to_the_public_ping_and_to_private_menus() -> None:
    bot, table = setting({1: MemberPrefs("dm")}, closed={1})
    await table.presenter.turn(table, turn_of(table, "1"))
    assert [p.content for p in bot.posted] == ["Your turn, <@1>."]  # pinged in public instead
    assert table.ledger.prefs[1] == MemberPrefs("ephemeral", dm_failed=True)  # told later
    await table.presenter.turn(table, turn_of(table, "2"))
    await table.presenter.turn(table, turn_of(table, "1"))  # their next turn: no DM tried
    assert [p.content for p in bot.posted if p.kind == "send"][-1] == "Your turn, <@1>."
    assert 1 not in bot.dms


def test_every_menu_gets_the_toggle_where_it_fits() -> None:
    card = button("kzc", 7, "1.1", "boss", label="Boss")
    _, view = delivery.with_toggle((discord.Embed(), view_of(card)), 7, False, "en")
    assert [(b.custom_id, b.item.label) for b in view.children] == [
        ("g:kzc:7:1.1:boss", "Boss"),
        ("g:dm:7:on", "Deliver my hand by DM"),
    ]
    _, back = delivery.with_toggle((discord.Embed(), view_of(card)), 7, True, "ja")
    assert back.children[-1].custom_id == "g:dm:7:off"
    assert delivery.with_toggle((discord.Embed(), None), 7, False, "en")[1] is None  # over
    full = view_of(*(button("kzc", 7, i, label=str(i)) for i in range(25)))
    assert len(delivery.with_toggle((discord.Embed(), full), 7, False, "en")[1].children) == 25


def test_a_click_from_a_dm_reaches_only_a_table_where_the_clicker_is_seated() -> None:
    _, table = setting({})
    seated, stranger = FakeInteraction(None, 1, None), FakeInteraction(None, 9, None)
    assert lookup.reaches(seated, table) and not lookup.reaches(stranger, table)
    assert lookup.reaches(FakeInteraction(None, 9, 1), table)  # from its server: as before
    assert not lookup.reaches(FakeInteraction(None, 1, 5), table)  # from another server
