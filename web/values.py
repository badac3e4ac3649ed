"""A replay's raw values (a phase, an action, a card, a reason) in the bot's own words.

The rules write a table's view and an event's public data with identifiers ("fight",
"green-5", "lone_fighter"). Where the bot already names one in Discord (a button, a card, a
rule's reason), the page says it with that same catalogue text, so the two never drift apart;
only what the bot never says as a word of its own (a phase's name, what decided a card's
owner) has a text of the site, ``<prefix>.web.value.<field>.<value>`` beside the game's other
web texts. Only words change: a value the page shows is the value the replay holds (G-3 is
`web.replay`'s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from bot.i18n import Language, has, t

GAME_OVER = "web.event.game_over"  # an ended game's phase, in both games that have one
TASKS = ("play", "chip", "build", "choice")  # the Rights of Losers' phases of a trick


def _each(template: str, values: Iterable[str]) -> dict[str, str]:
    return {value: template.format(value=value) for value in values}


# game's catalogue prefix -> field -> value -> the catalogue key that says it
VALUE_KEYS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "kobayakawa": {
        # what a player did this round: the buttons' words, but for a fight (its button names
        # the stake, which the choice shows beside it)
        "action": {
            "draw": "kobayakawa.hand.draw",
            "pass": "kobayakawa.hand.pass",
            "fight": "kobayakawa.web.value.action.fight",
        },
        "phase": {
            **_each("kobayakawa.web.value.phase.{value}", ("draw", "fight")),
            "over": GAME_OVER,
        },
        # who won a showdown and why, how the game ended: the bot's reasons
        "why": _each("kobayakawa.why.{value}", ("highest", "tie_closest_to_start", "lone_fighter")),
        "reason": _each("kobayakawa.why.{value}", ("seven_rounds", "too_few_players")),
    },
    "losers": {
        # the phase and the move awaited: what the bot asks of the player whose turn it is
        "phase": {**_each("losers.task.{value}", TASKS), "over": GAME_OVER},
        "expects": _each("losers.task.{value}", TASKS),
        "led_suit": _each("losers.suit.{value}", ("red", "yellow", "green", "blue", "purple")),
        "why": _each("losers.why.won_{value}", ("highest", "lowest")),
        # why a player leads the trick (R-5c)
        "reason": _each("losers.web.value.reason.{value}", ("chosen", "winner", "appointed")),
        # what decided a card's owner: the field summary's words for nobody
        "by": {
            **_each("losers.web.value.by.{value}", ("most", "on_card", "edge")),
            "tie": "losers.summary.tie",
            "no_chips": "losers.summary.nobody",
        },
    },
}


def _losers_card(lang: Language, value: str) -> str | None:
    """A building card ("green-5") as the bot writes it ("🟩 緑5"), in whichever field."""
    from bot.losers.render import card
    from rules.losers_board import CARD_SUIT

    return card(lang, value) if value in CARD_SUIT else None


# game's catalogue prefix -> a value of any field in the bot's words, None when not its kind
ANY_FIELD: Mapping[str, Callable[[Language, str], str | None]] = {"losers": _losers_card}


def spoken(prefix: str, field: str | None, value: str, lang: Language) -> str | None:
    """`value` of `field` in the bot's (or the site's) words for the game of `prefix`; None
    when neither names it."""
    key = VALUE_KEYS.get(prefix, {}).get(field or "", {}).get(value)
    if key is not None and has(key, lang):
        return t(lang, key)
    namer = ANY_FIELD.get(prefix)
    return namer(lang, value) if namer is not None else None
