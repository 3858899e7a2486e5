"""All of the service's storage: the only package with SQL (see `base` for the interface)."""

from bot.service.storage.base import Repository, Storage
from bot.service.storage.sqlite import SqliteStorage

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.model",
    "bot.core.orders",
    "bot.core.outcome",
    "bot.core.messages",
    "bot.core.records",
    "bot.service.errors",
)

__all__ = ["Repository", "SqliteStorage", "Storage"]
