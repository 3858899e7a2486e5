"""Discord's documented rate limits, for the fake: the bot's global limit (50 requests per
second, interactions exempt) and the per-channel message bucket (5 messages per 5 s). Every
message post carries the bucket headers (discord.py waits on them pre-emptively); going over
either limit is answered 429 with the headers and body Discord sends."""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from tests.fake_discord.replies import json_response

CHANNEL_POST = re.compile(r"^/api/v10/channels/(\d+)/messages$")
BUCKET = "fake-messages-bucket"  # one hash for every channel, the channel id its major parameter


@dataclass
class Limits:
    global_rate: int = 50  # requests per `global_window` seconds
    global_window: float = 1.0
    channel_messages: int = 5  # message posts per channel per `channel_window` seconds
    channel_window: float = 5.0
    limited: list[tuple[str, str]] = field(default_factory=list)  # (scope, path) per 429
    _recent: deque[float] = field(default_factory=deque)
    _buckets: dict[str, tuple[float, int]] = field(default_factory=dict)  # channel -> start, used

    def check(self, request: web.Request) -> tuple[web.Response | None, dict[str, str]]:
        """A 429 to answer now, or None and the headers to add to the response."""
        if "/interactions/" in request.path or "/webhooks/" in request.path:
            return None, {}  # interaction responses do not count against the global limit
        now = time.monotonic()
        while self._recent and self._recent[0] <= now - self.global_window:
            self._recent.popleft()
        if len(self._recent) >= self.global_rate:
            wait = self._recent[0] + self.global_window - now
            return self._refuse(request, "global", wait, {"X-RateLimit-Global": "true"}), {}
        match = CHANNEL_POST.match(request.path) if request.method == "POST" else None
        headers: dict[str, str] = {}
        if match:
            start, used = self._buckets.get(match[1], (now, 0))
            if now >= start + self.channel_window:
                start, used = now, 0
            reset_after = start + self.channel_window - now
            if used >= self.channel_messages:
                return self._refuse(request, "user", reset_after, self._bucket(0, reset_after)), {}
            self._buckets[match[1]] = (start, used + 1)
            headers = self._bucket(self.channel_messages - used - 1, reset_after)
        self._recent.append(now)
        return None, headers

    def _bucket(self, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.channel_messages),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": BUCKET,
        }

    def _refuse(
        self, request: web.Request, scope: str, wait: float, headers: dict[str, str]
    ) -> web.Response:
        self.limited.append((scope, request.path))
        wait = max(wait, 0.001)
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(wait, 3),
            "global": scope == "global",
        }
        all_headers = {
            "Via": "1.1 google",  # without it discord.py takes the 429 for a Cloudflare ban
            "Retry-After": str(max(1, round(wait))),
            "X-RateLimit-Scope": scope,
            **headers,
        }
        return json_response(body, status=429, headers=all_headers)
