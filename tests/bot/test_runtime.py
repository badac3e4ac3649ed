"""The table runtime without Discord: a recording presenter and a real ledger file."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.runtime import storage, turn_clock
from bot.runtime.errors import StaleButton, TableError, TableExists
from bot.runtime.lobby import Lobby
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.storage import remember
from bot.runtime.table import Table
from data.backends import open_ledger
from data.errors import LedgerFull
from rules.agents import random_action
from rules.base import IllegalAction
from rules.log import replay

GUILD, CHANNEL = 10, 20


class Recorder:
    """A presenter that remembers every call, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.changed = asyncio.Event()

    def _note(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))
        self.changed.set()

    def named(self, name: str) -> list[Any]:
        return [args for n, args in self.calls if n == name]

    async def lobby_changed(self, lobby: Lobby) -> None:
        self._note("lobby_changed", len(lobby.seats))

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        self._note("lobby_closed", reason)

    def recall(self, table: Table, log: Any) -> None:
        self._note("recall", len(log["actions"]))

    async def table_opened(self, table: Table, restored: bool, moment: Any) -> None:
        self._note("table_opened", restored)

    async def events(
        self, table: Table, player: str, events: Sequence[Any], cause: str, moment: Any
    ) -> None:
        self._note("events", player, [e.kind for e in events], cause, moment)

    async def turn(self, table: Table, moment: Any) -> None:
        self._note("turn", moment.turn_of)

    async def reminder(self, table: Table, player: str, seconds_left: int) -> None:
        self._note("reminder", player)

    async def autopilot_changed(self, table: Table, player: str, on: bool) -> None:
        self._note("autopilot", player, on)

    async def finished(self, table: Table, results: Sequence[Any]) -> None:
        self._note("finished", [(r.player, r.rank, r.winner) for r in results])

    async def cancelled(self, table: Table, reason: str) -> None:
        self._note("cancelled", reason)


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def make_manager(ledger, recorder: Recorder, **defaults: Any) -> TableManager:
    params = {"turn_seconds": 60, "lobby_seconds": 600, "bot_delay": 0.0} | defaults
    return TableManager(ledger, {"kamiza": recorder}, Defaults(**params))


async def open_and_start(
    manager: TableManager, humans: int, bots: int = 0, home: int = CHANNEL
) -> Table:
    place = Place(GUILD, home, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="host", options={}, bots=bots
    )
    for uid in range(2, humans + 1):
        await lobby.join(uid, f"user{uid}")
    return await manager.start(lobby, 1)


