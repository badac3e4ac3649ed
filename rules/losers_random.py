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
from rules.losers_board import CARD_SUIT, CELLS, OF_SUIT_OF, nth_spot
from rules.losers_checks import BUILD, CHIP, PLAY, Checked
from rules.losers_play import LosersPlay
from rules.losers_rng import COPIED_RANDOM, POOLED, WIDTH, Bits, below, pair, pick, two_below


class LosersRandom(LosersPlay):
    """`random_action`, and `playout`: random actions carried out without their events."""

    def random_action(self, player: str, rng: random.Random) -> Action:
        """A uniformly random legal action of `player`, who must be the one to act now."""
        nxt = self._next
        if nxt is None or nxt.player != player:
            raise IllegalAction("R-4", f"{player} has nothing to do now")
        phase = self._phase
        bits = rng.getrandbits if type(rng) is COPIED_RANDOM else None
        action: Action
        checked: Checked
        if phase == PLAY:
            card, checked = self._draw_card(player, rng, bits)
            action = PLAYS[card]
        elif phase == CHIP:
            checked = pick(rng, bits, self._free)  # any free spot touching a card
            action = CHIP_AT[checked]
        elif phase == BUILD:
            cards, cells = self._draw_build(rng, bits)
            action, checked = Build(cards, (CELLS[cells[0]], CELLS[cells[1]])), cells
        else:
            action, checked = self._draw_choice(player, rng, bits)
        self._drawn = (player, action, checked)
        return action

    def playout(self, rng: random.Random) -> None:
        """The step loop's very game (`Game.playout`): each action drawn as `random_action` draws
        it and carried out by `apply`'s own transitions, without action objects where the
        transition needs none, without events and without asking the checks again."""
        self._drawn = None  # a draw made before would be stale once this plays on
        if type(rng) is not COPIED_RANDOM:
            # The RNG's own methods draw (`rules.losers_rng`): the step loop itself.
            while (nxt := self._next) is not None:
                self.apply(nxt.player, self.random_action(nxt.player, rng))
            return
        bits = rng.getrandbits
        while (nxt := self._next) is not None:
            player, phase = nxt.player, self._phase
            if phase == PLAY:
                card, void = self._draw_card(player, rng, bits)
                self._play_card(player, card, void, None)
            elif phase == CHIP:
                # `pick(rng, bits, free)` written out: a chip turn comes with at least one free
                # spot, and never more than the lattice's 81
                free = self._free
                n = len(free)
                width = WIDTH[n]
                j = bits(width)
                while j >= n:
                    j = bits(width)
                self._place_chip(player, j, None)
            elif phase == BUILD:
                cards, cells = self._draw_build(rng, bits)
                self._build(player, cards, cells, None)
            else:
                action, checked = self._draw_choice(player, rng, bits)
                self._choose(player, action, checked, None)

    # -- the draws of the phases, each returning what the checks would (see `Checked`); a chip's
    # spot is one `pick` of the free spots. `bits` is the RNG's `getrandbits` when its draws may
    # be copied (`rules.losers_rng`), else None: then the RNG's own methods draw.

    def _draw_card(
        self, player: str, rng: random.Random, bits: Bits | None
    ) -> tuple[str, str | None]:
        """R-4: any card, or one of the led suit when the player holds any; and the led suit
        when the player shows they hold none of it."""
        cards = self.hands[player]
        void = None
        trick = self.trick
        if trick:
            led = trick[0][1]
            follow = list(filter(OF_SUIT_OF[led], cards))
            if follow:
                cards = follow
            else:
                void = CARD_SUIT[led]
        if bits is None:
            return rng.choice(cards), void
        # `pick(rng, bits, cards)` written out (a hand holds 1 to 10 cards)
        n = len(cards)
        width = WIDTH[n]
        j = bits(width)
        while j >= n:
            j = bits(width)
        return cards[j], void

    def _draw_build(
        self, rng: random.Random, bits: Bits | None
    ) -> tuple[tuple[str, str], tuple[int, int]]:
        """R-5b: two cards of the trick, on two empty building cells."""
        won, empty = self.won, self._vacant
        if bits is not None and 2 <= len(won) <= POOLED and 2 <= len(empty) <= POOLED:
            i, j = two_below(rng, len(won))
            first, second = two_below(rng, len(empty))
            return (won[i], won[j]), (empty[first], empty[second])
        return pair(rng, won), pair(rng, empty)

    def _draw_choice(
        self, player: str, rng: random.Random, bits: Bits | None
    ) -> tuple[Action, Checked]:
        """R-5c: appoint anyone, reverse, pass, or move one of the player's chips anywhere free;
        each of these actions as likely as any other."""
        mine, free, n = self._mine[player], self._free, len(self.players)
        count = n + 2 + mine.bit_count() * len(free)
        k = below(rng, count) if bits is not None else rng.randrange(count)
        if k < n:
            return self._seating.appoints[k], None
        if k - n < 2:
            return (REVERSE if k == n else PASS), None
        k -= n + 2
        source, to = nth_spot(mine, k // len(free)), free[k % len(free)]
        return move_action(source, to), (source, to)
