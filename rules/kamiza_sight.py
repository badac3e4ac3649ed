"""Copies and sights of a KAMIZA state: `clone`, `determinize`, `observation`, `view` (G-3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Self

from rules.base import Next
from rules.kamiza_judge import PlayedCard
from rules.kamiza_memo import CODE_BASE, EDITION_CODES, PLAY_CODES, RoundTemplate
from rules.kamiza_moves import GAMES_PER_MATCH, ROUNDS_PER_GAME, Holding, Play, holding, step
from rules.kamiza_view import KamizaObservation, RoundRecord, TableCard

# The last judged round: (game, round, its start player, its plays, its template).
LastRound = tuple[int, int, str, tuple[PlayedCard, ...], RoundTemplate]


class KamizaSight:
    """The copying and seeing part of `Kamiza`, reading the state's fields."""

    players: tuple[str, ...]
    edition: str
    advanced: bool
    cards: tuple[str, ...]
    totals: dict[str, int]
    wanted: dict[str, int]
    dropped: list[str]
    game_index: int
    round_index: int
    start_player: str
    order: tuple[str, ...]
    plays: tuple[PlayedCard, ...]
    finished: bool
    _game_rounds: tuple[tuple[PlayedCard, ...], ...]
    _last: LastRound | None
    _code: int
    _holdings: dict[str, Holding]
    simultaneous: bool
    _chosen: Mapping[str, Play]  # kamiza_together: a step's choices kept aside (H-1)

    def next(self) -> Next | None:
        raise NotImplementedError

    def winners(self) -> list[str]:
        raise NotImplementedError

    def details(self) -> dict[str, Any]:
        game_no, round_no = self.position()
        return {
            "edition": self.edition,
            "game_number": game_no,
            "round": round_no,
            "start_player": self.start_player,
            "wanted": dict(self.wanted),
            "dropped": list(self.dropped),
        }

    @property
    def hands(self) -> dict[str, tuple[str, ...]]:
        """Each player's cards not played yet this game, in set order (K-2): a fresh dict, read
        from their Holdings (the state changes through `apply` only)."""
        return {p: held.hand for p, held in self._holdings.items()}

    # -- copies ------------------------------------------------------------------------------------

    def clone(self) -> Self:
        """Shares every container but `_holdings`, which `apply` changes in place."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._holdings = self._holdings.copy()
        return twin

    def determinize(self, player: str, rng: random.Random) -> Self:
        """The other players' face-down cards of this round drawn at random among the cards each
        could have played (their cards not revealed this game); their hands follow. Nothing else
        is hidden in KAMIZA: every earlier card of the game was revealed (K-2, K-3)."""
        twin = self.clone()
        revealed = self.revealed
        plays = []
        code = EDITION_CODES[self.edition]
        for play in self.plays:
            if play.player != player and not (self.advanced and play.player == self.start_player):
                could_hold = [card for card in self.cards if card not in revealed[play.player]]
                card = rng.choice(could_hold)
                rest = tuple(c for c in could_hold if c != card)
                twin._holdings[play.player] = holding(play.player, rest)
                play = step(play.player, card, play.area)[0]
            plays.append(play)
            code = code * CODE_BASE + PLAY_CODES[play.card, play.area]
        twin.plays = tuple(plays)
        twin._code = code
        return twin  # whose turn is unchanged: a player on turn has played nothing this round

    # -- what is seen ----------------------------------------------------------------------------

    @property
    def revealed(self) -> dict[str, tuple[str, ...]]:
        """Each player's cards revealed this game, in the order they were played."""
        revealed: dict[str, tuple[str, ...]] = dict.fromkeys(self.players, ())
        for plays in self._game_rounds:
            for play in plays:
                revealed[play.player] += (play.card,)
        return revealed

    def position(self) -> tuple[int, int]:
        """The 1-based (game, round) being played, or the last one once the match is over."""
        if self.game_index == GAMES_PER_MATCH:
            return GAMES_PER_MATCH, ROUNDS_PER_GAME
        if self.finished and self._last is not None:
            return self._last[0], self._last[1]
        return self.game_index + 1, self.round_index + 1

    def round_number(self) -> int:
        """Rounds counted over the match (K-1: three games of three rounds); 10 once over."""
        return self.game_index * ROUNDS_PER_GAME + self.round_index + 1

    def observation(self, player: str | None) -> KamizaObservation:
        """G-3: own hand; face-down cards as areas only, but the start player's under advanced.
        H-1: of a step's choices, a player sees their own and, of the others, only who chose."""
        face_up = self.start_player if self.advanced else None
        table = tuple(
            TableCard(p.player, p.area, p.card if p.player in (player, face_up) else None)
            for p in self.plays
        )
        chosen = self._chosen
        mine = chosen.get(player) if chosen and player is not None else None
        if mine is not None and player is not None:
            table += (TableCard(player, mine.area, mine.card),)
        last = None
        if self._last is not None:
            game_no, round_no, start, plays, template = self._last
            points = {play.player: pts for play, pts in zip(plays, template.points, strict=True)}
            squealer = None if template.squealer is None else plays[template.squealer].player
            last = RoundRecord(game_no, round_no, start, plays, points, squealer)
        game_no, round_no = self.position()
        nxt = self.next()
        return KamizaObservation(
            edition=self.edition,
            advanced=self.advanced,
            players=self.players,
            you=player,
            hand=self._hand_of(player, mine),
            hand_sizes={p: len(held.hand) for p, held in self._holdings.items()},
            game_number=game_no,
            round=round_no,
            start_player=self.start_player,
            order=self.order,
            to_act=nxt.player if nxt else None,
            table=table,
            revealed_this_game=self.revealed,
            totals=dict(self.totals),
            wanted=dict(self.wanted),
            dropped=tuple(self.dropped),
            last_round=last,
            over=self.finished,
            winners=tuple(self.winners()),
            simultaneous=self.simultaneous,
            chosen=tuple(p for p in self.players if p in chosen),
            waiting_for=nxt.players if nxt else (),
        )

    def _hand_of(self, player: str | None, chosen: Play | None) -> tuple[str, ...] | None:
        """A seated player's cards in hand; a card chosen this step is on the table already."""
        if player not in self._holdings:
            return None
        hand = self._holdings[player].hand
        return hand if chosen is None else tuple(c for c in hand if c != chosen.card)

    def view(self, player: str | None) -> dict[str, Any]:
        """G-3: `observation(player)` as JSON-ready data."""
        return self.observation(player).to_view()
