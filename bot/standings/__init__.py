"""Leaderboards, member stats and seasons: `/leaderboard`, `/stats`, `/season`, `/newseason`."""

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    from bot.standings.buttons import DYNAMIC_ITEMS
    from bot.standings.cog import Standings
    from bot.standings.seasons import Seasons

    await bot.add_cog(Standings(bot))
    await bot.add_cog(Seasons(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
