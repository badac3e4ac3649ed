"""Leaderboards, member stats and seasons: `/leaderboard`, `/stats`, `/season`, `/newseason`."""

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    # Imported when the cog loads, not with the package: a submodule imported on its own (the
    # web companion's links, the tests) does not load the whole feature and its cogs.
    from bot.standings.buttons import DYNAMIC_ITEMS
    from bot.standings.cog import Standings
    from bot.standings.seasons import Seasons

    await bot.add_cog(Standings(bot))
    await bot.add_cog(Seasons(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
