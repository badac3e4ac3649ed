"""A game's lobby message: the seats, the options, everyone's buttons and the host's controls."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.layout.board import Board, compose
from bot.runtime.lobby import BOT_PREFIX, HOUSE_RULE, Lobby
from bot.runtime.thinking import DEFAULT_LEVEL, OFFERED_LEVELS
from bot.tables.buttons import button
from bot.tables.messages import Messages, computer_name, mention
from data.store import Seat

LOBBY_MESSAGE = "lobby"


def seat_number(seat: Seat) -> int:
    """A computer seat's number: "bot-2" is Bot 2, the second computer asked for."""
    return int(seat.player.removeprefix(BOT_PREFIX))


class LobbyMessages(Messages):
    """The lobby's message, edited as seats change, closed when the lobby closes."""

    def lobby_embed(self, lobby: Lobby, lang: str) -> discord.Embed:
        """The lobby as an embed (what `/<game> status` shows privately)."""
        seats = "\n".join(self.seat_lines(lobby, lang))
        embed = discord.Embed(
            title=t(lang, "lobby.title", game=self.title(lang)),
            description=self.lobby_intro(lobby, lang),
            colour=self.colour,
        )
        embed.add_field(
            name=t(lang, "lobby.seats", n=len(lobby.seats), max=lobby.max_players),
            value=seats or "—",
            inline=False,
        )
        waiting = self.waiting_names(lobby, lang)
        if waiting:
            embed.add_field(name=t(lang, "lobby.waiting"), value="\n".join(waiting))
        options = self.options_text(lobby.options, lang)
        if options:
            embed.add_field(name=t(lang, "lobby.options"), value=options, inline=False)
        return embed

    def lobby_board(self, lobby: Lobby, lang: str) -> Board:
        """The lobby laid out: a section per seat, with Kick beside each other member (the
        host's control: anyone else is refused privately), the options, then the buttons."""
        board = Board(title=t(lang, "lobby.title", game=self.title(lang)), accent=self.colour)
        board.lang = lang
        board.text(self.lobby_intro(lobby, lang))
        board.text(title=t(lang, "lobby.seats", n=len(lobby.seats), max=lobby.max_players))
        for line, seat in zip(self.seat_lines(lobby, lang), lobby.seats, strict=True):
            action = None
            if seat.is_bot:
                action = self.level_button(lobby, seat_number(seat), lang)
            elif seat.user_id is not None and seat.user_id != lobby.host_id:
                kick = button("kick_seat", lobby.game_id, seat.user_id, label=t(lang, "lobby.kick"))
                action = kick
            board.seat(line, action)
        waiting = self.waiting_names(lobby, lang)
        if waiting:
            board.text(*waiting, title=t(lang, "lobby.waiting"))
        options = self.options_text(lobby.options, lang)
        if lobby.options.get(HOUSE_RULE):
            options = f"{options}\n{t(lang, 'table.house_rule')}".strip()
        if options:
            board.rule().text(*options.splitlines(), title=t(lang, "lobby.options"))
        board.controls = self.lobby_controls(lobby, lang)
        return board

    def lobby_intro(self, lobby: Lobby, lang: str) -> str:
        return t(
            lang,
            "lobby.description",
            min=lobby.min_players,
            max=lobby.max_players,
            expires=int(lobby.expires_at),
        )

    def seat_lines(self, lobby: Lobby, lang: str) -> list[str]:
        return [
            f"{i + 1}. {self.lobby_name(lobby, s, lang)}"
            + (" 👑" if s.user_id == lobby.host_id else "")
            for i, s in enumerate(lobby.seats)
        ]

    def lobby_name(self, lobby: Lobby, seat: Seat, lang: str) -> str:
        """A member's mention, or a computer seat with its level ("Bot 2 (hard)")."""
        if not seat.is_bot:
            return mention(seat, lang)
        return mention(seat, lang, lobby.level_of(seat_number(seat)))

    def level_button(self, lobby: Lobby, number: int, lang: str) -> discord.ui.Item[Any]:
        """Beside a computer seat, the host's button to its next level (easy, normal, hard,
        easy...): the label says what a press makes it."""
        level = lobby.level_of(number)
        after = OFFERED_LEVELS[(OFFERED_LEVELS.index(level) + 1) % len(OFFERED_LEVELS)]
        if level not in OFFERED_LEVELS:  # `random` (tests): back to the default
            after = DEFAULT_LEVEL
        label = t(lang, "lobby.level_to", level=t(lang, f"level.{after}"))
        return button("bot_lvl", lobby.game_id, number, after, label=label)

    def waiting_names(self, lobby: Lobby, lang: str) -> list[str]:
        """Computers displaced by members: they come back, in order, when a member leaves."""
        first = len(lobby.bots()) + 1
        waiting = lobby.waiting_computers()
        return [
            f"🤖 {computer_name(first + i, lang, seat.level)}" for i, seat in enumerate(waiting)
        ]

    def lobby_over(self, lang: str, text: str) -> discord.ui.LayoutView:
        """The lobby's message once it is over: what became of it, nothing to press."""
        board = Board(title=t(lang, "lobby.title", game=self.title(lang)), lang=lang)
        board.accent = discord.Colour.dark_grey()
        return compose(board.text(text))

    def options_text(self, options: dict[str, Any], lang: str) -> str:
        return ""

    def lobby_controls(self, lobby: Lobby, lang: str) -> list[discord.ui.Item[Any]]:
        """Everyone's buttons on the first row, the host's controls on the second (a control
        that cannot act now is greyed out; a click by anyone else is refused privately)."""
        gid = lobby.game_id
        full, alone = len(lobby.seats) >= lobby.max_players, not lobby.others()
        return [
            button("join", gid, label=t(lang, "lobby.join"), style=discord.ButtonStyle.success),
            button("leave", gid, label=t(lang, "lobby.leave")),
            button("start", gid, label=t(lang, "lobby.start"), style=discord.ButtonStyle.primary),
            button("cancel", gid, label=t(lang, "lobby.cancel"), style=discord.ButtonStyle.danger),
            button(
                "bot_add", gid, label=t(lang, "lobby.add_bot"), emoji="🤖", disabled=full, row=1
            ),
            button(
                "bot_del",
                gid,
                label=t(lang, "lobby.remove_bot"),
                disabled=not lobby.computers,
                row=1,
            ),
            button("host", gid, label=t(lang, "lobby.transfer"), emoji="👑", disabled=alone, row=1),
            *self.house_rule_toggle(lobby, lang),
        ]

    def house_rule_toggle(self, lobby: Lobby, lang: str) -> list[discord.ui.Item[Any]]:
        """The host's switch of the house rule (RULES.md H-1, H-2), for a game that has it."""
        if not lobby.offers_house_rule():
            return []
        on = bool(lobby.options.get(HOUSE_RULE))
        return [
            button(
                "house",
                lobby.game_id,
                "off" if on else "on",
                label=t(lang, "lobby.house_on" if on else "lobby.house_off"),
                emoji="⏱️",
                style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                row=1,
            )
        ]

    async def lobby_changed(self, lobby: Lobby) -> None:
        await self.bot.wait_until_ready()
        if lobby.closed:
            # Its end is shown instead (by the lobby for a cancel or expiry, by the table for a
            # start). A restored lobby's first message waits for the gateway: a member may press
            # Start on the old message meanwhile, and a lobby posted then would offer Join.
            return
        lang = self.lang(lobby)
        await self.edit_or_send(lobby, LOBBY_MESSAGE, view=compose(self.lobby_board(lobby, lang)))

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        lang = self.lang(lobby)
        await self.edit_or_send(lobby, LOBBY_MESSAGE, view=self.lobby_over(lang, t(lang, reason)))
