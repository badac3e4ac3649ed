"""Kobayakawa: a round's deal and its end (B-2, B-5..B-7), what may be refused (B-1..B-7), and
the choices made so far in a round -- the parts of `Kobayakawa` that run once a round or only
for an unusual action, kept apart from its per-turn fast path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.base import IllegalAction
from rules.kobayakawa_moves import (
    DRAW_ACTIONS,
    HIGHEST,
    KEEPS,
    LONE_FIGHTER,
    SHOWDOWN_SETTERS,
    TIE_CLOSEST_TO_START,
    Choice,
    Draw,
    Drew,
    Fight,
    Fought,
    KobayakawaEvent,
    KobayakawaReplaced,
    Pass,
    Passed,
    ReplaceKobayakawa,
    RoundStarted,
    Showdown,
    game_ended,
)
from rules.kobayakawa_tables import DRAW, FIGHT, NO_DRAW, NOBODY, OVER, ROUNDS

_new = object.__new__

if TYPE_CHECKING:
    from rules.kobayakawa_state import KobayakawaState


def begin_round(game: KobayakawaState) -> RoundStarted | None:
    """B-2: deal one card each clockwise from the start player, then the Kobayakawa.

    A setup may leave out the decks of rounds never reached (LOG_FORMAT.md). Without this
    round's deck nothing is dealt: the start player is named as the one to draw and every
    action is refused (B-2), so a replay of the rounds played still answers.
    """
    round_ = game.round = game.round + 1
    out = game.out
    ring = game._seating.rotation[game.start_player]
    order = game.order = tuple(p for p in ring if p not in out) if out else ring
    n = game._turn_count = len(order)
    game.phase = DRAW
    game.turn = 0
    game.discards = {}
    game.bets = {}
    game._looked = False
    seats = game._seating
    game._turns, game._fights = turns = seats.known_turns.get(order) or seats.turns(order)
    if round_ > len(game.decks):
        game._next = turns[0][0][1]  # B-2: the start player would draw
        game._mover = NOBODY
        game._options = ()
        game.draw_table = NO_DRAW
        game.cards = {}
        game.kobayakawa = 0  # none turned: shown as None
        game.kobayakawa_history = ()
        game.pile = ()
        game.pile_top = 0
        return None
    deck = game.decks[round_ - 1]
    game._mover, game._next, game.draw_table = turns[0][0]
    game._options = DRAW_ACTIONS
    if n == 4:  # the usual table, dealt without building a zip
        a, b, c, d = order
        game.cards = {a: deck[0], b: deck[1], c: deck[2], d: deck[3]}
    else:
        game.cards = dict(zip(order, deck))  # noqa: B905 (the deck goes on: Kobayakawa, pile)
    kobayakawa = game.kobayakawa = deck[n]
    game.kobayakawa_history = (kobayakawa,)
    game.pile = deck[n + 1 :]
    game.pile_top = 0
    if game._quiet:
        return None
    centre = game.centre
    by_deal = game._events.started.get(order)
    started = by_deal.get((round_ * 16 + kobayakawa) * 16 + centre) if by_deal else None
    if started is None:
        started = game._events.new_round_started(round_, order, kobayakawa, centre)
    return started


def end_round(game: KobayakawaState, events: list[KobayakawaEvent]) -> list[KobayakawaEvent]:
    """B-5..B-7: the showdown, the pot, players going out, then the next round or the end.

    A quiet game (`KobayakawaState.fast_forward`) keeps only what makes the round's events and
    builds them when they are asked for (`last_round_events`): a replay wants the state.
    """
    round_ = game.round
    quiet = game._quiet
    centre = game.centre
    take = 2 if round_ == ROUNDS else 1
    if take > centre:
        take = centre
    game.centre = centre - take
    kamons = game.kamons
    bets = game.bets
    if not bets:
        game.box += take
        start = game.start_player
        if quiet:
            game._last_round = (round_, take, start)
            game._last_result = None
        else:
            game._last_result = (game._events.nobody_fought(round_, take, start),)
            events += game._last_result
    else:
        # Bets are made in turn order, clockwise from the start player: the fighters in order.
        fighters = tuple(bets)
        kobayakawa = game.kobayakawa
        cards = game.cards  # no turn changes it after its round: kept as it is
        if quiet:
            winner = _winner(fighters, cards, kobayakawa)
        else:
            showdown = _showdown(round_, fighters, cards, kobayakawa)
            winner = showdown.winner
        pot = game.pot
        held = kamons[winner] = kamons[winner] + pot + take
        game.pot = 0
        game.start_player = winner
        gone: tuple[str, ...] = ()
        for p in fighters:  # B-7: only a fighter can have lost their last kamon
            if not kamons[p]:
                gone += (p,)
                game.out.append(p)
        if quiet:
            game._last_round = (round_, fighters, cards, kobayakawa, pot, take, held, gone)
            game._last_result = None
        else:
            won = game._events.won.get((round_, winner, pot, take, held))
            if won is None:
                won = game._events.new_round_won(round_, winner, pot, take, held)
            if gone:
                game._last_result = _round_won(game, showdown, pot, take, held, gone)
                events += game._last_result
            else:
                game._last_result = (showdown, won)
                events.append(showdown)
                events.append(won)
    if round_ == ROUNDS or len(game.players) - len(game.out) < 2:
        game.phase = OVER
        game._next = None
        game._mover = NOBODY
        game._options = ()
        game.draw_table = NO_DRAW
        game.end_reason = reason = "seven_rounds" if round_ == ROUNDS else "too_few_players"
        if not quiet:
            events.append(game_ended(round_, reason, dict(kamons), tuple(game.winners())))
        game._events.forget_some()
        return events
    started = begin_round(game)
    if started is not None and not quiet:
        events.append(started)
    return events


def last_round_events(game: KobayakawaState) -> tuple[KobayakawaEvent, ...]:
    """The events of the last round's end (B-5..B-7), from what a quiet `end_round` kept."""
    if game._last_round is None:
        return ()
    if len(game._last_round) == 3:
        round_, take, start = game._last_round
        return (game._events.nobody_fought(round_, take, start),)
    round_, fighters, cards, kobayakawa, pot, take, held, gone = game._last_round
    showdown = _showdown(round_, fighters, cards, kobayakawa)
    return _round_won(game, showdown, pot, take, held, gone)


