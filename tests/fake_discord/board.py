"""What the fake Discord needs for embeds and a pinned status board (issue 31).

- Embeds checked as Discord checks them: a message's embeds over the documented limits
  (https://discord.com/developers/docs/resources/message#embed-object-embed-limits: title
  256, description 4,096, 25 fields, field name 256, value 1,024, footer 2,048, author name
  256, 6,000 characters across the embeds of a message; 10 embeds) are refused with 400 and
  code 50035 "Invalid Form Body", nothing posted or edited. Written here apart from the bot's
  own check (bot/discord_app/embeds.py) so that one does not vouch for the other.
- Pins: PUT/DELETE /channels/{id}/messages/pins/{message_id} (and the older
  /channels/{id}/pins/{message_id}); 204, or 403 code 50013 "Missing Permissions" when the
  bot lacks Pin Messages / Manage Messages (`pins.allowed = False`), 404 10008 for an unknown
  message, 400 30003 past the pin limit.
- A user deleting a message: it is gone (an edit answers 404 10008) and MESSAGE_DELETE is
  dispatched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fake_discord.replies import error, json_response

if TYPE_CHECKING:
    from tests.fake_discord.gateway import Gateway
    from tests.fake_discord.state import FakeState, SentMessage

LIMITS = {"title": 256, "description": 4096, "footer": 2048, "author": 256}
FIELDS, NAME, VALUE, TOTAL, PER_MESSAGE = 25, 256, 1024, 6000, 10
MAX_PINS = 250


def embed_errors(body: dict[str, Any]) -> dict[str, Any]:
    """Discord's `errors` object for a message body's embeds (empty: accepted)."""
    embeds = body.get("embeds") or []
    errors: dict[str, Any] = {}

    def bad(path: str, message: str) -> None:
        errors[path] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": message}]}

    if len(embeds) > PER_MESSAGE:
        bad("embeds", f"Must be {PER_MESSAGE} or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        texts = {
            "title": e.get("title") or "",
            "description": e.get("description") or "",
            "footer": (e.get("footer") or {}).get("text") or "",
            "author": (e.get("author") or {}).get("name") or "",
        }
        for key, value in texts.items():
            if len(value) > LIMITS[key]:
                bad(f"embeds.{i}.{key}", f"Must be {LIMITS[key]} or fewer in length.")
        total += sum(map(len, texts.values()))
        fields = e.get("fields") or []
        if len(fields) > FIELDS:
            bad(f"embeds.{i}.fields", f"Must be {FIELDS} or fewer in length.")
        for j, f in enumerate(fields):
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name or len(name) > NAME:
                bad(f"embeds.{i}.fields.{j}.name", f"Must be between 1 and {NAME} in length.")
            if not value or len(value) > VALUE:
                bad(f"embeds.{i}.fields.{j}.value", f"Must be between 1 and {VALUE} in length.")
            total += len(name) + len(value)
    if total > TOTAL:
        bad("embeds", f"Embed size exceeds maximum size of {TOTAL}")
    return errors


def invalid_form(errors: dict[str, Any]) -> web.Response:
    body = {"code": 50035, "message": "Invalid Form Body", "errors": errors}
    return json_response(body, status=400)


class Pins:
    """The channels' pinned messages, and the bot's right to pin."""

    def __init__(self, state: FakeState, gateway: Gateway) -> None:
        self.state = state
        self.gateway = gateway
        self.allowed = True  # Pin Messages (or Manage Messages) in every channel
        self.pinned: dict[int, list[int]] = {}

    def routes(self, api: str) -> list[web.RouteDef]:
        out = []
        for path in (
            "/channels/{channel_id}/messages/pins/{message_id}",
            "/channels/{channel_id}/pins/{message_id}",
        ):
            out += [web.put(api + path, self.pin), web.delete(api + path, self.unpin)]
        return out

    def _find(self, request: web.Request) -> tuple[int, SentMessage | None]:
        channel = int(request.match_info["channel_id"])
        message = int(request.match_info["message_id"])
        found = [m for m in self.state.messages if m.id == message and m.channel_id == channel]
        return channel, found[0] if found else None

    async def pin(self, request: web.Request) -> web.Response:
        channel, msg = self._find(request)
        if not self.allowed:
            return error(403, 50013, "Missing Permissions")
        if msg is None:
            return error(404, 10008, "Unknown Message")
        pins = self.pinned.setdefault(channel, [])
        if msg.id not in pins:
            if len(pins) >= MAX_PINS:
                return error(400, 30003, f"Maximum number of pins reached ({MAX_PINS})")
            pins.append(msg.id)
        return web.Response(status=204)

    async def unpin(self, request: web.Request) -> web.Response:
        channel, msg = self._find(request)
        if not self.allowed:
            return error(403, 50013, "Missing Permissions")
        if msg is None:
            return error(404, 10008, "Unknown Message")
        if msg.id in self.pinned.get(channel, []):
            self.pinned[channel].remove(msg.id)
        return web.Response(status=204)

    async def delete_by_user(self, msg: SentMessage) -> None:
        """A moderator deletes the bot's message by hand."""
        self.state.messages.remove(msg)
        self.state.deleted.append(msg)
        if msg.channel_id is not None and msg.id in self.pinned.get(msg.channel_id, []):
            self.pinned[msg.channel_id].remove(msg.id)
        channel = self.state.channels.get(msg.channel_id or 0)
        data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if channel is not None and channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.gateway.dispatch("MESSAGE_DELETE", data)
