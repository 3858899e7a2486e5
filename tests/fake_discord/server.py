"""FakeDiscord: the aiohttp server, the discord.py patching, and what tests do as users."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from tests.fake_discord.gateway import Gateway
from tests.fake_discord.limits import Limits
from tests.fake_discord.rest import Rest
from tests.fake_discord.state import (
    ALL_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeState,
    FakeUser,
    InteractionRecord,
    SentMessage,
)

MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 31) | (1 << 15)  # view, send, commands, files
OPTION_TYPES = {"SUB_COMMAND": 1, "SUB_COMMAND_GROUP": 2, "USER": 6, "CHANNEL": 7}


class FakeDiscord:
    """A Discord for one bot, on 127.0.0.1. Use as `async with FakeDiscord() as fake:`."""

    def __init__(self, token: str = "fake-token") -> None:
        self.state = FakeState(token)
        self.gateway = Gateway(self.state)
        self.rest = Rest(self.state, self.gateway)
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, Any] | None = None
        self.base_url = ""

    @property
    def token(self) -> str:
        return self.state.token

    async def start(self) -> None:
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 2**20)
        app.add_routes(self.rest.routes())
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway.url = f"ws://127.0.0.1:{port}/gateway"
        self._patch()

    async def stop(self) -> None:
        self.rest.unhang.set()
        self._unpatch()
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _patch(self) -> None:
        ws_cls = discord.gateway.DiscordWebSocket
        self._saved = (discord.http.Route.BASE, ws_cls.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        ws_cls.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)

    def _unpatch(self) -> None:
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    # -- world -----------------------------------------------------------------------------

    def add_user(self, username: str, **kwargs: Any) -> FakeUser:
        return self.state.add_user(username, **kwargs)

    def add_guild(
        self, name: str, channels: list[str], *, shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """A guild (with `shard` (i, n): on shard i of n, see `gateway.shard_of`)."""
        return self.state.add_guild(name, channels, shard=shard)

    def join(self, guild: FakeGuild, *users: FakeUser) -> None:
        guild.member_ids.extend(u.id for u in users)

    # -- faults ----------------------------------------------------------------------------

    def rate_limit(self, pattern: str, *, count: int = 1, retry_after: float = 0.05) -> None:
        self.rest.rate_limit(pattern, count=count, retry_after=retry_after)

    def rate_limits(self, **kwargs: Any) -> Limits:
        """Enforce Discord's rate limits from now on (see `Limits` for the defaults)."""
        self.rest.limits = Limits(**kwargs)
        return self.rest.limits

    def server_errors(self, pattern: str, *, count: int = 2, status: int = 502) -> None:
        self.rest.server_errors(pattern, count=count, status=status)

    def after_post(self, pattern: str, *, count: int = 1, status: int = 0) -> asyncio.Event:
        return self.rest.after_post(pattern, count=count, status=status)

    async def close_gateway(self, code: int = 4000) -> None:
        await self.gateway.close(code)

    async def request_reconnect(self) -> None:
        await self.gateway.send_op(7)

    async def invalidate_session(self) -> None:
        await self.gateway.send_op(9, False)

    # -- users acting ----------------------------------------------------------------------

    async def send_dm(
        self, user: FakeUser, content: str, *, at: float | None = None
    ) -> dict[str, Any]:
        """The user writes to the bot in DM: a MESSAGE_CREATE without guild_id. `at`: when
        the message was created (Unix seconds; its id says so), if it is delivered later."""
        channel = self.state.dm_channel(user.id)
        payload = self.state.user_message(user, channel, content, at)
        await self.gateway.dispatch("MESSAGE_CREATE", payload)
        return payload

    async def slash(
        self,
        user: FakeUser,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        interaction_type: int = 2,
        focused: str | None = None,
    ) -> InteractionRecord:
        """The user runs `/command sub` with options (in `channel`, or in DM with the bot)."""
        names = command.split()
        guild_id = channel.guild_id if channel is not None else None
        spec = self._command(names[0], guild_id)
        data: dict[str, Any] = {"id": spec["id"], "name": names[0], "type": 1}
        if guild_id and spec.get("guild_id"):
            data["guild_id"] = str(guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        holder = data
        for name in names[1:]:
            spec = next(o for o in spec.get("options", []) if o["name"] == name)
            sub: dict[str, Any] = {"name": name, "type": spec["type"]}
            holder["options"] = [sub]
            holder = sub
        holder["options"] = self._options(spec, options or {}, resolved, focused)
        if resolved:
            data["resolved"] = resolved
        return await self.interact(user, data, channel=channel, interaction_type=interaction_type)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: FakeChannel | None = None,
    ) -> list[dict[str, Any]]:
        """Type into an option with autocomplete; returns the choices the bot offered."""
        record = await self.slash(
            user, command, options, channel=channel, interaction_type=4, focused=focused
        )
        await self.wait_for(lambda: record.responses, what="autocomplete answer")
        return list(record.responses[0]["data"]["choices"])

    async def interact(
        self,
        user: FakeUser,
        data: dict[str, Any],
        *,
        channel: FakeChannel | None = None,
        interaction_type: int = 3,
        message: SentMessage | None = None,
    ) -> InteractionRecord:
        """Deliver any interaction (2 command, 3 component on `message`, 4 autocomplete)."""
        if channel is None:
            channel = self.state.dm_channel(user.id)
        record = InteractionRecord(
            self.state.snowflake(), secrets.token_urlsafe(24), interaction_type, user.id, {}
        )
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.state.application_id),
            "type": interaction_type,
            "token": record.token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(self.state.users),
            "locale": user.locale,
            "app_permissions": str(self._app_permissions(channel)),
            "attachment_size_limit": 10 * 2**20,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id or 0)},
            "context": 0 if channel.guild_id else 1,
        }
        if channel.guild_id is not None:
            guild = self.state.guilds[channel.guild_id]
            member = guild.member_payload(user)
            perms = ALL_PERMISSIONS if user.id == guild.owner_id else MEMBER_PERMISSIONS
            member["permissions"] = str(perms)
            payload.update(guild_id=str(guild.id), member=member, guild_locale="en-US")
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = self.state.message_payload(message, self.state.bot_user)
        record.payload = payload
        self.state.interactions[record.id] = record
        self.state.interactions_by_token[record.token] = record
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    def _app_permissions(self, channel: FakeChannel) -> int:
        guild = self.state.guilds.get(channel.guild_id or 0)
        return ALL_PERMISSIONS if guild is None else guild.bot_permissions

    async def click(self, user: FakeUser, message: SentMessage, values: list[str]) -> Any:
        """Pick values in the first select menu of a message the bot sent."""
        select = next(
            c for row in message.components for c in row.get("components", []) if c["type"] == 3
        )
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": values}
        channel = self.state.channels.get(message.channel_id or 0)
        return await self.interact(user, data, channel=channel, interaction_type=3, message=message)

    def _command(self, name: str, guild_id: int | None) -> dict[str, Any]:
        for scope in (guild_id, None):
            for spec in self.state.commands.get(scope, []):
                if spec["name"] == name:
                    return spec
        raise KeyError(f"/{name} was never synced")

    def _options(
        self,
        spec: dict[str, Any],
        values: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        focused: str | None,
    ) -> list[dict[str, Any]]:
        out = []
        known = {o["name"]: o for o in spec.get("options", [])}
        for name, value in values.items():
            option = known[name]  # KeyError: the bot has no such option
            item: dict[str, Any] = {"name": name, "type": option["type"]}
            if isinstance(value, FakeUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                item["value"] = str(value.id)
            elif isinstance(value, FakeChannel):
                resolved.setdefault("channels", {})[str(value.id)] = {
                    "id": str(value.id),
                    "name": value.name,
                    "type": value.type,
                    "permissions": str(ALL_PERMISSIONS),
                }
                item["value"] = str(value.id)
            else:
                item["value"] = value
            if name == focused:
                item["focused"] = True
            out.append(item)
        return out

    # -- waiting ---------------------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[], Any], *, within: float = 5.0, what: str = "condition"
    ) -> Any:
        deadline = time.monotonic() + within
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"fake Discord: timed out waiting for {what}")
            await asyncio.sleep(0.01)

    async def reply_to(self, record: InteractionRecord, *, within: float = 5.0) -> SentMessage:
        """The visible answer to an interaction (after any deferral)."""

        def found() -> SentMessage | None:
            return next((m for m in self.state.messages if m.interaction_id == record.id), None)

        return await self.wait_for(found, within=within, what=f"reply to {record.id}")

    async def dm_reply(self, user: FakeUser, after: int, *, within: float = 5.0) -> SentMessage:
        """The first DM to `user` beyond the first `after` ones."""
        msgs = await self.wait_for(
            lambda: self.state.dms_to(user.id)[after:], within=within, what="DM reply"
        )
        return msgs[0]