def _round_won(
    game: KobayakawaState, showdown: Showdown, pot: int, take: int, held: int, gone: tuple[str, ...]
) -> tuple[KobayakawaEvent, ...]:
    """The showdown, the winner's gains (B-6) and who went out (B-7)."""
    shared = game._events
    round_, winner = showdown.round, showdown.winner
    won = shared.won.get((round_, winner, pot, take, held))
    if won is None:
        won = shared.new_round_won(round_, winner, pot, take, held)
    if not gone:
        return (showdown, won)
    return (showdown, won, *(shared.player_out(p, round_) for p in gone))


def _winner(fighters: tuple[str, ...], held: dict[str, int], kobayakawa: int) -> str:
    """B-5: who wins, as `_showdown` and `judge` decide it."""
    if len(fighters) == 1:
        return fighters[0]
    low = 16  # above every card; loops, quicker than min/max with a key
    for p in fighters:
        if held[p] < low:
            low = held[p]
    best = 0
    winner = fighters[0]
    for p in fighters:  # cards are all different: one lowest, who adds the Kobayakawa
        card = held[p]
        total = card + kobayakawa if card == low else card
        if total > best:  # the first of the tied wins: only a greater total takes over
            best = total
            winner = p
    return winner


def _showdown(
    round_: int, fighters: tuple[str, ...], held: dict[str, int], kobayakawa: int
) -> Showdown:
    """B-5 as `judge` decides it, for the fighters in turn order and the cards held."""
    if len(fighters) == 2:  # the most common showdown, written out
        first, second = fighters
        one, two = held[first], held[second]
        if one < two:
            lowest, one_total, two_total = first, one + kobayakawa, two
        else:
            lowest, one_total, two_total = second, one, two + kobayakawa
        cards = {first: one, second: two}
        totals = {first: one_total, second: two_total}
        winner = first if one_total >= two_total else second  # a tie goes to the first
        why = TIE_CLOSEST_TO_START if one_total == two_total else HIGHEST
    elif len(fighters) == 1:
        cards, totals, lowest, winner, why = {}, {}, None, fighters[0], LONE_FIGHTER
    else:
        cards = {}
        for p in fighters:  # a loop: a comprehension is a call of its own
            cards[p] = held[p]
        values = list(cards.values())
        low = values.index(min(values))
        values[low] += kobayakawa  # now the totals
        best = max(values)
        lowest = fighters[low]
        totals = cards.copy()
        totals[lowest] = values[low]
        winner = fighters[values.index(best)]  # the first of the tied, clockwise from the start
        why = TIE_CLOSEST_TO_START if values.count(best) > 1 else HIGHEST
    # `new_showdown`, inlined: nearly every round ends here.
    event: Showdown = _new(Showdown)
    put = SHOWDOWN_SETTERS  # in field order
    put[0](event, round_)
    put[1](event, fighters)
    put[2](event, cards)
    put[3](event, kobayakawa)
    put[4](event, lowest)
    put[5](event, totals)
    put[6](event, winner)
    put[7](event, why)
    return event