async def until(predicate, recorder: Recorder, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not predicate():
            recorder.changed.clear()
            await recorder.changed.wait()

    await asyncio.wait_for(wait(), timeout)


async def play_out(table: Table, seed: int = 0) -> None:
    rng = random.Random(seed)
    while (nxt := table.state.next()) is not None and not table.seats[nxt.player].is_bot:
        await table.act(nxt.player, random_action(table.state, nxt.player, rng))


async def test_full_match_is_written_before_it_is_shown_and_results_recorded(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=4)
    await play_out(table)
    await table.outbox.drain()
    assert table.closed and manager.get(table.game_id) is None
    record = await ledger.get_game(table.game_id)
    assert record.status == "finished"
    answer = replay(record.log())
    assert answer["scores"] == table.state.scores()
    finished = recorder.named("finished")
    assert len(finished) == 1
    assert {p for p, rank, winner in finished[0][0] if winner} == set(answer["winners"])
    assert len(recorder.named("events")) == len(record.actions) == table.seq
    # KAMIZA passes the turn with every play: a turn begins at the opening and after each play
    # but the last, each told once; and every presenter job words its own action's moment
    told = [player for (player,) in recorder.named("turn") if player is not None]
    assert len(told) == len(record.actions)
    assert [args[3].seq for args in recorder.named("events")] == list(range(1, table.seq + 1))


async def test_stale_and_double_clicks_apply_once(ledger) -> None:
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    nxt = table.state.next().player
    action = table.state.legal_actions(nxt)[0]
    results = await asyncio.gather(
        table.act(nxt, action, expected_seq=0),
        table.act(nxt, action, expected_seq=0),
        return_exceptions=True,
    )
    assert sum(1 for r in results if isinstance(r, list)) == 1
    assert any(isinstance(r, StaleButton) for r in results)
    assert table.seq == 1
    record = await ledger.get_game(table.game_id)
    assert len(record.actions) == 1


async def test_illegal_action_and_ledger_failure_change_nothing(ledger, monkeypatch) -> None:
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    nxt = table.state.next().player
    other = next(p for p in table.seats if p != nxt)
    before = table.state.view(None)
    with pytest.raises(IllegalAction):
        await table.act(other, table.state.legal_actions(nxt)[0])

    async def broken(*args: Any, **kwargs: Any) -> bool:
        raise OSError("disk full")

    monkeypatch.setattr(ledger, "append_action", broken)
    with pytest.raises(OSError):
        await table.act(nxt, table.state.legal_actions(nxt)[0])
    assert table.state.view(None) == before and table.seq == 0


async def test_a_games_end_the_disk_cannot_hold_is_tried_again_then_announced(
    ledger, monkeypatch
) -> None:
    """The last action is committed and stays played; the end (results, ratings: one
    transaction) that the full disk refuses is written on a later try, and announced once."""
    monkeypatch.setattr(storage, "RETRY_PAUSES", (0.01, 0.01, 0.01))
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=3)
    finish, refusals = ledger.finish_game, [LedgerFull("disk full")] * 2
    after_first_try: list[tuple[bool, bool]] = []  # (over, closed) when the retry came

    async def full_twice(game_id: int) -> Any:
        if len(refusals) == 1:
            after_first_try.append((table.state.over, table.closed))
        if refusals:
            raise refusals.pop()
        return await finish(game_id)

    monkeypatch.setattr(ledger, "finish_game", full_twice)
    await play_out(table)  # the last play is acknowledged: no error for its click
    # The end is written after the last play's messages; its first try met the full disk: the
    # game was over, and the table still open, when it was tried again.
    await until(lambda: recorder.named("finished"), recorder)
    assert not refusals
    await table.outbox.drain()
    record = await ledger.get_game(table.game_id)
    assert record.status == "finished" and len(record.actions) == table.seq
    assert len(recorder.named("finished")) == 1 and table.closed
    assert after_first_try == [(True, False)]


async def test_a_games_end_never_saved_is_redone_from_the_ledger_at_the_next_start(
    ledger, monkeypatch
) -> None:
    monkeypatch.setattr(storage, "RETRY_PAUSES", (0.01, 0.01))
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    finish = ledger.finish_game

    async def full(game_id: int) -> Any:
        raise LedgerFull("disk full")

    monkeypatch.setattr(ledger, "finish_game", full)
    await play_out(table)
    await asyncio.sleep(0.2)  # every try spent
    record = await ledger.get_game(table.game_id)
    assert record.status == "running" and record.results == []  # nothing half-written
    await manager.shutdown()

    monkeypatch.setattr(ledger, "finish_game", finish)  # space again; the bot starts again
    recorder = Recorder()
    second = make_manager(ledger, recorder)
    await second.restore()
    await until(lambda: recorder.named("finished"), recorder)
    record = await ledger.get_game(table.game_id)
    assert record.status == "finished"
    assert replay(record.log())["scores"] == {r.player: r.score for r in record.results}
    await second.shutdown()


async def test_a_seat_move_the_disk_refuses_is_tried_again_without_a_traceback(
    ledger, monkeypatch, caplog
) -> None:
    monkeypatch.setattr(turn_clock, "ACT_FOR_BACKOFF", (0.01, 0.01, 0.01))
    manager = make_manager(ledger, Recorder(), turn_seconds=0.2)
    table = await open_and_start(manager, humans=2, bots=1)
    append, refused = ledger.append_action, []

    async def full(*args: Any) -> bool:
        refused.append(args)
        raise LedgerFull("disk full")

    monkeypatch.setattr(ledger, "append_action", full)
    seq = table.seq
    # The turn's clock runs out, tries, gives up, starts over (however busy the machine is).
    await asyncio.wait_for(_refused_at_least(refused, 4), 15)
    began = len(refused)
    await asyncio.sleep(0.3)
    assert table.seq == seq
    assert len(refused) - began < 20  # bounded: a try per turn and backoff, not a hot loop
    assert not [r for r in caplog.records if r.exc_info]  # no traceback
    monkeypatch.setattr(ledger, "append_action", append)
    await asyncio.wait_for(_moved(table, seq), 5)
    await manager.shutdown()


