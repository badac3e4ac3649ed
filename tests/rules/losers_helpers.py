"""Shared helpers for the Rights of Losers tests: hand-built deals and driving tricks."""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.losers import RightsOfLosers
from rules.losers_board import SUITS, TOUCHING, spot_index

FOUR = ("ann", "ben", "cho", "dev")
THREE = FOUR[:3]


def suit(name: str) -> list[str]:
    return [f"{name}-{n}" for n in range(1, 11)]


def suit_hands(players: tuple[str, ...] = FOUR) -> dict[str, list[str]]:
    """Each player holds one whole suit: ann red, ben yellow, cho green, dev blue, eve purple."""
    return {p: suit(s) for p, s in zip(players, SUITS, strict=False)}


def nth(n: int) -> dict[str, str]:
    """With `suit_hands`: everybody's card numbered `n` (the lead's wins: nobody can follow)."""
    return {p: f"{s}-{n}" for p, s in zip(FOUR, SUITS, strict=False)}


def new_game(
    hands: dict[str, list[str]] | None = None,
    lead: str = "ann",
    players: tuple[str, ...] = FOUR,
) -> RightsOfLosers:
    return RightsOfLosers.create(
        list(players), None, {"lead_player": lead, "hands": hands or suit_hands(players)}
    )


def act(game: RightsOfLosers, player: str, data: dict[str, Any]) -> list[Event]:
    """Apply an action given in its log form."""
    return game.apply(player, RightsOfLosers.parse_action(data))


def play_trick(game: RightsOfLosers, cards: dict[str, str]) -> list[Event]:
    """Every player plays their card of `cards`, in turn order."""
    events: list[Event] = []
    while game.phase == "play":
        player = game.next().player
        events += act(game, player, {"action": "play", "card": cards[player]})
    return events


def place_chips(game: RightsOfLosers, spots: list[list[int]] | None = None) -> list[Event]:
    """Each loser in turn puts a chip: on `spots` in order, else on the first legal spot."""
    events: list[Event] = []
    todo = list(spots or [])
    while game.phase == "chip":
        player = game.next().player
        at = todo.pop(0) if todo else list(game.legal_chip_spots(player)[0])
        events += act(game, player, {"action": "chip", "at": at})
    return events


def build_first(game: RightsOfLosers) -> list[Event]:
    """The winner builds the first two cards of the trick on the first two empty cells."""
    cells = game.empty_building_cells()[:2]
    data = {"action": "build", "cards": game.won[:2], "at": [list(c) for c in cells]}
    return act(game, game.winner, data)


def settle(game: RightsOfLosers, choice: dict[str, Any] | None = None) -> list[Event]:
    """Chips on the first legal spots, the first build, then the winner's choice (pass)."""
    events = place_chips(game) + build_first(game)
    return events + act(game, game.winner, choice or {"action": "pass"})


def full_trick(
    game: RightsOfLosers, cards: dict[str, str], choice: dict[str, Any] | None = None
) -> list[Event]:
    return play_trick(game, cards) + settle(game, choice)


def put(game: RightsOfLosers, chips: dict[tuple[int, int], str]) -> None:
    """Put chips straight onto the lattice (a hand-built board), spending the owners' chips."""
    for at, player in chips.items():
        spot = spot_index(at)
        assert spot is not None
        game.chips[spot] = player
        game.chips_left[player] -= 1
        game.open -= {spot}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def clear_chips(game: RightsOfLosers) -> None:
    """Take every chip off the lattice and give each player back their 10 chips."""
    game.chips.clear()
    game.chips_left = dict.fromkeys(game.players, 10)
    game.open = {s for cell, card in enumerate(game.field) if card for s, _ in TOUCHING[cell]}
