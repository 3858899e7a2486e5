"""Catching up with the gateway (issue 19): `caught_up(bot)` returns once the bot has read
every event Discord sent it before the call.

Discord answers a heartbeat on the same socket as the events, in order: once the bot has
read the answer (HEARTBEAT_ACK) to a heartbeat sent now, it has read every event sent before
it, however busy it was (events wait in the socket while the bot adjudicates other tables).
The lateness of orders uses it (bot.service.clock.lateness): a DM sent before the deadline and
delivered within the grace is taken even if the bot reads it seconds later.

discord.py has no public call for this: the heartbeat goes through its gateway socket
(`send_heartbeat`, what its keep-alive thread calls) and the answer is seen through its keep-alive
handler's time of the last answer (looked at every POLL seconds while waiting). Never
connected yet: NoSessionError (a fresh session carries nothing sent before it: nothing to wait
for). Not connected: ConnectionError (the phase waits, at most its HOLD: a RESUME replays what
was missed). A discord.py without these, or with them changed (`follow`: their names, types and
the heartbeat's opcode; tests/bot/discord_app/test_gateway.py pins what discord.py does with
them): NotImplementedError, and the grace is fixed again. Each catch-up is one more heartbeat:
Discord takes 120 sends a minute (lateness.FENCE_GAP).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord

from bot.service.clock.lateness import NoSessionError

POLL = 0.005  # seconds between looks for the answer (only while catching up)
ROUNDS = 3  # discord.py's own heartbeat may be answered first: ask again (at most twice)
HEARTBEAT = 1  # the gateway opcode (Discord: Gateway Opcodes)


def sockets(client: discord.Client) -> list[Any]:
    """The client's gateway connections (one per shard run by this process)."""
    if isinstance(client, discord.AutoShardedClient):
        shards = getattr(client, "_AutoShardedClient__shards", None)
        if not isinstance(shards, dict):
            raise NotImplementedError("this discord.py's shards cannot be followed")
        return [getattr(shard, "ws", None) for shard in shards.values()]
    return [getattr(client, "ws", None)]


async def caught_up(client: discord.Client) -> None:
    """Return once every event Discord sent on each gateway connection before now is read."""
    found = sockets(client)
    if not found or found == [None]:
        # Never connected (discord.py sets them once connected): no session to read from;
        # the first will carry only what is sent from now on.
        raise NoSessionError("the gateway was never connected")
    await asyncio.gather(*(_read_up_to_now(ws) for ws in found))


def follow(ws: Any) -> Any:
    """The keep-alive handler of a connected gateway socket, checked: its times of the last
    heartbeat sent and answered (`time.perf_counter()` floats), `beat()` (a heartbeat's payload,
    noting it sent) and the socket's `send_heartbeat` and `open`. ConnectionError if not
    connected; NotImplementedError if this discord.py keeps them otherwise."""
    if ws is None:
        raise ConnectionError("the gateway is not connected")
    if (
        not hasattr(ws, "_keep_alive")
        or not hasattr(ws, "open")
        or not callable(getattr(ws, "send_heartbeat", None))
    ):
        raise NotImplementedError("this discord.py's gateway socket cannot be followed")
    keep_alive = ws._keep_alive
    if keep_alive is None:
        raise ConnectionError("the gateway is not connected")
    times = [getattr(keep_alive, name, None) for name in ("_last_ack", "_last_send")]
    if not all(isinstance(t, float) for t in times) or not callable(
        getattr(keep_alive, "beat", None)
    ):
        raise NotImplementedError("this discord.py's heartbeats cannot be followed")
    return keep_alive


async def _read_up_to_now(ws: Any) -> None:
    keep_alive = follow(ws)
    for _ in range(ROUNDS):
        # discord.py's own heartbeat still unanswered: its answer comes first, then ours
        theirs = keep_alive._last_send > keep_alive._last_ack
        asked = time.perf_counter()
        # beat(): discord.py times its latency from the last heartbeat sent (this one)
        payload = keep_alive.beat()
        if not isinstance(payload, dict) or payload.get("op") != HEARTBEAT:
            raise NotImplementedError(f"this discord.py's heartbeat is {payload!r}")
        await ws.send_heartbeat(payload)
        while keep_alive._last_ack < asked:
            if ws._keep_alive is not keep_alive or not ws.open:
                raise ConnectionError("the gateway connection was closed")
            await asyncio.sleep(POLL)
        if not theirs:
            return
    raise ConnectionError("no answer to the heartbeat")