async def _refused_at_least(refused: list[Any], count: int) -> None:
    while len(refused) < count:
        await asyncio.sleep(0.02)


async def _moved(table: Table, seq: int) -> None:
    while table.seq == seq:
        await asyncio.sleep(0.02)


async def test_bots_fill_seats_and_play_within_the_table(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=1, bots=3)
    assert sum(s.is_bot for s in table.seats.values()) == 3
    rng = random.Random(1)
    while not table.closed:
        nxt = table.state.next()
        if nxt is not None and not table.seats[nxt.player].is_bot:
            await table.act(nxt.player, random_action(table.state, nxt.player, rng))
        else:
            await until(lambda seq=table.seq: table.closed or table.seq != seq, recorder)
    record = await ledger.get_game(table.game_id)
    assert record.status == "finished"
    causes = {args[2] for args in recorder.named("events")}
    assert causes == {"player", "bot"}


async def test_turn_timer_plays_for_absent_player_then_autopilot(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=0.05)
    table = await open_and_start(manager, humans=3)
    await until(lambda: table.closed, recorder, timeout=30)
    await table.outbox.drain()
    causes = [args[2] for args in recorder.named("events")]
    assert causes.count("timeout") == 6  # two expiries per player, then autopilot
    assert set(causes) == {"timeout", "autopilot"}
    assert {args[0] for args in recorder.named("autopilot")} == set(table.seats)
    assert recorder.named("reminder")


async def test_back_from_autopilot(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder, turn_seconds=60)
    table = await open_and_start(manager, humans=3)
    player = table.state.next().player
    table.autopilot.add(player)
    assert await table.back(player) is True
    assert await table.back(player) is False
    assert player not in table.autopilot
    await table.outbox.drain()
    assert recorder.named("turn")[-1] == (player,)  # back on their own turn: told it afresh


async def test_restart_restores_lobbies_and_tables(ledger, tmp_path: Path) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=3)
    rng = random.Random(5)
    for _ in range(5):
        nxt = table.state.next().player
        await table.act(nxt, random_action(table.state, nxt, rng))
    place = Place(GUILD, CHANNEL + 1, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=7, host_name="h", options={"edition": "classic"}, bots=1
    )
    await manager.shutdown()

    second = make_manager(ledger, Recorder())
    assert await second.restore() == (1, 1)
    again = second.get(table.game_id)
    assert isinstance(again, Table) and again.seq == 5
    assert again.state.view(None) == table.state.view(None)
    restored_lobby = second.at(CHANNEL + 1)
    assert isinstance(restored_lobby, Lobby)
    assert restored_lobby.options == {"edition": "classic", "advanced": False}
    assert [s.player for s in restored_lobby.seats] == [s.player for s in lobby.seats]
    await second.shutdown()


async def test_one_table_per_channel_and_lobby_rules(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    place = Place(GUILD, CHANNEL, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="host", options={}, bots=2
    )
    with pytest.raises(TableExists):
        manager.reserve(place.home)
    await lobby.join(2, "two")  # the lobby is full with bots: a bot gives way
    assert [s.is_bot for s in lobby.seats] == [False, False, True, True]
    with pytest.raises(TableError, match=r"lobby\.already_seated"):
        await lobby.join(2, "two")
    await lobby.join(3, "three")
    await lobby.join(4, "four")
    with pytest.raises(TableError, match=r"lobby\.full"):
        await lobby.join(5, "five")
    with pytest.raises(TableError, match=r"lobby\.only_host_starts"):
        await manager.start(lobby, 2)
    await lobby.leave(1)  # the host leaves: the next player hosts
    assert lobby.host_id == 2
    for uid in (2, 3, 4):
        await lobby.leave(uid)
    assert lobby.closed and manager.at(CHANNEL) is None
    record = await ledger.get_game(lobby.game_id)
    assert record.status == "cancelled"


async def test_lobby_expires(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder, lobby_seconds=0)
    place = Place(GUILD, CHANNEL, None)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="h", options={}, bots=0
    )
    await until(lambda: lobby.closed, recorder)
    assert (await ledger.get_game(lobby.game_id)).status == "abandoned"


