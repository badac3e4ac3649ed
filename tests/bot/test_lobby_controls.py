"""The host's lobby controls: computer seats, kick, transfer host; refusals, stale clicks and
restarts. Real lobbies and a real ledger file; the Discord side through `FakeInteraction`."""

from __future__ import annotations

import asyncio
import random

import pytest

import bot.tables.lobby_buttons  # noqa: F401  (registers the verbs)
from bot.kamiza.presenter import KamizaPresenter
from bot.layout import as_text, check
from bot.layout.board import compose
from bot.layout.payload import ACTION_ROW, payload
from bot.runtime.errors import TableError
from bot.runtime.lobby import COMPUTERS_NOTE, Lobby, bot_seat, human_seat
from bot.runtime.manager import TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.runtime.thinking import Thinker
from bot.tables.buttons import BUTTONS
from rules.agents import random_action
from rules.base import InvalidSetup
from rules.registry import GAMES
from tests.bot import test_runtime
from tests.bot.fakes import FakeBot, FakeInteraction
from tests.bot.test_runtime import GUILD, Recorder, make_manager

HOST, ANN, BEN, CHO, EVE = 1, 2, 3, 4, 9
ledger = test_runtime.ledger  # the same fixture: a fresh ledger file per test


@pytest.fixture
async def manager(ledger):
    tables = make_manager(ledger, Recorder())
    yield tables
    await tables.shutdown()


async def open_lobby(manager: TableManager, bots: int = 0, home: int = 20) -> Lobby:
    place = Place(GUILD, home, None)
    manager.reserve(place.home)
    return await manager.open_lobby(
        game="kamiza", place=place, host_id=HOST, host_name="host", options={}, bots=bots
    )


def players(lobby: Lobby) -> list[str]:
    return [s.player for s in lobby.seats]


async def restarted(ledger, manager: TableManager, lobby: Lobby) -> Lobby:
    """The lobby as a new process restores it from the ledger (the old one stops, like a kill)."""
    await manager.shutdown()
    again = make_manager(ledger, Recorder())
    assert await again.restore() == (1, 0)
    found = again.get(lobby.game_id)
    assert isinstance(found, Lobby)
    return found


async def test_computers_are_added_and_removed_up_to_the_free_seats(manager, ledger) -> None:
    lobby = await open_lobby(manager, bots=1)
    await lobby.add_computer(HOST, False)
    await lobby.add_computer(HOST, False)
    assert players(lobby) == ["1", "bot-1", "bot-2", "bot-3"]
    with pytest.raises(TableError, match=r"lobby\.no_free_seat"):
        await lobby.add_computer(HOST, False)
    await lobby.remove_computer(HOST, False)
    assert players(lobby) == ["1", "bot-1", "bot-2"]
    assert [s.player for s in (await ledger.get_game(lobby.game_id)).seats] == players(lobby)
    for _ in range(2):
        await lobby.remove_computer(HOST, False)
    with pytest.raises(TableError, match=r"lobby\.no_computer"):
        await lobby.remove_computer(HOST, False)
    assert players(lobby) == ["1"] and lobby.computers == []


async def test_displaced_computers_come_back_in_order_and_survive_a_restart(
    manager, ledger
) -> None:
    lobby = await open_lobby(manager, bots=3)  # KAMIZA seats four
    await lobby.join(ANN, "ann")
    await lobby.join(BEN, "ben")
    assert players(lobby) == ["1", "2", "3", "bot-1"]
    assert len(lobby.waiting_computers()) == 2
    # a restart keeps the waiting computer seats (in no seat, only in the ledger's note)
    lobby = await restarted(ledger, manager, lobby)
    assert players(lobby) == ["1", "2", "3", "bot-1"]
    await lobby.join(CHO, "cho")
    assert players(lobby) == ["1", "2", "3", "4"]
    await lobby.leave(BEN)
    assert players(lobby) == ["1", "2", "4", "bot-1"]
    await lobby.leave(CHO)
    assert players(lobby) == ["1", "2", "bot-1", "bot-2"]
    await lobby.leave(ANN)
    assert players(lobby) == ["1", "bot-1", "bot-2", "bot-3"]
    assert lobby.waiting_computers() == []


