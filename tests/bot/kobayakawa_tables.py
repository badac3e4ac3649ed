"""Kobayakawa tables for presenter tests: a game dealt as asked or played at random, seated
with members and computers, as the table runtime hands it to the presenter (no Discord)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import discord

from bot.kobayakawa.presenter import KobayakawaPresenter
from bot.runtime.lobby import BOT_PREFIX
from bot.runtime.memory import Memory
from bot.runtime.moment import Moment
from data.store import Seat
from rules.base import Event
from rules.kobayakawa import Kobayakawa

GAME_ID = 7
# The longest display names a member may have (32 characters), in Japanese.
LONG_NAMES = [
    (name * 32)[:32]
    for name in ("小早川秀秋", "さくらもち", "織田信長様", "徳川家康公", "豊臣秀吉殿", "毛利元就殿")
]


def dealt(
    players: Sequence[str], *front: int, start: str | None = None, simultaneous: bool = False
) -> Kobayakawa:
    """`players` dealt the cards `front` clockwise from the start player (the first player
    unless `start` says otherwise), then the Kobayakawa and the pile; the same deck each round.
    `simultaneous`: the house rule H-2 (the fight phase chosen by everyone at once)."""
    deck = [*front, *(n for n in range(1, 16) if n not in front)]
    setup = {"start_player": start or players[0], "decks": [deck] * 7}
    options = {"simultaneous": True} if simultaneous else {}
    return Kobayakawa.create(list(players), options, setup)


def seats(players: Sequence[str], names: Sequence[str]) -> dict[str, Seat]:
    """A seat each, in order: "bot-N" players are computers, the others members named `names`."""
    return {
        p: Seat(p, None, f"Bot {p.removeprefix(BOT_PREFIX)}", True)
        if p.startswith(BOT_PREFIX)
        else Seat(p, 100 + n, name)
        for n, (p, name) in enumerate(zip(players, names, strict=True))
    }


def table(
    state: Kobayakawa, seated: dict[str, Seat], autopilot: Iterable[str] = (), seq: int = 0
) -> Any:
    """What the presenter reads of a table (`bot.runtime.table.Table`)."""
    return SimpleNamespace(
        state=state,
        seq=seq,
        seats=seated,
        autopilot=set(autopilot),
        game_id=GAME_ID,
        memory=Memory(),
        message_ids={},
        place=SimpleNamespace(guild_id=1, home=2),
        levels={},  # the computer seats' levels: not shown here
    )


def moment(table: Any) -> Moment[Kobayakawa]:
    state = table.state
    return Moment(table.seq, state, state.round_number(), frozenset(table.autopilot), None)


class Presenter(KobayakawaPresenter):
    """The real presenter, in `lang`; with `by_name`, members are named by their display names
    (longer than any mention) to try the limits."""

    def __init__(self, lang: str = "en", by_name: bool = False) -> None:
        locale = discord.Locale.japanese if lang == "ja" else discord.Locale.american_english
        guild = SimpleNamespace(preferred_locale=locale)
        super().__init__(SimpleNamespace(get_guild=lambda guild_id: guild))  # type: ignore[arg-type]
        self.by_name = by_name

    def seat_name(self, table: Any, player: str) -> str:
        seat = table.seats[player]
        if self.by_name and not seat.is_bot:
            return str(seat.display_name)
        return super().seat_name(table, player)


def random_play(
    state: Kobayakawa, rng: random.Random, depth: int
) -> Iterable[tuple[str, Sequence[Event]]]:
    """Up to `depth` random legal actions (a draw sometimes looked at first, as Draw does),
    each with the events it made."""
    for _ in range(depth):
        nxt = state.next()
        if nxt is None:
            return
        if state.drawn_card(nxt.player) is not None and rng.random() < 0.5:
            state.look(nxt.player)
        action = rng.choice(state.legal_actions(nxt.player))
        yield nxt.player, state.apply(nxt.player, action)