async def test_cancel_ends_without_results(ledger) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=3)
    await table.cancel("cancel.by_user")
    await table.outbox.drain()
    assert (await ledger.get_game(table.game_id)).status == "cancelled"
    assert recorder.named("cancelled") == [("cancel.by_user",)]


async def test_an_end_not_yet_announced_is_announced_after_a_restart(ledger, monkeypatch) -> None:
    recorder = Recorder()
    manager = make_manager(ledger, recorder)
    table = await open_and_start(manager, humans=3)
    table.announce_end = lambda **kwargs: None  # type: ignore[method-assign]  # dies right here
    await play_out(table)
    await table.outbox.drain()  # the end is written after the last play's messages
    assert (await ledger.get_game(table.game_id)).status == "finished"
    assert [r.id for r in await ledger.unannounced_games()] == [table.game_id]

    marked = asyncio.Event()
    mark = ledger.mark_announced

    async def mark_and_tell(game_id: int) -> None:
        await mark(game_id)
        marked.set()

    monkeypatch.setattr(ledger, "mark_announced", mark_and_tell)
    second_recorder = Recorder()
    second = make_manager(ledger, second_recorder)
    assert await second.restore() == (0, 0)
    await asyncio.wait_for(marked.wait(), 10)
    [(_, kinds, _, _)] = second_recorder.named("events")
    assert "round_revealed" in kinds and "match_ended" in kinds  # the final reveal, replayed
    assert len(second_recorder.named("finished")) == 1
    assert await ledger.unannounced_games() == []


async def test_autopilot_and_message_ids_survive_a_restart(ledger) -> None:
    manager = make_manager(ledger, Recorder(), turn_seconds=60)
    table = await open_and_start(manager, humans=3)
    player = next(iter(table.seats))
    table.message_ids["table"] = 1234
    await table.remember_messages()
    table.expiries[player] = 1
    table.autopilot.add(player)
    await remember(ledger, table.game_id, "autopilot", [player])
    await manager.shutdown()
    second = make_manager(ledger, Recorder())
    await second.restore()
    again = second.get(table.game_id)
    assert again.autopilot == {player} and again.message_ids["table"] == 1234
    await second.shutdown()


def test_computer_players_are_named_in_the_servers_language_without_an_honorific() -> None:
    from bot.runtime.lobby import bot_seat, human_seat
    from bot.tables.messages import mention

    assert mention(bot_seat(2), "en") == "🤖 Bot 2"
    assert mention(bot_seat(2), "ja") == "🤖 ボット2"
    assert mention(human_seat(42, "ann"), "en") == "<@42>"
    assert mention(human_seat(42, "ann"), "ja") == "<@42>さん"  # members only get the honorific


async def test_a_game_that_will_not_replay_is_set_aside_once_and_blocks_nothing(
    ledger, monkeypatch
) -> None:
    marked = asyncio.Event()
    mark = ledger.mark_announced

    async def mark_and_tell(game_id: int) -> None:
        await mark(game_id)
        marked.set()

    monkeypatch.setattr(ledger, "mark_announced", mark_and_tell)
    manager = make_manager(ledger, Recorder())
    bad = await open_and_start(manager, humans=3)
    good = await open_and_start(manager, humans=3, home=CHANNEL + 5)
    await manager.shutdown()
    player = bad.state.next().player  # a forged entry written behind the rules' back
    await ledger.append_action(bad.game_id, 0, {"player": player, "card": "boss", "area": "up"})

    recorder = Recorder()
    second = make_manager(ledger, recorder)
    assert await second.restore() == (0, 1)
    assert isinstance(second.get(good.game_id), Table) and second.get(bad.game_id) is None
    record = await ledger.get_game(bad.game_id)
    assert (record.status, record.end_reason) == ("abandoned", "table.set_aside")
    await asyncio.wait_for(marked.wait(), 10)
    assert recorder.named("cancelled") == [("table.set_aside",)]
    await second.shutdown()

    third_recorder = Recorder()
    third = make_manager(ledger, third_recorder)
    assert await third.restore() == (0, 1)  # told once: nothing more about the bad game
    await third.shutdown()
    assert third_recorder.named("cancelled") == []
    assert await ledger.unannounced_games() == []


