"""All of the service's storage: the only package with SQL (see `base` for the interface)."""

from bot.service.storage.base import Repository, Storage
from bot.service.storage.sqlite import SqliteStorage

__all__ = ["Repository", "SqliteStorage", "Storage"]
