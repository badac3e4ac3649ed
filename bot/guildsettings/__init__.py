"""Per-guild settings: `/settings` (Manage Server)."""

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    from bot.guildsettings.cog import GuildSettingsCog

    await bot.add_cog(GuildSettingsCog(bot))
