"""Messages keep the format they were posted in (Discord refuses to add or remove the layout
flag on an edit): a table or lobby message from before the upgrade is retired in its own
format and the table goes on in a new laid-out message, never left with dead buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.kamiza.presenter import KamizaPresenter
from bot.runtime.moment import Moment
from bot.tables.lobby_messages import LOBBY_MESSAGE
from bot.tables.messages import LAYOUT_MARK, laid_out
from bot.tables.presenting import TABLE_MESSAGE, as_of
from tests.bot.fakes import FakeBot, Posted, custom_ids
from tests.bot.test_turns import kamiza_table

OLD = 555  # a message posted as an embed, before the upgrade


def is_layout(posted: Posted) -> bool:
    return isinstance(posted.view, discord.ui.LayoutView)


def setting() -> tuple[FakeBot, Any, KamizaPresenter]:
    bot = FakeBot()
    table = kamiza_table(bot)
    presenter = KamizaPresenter(bot)  # type: ignore[arg-type]
    table.presenter = presenter
    return bot, table, presenter


def now(table: Any) -> Moment[Any]:
    return as_of(table, None)


async def test_an_old_table_message_is_retired_in_its_format_and_the_table_reposted() -> None:
    bot, table, presenter = setting()
    table.message_ids[TABLE_MESSAGE] = OLD
    await presenter.refresh_table(table, now(table))
    retired, fresh = bot.posted
    # the old message: plain text pointing below, no buttons, no layout (its format kept)
    assert (retired.kind, retired.message_id) == ("edit", OLD)
    assert retired.content == "⤵️ The bot restarted; this table continues in the message below."
    assert retired.view is None and retired.kwargs["embeds"] == []
    # the table goes on laid out, with its buttons, and is marked as laid out
    assert fresh.kind == "send" and is_layout(fresh)
    assert f"g:hand:{table.game_id}" in custom_ids(fresh.view)
    assert table.message_ids[TABLE_MESSAGE] == fresh.message_id and laid_out(table, TABLE_MESSAGE)
    assert fresh.kwargs["allowed_mentions"].users is False  # its text names seats: no pings


async def test_a_laid_out_table_message_is_edited_in_place() -> None:
    bot, table, presenter = setting()
    await presenter.post_table(table, now(table), "en")
    await presenter.refresh_table(table, now(table))
    sent, edited = bot.posted
    assert (edited.kind, edited.message_id) == ("edit", sent.message_id) and is_layout(edited)


async def test_closing_an_old_round_message_keeps_its_format() -> None:
    bot, table, presenter = setting()
    table.message_ids[TABLE_MESSAGE] = OLD
    await presenter.close_table(table, "Round 1 is over.")
    [closed] = bot.posted
    assert (closed.kind, closed.message_id, closed.content) == ("edit", OLD, "Round 1 is over.")
    assert not is_layout(closed) and TABLE_MESSAGE not in table.message_ids


async def test_closing_a_laid_out_round_keeps_only_its_question_mark() -> None:
    bot, table, presenter = setting()
    await presenter.post_table(table, now(table), "en")
    why = discord.ui.View()
    await presenter.close_table(table, "Round 1 is over.", why)
    closed = bot.posted[-1]
    assert closed.kind == "edit" and is_layout(closed)
    assert closed.text.splitlines()[1] == "Round 1 is over." and custom_ids(closed.view) == []


async def test_an_old_lobby_message_gives_way_to_a_laid_out_one() -> None:
    bot, table, presenter = setting()
    table.message_ids[LOBBY_MESSAGE] = OLD
    await presenter.edit_or_send(table, LOBBY_MESSAGE, view=presenter.lobby_over("en", "Started"))
    retired, fresh = bot.posted
    assert retired.message_id == OLD and not is_layout(retired)
    assert fresh.kind == "send" and is_layout(fresh) and "Started" in fresh.text
    assert table.message_ids[LAYOUT_MARK + LOBBY_MESSAGE] == fresh.message_id
