"""Every verb of the bot's restart-proof custom ids, and what it does: the one table to read.

A table's buttons are `g:<verb>:<game id>[:arg...]` (`bot.tables.buttons`), its select menus
`s:<verb>:<game id>[:arg...]` (`bot.tables.selects`). Verbs are short because a custom id holds
100 characters and the arguments need room; a game's verbs start with two letters of its own
(below by the letter of its rule ids: K-* `kz`, B-* `kb`, R-* `rl`), the shared ones are words.
The arguments name the state a menu was drawn for (a round, or the table's `seq`), so a stale
click is answered with the current menu instead of acting. `tests/bot/test_verbs.py` checks
this table against the handlers the product registers, both ways.

The standings' buttons are separate `kz:` items (`bot.standings.buttons`): `kz:lb:...` a
leaderboard page, `kz:season:new:...` / `kz:season:cancel:...` the `/newseason` confirmation.
"""

from __future__ import annotations

BUTTON_VERBS: dict[str, str] = {
    # lobby and table messages, every game (bot/tables/lobby_buttons.py, rules_pages.py)
    "join": "lobby: take a seat",
    "leave": "lobby: give up your seat",
    "start": "lobby: the host starts the game",
    "cancel": "lobby or table: the host asks to cancel (a confirmation follows)",
    "cancel_yes": "lobby or table: the host confirms the cancel",
    "bot_add": "lobby: the host adds a computer player",
    "bot_del": "lobby: the host removes the last computer player (a waiting one first)",
    "bot_lvl": "lobby: the host sets a computer seat's level; args: its number, the level",
    "kick": "lobby: the host asks whom to kick (a private list of the other members)",
    "kick_ask": "lobby: the host picked a member to kick; args: the member's id (confirm next)",
    "kick_seat": "lobby: Kick beside a seat, the host asks privately; args: the member's id",
    "kick_yes": "lobby: the host confirms the kick; args: the member's id",
    "house": "lobby: the host turns the house rule simultaneous on or off; args: on|off",
    "host": "lobby: the host asks to whom to hand the lobby (a private list)",
    "host_to": "lobby: the host hands the lobby to a member; args: the member's id",
    "hand": "table message: show me my private hand",
    "back": "table message: I'm back (leave autopilot)",
    "rules": "rules pages: turn to page N",
    "rematch": "final standings: the host asks for a rematch (a private confirmation follows)",
    "rematch_ok": "final standings: the host confirms; the members are asked to opt in",
    "rematch_in": "rematch offer: a member of the finished game opts in",
    "board": "final standings: the season's leaderboard of that game, privately",
    "dm": "hand menu: deliver my hand by DM (on) or back to private menus in the thread (off)",
    "why": "table or reveal message: explain these rules privately; args: rule ids (K-6:K-8)",
    # K-*: the private hand; args: the round shown ("game.round")
    "kzh": "show my hand again (back from the area step)",
    "kzc": "choose this card (the area step follows)",
    "kzb": "a Boss or Policeman to shimoza, asks first (K-4)",
    "kzp": "play this card to this area",
    # B-*: the private card menu; args: the table's seq
    "kbh": "show my card again",
    "kbd": "draw the top card (B-3)",
    "kbk": "keep this card, discard the other (B-3)",
    "kbr": "replace the Kobayakawa with the drawn card (B-3)",
    "kbf": "fight, betting a coin (B-4)",
    "kbp": "pass (B-4)",
    # R-*: the private menus; args: the table's seq
    "rlh": "show my menu again",
    "rlp": "play this card (R-4)",
    "rlr": "the winner reverses the order (R-5c)",
    "rlm": "the winner moves a chip (R-5c; the spots follow)",
    "rlx": "the winner passes (R-5c)",
}

SELECT_VERBS: dict[str, str] = {
    "rlc": "the spot for my chip (R-5a)",
    "rlb": "the two cards to build (R-5b)",
    "rlba": "the cell of the first card built",
    "rlbb": "the cell of the second card built",
    "rla": "the player the winner appoints to lead (R-5c)",
    "rlmf": "the chip the winner moves (R-5c)",
    "rlmt": "the spot it moves to",
}
