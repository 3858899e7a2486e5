"""The fake's Discord rate limits, against the real discord.py client."""

from __future__ import annotations

import asyncio
import time

from tests.fake_discord.test_fake_discord import world

__all__ = ["world"]


async def test_channel_bucket_makes_discord_py_wait_without_a_429(world) -> None:
    fake, bot = world
    limits = fake.rate_limits(channel_messages=2, channel_window=0.5)
    table = bot.get_partial_messageable(fake.state.channel_named("table").id)
    start = time.monotonic()
    for i in range(3):
        await table.send(f"m{i}")
    # discord.py read Remaining 0 from the headers and waited for the reset
    assert time.monotonic() - start >= 0.4
    assert limits.limited == []


async def test_global_limit_is_answered_with_the_global_headers(world) -> None:
    fake, bot = world
    # Eight sends, four a window: half wait once (room for discord.py's five tries under load).
    limits = fake.rate_limits(global_rate=4, global_window=0.3, channel_messages=50)
    channels = [fake.state.channel_named(n).id for n in ("table", "press")]
    sends = [bot.get_partial_messageable(c).send(f"g{i}") for i in range(4) for c in channels]
    await asyncio.gather(*sends)  # discord.py waits out the global 429s and retries
    assert len([m for m in fake.state.messages if m.content.startswith("g")]) == 8
    assert limits.limited
    assert {scope for scope, _ in limits.limited} == {"global"}
    refused = [r for r in fake.state.requests if r.status == 429]
    assert refused


async def test_429_headers_are_discords(world) -> None:
    fake, bot = world
    fake.rate_limits(global_rate=1, global_window=5.0)
    table = fake.state.channel_named("table").id
    url = f"{fake.base_url}/api/v10/channels/{table}/messages"
    session = bot.http._HTTPClient__session  # type: ignore[attr-defined]
    auth = {"Authorization": f"Bot {fake.token}"}
    async with session.post(url, json={"content": "x"}, headers=auth) as first:
        assert first.status == 200
        assert first.headers["X-RateLimit-Bucket"]
        assert first.headers["X-RateLimit-Remaining"] == "4"
    async with session.post(url, json={"content": "y"}, headers=auth) as second:
        body = await second.json()
        assert second.status == 429
        assert second.headers["X-RateLimit-Global"] == "true"
        assert second.headers["X-RateLimit-Scope"] == "global"
        assert int(second.headers["Retry-After"]) >= 1
        assert body["global"] is True
        assert 0 < body["retry_after"] <= 5.0


async def test_channel_bucket_429_names_the_user_scope(world) -> None:
    fake, bot = world
    limits = fake.rate_limits(channel_messages=1, channel_window=5.0)
    table = fake.state.channel_named("table").id
    url = f"{fake.base_url}/api/v10/channels/{table}/messages"
    session = bot.http._HTTPClient__session  # type: ignore[attr-defined]
    auth = {"Authorization": f"Bot {fake.token}"}
    async with session.post(url, json={"content": "x"}, headers=auth) as first:
        assert first.headers["X-RateLimit-Remaining"] == "0"
    async with session.post(url, json={"content": "y"}, headers=auth) as second:
        body = await second.json()
        assert second.status == 429
        assert second.headers["X-RateLimit-Scope"] == "user"
        assert "X-RateLimit-Global" not in second.headers
        assert body["global"] is False
    assert limits.limited == [("user", f"/api/v10/channels/{table}/messages")]
    assert [m.content for m in fake.state.messages_in(table)] == ["x"]