async def test_a_removed_computer_is_a_waiting_one_first(manager) -> None:
    lobby = await open_lobby(manager, bots=2)
    await lobby.join(ANN, "ann")
    await lobby.join(BEN, "ben")
    await lobby.join(CHO, "cho")  # both computers wait
    await lobby.remove_computer(HOST, False)
    await lobby.leave(CHO)
    await lobby.leave(BEN)
    assert players(lobby) == ["1", "2", "bot-1"]


async def test_kick_frees_the_seat_for_a_displaced_computer_and_survives_a_restart(
    manager, ledger
) -> None:
    lobby = await open_lobby(manager, bots=3)
    await lobby.join(ANN, "ann")
    kicked = await lobby.kick(HOST, False, ANN)
    assert kicked.user_id == ANN
    assert players(lobby) == ["1", "bot-1", "bot-2", "bot-3"]
    lobby = await restarted(ledger, manager, lobby)
    assert players(lobby) == ["1", "bot-1", "bot-2", "bot-3"]
    await lobby.join(ANN, "ann")  # a kicked member may join again
    assert lobby.seat_of(ANN) is not None


async def test_transfer_host_is_kept_in_the_ledger_and_by_the_table(manager, ledger) -> None:
    lobby = await open_lobby(manager, bots=1)
    await lobby.join(ANN, "ann")
    await lobby.join(BEN, "ben")
    await lobby.transfer_host(HOST, False, BEN)
    assert lobby.host_id == BEN
    assert (await ledger.get_game(lobby.game_id)).host_id == BEN
    with pytest.raises(TableError, match=r"lobby\.only_host_controls"):
        await lobby.add_computer(HOST, False)  # the old host no longer controls the lobby
    lobby = await restarted(ledger, manager, lobby)
    assert lobby.host_id == BEN
    await lobby.leave(BEN)  # a leaving host still hands over to the first member
    assert lobby.host_id == HOST
    assert (await ledger.get_game(lobby.game_id)).host_id == HOST


async def test_a_restart_after_half_a_change_seats_what_the_ledger_says(manager, ledger) -> None:
    lobby = await open_lobby(manager, bots=1)
    await lobby.join(ANN, "ann")
    # killed after the computer seats were written, before the seats; and an older lobby whose
    # host left without the host being written
    await ledger.set_note(lobby.game_id, COMPUTERS_NOTE, [None, None])
    await ledger.set_seats(lobby.game_id, [human_seat(ANN, "ann"), bot_seat(1)])
    lobby = await restarted(ledger, manager, lobby)
    assert players(lobby) == ["2", "bot-1", "bot-2"] and lobby.host_id == ANN


async def test_refusals_change_nothing(manager, ledger) -> None:
    lobby = await open_lobby(manager, bots=1)
    await lobby.join(ANN, "ann")
    before = (players(lobby), lobby.host_id)
    refused = [
        lobby.add_computer(ANN, False),
        lobby.remove_computer(ANN, False),
        lobby.kick(ANN, False, HOST),
        lobby.transfer_host(ANN, False, ANN),
    ]
    for attempt in refused:
        with pytest.raises(TableError, match=r"lobby\.only_host_controls"):
            await attempt
    with pytest.raises(TableError, match=r"lobby\.is_host"):
        await lobby.kick(EVE, True, HOST)  # a moderator cannot kick the host either
    with pytest.raises(TableError, match=r"lobby\.member_gone"):
        await lobby.kick(HOST, False, BEN)  # never seated (or gone since the list was shown)
    with pytest.raises(TableError, match=r"lobby\.member_gone"):
        await lobby.transfer_host(HOST, False, -1)  # -1: the computer's seat has no member
    assert (players(lobby), lobby.host_id) == before
    await lobby.add_computer(EVE, True)  # Manage Server may, as for Start and Cancel
    assert players(lobby) == ["1", "2", "bot-1", "bot-2"]


def click(manager: TableManager, user: int, manage: bool = False) -> FakeInteraction:
    return FakeInteraction(manager, user, GUILD, manage_guild=manage)


