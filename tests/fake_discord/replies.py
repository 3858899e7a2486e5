"""The fake Discord's JSON replies, shared by every route module (no imports of the fake's
own modules, so any of them may import this at the top)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def json_response(
    body: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py decodes JSON only for exactly `application/json` (no charset), as Discord sends
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(body).encode(), status=status, headers=all_headers)


def error(status: int, code: int, message: str) -> web.Response:
    """Discord's error body: `{"code", "message"}` (e.g. 403 50013 "Missing Permissions")."""
    return json_response({"code": code, "message": message}, status=status)
