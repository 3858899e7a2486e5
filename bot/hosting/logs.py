"""`parley run --log-format json`: one JSON object a line for log shippers, with `time` (UTC,
ISO 8601), `level`, `game` and `phase` (what the line is about, when known: from the task's
`bot.service.observe.about`, else a "game N" in the message), `event` (the message), `logger`,
and `error` (the traceback) when there is one."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from bot.service import observe

GAME_IN_TEXT = re.compile(r"\bgame #?(\d+)\b")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        game, phase = observe.context()
        message = record.getMessage()
        if game is None and (found := GAME_IN_TEXT.search(message)):
            game = int(found.group(1))
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "game": game,
            "phase": phase,
            "event": message,
            "logger": record.name,
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(log_format: str = "text", *, verbose: bool = False) -> None:
    """The root logger on standard error, as text (the default) or JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
