"""The recap a returning member gets (`bot.runtime.recap`, `bot.tables.recap`): rebuilt from the
log, only their own plays, worded by each game in English and Japanese, offered once."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fakediscord.server import validate_embeds

from bot.i18n import t
from bot.kamiza import render as kamiza_render
from bot.kamiza.presenter import KamizaPresenter
from bot.kobayakawa.presenter import KobayakawaPresenter
from bot.losers.presenter import LosersPresenter
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.recap import recap_of
from bot.runtime.table import AWAY_NOTE
from bot.tables.presenting import MessagePresenter
from bot.tables.recap import MAX_LINES, offer_recap, recap_embed
from data.backends import open_ledger
from data.store import ResultRow, Seat
from rules.agents import computer_action
from rules.kamiza import Play
from rules.log import load, new_header
from tests.bot.fakes import FakeBot, FakeInteraction
from tests.bot.test_runtime import GUILD, open_and_start, until

PRESENTERS: dict[str, type[MessagePresenter[Any]]] = {
    "kamiza": KamizaPresenter,
    "kobayakawa": KobayakawaPresenter,
    "rights-of-losers": LosersPresenter,
}
LOCALES = {"en": "en-US", "ja": "ja"}


def played_log(game: str, seed: int, players: int | list[str] = 3) -> dict[str, Any]:
    """A whole game of `players` seats ("1", "2", ...; or these players) played by the computer
    players."""
    named = players if isinstance(players, list) else [str(i) for i in range(1, players + 1)]
    header = new_header(game, named, seed=seed)
    state, rng = load(header), random.Random(seed)
    actions = []
    while (nxt := state.next()) is not None:
        action = computer_action(state, nxt.player, rng)
        state.apply(nxt.player, action)
        actions.append({"player": nxt.player, **type(state).action_json(action)})
    return {**header, "actions": actions}


def seats_of(doc: dict[str, Any]) -> dict[str, Seat]:
    return {p: Seat(p, int(p), f"user{p}") for p in doc["players"]}


def test_the_recap_holds_the_members_own_actions_from_when_the_table_took_over() -> None:
    doc = played_log("kamiza", seed=4)
    player, since = "2", 7
    recap = recap_of(1, doc, player, since)
    mine = [
        (seq, entry)
        for seq, entry in enumerate(doc["actions"])
        if seq >= since and entry["player"] == player
    ]
    assert [p.seq for p in recap.plays] == [seq for seq, _ in mine]
    assert [p.action for p in recap.plays] == [Play(e["card"], e["area"]) for _, e in mine]
    assert recap.score == load(doc).scores()[player] and recap.rank is None
    row = ResultRow(player, 2, "user2", False, score=recap.score, rank=2, winner=False)
    final = recap_of(1, doc, player, since, results=[row], autopilot=True)
    assert final.rank == 2 and not final.autopilot  # a game over leaves nobody on autopilot


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(PRESENTERS))
def test_every_game_words_the_recap_in_both_languages(game: str, lang: str) -> None:
    doc = played_log(game, seed=11)
    presenter = PRESENTERS[game](FakeBot(LOCALES[lang]))
    seats = seats_of(doc)
    for player in doc["players"]:
        recap = recap_of(1, doc, player, 0)
        embed = recap_embed(presenter, recap, seats, lang)
        validate_embeds([embed.to_dict()])
        lines = embed.description.splitlines()
        shown = min(len(recap.plays), MAX_LINES)
        assert len(lines) == shown + 1 + (len(recap.plays) > MAX_LINES)
        assert lines[-1] == t(lang, "recap.score_now", score=recap.score)
        assert not any("recap." in line or "{" in line for line in lines)  # all translated
        assert embed.title == t(lang, "recap.title", count=len(recap.plays))


def test_kamiza_recap_lines_are_the_members_cards_and_areas() -> None:
    doc = played_log("kamiza", seed=5)
    recap = recap_of(1, doc, "1", 0)
    embed = recap_embed(KamizaPresenter(FakeBot()), recap, seats_of(doc), "en")
    assert len(recap.plays) == 9  # a card a round, 3 games of 3 rounds
    expected = []
    for number, play in enumerate(recap.plays, 1):
        assert isinstance(play.action, Play)
        card = kamiza_render.card("en", play.action.card)
        area = kamiza_render.area("en", play.action.area)
        expected.append(f"{number}. {card} → {area}")
    assert embed.description.splitlines()[:-1] == expected


def test_seats_that_ended_on_autopilot_are_marked_in_the_standings() -> None:
    doc = played_log("kamiza", seed=6)
    presenter = KamizaPresenter(FakeBot("ja"))
    stub: Any = SimpleNamespace(
        seats=seats_of(doc),
        autopilot={"3"},
        place=SimpleNamespace(guild_id=GUILD),
        levels={},
    )
    rows = [
        ResultRow(p, int(p), f"user{p}", False, score=1, rank=int(p), winner=p == "1")
        for p in doc["players"]
    ]
    lines = presenter.results_lines(stub, rows, "ja")
    marked = [line for line in lines if t("ja", "table.on_autopilot") in line]
    assert marked == [lines[2]] and "<@3>" in marked[0]


# -- offered after a click, once, also when the game is over -----------------------------------


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def click(manager: TableManager, user_id: int, locale: str = "en-US") -> FakeInteraction:
    """A click that its handler already answered (the recap comes as a follow-up)."""
    interaction = FakeInteraction(manager, user_id, GUILD, locale=locale)
    interaction.response.done = True
    return interaction


class Watched(KamizaPresenter):
    """The real presenter, posting to a fake bot; `changed` wakes `until` after every move."""

    def __init__(self) -> None:
        super().__init__(FakeBot())
        self.changed = asyncio.Event()

    async def events(self, table: Any, player: str, events: Any, cause: str, moment: Any) -> None:
        await super().events(table, player, events, cause, moment)
        self.changed.set()

    async def finished(self, table: Any, results: Any) -> None:
        await super().finished(table, results)
        self.changed.set()


async def test_the_recap_comes_once_while_playing_and_once_after_the_end(ledger) -> None:
    watched = Watched()
    manager = TableManager(
        ledger, {"kamiza": watched}, Defaults(turn_seconds=0.05, lobby_seconds=600, bot_delay=0)
    )
    table = await open_and_start(manager, humans=3)
    host = table.seat_of(1)
    assert host is not None
    await until(lambda: host.player in table.away, watched)
    first = click(manager, 1)
    await offer_recap(first, table.game_id)
    [recap] = first.answers
    assert recap.kind == "followup" and recap.ephemeral
    assert recap.embed.title.startswith("While you were away")
    again = click(manager, 1)
    await offer_recap(again, table.game_id)
    assert again.answers == []  # told once

    # The table goes on playing for everyone (on autopilot now) to the end.
    await until(lambda: table.closed, watched, timeout=30)
    await table.outbox.drain()
    assert manager.get(table.game_id) is None
    assert host.player in (await ledger.notes(table.game_id))[AWAY_NOTE]
    late = click(manager, 1, locale="ja")
    await offer_recap(late, table.game_id)
    [final] = late.answers
    record = await ledger.get_game(table.game_id)
    row = next(r for r in record.results if r.player == host.player)
    assert t("ja", "recap.final", rank=row.rank, score=row.score) in final.embed.description
    stranger = click(manager, 99)
    await offer_recap(stranger, table.game_id)
    repeat = click(manager, 1)
    await offer_recap(repeat, table.game_id)
    assert stranger.answers == [] and repeat.answers == []
