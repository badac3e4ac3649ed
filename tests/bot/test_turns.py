"""Whose turn begins (`bot.runtime.moment`), the moment a presenter words, and the ping that tells
a member their turn (`MessagePresenter.turn`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import discord

from bot.kamiza.presenter import KamizaPresenter
from bot.runtime.lobby import bot_seat, human_seat
from bot.runtime.moment import Moment, moment_of, step_opened, turn_began
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables.pings import PING_MESSAGE
from rules.agents import random_action
from rules.base import Next
from rules.log import new_header, start
from tests.bot.fakes import FakeBot
from tests.bot.test_losers_presenter import Ledger

SEATS = {"1": human_seat(1, "ann"), "2": human_seat(2, "ben"), "bot-1": bot_seat(1)}


@dataclass
class At:
    """A game reduced to who acts and which round it is."""

    player: str | None
    round: int = 1

    def next(self) -> Next | None:
        return Next(self.player, "play") if self.player else None

    def round_number(self) -> int:
        return self.round


def began(before: At | None, now: At, autopilot: set[str] | None = None) -> str | None:
    state: Any = now  # only `next` and `round_number` are read
    was = (before.next(), before.round) if before else (None, None)
    return turn_began(was[0], was[1], state, SEATS, autopilot or set())


def test_a_turn_begins_when_a_member_comes_to_act_or_a_new_round_begins() -> None:
    assert began(None, At("1")) == "1"  # the table opens (or is restored): whoever acts
    assert began(At("2"), At("1")) == "1"
    assert began(At("1"), At("1")) is None  # a chip after a chip: the same turn
    assert began(At("1", 1), At("1", 2)) == "1"  # the same member opens the next round
    assert began(At("1"), At("bot-1")) is None  # computer seats are not told
    assert began(At("2"), At("1"), autopilot={"1"}) is None  # the table plays for them
    assert began(At("1"), At(None)) is None  # the game is over


def test_a_moment_keeps_the_table_as_its_action_left_it() -> None:
    players = ["1", "2", "bot-1"]
    state = start(new_header("kamiza", players, {}, seed=4))
    rng = random.Random(4)
    moment = moment_of(3, state, {"2"}, "1")
    shown = moment.state.observation(None)
    while (nxt := state.next()) is not None and state.round_number() == moment.round:
        state.apply(nxt.player, random_action(state, nxt.player, rng))
    assert state.round_number() == moment.round + 1  # the table played the round out
    assert moment.state.observation(None) == shown and moment.autopilot == {"2"}


def kamiza_table(bot: FakeBot) -> Table[Any]:
    return Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=list(SEATS.values()),
        state=start(new_header("kamiza", list(SEATS), {}, seed=4)),
        seq=0,
        ledger=Ledger(),  # type: ignore[arg-type]
        presenter=None,  # type: ignore[arg-type]
        timing=Timing(turn_seconds=3600),
    )


async def test_a_ping_is_a_new_message_to_that_member_alone_and_goes_when_the_turn_ends() -> None:
    bot = FakeBot()
    presenter = KamizaPresenter(bot)  # type: ignore[arg-type]
    table = kamiza_table(bot)

    def at(player: str | None, turn_of: str | None) -> Moment[Any]:
        state: Any = At(player)
        return Moment(table.seq, state, 1, frozenset(), turn_of)

    await presenter.turn(table, at("1", "1"))
    [ping] = bot.posted
    assert (ping.kind, ping.content) == ("send", "Your turn, <@1>.")
    allowed: discord.AllowedMentions = ping.kwargs["allowed_mentions"]
    assert [u.id for u in allowed.users] == [1] and not allowed.everyone and not allowed.roles
    assert table.message_ids[PING_MESSAGE] == ping.message_id

    await presenter.turn(table, at("1", None))  # the same turn goes on: nothing to do
    assert len(bot.posted) == 1
    await presenter.turn(table, at("2", "2"))  # the next member's: the old ping goes first
    deleted, new = bot.posted[1:]
    assert (deleted.kind, deleted.message_id) == ("delete", ping.message_id)
    assert (new.kind, new.content) == ("send", "Your turn, <@2>.")
    await presenter.turn(table, at("bot-1", None))  # a computer's turn: no ping stands
    assert [p.kind for p in bot.posted[3:]] == ["delete"] and PING_MESSAGE not in table.message_ids


@dataclass
class Step:
    """A game reduced to a step of choices made at once (H-1): who still chooses, and the round."""

    waiting: tuple[str, ...]
    round: int = 1

    def next(self) -> Next | None:
        return Next(self.waiting[0], "play", self.waiting) if self.waiting else None

    def round_number(self) -> int:
        return self.round


def test_h1_a_step_is_nobodys_turn_and_opens_once_for_its_members() -> None:
    state: Any = Step(("1", "2", "bot-1"))
    assert turn_began(None, None, state, SEATS, set()) is None
    assert step_opened(None, None, state, SEATS, set()) == ("1", "2")  # computers: not told
    assert step_opened(Next("1", "play"), 1, state, SEATS, {"2"}) == ("1",)  # autopilot: not
    chose: Any = Step(("2", "bot-1"))
    assert step_opened(state.next(), 1, chose, SEATS, set()) == ()  # someone chose: goes on
    later: Any = Step(("1", "2", "bot-1"), round=2)
    assert step_opened(chose.next(), 1, later, SEATS, set()) == ("1", "2")  # the next round


async def test_h1_a_step_pings_its_members_once_together_and_the_ping_goes_with_the_step() -> None:
    bot = FakeBot()
    presenter = KamizaPresenter(bot)  # type: ignore[arg-type]
    table = kamiza_table(bot)

    def at(waiting: tuple[str, ...], opened: tuple[str, ...], round_no: int = 1) -> Moment[Any]:
        return Moment(
            table.seq, Step(waiting, round_no), round_no, frozenset(), None, False, opened
        )  # type: ignore[arg-type]

    await presenter.turn(table, at(("1", "2", "bot-1"), ("1", "2")))
    [ping] = bot.posted
    assert ping.content == "Choose now, all at the same time: <@1>, <@2>."
    assert [u.id for u in ping.kwargs["allowed_mentions"].users] == [1, 2]
    await presenter.turn(table, at(("2", "bot-1"), ()))  # one chose: the step goes on
    await presenter.turn(table, at(("2",), ()))
    assert bot.posted == [ping]
    await presenter.turn(table, at(("1", "2", "bot-1"), ("1", "2"), round_no=2))
    assert [p.kind for p in bot.posted] == ["send", "delete", "send"]
    assert bot.posted[1].message_id == ping.message_id
