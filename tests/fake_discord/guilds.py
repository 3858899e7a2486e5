"""The fake Discord's guild routes (GET /guilds/{id}, GET /guilds/{id}/members/{user}), as
Discord's API v10 documents them (Resources > Guild: Get Guild, Get Guild Member): what
`parley doctor` reads to work out the bot's permissions in a channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.fake_discord.replies import error, json_response

if TYPE_CHECKING:
    from tests.fake_discord.state import FakeState

# The invite's permissions (README, "Discord application", step 3): view, send, embed,
# attach, read history, manage roles, send in threads.
INVITE = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 28) | (1 << 38)


class GuildRoutes:
    def __init__(self, state: FakeState) -> None:
        self.state = state

    def routes(self, api: str) -> list[web.RouteDef]:
        return [
            web.get(api + "/guilds/{guild_id}", self.get_guild),
            web.get(api + "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        body = guild.payload(self.state.users)
        for key in ("channels", "members", "threads", "voice_states", "presences"):
            body.pop(key, None)  # (Get Guild carries none of these: gateway only)
        return json_response(body)

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        user = self.state.users.get(int(request.match_info["user_id"]))
        if guild is None or user is None or user.id not in guild.member_ids:
            return error(404, 10007, "Unknown Member")
        return json_response(guild.member_payload(user))
