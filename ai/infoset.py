"""What a computer player is given: one player's information set, never the state itself.

An agent decides from an `InfoSet`: the player's own `observation`, the `legal_actions`, and
`sample(rng)`, a fresh full state drawn among those that give this player the same observation
(`Game.determinize`). The true state stays behind `sample`'s closure; an agent that searches
plays its moves on samples, so what it decides can depend on the observation and its own RNG
only (tests/ai check exactly that).

Kobayakawa's draw turn (B-3) is two steps at a real table: a player draws and looks, then keeps
one card; or replaces the Kobayakawa unseen. The log knows one action (`Draw(keep)`), so an
agent that wants to see the drawn card first answers `LOOK`; `decide` then shows the card
(`Kobayakawa.look`, as the bot's "Draw" button does) and asks again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from rules.base import AnyGame


class Look:
    """Kobayakawa, B-3: "show me the drawn card, then I choose which to keep"."""

    def __repr__(self) -> str:
        return "LOOK"


LOOK: Final = Look()


@dataclass(frozen=True, slots=True, eq=False)
class InfoSet:
    """One player's view of a game at their decision (G-3), with a sampler to search on."""

    game: str
    player: str
    players: tuple[str, ...]
    observation: Any
    legal_actions: tuple[Any, ...]
    can_look: bool
    _sample: Callable[[random.Random], AnyGame]

    def sample(self, rng: random.Random) -> AnyGame:
        """A fresh full state that gives `player` this observation, hidden parts drawn from
        `rng`: the agent's own copy, to play on as it likes."""
        return self._sample(rng)


def info_set(state: AnyGame, player: str) -> InfoSet:
    """`player`'s information set in `state` (it must be their turn)."""
    snapshot = state.clone()  # later changes to the table's state do not reach the agent

    def sample(rng: random.Random) -> AnyGame:
        return snapshot.determinize(player, rng)

    return InfoSet(
        game=state.name,
        player=player,
        players=tuple(state.players),
        observation=state.observation(player),
        legal_actions=tuple(state.legal_actions(player)),
        can_look=may_look(state, player),
        _sample=sample,
    )


def may_look(state: AnyGame, player: str) -> bool:
    """Kobayakawa, B-3: whether `player` may draw and look at the top card now."""
    has_looked = getattr(state, "has_looked", None)
    if has_looked is None or state.next() is None:
        return False
    seen = state.observation(player)
    return bool(seen.phase == "draw" and seen.to_act == player and not has_looked(player))


class Agent(Protocol):
    """A computer player of one level: an action of `info.legal_actions`, or `LOOK` when
    `info.can_look`. Deterministic for a given `info` observation and `rng` state."""

    @property
    def level(self) -> str: ...

    def act(self, info: InfoSet, rng: random.Random) -> Any: ...


def decide(state: AnyGame, player: str, agent: Agent, rng: random.Random) -> Any:
    """`agent`'s action for `player` now. A `LOOK` answer shows the drawn card on `state` (as the
    bot's "Draw" button does; not a log action) and asks again, so the return is always a legal
    action."""
    action = agent.act(info_set(state, player), rng)
    if action is LOOK:
        state.look(player)  # type: ignore[attr-defined]  # only Kobayakawa answers LOOK
        action = agent.act(info_set(state, player), rng)
        if action is LOOK:
            raise ValueError(f"{agent.level}: LOOK twice in one draw turn")
    return action