def refusal(game: KobayakawaState, player: str, action: Any) -> IllegalAction | None:
    """Why `apply` must refuse the action (the rule and the reason), or None if it is legal."""
    phase = game.phase
    if phase == OVER:
        rule = "B-2" if game.end_reason == "seven_rounds" else "B-7"
        return IllegalAction(rule, "the game is over")
    if game.waiting_for_deck:
        return IllegalAction("B-2", f"the setup has no deck for round {game.round}")
    rule = "B-3" if phase == DRAW else "B-4"
    current = game.order[game.turn]
    if player != current:
        if player not in game.kamons:
            return IllegalAction("B-1", f"{player!r} is not seated at this table")
        if player in game.out:
            return IllegalAction("B-7", f"{player} is out with no kamons left")
        return IllegalAction(rule, f"it is {current}'s turn, not {player}'s")
    if phase == DRAW:
        if not isinstance(action, Draw | ReplaceKobayakawa):
            return IllegalAction("B-3", "in the draw phase, draw or replace the Kobayakawa")
        if isinstance(action, Draw) and action.keep not in KEEPS:
            return IllegalAction("B-3", "keep the 'drawn' card or the 'held' one")
        if isinstance(action, ReplaceKobayakawa) and game.has_looked(player):
            return IllegalAction(
                "B-3", f"{player} has seen the drawn card: keep one, the Kobayakawa goes unseen"
            )
        return None
    if not isinstance(action, Fight | Pass):
        return IllegalAction("B-4", "in the fight phase, fight or pass")
    return None


def round_choices(game: KobayakawaState) -> list[Choice]:
    """What each player did so far this round, in turn order (B-3, B-4), as the table saw it.

    Rebuilt from the state (discards, the Kobayakawas turned, bets) rather than kept turn by
    turn: a turn stays cheap, and views and copies have nothing more to carry.
    """
    if game.waiting_for_deck:
        return []
    order = game.order
    phase = game.phase
    drawn = game.turn if phase == DRAW else len(order)
    choices: list[Choice] = []
    turned = iter(game.kobayakawa_history)
    previous = next(turned)
    for p in order[:drawn]:
        if p in game.discards:
            choices.append(Drew(p, game.discards[p]))
        else:
            kobayakawa = next(turned)
            choices.append(KobayakawaReplaced(p, previous, kobayakawa))
            previous = kobayakawa
    if phase == DRAW:
        return choices
    pot = 0
    for p in order[: game.turn if phase == FIGHT else len(order)]:
        bet = game.bets.get(p)
        if bet is None:
            choices.append(Passed(p))
        else:
            pot += bet
            choices.append(Fought(p, bet, pot))
    return choices
