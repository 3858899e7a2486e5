"""The gateway half of the fake Discord: HELLO, IDENTIFY -> READY, heartbeats, RESUME -> RESUMED.

One session per shard: an IDENTIFY with `shard: [i, n]` opens shard i's session (without one,
shard 0 of 1), as several processes of one bot do, each with its range of shards. A guild
belongs to shard `(guild_id >> 22) % n`: READY lists, and GUILD_CREATE and every event of that
guild go to, that shard's session only; DMs go to shard 0 (as on Discord). A second IDENTIFY
for a shard replaces its session. Events dispatched while a socket is down are buffered with
their sequence numbers and replayed on RESUME, as Discord does, so a test can close the socket,
inject an event in the gap and check that the bot still sees it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.state import FakeState

HELLO, HEARTBEAT, IDENTIFY, RESUME, HEARTBEAT_ACK = 10, 1, 2, 6, 11
DISPATCH, RECONNECT, INVALID_SESSION = 0, 7, 9


def shard_of(guild_id: int, count: int) -> int:
    """The shard that receives a guild's events (Discord's formula)."""
    return (guild_id >> 22) % count


@dataclass
class Session:
    id: str
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)  # every dispatch, for replay
    ws: web.WebSocketResponse | None = None


class Gateway:
    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.url = ""  # set by the server once it knows its port
        self.sessions: dict[int, Session] = {}  # by shard id
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.connected = asyncio.Event()
        self.ready_sent = asyncio.Event()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(msg.data)
            op, data = payload.get("op"), payload.get("d")
            if op == HEARTBEAT:
                self.heartbeats += 1
                await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
            elif op == IDENTIFY:
                await self._identify(ws, data)
            elif op == RESUME:
                await self._resume(ws, data)
        for session in self.sessions.values():
            if session.ws is ws:
                session.ws = None
                if session.shard[0] == 0:
                    self.connected.clear()
        return ws

    @property
    def session(self) -> Session | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        return self.sessions.get(0)

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.state.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies += 1
        shard = (int(data["shard"][0]), int(data["shard"][1])) if data.get("shard") else (0, 1)
        old = self.sessions.get(shard[0])
        if old is not None and old.ws is not None and old.ws is not ws:
            await old.ws.close(code=4000)
        session = self.sessions[shard[0]] = Session(secrets.token_hex(16), shard, ws=ws)
        guilds = [g for g in self.state.guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
        ready = {
            "v": 10,
            "user": self.state.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(self.state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:  # a sharded client: READY says which shard this session is
            ready["shard"] = data["shard"]
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", guild.payload(self.state.users))
        self.connected.set()
        self.ready_sent.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((x for x in self.sessions.values() if x.id == data.get("session_id")), None)
        if session is None:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return
        self.resumes += 1
        session.ws = ws
        seen = int(data.get("seq") or 0)
        for event in session.events:
            if event["s"] > seen:
                await ws.send_str(json.dumps(event))
        await self._send(session, "RESUMED", {})
        self.connected.set()

    def session_for(self, data: dict[str, Any]) -> Session | None:
        """The session an event goes to: its guild's shard; shard 0 for the rest (DMs)."""
        guild = data.get("guild_id")
        for session in self.sessions.values():
            i, n = session.shard
            if (shard_of(int(guild), n) if guild else 0) == i:
                return session
        return None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session of its shard now, or buffer it until it resumes."""
        session = self.session_for(data)
        if session is not None:
            await self._send(session, event, data)

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        if session.ws is not None and not session.ws.closed:
            try:
                await session.ws.send_str(json.dumps(frame))
            except ConnectionResetError:
                session.ws = None  # replayed on RESUME

    async def close(self, code: int = 4000) -> None:
        """Drop the bot's socket with a close code (4000 and most 4xxx let it RESUME)."""
        session = self.session
        if session is not None and session.ws is not None:
            ws, session.ws = session.ws, None
            self.connected.clear()
            await ws.close(code=code)

    async def send_op(self, op: int, data: object = None) -> None:
        """RECONNECT (7): resume elsewhere; INVALID_SESSION (9, false): identify anew."""
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.send_str(json.dumps({"op": op, "d": data}))
            if op == INVALID_SESSION and not data:  # the old one cannot be resumed
                self.sessions[0] = Session(secrets.token_hex(16), session.shard)

    async def shutdown(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None:
                await session.ws.close(code=1001)
