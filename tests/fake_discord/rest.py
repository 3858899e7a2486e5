"""The REST half of the fake Discord (API v10): the routes discord.py calls, and faults."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import formatdate
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fake_discord import components
from tests.fake_discord.board import Pins, embed_errors, invalid_form
from tests.fake_discord.guild_admin import GuildAdmin, roles_forbidden
from tests.fake_discord.guilds import GuildRoutes
from tests.fake_discord.limits import Limits
from tests.fake_discord.replies import error, json_response
from tests.fake_discord.state import (
    CommandSync,
    FakeState,
    PermissionChange,
    Request,
    SentFile,
    SentMessage,
)

if TYPE_CHECKING:
    from tests.fake_discord.gateway import Gateway

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Fault:
    """Answer the next `count` requests whose path contains `pattern` with an error."""

    pattern: str
    count: int
    status: int
    retry_after: float = 0.0
    method: str | None = None
    # "before": refuse the request; "after": create the message, then answer `status`
    # (the reply is lost); "hang": create it, then never answer (the bot dies waiting);
    # "reset": create it, then drop the connection without an answer.
    when: str = "before"
    hit: asyncio.Event | None = None  # set each time the fault fires


class Rest:
    def __init__(self, state: FakeState, gateway: Gateway) -> None:
        self.state = state
        self.gateway = gateway
        self.faults: list[Fault] = []
        self.latency = 0.0  # seconds added to every request, for benchmarks
        self.unhang = asyncio.Event()  # set at shutdown: hanging replies end
        self.limits: Limits | None = None  # Discord's rate limits, when a test turns them on
        self.originals: dict[int, int] = {}  # component interaction -> its message (6 and 7)
        self.pins = Pins(state, gateway)  # pinned messages, embeds' limits (board.py)
        self.admin = GuildAdmin(state, gateway)
        self.guild_routes = GuildRoutes(state)
        self.clock_offset = 0.0  # seconds added to the Date header (a Discord clock apart)

    # -- faults ----------------------------------------------------------------------------

    def rate_limit(self, pattern: str, *, count: int = 1, retry_after: float = 0.05) -> None:
        self.faults.append(Fault(pattern, count, 429, retry_after))

    def server_errors(self, pattern: str, *, count: int = 2, status: int = 502) -> None:
        self.faults.append(Fault(pattern, count, status))

    def after_post(self, pattern: str, *, count: int = 1, status: int = 0) -> asyncio.Event:
        """The next `count` messages posted to paths containing `pattern` are created, then
        the reply is lost: answered with `status`, with 0 never answered (a kill point
        between Discord's post and the bot's record), with -1 the connection dropped. The
        event is set when it fires."""
        hit = asyncio.Event()
        when = "reset" if status < 0 else "after" if status else "hang"
        self.faults.append(Fault(pattern, count, status, method="POST", when=when, hit=hit))
        return hit

    def _post_fault(self, request: web.Request) -> Fault | None:
        for fault in self.faults:
            if fault.when == "before" or fault.count <= 0 or fault.pattern not in request.path:
                continue
            if fault.method and fault.method != request.method:
                continue
            fault.count -= 1
            return fault
        return None

    def _fault_for(self, request: web.Request) -> web.Response | None:
        for fault in self.faults:
            if fault.when != "before" or fault.count <= 0 or fault.pattern not in request.path:
                continue
            if fault.method and fault.method != request.method:
                continue
            fault.count -= 1
            if fault.status == 429:
                body = {"message": "You are being rate limited.", "retry_after": fault.retry_after}
                body["global"] = False
                headers = {
                    "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(fault.retry_after),
                    "X-RateLimit-Bucket": "fake-bucket",
                    "X-RateLimit-Scope": "user",
                }
                return json_response(body, status=429, headers=headers)
            return web.Response(status=fault.status, text="upstream error")
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if self.latency:
            await asyncio.sleep(self.latency)
        response: web.StreamResponse
        faulted = self._fault_for(request)
        limited, bucket = self.limits.check(request) if self.limits else (None, {})
        if faulted is not None:
            response = faulted
        elif limited is not None:
            response = limited
        elif request.path.startswith(API + "/") and not self._authorised(request):
            response = error(401, 0, "401: Unauthorized")
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = error(404, 0, f"404: Not Found ({request.method} {request.path})")
            response.headers.update(bucket)
        if self.clock_offset:
            response.headers["Date"] = formatdate(time.time() + self.clock_offset, usegmt=True)
        self.state.requests.append(
            Request(request.method, request.path, response.status, time.monotonic())
        )
        return response

    def _authorised(self, request: web.Request) -> bool:
        if "/interactions/" in request.path or "/webhooks/" in request.path:
            return True  # authorised by the interaction token in the path
        return request.headers.get("Authorization") == f"Bot {self.state.token}"

    # -- routes ----------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        r = web
        return [
            r.get(API + "/users/@me", self.get_me),
            r.get(API + "/users/{user_id}", self.get_user),
            r.get(API + "/oauth2/applications/@me", self.get_application),
            r.get(API + "/gateway/bot", self.get_gateway_bot),
            r.get(API + "/gateway", self.get_gateway_bot),
            r.put(API + "/applications/{app_id}/commands", self.put_commands),
            r.put(API + "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            r.get(API + "/applications/{app_id}/commands", self.get_commands),
            r.get(API + "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            r.get(API + "/channels/{channel_id}", self.get_channel),
            r.post(API + "/channels/{channel_id}/messages", self.post_message),
            r.get(API + "/channels/{channel_id}/messages", self.get_messages),
            r.get(API + "/channels/{channel_id}/messages/{message_id}", self.get_message),
            r.patch(API + "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            r.delete(API + "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            r.post(API + "/channels/{channel_id}/typing", self.no_content),
            r.post(API + "/channels/{channel_id}/threads", self.admin.start_thread),
            *self.admin.routes(),  # channels, categories, thread members (guild_admin.py)
            r.put(API + "/channels/{channel_id}/permissions/{target_id}", self.put_permission),
            r.delete(
                API + "/channels/{channel_id}/permissions/{target_id}", self.delete_permission
            ),
            r.post(API + "/users/@me/channels", self.open_dm),
            r.post(API + "/interactions/{interaction_id}/{token}/callback", self.callback),
            r.post(API + "/webhooks/{app_id}/{token}", self.followup),
            r.patch(API + "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_followup),
            r.get(API + "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_followup),
            r.delete(API + "/webhooks/{app_id}/{token}/messages/{message_id}", self.no_content),
            *self.pins.routes(API),
            r.get("/gateway", self.gateway.handle),
            *self.guild_routes.routes(API),
        ]

    async def no_content(self, _request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def get_me(self, _request: web.Request) -> web.Response:
        return json_response(self.state.bot_user.payload())

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.state.users.get(int(request.match_info["user_id"]))
        if user is None:
            return error(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_application(self, _request: web.Request) -> web.Response:
        return json_response(self.state.application_payload())

    async def get_gateway_bot(self, _request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway.url, "shards": 1, "session_start_limit": limit})

    async def put_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild_id")
        guild_id = int(guild) if guild else None
        commands = await request.json()
        stored = []
        for given in commands:
            command = dict(given)
            command.setdefault("id", str(self.state.snowflake()))
            command["application_id"] = str(self.state.application_id)
            command.setdefault("type", 1)
            command.setdefault("version", "1")
            command.setdefault("default_member_permissions", None)
            if guild_id:
                command["guild_id"] = str(guild_id)
            stored.append(command)
        self.state.commands[guild_id] = stored
        self.state.command_syncs.append(CommandSync(guild_id, stored))
        return json_response(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild_id")
        return json_response(self.state.commands.get(int(guild) if guild else None, []))

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        return json_response(channel.payload(self.state.users))

    async def get_message(self, request: web.Request) -> web.Response:
        """What users wrote (the bot re-reads a DM's orders after a restart) or the bot."""
        message_id = int(request.match_info["message_id"])
        found = self.state.user_messages.get(message_id)
        if found is None:
            mine = [m for m in self.state.messages if m.id == message_id]
            found = (mine[0], self.state.bot_user) if mine else None
        if found is None or found[0].channel_id != int(request.match_info["channel_id"]):
            return error(404, 10008, "Unknown Message")
        return json_response(self.state.message_payload(*found))

    async def get_messages(self, request: web.Request) -> web.Response:
        """A channel's history, newest first (`before`/`after`/`limit` as Discord). Like
        Discord, fetched messages carry no nonce: only the reply to a post has it."""
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.state.channels:
            return error(404, 10003, "Unknown Channel")
        q = request.query
        after, before = int(q.get("after", 0)), int(q.get("before", 0))
        limit = min(int(q.get("limit", 50)), 100)
        found = [(m, self.state.bot_user) for m in self.state.messages_in(channel_id)]
        users = self.state.user_messages.values()
        found += [(m, u) for m, u in users if m.channel_id == channel_id]
        found = [(m, u) for m, u in found if m.id > after and (not before or m.id < before)]
        found.sort(key=lambda mu: mu[0].id, reverse=not (after and not before))
        found = found[:limit]
        found.sort(key=lambda mu: mu[0].id, reverse=True)
        return json_response([self.state.message_payload(m, u) for m, u in found])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.type == 1:
            recipient = self.state.users.get(channel.recipient_id or 0)
            if recipient is not None and not recipient.dms_open:
                self.state.refused_dms.append(recipient.id)
                return error(403, 50007, "Cannot send messages to this user")
        body, files = await read_body(request)
        if (refused := components.refusal(body)) is not None:
            return refused
        if errors := embed_errors(body):
            return invalid_form(errors)
        if body.get("nonce") and body.get("enforce_nonce") and self.state.nonce_memory:
            # Discord: the same author and nonce within minutes returns the first message
            for earlier in self.state.messages:
                if earlier.channel_id == channel.id and earlier.nonce == str(body["nonce"]):
                    self.state.deduplicated += 1
                    return json_response(self.state.message_payload(earlier, self.state.bot_user))
        msg = self._record(body, files, channel.id)
        fault = self._post_fault(request)
        if fault is not None:
            assert fault.hit is not None
            fault.hit.set()
            if fault.when == "hang":
                await self.unhang.wait()  # the bot has died waiting by then
            if fault.when == "reset" and request.transport is not None:
                request.transport.abort()
            return web.Response(status=fault.status or 502, text="upstream error")
        return json_response(self.state.message_payload(msg, self.state.bot_user))

    async def edit_message(self, request: web.Request) -> web.Response:
        message_id = int(request.match_info["message_id"])
        body, files = await read_body(request)
        if (refused := components.refusal(body)) is not None:
            return refused
        if errors := embed_errors(body):
            return invalid_form(errors)
        for msg in self.state.messages:
            if msg.id == message_id:
                components.update(msg, body, files)
                return json_response(self.state.message_payload(msg, self.state.bot_user))
        return error(404, 10008, "Unknown Message")

    async def delete_message(self, request: web.Request) -> web.Response:
        message_id = int(request.match_info["message_id"])
        for msg in self.state.messages:
            if msg.id == message_id:
                self.state.messages.remove(msg)
                self.state.deleted.append(msg)
                return web.Response(status=204)
        return error(404, 10008, "Unknown Message")

    async def put_permission(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None or channel.guild_id is None:
            return error(404, 10003, "Unknown Channel")
        if (refused := roles_forbidden(self.state, channel)) is not None:
            return refused
        body = await request.json()
        target = int(request.match_info["target_id"])
        allow, deny, kind = int(body.get("allow", 0)), int(body.get("deny", 0)), body["type"]
        channel.overwrites[target] = {
            "id": str(target),
            "type": kind,
            "allow": str(allow),
            "deny": str(deny),
        }
        self.state.permission_changes.append(
            PermissionChange(channel.id, target, "put", allow, deny, kind)
        )
        await self._channel_update(channel.id)
        return web.Response(status=204)

    async def delete_permission(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if (refused := roles_forbidden(self.state, channel)) is not None:
            return refused
        target = int(request.match_info["target_id"])
        channel.overwrites.pop(target, None)
        self.state.permission_changes.append(PermissionChange(channel.id, target, "delete"))
        await self._channel_update(channel.id)
        return web.Response(status=204)

    async def _channel_update(self, channel_id: int) -> None:
        channel = self.state.channels[channel_id]
        await self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(self.state.users))

    async def open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        user_id = int(body["recipient_id"])
        if user_id not in self.state.users:
            return error(400, 50033, "Invalid Recipient(s)")
        channel = self.state.dm_channel(user_id)
        return json_response(channel.payload(self.state.users))

    # -- interactions ----------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        record = self.state.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if record.responses:
            return error(400, 40060, "Interaction has already been acknowledged.")
        body, files = await read_body(request)
        data = body.get("data") or {}
        if (refused := components.refusal(data)) is not None:
            return refused
        record.responses.append(body)
        kind = body["type"]
        resource: dict[str, Any] = {"type": kind}
        message_id = None
        origin = components.source(self.state, record) if kind in (6, 7) else None
        if origin is not None:  # DEFERRED_UPDATE_MESSAGE / UPDATE_MESSAGE: the component's
            self.originals[record.id] = origin.id  # message is the original response
        if kind == 7 and origin is not None:
            components.update(origin, data, files)
            message_id = origin.id
            resource["message"] = self.state.message_payload(origin, self.state.bot_user)
        elif kind in (4, 7):  # CHANNEL_MESSAGE_WITH_SOURCE / UPDATE_MESSAGE
            msg = self._record(data, files, record_channel(record), record.id)
            message_id = msg.id
            resource["message"] = self.state.message_payload(msg, self.state.bot_user)
        flags = int(data.get("flags") or 0)
        interaction = {
            "id": str(record.id),
            "type": record.type,
            "response_message_id": str(message_id) if message_id else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & 64),
        }
        return json_response({"interaction": interaction, "resource": resource})

    def _interaction(self, request: web.Request) -> Any:
        record = self.state.interactions_by_token.get(request.match_info["token"])
        if record is None or not record.responses:
            return None
        return record

    async def followup(self, request: web.Request) -> web.Response:
        record = self._interaction(request)
        if record is None:
            return error(404, 10015, "Unknown Webhook")
        body, files = await read_body(request)
        if (refused := components.refusal(body)) is not None:
            return refused
        first = not any(m.interaction_id == record.id for m in self.state.messages)
        deferred = record.responses[0]
        if first and deferred["type"] == 5:
            # Discord turns the first follow-up of a deferral into the reply, ephemeral or not
            flags = int((deferred.get("data") or {}).get("flags") or 0)
            body["flags"] = int(body.get("flags") or 0) | flags
        msg = self._record(body, files, record_channel(record), record.id)
        return json_response(self.state.message_payload(msg, self.state.bot_user))

    async def edit_followup(self, request: web.Request) -> web.Response:
        record = self._interaction(request)
        if record is None:
            return error(404, 10015, "Unknown Webhook")
        body, files = await read_body(request)
        if (refused := components.refusal(body)) is not None:
            return refused
        target = request.match_info["message_id"]
        msg = self._find_interaction_message(record.id, target)
        if msg is None:  # editing the original after a deferral creates the visible reply
            deferred = record.responses[0].get("data") or {}
            body.setdefault("flags", deferred.get("flags", 0))
            msg = self._record(body, files, record_channel(record), record.id)
        else:
            components.update(msg, body, files)
        return json_response(self.state.message_payload(msg, self.state.bot_user))

    async def get_followup(self, request: web.Request) -> web.Response:
        record = self._interaction(request)
        msg = None
        if record is not None:
            msg = self._find_interaction_message(record.id, request.match_info["message_id"])
        if msg is None:
            return error(404, 10008, "Unknown Message")
        return json_response(self.state.message_payload(msg, self.state.bot_user))

    def _find_interaction_message(self, interaction_id: int, target: str) -> SentMessage | None:
        origin = self.originals.get(interaction_id)
        if target in ("@original", str(origin)) and origin is not None:
            return next((m for m in self.state.messages if m.id == origin), None)
        mine = [m for m in self.state.messages if m.interaction_id == interaction_id]
        if target == "@original":
            return mine[0] if mine else None
        return next((m for m in mine if str(m.id) == target), None)

    def _record(
        self,
        body: dict[str, Any],
        files: list[SentFile],
        channel_id: int | None,
        interaction_id: int | None = None,
    ) -> SentMessage:
        msg = SentMessage(
            id=self.state.snowflake(),
            channel_id=channel_id,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            files=files,
            allowed_mentions=body.get("allowed_mentions"),
            flags=int(body.get("flags") or 0),
            interaction_id=interaction_id,
            components=list(body.get("components") or []),
            nonce=str(body["nonce"]) if body.get("nonce") else None,
        )
        self.state.messages.append(msg)
        for listener in self.state.listeners:
            listener(msg)
        return msg


def record_channel(record: Any) -> int | None:
    channel = record.payload.get("channel_id")
    return int(channel) if channel else None


def apply_edit(msg: SentMessage, body: dict[str, Any], files: list[SentFile]) -> None:
    if "content" in body:
        msg.content = body["content"] or ""
    if "embeds" in body:
        msg.embeds = list(body["embeds"] or [])
    if "components" in body:
        msg.components = list(body["components"] or [])
    msg.files.extend(files)


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[SentFile]]:
    """JSON body, or discord.py's multipart form (payload_json + files[n])."""
    if not request.can_read_body:
        return {}, []
    if not request.content_type.startswith("multipart/"):
        return await request.json(), []
    body: dict[str, Any] = {}
    files: list[SentFile] = []
    reader = await request.multipart()
    async for part in reader:
        if part.name == "payload_json":
            body = json.loads(await part.text())  # type: ignore[union-attr]
        elif part.filename:
            data = await part.read()  # type: ignore[union-attr]
            ctype = part.headers.get("Content-Type", "application/octet-stream")
            files.append(SentFile(part.filename, bytes(data), ctype))
    return body, files
