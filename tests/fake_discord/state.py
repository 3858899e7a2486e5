"""What the fake Discord knows and records: users, guilds, channels, and everything the bot did.

Payload builders follow Discord's API v10 shapes closely enough for discord.py 2.7 to parse
them; recorders keep every message, attachment, permission change, interaction response and
command sync so tests can assert on what a real server would have received.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.fake_discord.guilds import INVITE

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
ALL_PERMISSIONS = (1 << 50) - 1
MANAGE_CHANNELS = 1 << 4


class SnowflakeFactory:
    """Real-looking snowflakes: discord.py reads the creation time out of some of them."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self, at: float | None = None) -> int:
        """A new id, made now or (`at`, Unix seconds) at another time."""
        ms = int((time.time() if at is None else at) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.username,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0  # 0 guild text, 1 DM, 4 category, 11 public / 12 private thread
    recipient_id: int | None = None
    parent_id: int | None = None  # a thread's channel, or a channel's category
    overwrites: dict[int, dict[str, Any]] = field(default_factory=dict)
    members: set[int] = field(default_factory=set)  # a thread's members
    invitable: bool = True  # a private thread: may non-moderators add others

    def payload(self, users: dict[int, FakeUser], position: int = 0) -> dict[str, Any]:
        if self.type == 1:
            recipient = users[self.recipient_id] if self.recipient_id else None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [recipient.payload()] if recipient else [],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": position,
            "topic": None,
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "permission_overwrites": list(self.overwrites.values()),
            **(
                {
                    "owner_id": "0",
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": iso_now(),
                        "locked": False,
                        **({"invitable": self.invitable} if self.type == 12 else {}),
                    },
                    "message_count": 0,
                    "member_count": 0,
                }
                if self.type in (11, 12)
                else {}
            ),
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: list[FakeChannel] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    # What the bot's roles grant it (interactions' app_permissions; checked by the routes of
    # guild_admin.py): all but Manage Channels unless a test gives it, as a bot invited with
    # the usual permissions.
    bot_permissions: int = ALL_PERMISSIONS & ~MANAGE_CHANNELS
    roles: list[dict[str, Any]] = field(default_factory=list)  # beside @everyone
    member_roles: dict[int, list[int]] = field(default_factory=dict)  # user -> role ids

    def add_role(self, role_id: int, name: str, permissions: int, *members: int) -> None:
        self.roles.append(
            {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": len(self.roles) + 1,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        )
        for user in members:
            self.member_roles.setdefault(user, []).append(role_id)

    def role(self, name: str) -> dict[str, Any]:
        return next(r for r in self.roles if r["name"] == name)

    def member_payload(self, user: FakeUser) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "roles": [str(r) for r in self.member_roles.get(user.id, [])],
            "joined_at": iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
        }

    def payload(self, users: dict[int, FakeUser]) -> dict[str, Any]:
        everyone = {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": str((1 << 11) | (1 << 10) | (1 << 31)),  # send, view, use commands
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "unavailable": False,
            "member_count": len(self.member_ids),
            "large": False,
            "roles": [everyone, *self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c.payload(users, i) for i, c in enumerate(self.channels)],
            "members": [self.member_payload(users[u]) for u in self.member_ids],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "preferred_locale": "en-US",
            "joined_at": iso_now(),
        }


@dataclass
class SentFile:
    filename: str
    data: bytes
    content_type: str


@dataclass
class SentMessage:
    """A message the bot created: in a channel, a DM, or as an interaction reply/follow-up."""

    id: int
    channel_id: int | None
    content: str
    embeds: list[dict[str, Any]]
    files: list[SentFile]
    allowed_mentions: dict[str, Any] | None
    flags: int = 0
    interaction_id: int | None = None
    components: list[dict[str, Any]] = field(default_factory=list)
    nonce: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def text(self) -> str:
        """Content plus embed text: what a reader would see."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(k, "")) for k in ("title", "description"))
            for f in embed.get("fields", []):
                parts.extend((str(f.get("name", "")), str(f.get("value", ""))))
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text", "")))
        return "\n".join(p for p in parts if p)


@dataclass
class PermissionChange:
    channel_id: int
    target_id: int
    action: str  # "put" | "delete"
    allow: int = 0
    deny: int = 0
    type: int = 1  # 0 role, 1 member
    at: float = field(default_factory=time.monotonic)


@dataclass
class InteractionRecord:
    """An interaction the fake sent, and how the bot answered it."""

    id: int
    token: str
    type: int
    user_id: int
    payload: dict[str, Any]
    responses: list[dict[str, Any]] = field(default_factory=list)  # callback bodies

    @property
    def response_types(self) -> list[int]:
        return [r["type"] for r in self.responses]


@dataclass
class CommandSync:
    guild_id: int | None
    commands: list[dict[str, Any]]


@dataclass
class Request:
    method: str
    path: str
    status: int
    at: float


class FakeState:
    """The world of the fake Discord and the log of what the bot did in it."""

    def __init__(self, token: str = "fake-token") -> None:
        self.token = token
        self.snowflake = SnowflakeFactory()
        self.bot_user = FakeUser(self.snowflake(), "Parley", bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(self.snowflake(), "owner")
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient
        self.messages: list[SentMessage] = []
        self.user_messages: dict[int, tuple[SentMessage, FakeUser]] = {}  # what users wrote
        self.permission_changes: list[PermissionChange] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.command_syncs: list[CommandSync] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.requests: list[Request] = []
        self.refused_dms: list[int] = []  # users whose closed DMs refused a bot message
        self.deduplicated = 0  # messages not created again thanks to enforce_nonce
        # Discord drops a repeated nonce only "within the past few minutes": False models a
        # Discord that has forgotten (every repeat creates a new message).
        self.nonce_memory = True
        self.deleted: list[SentMessage] = []  # messages the bot deleted
        self.listeners: list[Callable[[SentMessage], None]] = []  # told of each new message

    # -- world building --------------------------------------------------------------------

    def add_user(self, username: str, *, dms_open: bool = True, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self.snowflake(), username, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, channel_names: list[str], *, shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """A guild; with `shard` (i, n), one whose id falls to shard i of n."""
        gid = self.snowflake()
        while shard is not None and (gid >> 22) % shard[1] != shard[0]:
            gid += 1 << 22  # (a millisecond later)
        guild = FakeGuild(gid, name, self.owner.id)
        guild.member_ids = [self.bot_user.id, self.owner.id]
        # The bot's role, with the invite's permissions (README, Discord application, 3)
        guild.add_role(self.snowflake(), "Parley", INVITE, self.bot_user.id)
        for cname in channel_names:
            self.add_channel(guild, cname)
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(self.snowflake(), name, guild.id)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: FakeChannel, name: str) -> FakeChannel:
        """A public thread of `parent` (not in the guild's channel list, as on Discord)."""
        thread = FakeChannel(self.snowflake(), name, parent.guild_id, type=11, parent_id=parent.id)
        self.channels[thread.id] = thread
        return thread

    def channel_named(self, name: str) -> FakeChannel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(name)

    def dm_channel(self, user_id: int) -> FakeChannel:
        channel = self.dm_channels.get(user_id)
        if channel is None:
            channel = FakeChannel(self.snowflake(), "", None, type=1, recipient_id=user_id)
            self.dm_channels[user_id] = channel
            self.channels[channel.id] = channel
        return channel

    # -- payloads --------------------------------------------------------------------------

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Parley",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }

    def message_payload(self, msg: SentMessage, author: FakeUser) -> dict[str, Any]:
        channel = self.channels.get(msg.channel_id or 0)
        payload: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id or 0),
            "author": author.payload(),
            "content": msg.content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(self.snowflake()),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"https://cdn.invalid/{f.filename}",
                    "proxy_url": f"https://cdn.invalid/{f.filename}",
                    "content_type": f.content_type,
                }
                for f in msg.files
            ],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": 0,
            "flags": msg.flags,
        }
        if channel is not None and channel.guild_id is not None:
            payload["guild_id"] = str(channel.guild_id)
        return payload

    def user_message(
        self, user: FakeUser, channel: FakeChannel, content: str, at: float | None = None
    ) -> dict[str, Any]:
        """A MESSAGE_CREATE payload for something a user wrote (`at`: when, if not now)."""
        msg = SentMessage(self.snowflake(at), channel.id, content, [], [], None)
        self.user_messages[msg.id] = (msg, user)
        return self.message_payload(msg, user)

    # -- queries for tests -----------------------------------------------------------------

    def messages_in(self, channel_id: int) -> list[SentMessage]:
        return [m for m in self.messages if m.channel_id == channel_id]

    def dms_to(self, user_id: int) -> list[SentMessage]:
        channel = self.dm_channels.get(user_id)
        return [] if channel is None else self.messages_in(channel.id)

    def guild_messages(self) -> list[SentMessage]:
        """Every message visible in a guild channel (not DMs, not ephemeral replies)."""
        out = []
        for m in self.messages:
            if m.ephemeral:
                continue
            channel = self.channels.get(m.channel_id or 0)
            if channel is not None and channel.guild_id is not None:
                out.append(m)
        return out

    def double_posts(self) -> int:
        """Bot messages beyond the first with the same nonce in the same channel."""
        keys = [(m.channel_id, m.nonce) for m in self.messages if m.nonce]
        return len(keys) - len(set(keys))

    def repeats(self) -> int:
        """Like `double_posts`, counting the messages deleted since too: each was seen (and
        pinged the channel) while it lasted (issue 36)."""
        keys = [(m.channel_id, m.nonce) for m in [*self.messages, *self.deleted] if m.nonce]
        return len(keys) - len(set(keys))

    def files_in(self, channel_id: int) -> list[SentFile]:
        return [f for m in self.messages_in(channel_id) for f in m.files]
