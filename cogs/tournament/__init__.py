from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from cogs.tournament.cog import TournamentCog  # noqa: PLC0415 - the package only holds setup()

    await bot.add_cog(TournamentCog(bot))
