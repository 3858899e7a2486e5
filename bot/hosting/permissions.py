"""The bot's permissions in a channel, worked out from REST payloads as Discord's
documentation does it (Topics > Permissions: "Permission Overwrites": the base permissions of
@everyone and the member's roles, then the channel's overwrites of @everyone, of the roles,
of the member; a thread takes its parent channel's). Pure: payloads in, bits out.
"""

from __future__ import annotations

from typing import Any

ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_ROLES = 1 << 28  # in a channel: "Manage Permissions" (its overwrites)
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL = (1 << 53) - 1

NAMES = {
    VIEW_CHANNEL: "View Channel",
    SEND_MESSAGES: "Send Messages",
    EMBED_LINKS: "Embed Links",
    ATTACH_FILES: "Attach Files",
    READ_MESSAGE_HISTORY: "Read Message History",
    MANAGE_ROLES: "Manage Permissions (Manage Roles)",
    SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
}

# What Parley does in each of a game's channels (README, "Discord application", step 3).
POST = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
TABLE = POST | READ_MESSAGE_HISTORY  # (history: a post made but not recorded is found there)
SPECTATORS = POST
PRESS = VIEW_CHANNEL | MANAGE_ROLES  # the press lock edits the channel's overwrites


def base_permissions(guild: dict[str, Any], member: dict[str, Any], user_id: int) -> int:
    if int(guild.get("owner_id") or 0) == user_id:
        return ALL
    roles = {int(r["id"]): int(r["permissions"]) for r in guild.get("roles", [])}
    perms = roles.get(int(guild["id"]), 0)  # @everyone's id is the guild's
    for role in member.get("roles", []):
        perms |= roles.get(int(role), 0)
    return ALL if perms & ADMINISTRATOR else perms


def channel_permissions(
    base: int, overwrites: list[dict[str, Any]], guild_id: int, member: dict[str, Any], user_id: int
) -> int:
    if base & ADMINISTRATOR:
        return ALL
    by_id = {int(o["id"]): o for o in overwrites}
    perms = base
    everyone = by_id.get(guild_id)
    if everyone is not None:
        perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for role in member.get("roles", []):
        o = by_id.get(int(role))
        if o is not None and int(o.get("type", 0)) == 0:
            allow |= int(o["allow"])
            deny |= int(o["deny"])
    perms = (perms & ~deny) | allow
    mine = by_id.get(user_id)
    if mine is not None and int(mine.get("type", 1)) == 1:
        perms = (perms & ~int(mine["deny"])) | int(mine["allow"])
    if not perms & VIEW_CHANNEL:
        return 0  # a channel one cannot see grants nothing else
    return perms


def missing(have: int, need: int, *, thread: bool = False) -> list[str]:
    """The names of the permissions in `need` that `have` lacks (in a thread, posting is
    Send Messages in Threads)."""
    if thread and need & SEND_MESSAGES:
        need = (need & ~SEND_MESSAGES) | SEND_MESSAGES_IN_THREADS
    return [name for bit, name in NAMES.items() if need & bit and not have & bit]