async def test_kick_and_transfer_buttons_ask_privately_then_act(manager) -> None:
    lobby = await open_lobby(manager)
    await lobby.join(ANN, "ann")
    gid = lobby.game_id
    picker = click(manager, HOST)
    await BUTTONS.dispatch(picker, f"g:kick:{gid}")
    (answer,) = picker.answers
    assert answer.ephemeral and "Whom" in (answer.content or "")
    assert [b.custom_id for b in answer.view.children] == [f"g:kick_ask:{gid}:{ANN}"]
    confirm = click(manager, HOST)
    await BUTTONS.dispatch(confirm, f"g:kick_ask:{gid}:{ANN}")
    assert lobby.seat_of(ANN) is not None  # asked, not done
    assert [b.custom_id for b in confirm.answers[0].view.children] == [f"g:kick_yes:{gid}:{ANN}"]
    done = click(manager, HOST)
    await BUTTONS.dispatch(done, f"g:kick_yes:{gid}:{ANN}")
    assert lobby.seat_of(ANN) is None and f"<@{ANN}>" in done.texts()[0]
    again = click(manager, HOST)  # the same confirmation pressed twice: stale, nothing changes
    await BUTTONS.dispatch(again, f"g:kick_yes:{gid}:{ANN}")
    assert "no longer has a seat" in again.texts()[0]

    await lobby.join(BEN, "ben")
    stranger = click(manager, EVE)
    await BUTTONS.dispatch(stranger, f"g:host:{gid}")
    assert "Only the host" in stranger.texts()[0] and stranger.answers[0].view is None
    await BUTTONS.dispatch(click(manager, HOST), f"g:host_to:{gid}:{BEN}")
    assert lobby.host_id == BEN
    await BUTTONS.dispatch(click(manager, BEN), f"g:bot_add:{gid}")
    assert players(lobby) == ["1", "3", "bot-1"]

    table = await manager.start(lobby, BEN)
    assert table.host_id == BEN
    late = click(manager, BEN)
    await BUTTONS.dispatch(late, f"g:bot_add:{gid}")
    assert "already started" in late.texts()[0]


async def test_the_lobby_message_keeps_within_discords_limits(manager) -> None:
    lobby = await open_lobby(manager, bots=3)
    await lobby.join(ANN, "ann")  # one computer waits
    presenter = KamizaPresenter(FakeBot())
    view = compose(presenter.lobby_board(lobby, "ja"))
    check(view)  # every limit of Discord's, nested components included
    [container] = payload(view)
    rows = [c for c in container["components"] if c["type"] == ACTION_ROW]
    assert [len(row["components"]) for row in rows] == [4, 4]  # everyone's, the host's
    assert rows[1]["components"][-1]["custom_id"] == f"g:house:{lobby.game_id}:on"  # H-1
    buttons = [b for row in rows for b in row["components"]]
    disabled = {b["custom_id"].split(":")[1] for b in buttons if b.get("disabled")}
    assert disabled == {"bot_add"}  # full: no free seat for another computer
    # a section per member other than the host, its Kick beside it; a computer seat's section
    # has its level button (to the next level) instead
    beside = [c["accessory"]["custom_id"] for c in container["components"] if c["type"] == 9]
    kicks = [custom_id for custom_id in beside if custom_id.startswith("g:kick_seat:")]
    assert kicks == [f"g:kick_seat:{lobby.game_id}:{ANN}"]
    levels = [custom_id for custom_id in beside if custom_id.startswith("g:bot_lvl:")]
    assert levels == [f"g:bot_lvl:{lobby.game_id}:{n}:hard" for n in (1, 2)]
    lines = as_text(view).splitlines()
    waiting = lines[lines.index("**空席待ち**") + 1]
    assert "**空席待ち**" in lines and waiting == "🤖 ボット3（ふつう）"


async def test_h1_the_host_turns_the_house_rule_on_and_it_survives_a_restart(
    manager, ledger
) -> None:
    lobby = await open_lobby(manager, bots=3)
    assert lobby.offers_house_rule() and "simultaneous" not in lobby.options
    refused = click(manager, EVE)
    await BUTTONS.dispatch(refused, f"g:house:{lobby.game_id}:on")
    assert "host" in refused.texts()[0] and "simultaneous" not in lobby.options
    await BUTTONS.dispatch(click(manager, HOST), f"g:house:{lobby.game_id}:on")
    assert lobby.options == {"edition": "second", "advanced": False, "simultaneous": True}
    again = await restarted(ledger, manager, lobby)
    assert again.options["simultaneous"] is True
    await again.set_house_rule(HOST, False, False)
    assert "simultaneous" not in again.options  # off: the options as every older game has them


