"""A fake Discord (REST v10 + gateway) on 127.0.0.1 that the real discord.py client talks to."""

from tests.fake_discord.server import FakeDiscord
from tests.fake_discord.state import FakeChannel, FakeGuild, FakeUser, SentMessage

__all__ = ["FakeChannel", "FakeDiscord", "FakeGuild", "FakeUser", "SentMessage"]
