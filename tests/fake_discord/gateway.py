"""The gateway half of the fake Discord: HELLO, IDENTIFY -> READY, heartbeats, RESUME -> RESUMED.

One bot session at a time. Events dispatched while the socket is down are buffered with their
sequence numbers and replayed on RESUME, as Discord does, so a test can close the socket, inject
an event in the gap and check that the bot still sees it.
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


@dataclass
class Session:
    id: str
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)  # every dispatch, for replay
    ws: web.WebSocketResponse | None = None


class Gateway:
    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.url = ""  # set by the server once it knows its port
        self.session: Session | None = None
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
        if self.session is not None and self.session.ws is ws:
            self.session.ws = None
            self.connected.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.state.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies += 1
        old = self.session
        if old is not None and old.ws is not None and old.ws is not ws:
            await old.ws.close(code=4000)
        self.session = Session(secrets.token_hex(16), ws=ws)
        ready = {
            "v": 10,
            "user": self.state.bot_user.payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in self.state.guilds],
            "session_id": self.session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(self.state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:  # a sharded client: READY says which shard this session is
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready)
        for guild in self.state.guilds.values():
            await self.dispatch("GUILD_CREATE", guild.payload(self.state.users))
        self.connected.set()
        self.ready_sent.set()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = self.session
        if session is None or data.get("session_id") != session.id:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return
        self.resumes += 1
        session.ws = ws
        seen = int(data.get("seq") or 0)
        for event in session.events:
            if event["s"] > seen:
                await ws.send_str(json.dumps(event))
        await self.dispatch("RESUMED", {})
        self.connected.set()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the bot now, or buffer it until it resumes."""
        session = self.session
        if session is None:
            return
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
            if op == INVALID_SESSION and not data:
                self.session = Session(secrets.token_hex(16))  # the old one cannot be resumed

    async def shutdown(self) -> None:
        session = self.session
        if session is not None and session.ws is not None:
            await session.ws.close(code=1001)
