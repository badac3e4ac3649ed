"""The Rights of Losers field in words: the English of its picture's labels (`board_image`)
and of the whole field said as short lines of text (`field_summary`), for screen readers."""

from __future__ import annotations

from collections.abc import Mapping

from bot.losers.names import cell_name, spot_name
from rules.losers_board import CARD_NUMBER, CARD_SUIT, GRID, LAND, TRICKS
from rules.losers_view import LosersObservation

ENGLISH_TEXT: Mapping[str, str] = {
    "trick": "Trick {trick}/{tricks}",
    "over": "Game over",
    "normal": "Highest number wins",
    "reversed": "REVERSED: lowest number wins",
    "land": "LAND",
    "stats": "chips left: {chips} \u00b7 {points} pts",
    "stats_now": "chips left: {chips} \u00b7 {points} pts now",
    "key": "Frame and flag: who gets the card if the game ended now (= tied)",
    "key_over": "Frame and flag: who gets the card (= tied: nobody)",
    "player": "Player {seat}",
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "purple": "purple",
    # field_summary
    "summary_field": "Field after trick {trick} of {tricks}; {strength}.",
    "summary_cell": "{cell}: {card}, {owner}",
    "summary_building": "{suit} {number}",
    "summary_land": "land",
    "summary_empty": "Empty cells: {cells}.",
    "summary_owner": "goes to {player}",
    "summary_tie": "tied, nobody gets it",
    "summary_nobody": "no chips",
    "summary_chips": "{player} (chips left: {chips}): chips on {spots}.",
    "summary_no_chips": "{player} (chips left: {chips}): no chips on the field.",
    "summary_scores": "If it ended now: {scores}.",
    "summary_final": "Final scores: {scores}.",
}


def field_summary(
    seen: LosersObservation,
    points: Mapping[str, int],
    names: Mapping[str, str] | None = None,
    words: Mapping[str, str] | None = None,
    text: Mapping[str, str] | None = None,
) -> str:
    """The picture as short lines of text: cards and their owners now, chips per player, and
    `points` (`LosersObservation.points_now()`).

    `words` are the spot words of `bot.losers.names` (card/edge/corner), `text` overrides the
    English sentences (keys of `ENGLISH_TEXT` starting with "summary_", plus the suit names).
    """
    say = {**ENGLISH_TEXT, **(text or {})}
    names = names or {}
    players = list(seen.players)

    def who(player: str) -> str:
        return names.get(player, player)

    strength = say["reversed" if seen.reversed else "normal"]
    lines = [say["summary_field"].format(trick=seen.trick_number, tricks=TRICKS, strength=strength)]
    owners = {judged.cell: judged for judged in seen.owners_now}
    empty = []
    for index, card in enumerate(seen.field):
        cell = divmod(index, GRID)
        if card is None:
            empty.append(cell_name(cell))
            continue
        if card == LAND:
            shown = say["summary_land"]
        else:
            shown = say["summary_building"].format(
                suit=say[CARD_SUIT[card]], number=CARD_NUMBER[card]
            )
        owner = owners.get(cell)
        if owner is not None and owner.owner is not None:
            ownership = say["summary_owner"].format(player=who(owner.owner))
        elif owner is not None and owner.by == "tie":
            ownership = say["summary_tie"]
        else:
            ownership = say["summary_nobody"]
        lines.append(say["summary_cell"].format(cell=cell_name(cell), card=shown, owner=ownership))
    if empty:
        lines.append(say["summary_empty"].format(cells=", ".join(empty)))
    spots: dict[str, list[str]] = {p: [] for p in players}
    for at, holder in seen.chips:
        spots[holder].append(spot_name(at, words))
    for player in players:
        key = "summary_chips" if spots[player] else "summary_no_chips"
        lines.append(
            say[key].format(
                player=who(player),
                chips=seen.chips_left[player],
                spots=", ".join(spots[player]),
            )
        )
    over = seen.over
    lines.append(
        say["summary_final" if over else "summary_scores"].format(
            scores=", ".join(f"{who(p)} {points[p]}" for p in players),
        )
    )
    return "\n".join(lines)