async def test_h1_the_house_rule_is_played_once_the_lobby_starts(manager) -> None:
    lobby = await open_lobby(manager, bots=3)
    await lobby.set_house_rule(HOST, False, True)
    table = await manager.start(lobby, HOST)
    assert table.state.simultaneous and len(table.state.next().players) == 4


async def test_a_game_without_the_house_rule_refuses_it(ledger) -> None:
    manager = make_manager(ledger, Recorder())
    [other] = [name for name, cls in GAMES.items() if not accepts(cls)]
    manager.presenters[other] = Recorder()  # type: ignore[assignment]
    place = Place(GUILD, 21, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game=other, place=place, host_id=HOST, host_name="host", options={}, bots=2
    )
    assert not lobby.offers_house_rule()
    with pytest.raises(TableError, match=r"lobby\.no_house_rule"):
        await lobby.set_house_rule(HOST, False, True)


def accepts(cls: type) -> bool:
    try:
        cls.normalise_options({"simultaneous": True})  # type: ignore[attr-defined]
    except InvalidSetup:
        return False
    return True


async def test_each_computers_level_is_the_hosts_choice_and_survives_a_restart_and_a_rematch(
    manager, ledger
) -> None:
    place = Place(GUILD, 20, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=HOST, host_name="host", options={}, bots=2, level="hard"
    )
    gid = lobby.game_id
    await lobby.join(ANN, "ann")
    refused = click(manager, ANN)
    await BUTTONS.dispatch(refused, f"g:bot_lvl:{gid}:2:easy")
    assert "host" in refused.texts()[0] and lobby.level_of(2) == "hard"
    await BUTTONS.dispatch(click(manager, HOST), f"g:bot_lvl:{gid}:2:easy")
    await BUTTONS.dispatch(click(manager, HOST), f"g:bot_lvl:{gid}:2:easy")  # a double click
    forged = click(manager, HOST)
    await BUTTONS.dispatch(forged, f"g:bot_lvl:{gid}:1:random")  # not offered to players
    assert [c.level for c in lobby.computers] == ["hard", "easy"]
    assert (await ledger.notes(gid))[COMPUTERS_NOTE] == ["hard", "easy"]
    text = as_text(compose(KamizaPresenter(FakeBot()).lobby_board(lobby, "en")))
    assert "🤖 Bot 1 (hard)" in text and "🤖 Bot 2 (easy)" in text

    again = await restarted(ledger, manager, lobby)
    assert [c.level for c in again.computers] == ["hard", "easy"]
    tables = make_manager(ledger, Recorder())
    tables.thinker = Thinker(think_ms=5)  # in-process, quick: this test is not about strength
    assert await tables.restore() == (1, 0)
    table = await tables.start(tables.get(gid), HOST)
    assert table.levels == {"bot-1": "hard", "bot-2": "easy"}
    await tables.shutdown()

    restored = make_manager(ledger, Recorder())
    restored.thinker = Thinker(think_ms=5)
    assert await restored.restore() == (0, 1)
    table = restored.get(gid)
    assert isinstance(table, Table) and table.levels == {"bot-1": "hard", "bot-2": "easy"}
    rng = random.Random(1)
    for _ in range(2000):
        if table.closed:
            break
        nxt = table.state.next()
        if nxt is not None and not table.seats[nxt.player].is_bot:
            await table.act(nxt.player, random_action(table.state, nxt.player, rng))
        await asyncio.sleep(0.005)
    record = await ledger.get_game(gid)
    assert record.status == "finished"
    rematch = await restored.open_rematch(record, [ANN])
    assert [c.level for c in rematch.computers] == ["hard", "easy"]
    assert players(rematch) == ["1", "2", "bot-1", "bot-2"]
    await restored.shutdown()
