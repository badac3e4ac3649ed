"""`/<game> rules`: a short how-to-play in the reader's language, paged with buttons."""

from __future__ import annotations

import discord

from bot.i18n import has, t
from bot.runtime.errors import ForgedCustomId
from bot.tables.buttons import CustomIdArgs, button, handles, view_of
from bot.tables.replies import lang_of

RULES_GAME_ID = 0  # rules pages belong to no table


def page_count(game: str) -> int:
    n = 0
    while has(f"{game}.rules.page{n + 1}"):
        n += 1
    return n


def rules_page(game: str, page: int, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    pages = max(1, page_count(game))
    page = min(max(page, 0), pages - 1)
    embed = discord.Embed(
        title=t(lang, "rules.title", game=t(lang, f"game.{game}")),
        description=t(lang, f"{game}.rules.page{page + 1}"),
        colour=discord.Colour.dark_gold(),
    )
    embed.set_footer(text=t(lang, "common.page", page=page + 1, pages=pages))
    view = view_of(
        button(
            "rules",
            RULES_GAME_ID,
            game,
            page - 1,
            label=t(lang, "common.previous"),
            disabled=page == 0,
        ),
        button(
            "rules",
            RULES_GAME_ID,
            game,
            page + 1,
            label=t(lang, "common.next"),
            disabled=page >= pages - 1,
        ),
    )
    return embed, view


async def show_rules(interaction: discord.Interaction, game: str) -> None:
    embed, view = rules_page(game, 0, lang_of(interaction))
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


@handles("rules")
async def turn_page(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    game, page = args[0], args.number(1)
    if not page_count(game):
        raise ForgedCustomId()
    embed, view = rules_page(game, page, lang_of(interaction))
    await interaction.response.edit_message(embed=embed, view=view)
