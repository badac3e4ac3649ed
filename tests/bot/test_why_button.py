"""The "?" button of table and reveal messages: it carries the rule ids of what just applied (the
current step's for a table message, the reveal's for a reveal) and answers privately, in the
clicking member's language, with each rule explained; a forged or stale one is told so."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, has
from bot.kamiza.presenter import KamizaPresenter
from bot.kobayakawa.presenter import KobayakawaPresenter
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.table import Table
from bot.tables.buttons import BUTTONS
from bot.tables.reasons import RULE_ID
from data.backends import open_ledger
from rules.kamiza import Play
from rules.log import apply_entry, start
from rules.random_play import random_match
from tests.bot.fakes import FakeBot, FakeInteraction, Posted, custom_ids, heading
from tests.bot.test_forged_clicks import started
from tests.bot.test_runtime import GUILD

UNKNOWN = "names no rule this bot knows"


@pytest.fixture
async def manager(tmp_path: Path):
    ledger = await open_ledger(f"sqlite:///{tmp_path / 'why.sqlite3'}")
    bot = FakeBot()
    tables = TableManager(
        ledger,
        {"kamiza": KamizaPresenter(bot), "kobayakawa": KobayakawaPresenter(bot)},
        Defaults(turn_seconds=3600, lobby_seconds=600, bot_delay=0.0),
    )
    tables.fake_bot = bot  # type: ignore[attr-defined]
    yield tables
    await tables.shutdown()
    await ledger.close()


def why_ids(message: Posted) -> list[str]:
    """The custom ids of the "?" buttons on a posted message."""
    return [custom for custom in custom_ids(message.view) if custom.startswith("g:why:")]


def table_messages(posted: list[Posted], table: Table) -> list[Posted]:
    """What was posted or edited as the table's message of this round."""
    return [m for m in posted if m.message_id == table.message_ids["table"]]


async def click(manager: TableManager, custom_id: str, locale: str) -> FakeInteraction:
    interaction = FakeInteraction(manager, 2, GUILD, locale=locale)
    await BUTTONS.dispatch(interaction, custom_id)
    return interaction


async def test_k3_k4_a_kamiza_table_message_explains_the_rules_of_playing_a_card(manager) -> None:
    table = await started(manager, "kamiza")
    await table.outbox.drain()
    posted = manager.fake_bot.posted
    assert [why_ids(m) for m in table_messages(posted, table)][-1] == [
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
    tables = table_messages(manager.fake_bot.posted, table)
    assert why_ids(tables[-1]) == [f"g:why:{table.game_id}:B-3"]


async def test_k6_k7_k11_the_reveal_carries_its_rules_and_answers_in_japanese(manager) -> None:
    table = await started(manager, "kamiza")
    plays = iter([Play("boss", "kamiza"), Play("boss", "kamiza"), Play("underboss", "kamiza")])
    while table.state.round_index == 0 and table.state.game_index == 0:
        await table.act(table.state.next().player, next(plays))
    await table.outbox.drain()
    reveal = next(
        m for m in manager.fake_bot.posted if m.view and heading(m.view).startswith("Reveal")
    )
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


GAMES = {"kamiza": "kamiza", "kobayakawa": "kobayakawa", "rights-of-losers": "losers"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_reason_a_match_meets_has_its_words_and_its_rule_explained(game: str) -> None:
    """K-*, B-*, R-*: whatever rule and case the engine names, in random matches and for every
    decision, has a clause and an explanation in both languages."""
    met: set[tuple[str, str]] = set()
    for seed in range(12):
        _, log = random_match(game, ["ann", "ben", "cho", "dev"], seed)
        state = start(log)
        for entry in log["actions"]:
            met.update(("", rule) for rule in state.rules_now())
            for event in apply_entry(state, entry):
                if (because := event.because()) is not None:
                    met.add((because.case, because.rule))
    assert {case for case, _ in met} > {""}  # reasons were met, not only decisions
    for case, rule in met:
        assert RULE_ID.fullmatch(rule), rule
        for lang in LANGUAGES:
            assert has(f"rule.{rule}", lang), (lang, rule)
            assert not case or has(f"{GAMES[game]}.why.{case}", lang), (lang, case)
