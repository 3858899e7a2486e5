from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from cogs.casual.absence import AbsenceCog  # noqa: PLC0415 - the package holds setup()
    from cogs.casual.cog import PressCog  # noqa: PLC0415

    await bot.add_cog(PressCog(bot))
    await bot.add_cog(AbsenceCog(bot))
