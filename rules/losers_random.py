"""Rights of Losers: a uniformly random legal action, for computer players and playouts.

`random_action` draws without listing every build and move, from the RNG exactly as it always
did (G-1: `rules.random_play.random_match` replays a seed as the same game; `rules.losers_rng`).
On the way it finds out everything `apply`'s checks would: it leaves that in `_drawn`, and
`apply` given that very action for that player carries it out without checking it again.
"""

from __future__ import annotations

import random

from rules.base import IllegalAction
from rules.losers_actions import CHIP_AT, PASS, PLAYS, REVERSE, Action, Build, move_action
from rules.losers_board import CARD_SUIT, CELLS, OF_SUIT_OF
from rules.losers_checks import BUILD, CHIP, PLAY
from rules.losers_play import LosersPlay
from rules.losers_rng import COPIED_RANDOM, POOLED, WIDTH, below, pair, two_below


class LosersRandom(LosersPlay):
    """`random_action`."""

    def random_action(self, player: str, rng: random.Random) -> Action:
        """A uniformly random legal action of `player`, who must be the one to act now.

        Playouts call this some 90 times a game, so the draws are inline (see
        `rules.losers_rng`) and each phase's case is written out here."""
        nxt = self._next
        if nxt is None or nxt.player != player:
            raise IllegalAction("R-4", f"{player} has nothing to do now")
        phase = self._phase
        copied = type(rng) is COPIED_RANDOM
        if phase == PLAY:  # any card, or one of the led suit when the player holds any
            cards = self.hands[player]
            void = None  # the led suit, when the player shows they hold none of it
            if self.trick:
                led = self.trick[0][1]
                follow = list(filter(OF_SUIT_OF[led], cards))
                if follow:
                    cards = follow
                else:
                    void = CARD_SUIT[led]
            if copied and cards:
                bits, n = rng.getrandbits, len(cards)
                width = WIDTH[n]
                j = bits(width)
                while j >= n:
                    j = bits(width)
                card = cards[j]
            else:
                card = rng.choice(cards)
            play = PLAYS[card]
            self._drawn = (player, play, void)
            return play
        if phase == CHIP:  # any free spot touching a card
            free = self._free
            if copied and free:
                bits, n = rng.getrandbits, len(free)
                width = WIDTH[n]
                j = bits(width)
                while j >= n:
                    j = bits(width)
                spot = free[j]
            else:
                spot = rng.choice(free)
            chip = CHIP_AT[spot]
            self._drawn = (player, chip, spot)
            return chip
        if phase == BUILD:  # R-5b: two cards of the trick, on two empty building cells
            won, empty = self.won, self._empty()
            if copied and 2 <= len(won) <= POOLED and 2 <= len(empty) <= POOLED:
                i, j = two_below(rng, len(won))
                first, second = two_below(rng, len(empty))
                built, cells = (won[i], won[j]), (empty[first], empty[second])
            else:
                built, cells = pair(rng, won), pair(rng, empty)
            build = Build(built, (CELLS[cells[0]], CELLS[cells[1]]))
            self._drawn = (player, build, cells)
            return build
        # R-5c: appoint anyone, reverse, pass, or move one of the player's chips anywhere free;
        # each of these actions as likely as any other.
        own, free, n = self._own(player), self._free, len(self.players)
        count = n + 2 + len(own) * len(free)
        k = below(rng, count) if copied else rng.randrange(count)
        action: Action
        if k < n:
            action, checked = self._seating.appoints[k], None
        elif k - n < 2:
            action, checked = (REVERSE if k == n else PASS), None
        else:
            k -= n + 2
            source, to = own[k // len(free)], free[k % len(free)]
            action, checked = move_action(source, to), (source, to)
        self._drawn = (player, action, checked)
        return action
