"""The /about command."""

from discord.ext import commands

from .cog import Meta


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Meta(bot))
