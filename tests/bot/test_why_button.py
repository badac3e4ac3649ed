"""The "?" button of table and reveal messages: it carries the rule ids of what just applied (the
current step's for a table message, the reveal's for a reveal) and answers privately, in the
clicking member's language, with each rule explained; a forged or stale one is told so."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.kamiza.presenter import KamizaPresenter
from bot.kobayakawa.presenter import KobayakawaPresenter
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.table import Place, Table
from bot.tables.buttons import BUTTONS
from data.store import open_ledger
from rules.kamiza import Play
from tests.bot.fakes import FakeBot, FakeInteraction, Posted
from tests.bot.test_runtime import GUILD

UNKNOWN = "names no rule this bot knows"


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


@pytest.fixture
async def manager(ledger):
    bot = FakeBot()
    tables = TableManager(
        ledger,
        {"kamiza": KamizaPresenter(bot), "kobayakawa": KobayakawaPresenter(bot)},
        Defaults(turn_seconds=3600, lobby_seconds=600, bot_delay=0.0),
    )
    tables.fake_bot = bot  # type: ignore[attr-defined]
    yield tables
    await tables.shutdown()


async def started(manager: TableManager, game: str) -> Table[Any]:
    place = Place(GUILD, 700 + len(manager.live()), None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game=game, place=place, host_id=1, host_name="host", options={}, bots=0
    )
    for uid in (2, 3):
        await lobby.join(uid, f"user{uid}")
    return await manager.start(lobby, 1)


def why_ids(message: Posted) -> list[str]:
    """The custom ids of the "?" buttons on a posted message."""
    view = message.view
    if view is None:
        return []
    return [item.custom_id for item in view.children if item.custom_id.startswith("g:why:")]


async def click(manager: TableManager, custom_id: str, locale: str) -> FakeInteraction:
    interaction = FakeInteraction(manager, 2, GUILD, locale=locale)
    await BUTTONS.dispatch(interaction, custom_id)
    return interaction


async def test_k3_k4_a_kamiza_table_message_explains_the_rules_of_playing_a_card(manager) -> None:
    table = await started(manager, "kamiza")
    await table.outbox.drain()
    posted = manager.fake_bot.posted
    assert [why_ids(m) for m in posted if m.embed is not None][-1] == [
        f"g:why:{table.game_id}:K-3:K-4"
    ]
    answer = await click(manager, f"g:why:{table.game_id}:K-3:K-4", "en-US")
    (reply,) = answer.answers
    assert reply.ephemeral and reply.embed.title == "The rules behind this"
    assert "**K-3**" in reply.embed.description and "face down" in reply.embed.description
    assert "**K-4**" in reply.embed.description and "shimoza seats only" in reply.embed.description


async def test_b3_a_kobayakawa_table_message_explains_the_draw_phase(manager) -> None:
    table = await started(manager, "kobayakawa")
    await table.outbox.drain()
    tables = [m for m in manager.fake_bot.posted if m.embed is not None]
    assert why_ids(tables[-1]) == [f"g:why:{table.game_id}:B-3"]


async def test_k6_k7_k11_the_reveal_carries_its_rules_and_answers_in_japanese(manager) -> None:
    table = await started(manager, "kamiza")
    plays = iter([Play("boss", "kamiza"), Play("boss", "kamiza"), Play("underboss", "kamiza")])
    while table.state.round_index == 0 and table.state.game_index == 0:
        await table.act(table.state.next().player, next(plays))
    await table.outbox.drain()
    reveal = next(m for m in manager.fake_bot.posted if m.embed and "Reveal" in m.embed.title)
    # Two Bosses cancel (K-6), the Underboss sits and scores 2 (K-11); K-12: who starts next.
    (custom,) = why_ids(reveal)
    assert custom == f"g:why:{table.game_id}:K-6:K-11:K-12"
    answer = await click(manager, custom, "ja")
    (reply,) = answer.answers
    assert reply.ephemeral and reply.embed.title == "ここで使われたルール"
    assert "**K-6** 場所ごとに、同じ種類のカードが2枚以上あれば全部取り除かれます。" in (
        reply.embed.description
    )
    assert "**K-11**" in reply.embed.description and "**K-12**" in reply.embed.description


@pytest.mark.parametrize(
    "custom",
    [
        "g:why:5:K-99",  # no such rule
        "g:why:5:K-6:kamiza",  # not a rule id
        "g:why:5:k-6",  # ids are upper case
        "g:why:5",  # no rule at all
        "g:why:5:" + ":".join(["K-6"] * 21),  # more than any message applies
    ],
)
async def test_a_forged_why_button_is_answered_privately_and_plainly(
    manager, custom: str, caplog
) -> None:
    caplog.set_level(logging.WARNING)
    answer = await click(manager, custom, "en-US")
    (reply,) = answer.answers
    assert reply.ephemeral and UNKNOWN in (reply.content or "")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    japanese = await click(manager, custom, "ja")
    assert "このボットが知らないルール" in (japanese.answers[0].content or "")
