"""`/about`: what the bot is, the games it hosts and their commands, its version."""

from __future__ import annotations

from importlib import metadata

import discord
from discord import app_commands
from discord.ext import commands

GAMES = (
    ("/kamiza", "KAMIZA (上座)", "kamiza"),
    ("/kobayakawa", "Kobayakawa (小早川)", "kobayakawa"),
    ("/losers", "Rights of Losers (敗者の権利)", "losers"),
)

TEXT = {
    "en": {
        "title": "Kamiza",
        "description": (
            "A Discord bot that hosts Japanese card games in your server. Start a game with its "
            "command, join from the lobby, pick your cards from private button menus and follow "
            "the reveal in the game's thread. Every action is kept in a ledger, so a restart "
            "loses nothing."
        ),
        "kamiza": "Bluff your Boss into the top seat. `/kamiza start` opens a table.",
        "kobayakawa": "One card, one draw, and the Kobayakawa. `/kobayakawa start`.",
        "losers": "Trick taking where the losers decide who owns the town. `/losers start`.",
        "version": "Version {version}",
    },
    "ja": {
        "title": "Kamiza",
        "description": (
            "サーバーで日本のカードゲームを遊べる Discord ボットです。コマンドでゲームを始め、"
            "ロビーから参加し、自分だけに見えるボタンでカードを選び、ゲームのスレッドで公開と"
            "判定を見守ります。すべての行動は記録されるので、再起動しても失われません。"
        ),
        "kamiza": "組長を上座へ。`/kamiza start` で卓を開きます。",
        "kobayakawa": "1枚の手札と1回のドロー、そして小早川。`/kobayakawa start`。",
        "losers": "負けた者が町の行方を決めるトリックテイキング。`/losers start`。",
        "version": "バージョン {version}",
    },
}


def version() -> str:
    try:
        return metadata.version("kamiza")
    except metadata.PackageNotFoundError:
        return "unknown"


def about_embed(locale: discord.Locale | str) -> discord.Embed:
    text = TEXT["ja" if str(locale).startswith("ja") else "en"]
    embed = discord.Embed(
        title=text["title"], description=text["description"], colour=discord.Colour.dark_red()
    )
    for command, name, key in GAMES:
        embed.add_field(name=f"{name} — {command}", value=text[key], inline=False)
    embed.set_footer(text=text["version"].format(version=version()))
    return embed


class Meta(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="about", description="What Kamiza is, the games it hosts and their commands"
    )
    async def about(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            embed=about_embed(interaction.locale), ephemeral=True
        )
