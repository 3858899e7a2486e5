from bot.discord_app.bot import DiscordBot


async def setup(bot: DiscordBot) -> None:
    from bot.discord_app.ballots import VoteButton  # noqa: PLC0415 - the package only holds setup()
    from cogs.vote.cog import VoteCog  # noqa: PLC0415

    bot.add_dynamic_items(VoteButton)  # ballot buttons posted before a restart still work
    await bot.add_cog(VoteCog(bot))
