"""Restart-proof buttons: leaderboard pages and the new-season confirmation.

Each button carries its whole meaning in its `custom_id` (a discord.py `DynamicItem`), so a click
works after a restart; every click is checked again (right server, Manage Server still held).
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

import discord

from bot import web_paths as paths
from bot.games.registry import names
from bot.i18n import Language, t
from bot.standings import render
from bot.standings.access import in_guild, is_manager, lang_of, ledger_of, tell
from bot.weblinks import link_button, web_base_of
from data.store import Ledger, Season

log = logging.getLogger(__name__)

PAGE_SIZE = 10


async def leaderboard_reply(
    ledger: Ledger,
    lang: Language,
    guild_id: int,
    game: str,
    season: Season,
    page: int,
    *,
    web_base: str | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed of one page (clamped to the last one) and its Previous/Next buttons; given
    the bot's `web_base` (WEB_BASE_URL), a link to the board on the web companion when the
    server has its pages on."""
    board = await ledger.leaderboard(guild_id, game, season.id, page=page, page_size=PAGE_SIZE)
    if page > 0 and page >= board.pages:
        board = await ledger.leaderboard(
            guild_id, game, season.id, page=board.pages - 1, page_size=PAGE_SIZE
        )
    embed = render.leaderboard_embed(lang, board, season)
    view = discord.ui.View(timeout=None)
    if board.pages > 1:
        _page_buttons(view, lang, guild_id, game, season, board.page, board.pages)
    if web_base is not None and (await ledger.guild_settings(guild_id)).web:
        path = paths.leaderboard(guild_id, game, season=season.number)
        view.add_item(link_button(lang, paths.absolute(web_base, path)))
    return embed, (view if view.children else None)


def _page_buttons(
    view: discord.ui.View,
    lang: Language,
    guild_id: int,
    game: str,
    season: Season,
    page: int,
    pages: int,
) -> None:
    for target, key, disabled in (
        (max(page - 1, 0), "common.previous", page == 0),
        (page + 1, "common.next", page + 1 >= pages),
    ):
        view.add_item(
            LeaderboardPageButton(
                lang, guild_id, game, season.id, target, label=t(lang, key), disabled=disabled
            )
        )


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kz:lb:(?P<lang>en|ja):(?P<guild>\d+):(?P<game>[a-z-]+):(?P<season>\d+):(?P<page>\d+)",
):
    """Shows page `page` of a (guild, game, season) board, in the language it was posted in."""

    def __init__(
        self,
        lang: Language,
        guild_id: int,
        game: str,
        season_id: int,
        page: int,
        *,
        label: str = "…",
        disabled: bool = False,
    ) -> None:
        self.lang: Language = lang
        self.guild_id, self.game, self.season_id, self.page = guild_id, game, season_id, page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"kz:lb:{lang}:{guild_id}:{game}:{season_id}:{page}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardPageButton:
        assert isinstance(item, discord.ui.Button)  # these custom ids are only ever on buttons
        return cls(
            "ja" if match["lang"] == "ja" else "en",
            int(match["guild"]),
            match["game"],
            int(match["season"]),
            int(match["page"]),
            label=item.label or "…",
            disabled=item.disabled,
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id != self.guild_id or self.game not in names():
            await tell(interaction, "common.not_yours")
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        ledger = ledger_of(interaction)
        season = next(
            (s for s in await ledger.seasons(self.guild_id) if s.id == self.season_id), None
        )
        if season is None:
            await tell(interaction, "common.not_yours")
            return
        embed, view = await leaderboard_reply(
            ledger,
            self.lang,
            self.guild_id,
            self.game,
            season,
            self.page,
            web_base=web_base_of(interaction.client),
        )
        await interaction.response.edit_message(embed=embed, view=view)


class ProposedNames:
    """Season names typed into `/newseason`, waiting for their confirmation.

    A custom id carries a short token, never the name: user text has no place in a custom id
    (100 characters, and it is echoed to every client). The names live in memory: after a
    restart, a confirmation with a name answers that it expired, and nothing changes.
    """

    KEPT = 1000  # pending confirmations remembered; the oldest go first

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def propose(self, name: str) -> str:
        token = secrets.token_hex(4)
        self._names[token] = name
        while len(self._names) > self.KEPT:
            del self._names[next(iter(self._names))]
        return token

    def take(self, token: str) -> str | None:
        return self._names.pop(token, None)


PROPOSED = ProposedNames()


class NewSeasonButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kz:season:new:(?P<guild>\d+):(?P<season>\d+)(?::(?P<token>[0-9a-f]{8}))?",
):
    """Confirms `/newseason`: ends season `season` (if still current) and opens the next, named
    by the proposal `token` (see ProposedNames) or "Season N" without one."""

    def __init__(self, guild_id: int, season_id: int, token: str | None, label: str = "…") -> None:
        self.guild_id, self.season_id, self.token = guild_id, season_id, token
        custom_id = f"kz:season:new:{guild_id}:{season_id}" + (f":{token}" if token else "")
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=custom_id)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NewSeasonButton:
        assert isinstance(item, discord.ui.Button)  # these custom ids are only ever on buttons
        return cls(int(match["guild"]), int(match["season"]), match["token"], item.label or "…")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not await is_manager(interaction):
            return False
        if interaction.guild_id != self.guild_id:
            await tell(interaction, "common.not_yours")
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        ledger = ledger_of(interaction)
        lang = lang_of(interaction)
        current = await ledger.current_season(self.guild_id)
        if current.id != self.season_id:
            label = render.season_name(lang, current.number, current.name)
            await interaction.response.edit_message(
                content=t(lang, "standings.season_new.stale", season=label), view=None
            )
            return
        name = PROPOSED.take(self.token) if self.token else None
        if self.token and name is None:
            await interaction.response.edit_message(
                content=t(lang, "standings.season_new.expired"), view=None
            )
            return
        try:
            new = await ledger.new_season(self.guild_id, name)
        except ValueError as e:
            await interaction.response.edit_message(
                content=t(lang, "standings.season_new.invalid", error=str(e)), view=None
            )
            return
        old = next((s for s in await ledger.seasons(self.guild_id) if s.id == current.id), current)
        log.info(
            "guild %s: season %s started by %s", self.guild_id, new.number, interaction.user.id
        )
        await interaction.response.edit_message(
            content=t(
                lang,
                "standings.season_new.done",
                season=render.season_name(lang, new.number, new.name),
                previous=render.season_name(lang, old.number, old.name),
            ),
            view=None,
        )
        await interaction.followup.send(
            t(
                lang,
                "standings.season_new.announce",
                user=interaction.user.mention,
                season=render.season_name(lang, new.number, new.name),
                previous=render.season_name(lang, old.number, old.name),
                champions=render.champions_text(lang, old),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class CancelButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kz:season:cancel:(?P<guild>\d+)",
):
    """Dismisses the `/newseason` confirmation; nothing changes."""

    def __init__(self, guild_id: int, label: str = "…") -> None:
        self.guild_id = guild_id
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"kz:season:cancel:{guild_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CancelButton:
        assert isinstance(item, discord.ui.Button)  # these custom ids are only ever on buttons
        return cls(int(match["guild"]), item.label or "…")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await in_guild(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=t(interaction.locale, "common.cancelled"), view=None
        )


DYNAMIC_ITEMS = (LeaderboardPageButton, NewSeasonButton, CancelButton)
