"""The GM's and host's guide (docs/guide.md, docs/guide.fr.md): linked from the README, which
lists every slash command; the guide names every /game create option and every /gm command."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from discord.ext import commands

from bot.client import EXTENSIONS

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COGS = [name.removeprefix("cogs.") for name in EXTENSIONS]  # every cog the bot loads


def _cogs() -> list[type]:
    out = []
    for name in COGS:
        module = importlib.import_module(f"cogs.{name}.cog")
        out += [
            c
            for c in vars(module).values()
            if isinstance(c, type)
            and issubclass(c, commands.Cog)
            and c.__module__ == module.__name__
        ]
    return out


def _slash_commands() -> dict[str, list[str]]:
    """`/group sub` (or `/name`) -> its option names, for every cog's commands."""
    found: dict[str, list[str]] = {}
    for cog in _cogs():
        group = cog.__cog_group_name__ if issubclass(cog, commands.GroupCog) else None
        for cmd in cog.__cog_app_commands__:
            name = f"/{group} {cmd.name}" if group else f"/{cmd.name}"
            found[name] = [p.name for p in cmd.parameters]
    return found


def test_the_readme_links_the_guide_in_both_languages() -> None:
    assert "(docs/guide.md)" in README
    assert "(docs/guide.fr.md)" in README


def test_the_readme_lists_every_slash_command() -> None:
    found = _slash_commands()
    assert len(found) >= 25
    for name in found:
        group, _, sub = name.partition(" ")
        assert f"`{name}`" in README or (sub and f"`{group} " in README and f"`{sub}`" in README), (
            name
        )


@pytest.mark.parametrize("guide", ["guide.md", "guide.fr.md"])
def test_the_guide_documents_every_create_option_and_gm_command(guide: str) -> None:
    text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    found = _slash_commands()
    for option in found["/game create"]:
        assert f"`{option}`" in text, option
    for name in found:
        if name.startswith("/gm "):
            assert f"`{name}`" in text, name
    for preset in ("datc", "edc2023", "house", "stabbeurfou", "world-masters", "casual"):
        assert f"**`{preset}`**" in text, preset
