from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from cogs.settings.cog import SettingsCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(SettingsCog(bot))
