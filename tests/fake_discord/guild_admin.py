"""The fake Discord's guild administration routes: channels, categories, private threads and their
members, permission checks, a member leaving; and what a member may see or say in a channel.

From Discord's API v10 documentation:
- Create Guild Channel, POST /guilds/{guild.id}/channels: needs MANAGE_CHANNELS; `type` (0 text,
  4 category), `parent_id` (a category), `permission_overwrites` ({id, type 0 role / 1 member,
  allow, deny}); fires Channel Create; returns the channel.
- Modify Channel, PATCH /channels/{id} (name, parent_id, permission_overwrites) and Delete
  Channel: need MANAGE_CHANNELS; fire Channel Update / Channel Delete.
- Edit / Delete Channel Permission: need MANAGE_ROLES (checked here for the admin routes).
- Start Thread without Message, POST /channels/{id}/threads: `type` 11 public or 12 private
  (the default in v10), `invitable` for a private one; the creator joins it.
- Add / Remove Thread Member, PUT / DELETE /channels/{id}/thread-members/{user.id}: 204.
- A missing permission is 403 with JSON code 50013 "Missing Permissions".
- Guild Member Remove (gateway): {guild_id, user}; sent only with the GUILD_MEMBERS intent
  (privileged), which tests opt into with `remove_member(..., intent=True)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fake_discord.replies import error, json_response
from tests.fake_discord.state import FakeChannel, FakeGuild, FakeState, PermissionChange

if TYPE_CHECKING:
    from tests.fake_discord.gateway import Gateway

API = "/api/v10"
VIEW = 1 << 10
SEND = 1 << 11
MANAGE_CHANNELS = 1 << 4
MANAGE_ROLES = 1 << 28
SEND_IN_THREADS = 1 << 38
MANAGE_THREADS = 1 << 34
EVERYONE_BASE = VIEW | SEND | (1 << 31) | SEND_IN_THREADS  # the fake's @everyone role


def allowed(channel: FakeChannel, guild: FakeGuild, user_id: int, bit: int) -> bool:
    """Whether member `user_id` has permission `bit` in `channel` (Discord's order: @everyone
    role, its overwrite, then the member's overwrite; the owner has everything). A thread:
    a private one only to its members (or Manage Threads), sending by the parent's
    Send Messages in Threads."""
    if user_id == guild.owner_id:
        return True
    if channel.type in (11, 12):
        parent = _parent(channel, guild)
        if parent is None or not allowed(parent, guild, user_id, VIEW):
            return False
        member = channel.type == 11 or user_id in channel.members
        if not member and not allowed(parent, guild, user_id, MANAGE_THREADS):
            return False
        need = SEND_IN_THREADS if bit == SEND else bit
        return bit == VIEW or allowed(parent, guild, user_id, need)
    perms = EVERYONE_BASE
    for target in (guild.id, user_id):
        ow = channel.overwrites.get(target)
        if ow is not None:
            perms = (perms & ~int(ow["deny"])) | int(ow["allow"])
    return bool(perms & bit)


def _parent(channel: FakeChannel, guild: FakeGuild) -> FakeChannel | None:
    for c in guild.channels:
        if c.id == channel.parent_id:
            return c
    return None


class GuildAdmin:
    def __init__(self, state: FakeState, gateway: Gateway) -> None:
        self.state = state
        self.gateway = gateway

    def routes(self) -> list[web.RouteDef]:
        return [
            web.post(API + "/guilds/{guild_id}/channels", self.create_channel),
            web.patch(API + "/channels/{channel_id}", self.modify_channel),
            web.delete(API + "/channels/{channel_id}", self.delete_channel),
            web.put(API + "/channels/{channel_id}/thread-members/{user_id}", self.add_member),
            web.delete(API + "/channels/{channel_id}/thread-members/{user_id}", self.remove),
        ]

    def _guild(self, channel: FakeChannel | None) -> FakeGuild | None:
        if channel is None or channel.guild_id is None:
            return None
        return self.state.guilds.get(channel.guild_id)

    async def create_channel(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        if not guild.bot_permissions & MANAGE_CHANNELS:
            return error(403, 50013, "Missing Permissions")
        body = await request.json()
        kind = int(body.get("type", 0))
        if kind not in (0, 4) or not 1 <= len(str(body.get("name", ""))) <= 100:
            return error(400, 50035, "Invalid Form Body")
        parent = body.get("parent_id")
        channel = self.state.add_channel(guild, str(body["name"]))
        channel.type, channel.parent_id = kind, int(parent) if parent else None
        for ow in body.get("permission_overwrites", []):
            channel.overwrites[int(ow["id"])] = _overwrite(ow)
        payload = channel.payload(self.state.users)
        await self.gateway.dispatch("CHANNEL_CREATE", payload)
        return json_response(payload)

    async def modify_channel(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        guild = self._guild(channel)
        if channel is None or guild is None:
            return error(404, 10003, "Unknown Channel")
        if not guild.bot_permissions & MANAGE_CHANNELS:
            return error(403, 50013, "Missing Permissions")
        body = await request.json()
        if "name" in body:
            channel.name = str(body["name"])
        if "parent_id" in body:
            channel.parent_id = int(body["parent_id"]) if body["parent_id"] else None
        if "permission_overwrites" in body:
            channel.overwrites = {
                int(ow["id"]): _overwrite(ow) for ow in body["permission_overwrites"]
            }
        payload = channel.payload(self.state.users)
        await self.gateway.dispatch("CHANNEL_UPDATE", payload)
        return json_response(payload)

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        guild = self._guild(channel)
        if channel is None or guild is None:
            return error(404, 10003, "Unknown Channel")
        if not guild.bot_permissions & MANAGE_CHANNELS:
            return error(403, 50013, "Missing Permissions")
        payload = channel.payload(self.state.users)
        del self.state.channels[channel.id]
        if channel in guild.channels:
            guild.channels.remove(channel)
        await self.gateway.dispatch("CHANNEL_DELETE", payload)
        return json_response(payload)

    async def start_thread(self, request: web.Request) -> web.Response:
        """Start Thread without Message: public (11) or private (12, the v10 default)."""
        parent = self.state.channels.get(int(request.match_info["channel_id"]))
        if parent is None or parent.guild_id is None or parent.type != 0:
            return error(404, 10003, "Unknown Channel")
        body = await request.json()
        thread = self.state.add_thread(parent, str(body.get("name", "")))
        thread.type = int(body.get("type", 12))
        thread.invitable = bool(body.get("invitable", True))
        thread.members.add(self.state.bot_user.id)  # the creator is a member
        payload = thread.payload(self.state.users)
        await self.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return json_response(payload)

    async def add_member(self, request: web.Request) -> web.Response:
        thread = self.state.channels.get(int(request.match_info["channel_id"]))
        if thread is None or thread.type not in (11, 12):
            return error(404, 10003, "Unknown Channel")
        thread.members.add(int(request.match_info["user_id"]))
        return web.Response(status=204)

    async def remove(self, request: web.Request) -> web.Response:
        thread = self.state.channels.get(int(request.match_info["channel_id"]))
        if thread is None or thread.type not in (11, 12):
            return error(404, 10003, "Unknown Channel")
        thread.members.discard(int(request.match_info["user_id"]))
        return web.Response(status=204)


def _overwrite(ow: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(ow["id"]),
        "type": int(ow["type"]),
        "allow": str(ow.get("allow", "0")),
        "deny": str(ow.get("deny", "0")),
    }


def roles_forbidden(state: FakeState, channel: FakeChannel) -> web.Response | None:
    """Edit/Delete Channel Permission without Manage Roles: 403 50013."""
    guild = state.guilds.get(channel.guild_id or 0)
    if guild is not None and not guild.bot_permissions & MANAGE_ROLES:
        return error(403, 50013, "Missing Permissions")
    return None


async def remove_member(gateway: Gateway, guild: FakeGuild, user_id: int, *, intent: bool) -> None:
    """A member leaves the guild; Discord tells the bot only with the GUILD_MEMBERS intent."""
    if user_id in guild.member_ids:
        guild.member_ids.remove(user_id)
    if intent:
        user = gateway.state.users[user_id]
        await gateway.dispatch(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user.payload()}
        )


__all__ = ["GuildAdmin", "PermissionChange", "allowed", "remove_member", "roles_forbidden"]
