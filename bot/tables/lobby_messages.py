"""A game's lobby message: the seats, the options, everyone's buttons and the host's controls."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.runtime.lobby import Lobby
from bot.tables.buttons import button, view_of
from bot.tables.messages import Messages, mention

LOBBY_MESSAGE = "lobby"


class LobbyMessages(Messages):
    """The lobby's message, edited as seats change, closed when the lobby closes."""

    def lobby_embed(self, lobby: Lobby, lang: str) -> discord.Embed:
        seats = "\n".join(
            f"{i + 1}. {mention(s, lang)}" + (" 👑" if s.user_id == lobby.host_id else "")
            for i, s in enumerate(lobby.seats)
        )
        embed = discord.Embed(
            title=t(lang, "lobby.title", game=self.title(lang)),
            description=t(
                lang,
                "lobby.description",
                min=lobby.min_players,
                max=lobby.max_players,
                expires=int(lobby.expires_at),
            ),
            colour=self.colour,
        )
        embed.add_field(
            name=t(lang, "lobby.seats", n=len(lobby.seats), max=lobby.max_players),
            value=seats or "—",
            inline=False,
        )
        waiting = lobby.waiting_computers()
        if waiting:  # displaced by members: they come back, in order, when a member leaves
            first = len(lobby.bots()) + 1
            names = [t(lang, "table.bot_name", number=first + i) for i in range(len(waiting))]
            embed.add_field(
                name=t(lang, "lobby.waiting"), value="\n".join(f"🤖 {n}" for n in names)
            )
        options = self.options_text(lobby.options, lang)
        if options:
            embed.add_field(name=t(lang, "lobby.options"), value=options, inline=False)
        return embed

    def options_text(self, options: dict[str, Any], lang: str) -> str:
        return ""

    def lobby_view(self, lobby: Lobby, lang: str) -> discord.ui.View:
        """Everyone's buttons on the first row, the host's controls on the second (a control
        that cannot act now is greyed out; a click by anyone else is refused privately)."""
        gid = lobby.game_id
        full, alone = len(lobby.seats) >= lobby.max_players, not lobby.others()
        return view_of(
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
            button("kick", gid, label=t(lang, "lobby.kick"), disabled=alone, row=1),
            button("host", gid, label=t(lang, "lobby.transfer"), emoji="👑", disabled=alone, row=1),
        )

    async def lobby_changed(self, lobby: Lobby) -> None:
        await self.bot.wait_until_ready()
        if lobby.closed:
            # Its end is shown instead (by the lobby for a cancel or expiry, by the table for a
            # start). A restored lobby's first message waits for the gateway: a member may press
            # Start on the old message meanwhile, and a lobby posted then would offer Join.
            return
        lang = self.lang(lobby)
        await self.edit_or_send(
            lobby,
            LOBBY_MESSAGE,
            embed=self.lobby_embed(lobby, lang),
            view=self.lobby_view(lobby, lang),
        )

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        lang = self.lang(lobby)
        embed = discord.Embed(
            title=t(lang, "lobby.title", game=self.title(lang)),
            description=t(lang, reason),
            colour=discord.Colour.dark_grey(),
        )
        await self.edit_or_send(lobby, LOBBY_MESSAGE, embed=embed, view=None)