async def test_a_finished_game_that_will_not_replay_does_not_stop_the_start(
    ledger, tmp_path: Path
) -> None:
    manager = make_manager(ledger, Recorder())
    table = await open_and_start(manager, humans=3)
    table.announce_end = lambda **kwargs: None  # type: ignore[method-assign]  # dies right here
    await play_out(table)
    await table.outbox.drain()  # the end is written after the last play's messages
    with sqlite3.connect(tmp_path / "ledger.sqlite3") as raw:  # damage behind the ledger's back
        raw.execute("DROP TRIGGER actions_no_update")
        raw.execute(
            "UPDATE actions SET action = ? WHERE game_id = ? AND seq = 0",
            ('{"player": "1", "card": "joker", "area": "kamiza"}', table.game_id),
        )
    second = make_manager(ledger, Recorder())
    assert await second.restore() == (0, 0)
    assert await ledger.unannounced_games() == []


async def test_acting_for_a_seat_retries_a_few_times_then_gives_up_loudly(
    ledger, monkeypatch, caplog
) -> None:
    import bot.runtime.turn_clock as turn_clock_module

    monkeypatch.setattr(turn_clock_module, "ACT_FOR_BACKOFF", (0.01, 0.02, 0.04))
    manager = make_manager(ledger, Recorder(), turn_seconds=3600)
    table = await open_and_start(manager, humans=1, bots=2)
    while not table.seats[table.state.next().player].is_bot:  # a human starts: play for them
        human = table.state.next().player
        await table.act(human, table.state.legal_actions(human)[0])
    tries = 0
    gave_up = asyncio.Event()

    async def broken_append(*args: Any) -> None:
        nonlocal tries
        tries += 1
        raise OSError("disk I/O error")

    monkeypatch.setattr(ledger, "append_action", broken_append)
    caplog.set_level("WARNING")
    caplog.handler.emit = (  # type: ignore[method-assign]
        lambda record, emit=caplog.handler.emit: (
            emit(record),
            gave_up.set() if "gave up" in record.getMessage() else None,
        )
    )
    seq = table.seq
    table.schedule()
    await asyncio.wait_for(gave_up.wait(), 10)
    await asyncio.sleep(0.1)
    assert tries == 4  # the first try and one per pause, then no more until a turn has passed
    assert table.seq == seq and not table.closed
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1
    await table.stop()


async def test_lobbies_per_host_and_tables_per_server_are_limited(ledger) -> None:
    manager = make_manager(ledger, Recorder(), lobbies_per_host=1, tables_per_server=3)

    async def open_at(home: int, host: int, guild: int = GUILD) -> Lobby:
        place = Place(guild, home, None)
        manager.reserve(place.home)
        return await manager.open_lobby(
            game="kamiza", place=place, host_id=host, host_name="h", options={}, bots=0
        )

    first = await open_at(CHANNEL, host=1)
    with pytest.raises(TableError, match=r"lobby\.host_limit"):
        await open_at(CHANNEL + 1, host=1)
    assert manager.at(CHANNEL + 1) is None
    await open_at(CHANNEL + 1, host=1, guild=GUILD + 1)  # another server: its own limits
    await first.join(2, "two")
    await first.join(3, "three")
    await manager.start(first, 1)  # a started table no longer counts as the host's lobby
    await open_at(CHANNEL + 2, host=1)
    await open_at(CHANNEL + 3, host=2)
    with pytest.raises(TableError, match=r"error\.server_table_limit"):
        await open_at(CHANNEL + 4, host=3)
    games = [g for g in await ledger.unfinished_games() if g.guild_id == GUILD]
    assert len(games) == 3  # nothing was written for the refused lobbies
    await manager.shutdown()
