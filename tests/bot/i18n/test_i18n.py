"""The English and French catalogues agree, and every slash command is translated."""

from __future__ import annotations

import re
import string

import discord
from discord import app_commands

from bot.client import EXTENSIONS, ParleyBot
from bot.i18n import catalogue, normalise_lang, t
from bot.i18n.translator import ParleyTranslator

# Discord's rule for command and option names (lower case where the script has case).
NAME = re.compile(r"^[-_\w]{1,32}$")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_catalogues_have_the_same_keys_and_fields() -> None:
    en, fr = catalogue("en").messages, catalogue("fr").messages
    assert set(en) == set(fr)
    for key, text in en.items():
        assert fields(text) == fields(fr[key]), key


def test_lookup_falls_back_to_english_and_reads_locales() -> None:
    assert t("window.negotiation", "fr") == "négociation"
    assert t("window.negotiation", "de") == "negotiation"
    assert normalise_lang(discord.Locale.french) == "fr"
    assert normalise_lang("en-GB") == "en"


def walk(payload: dict, out: list[tuple[str, dict, dict]]) -> None:
    out.append(("name", payload, payload.get("name_localizations") or {}))
    if "description" in payload:
        out.append(("description", payload, payload.get("description_localizations") or {}))
    for choice in payload.get("choices", []):
        out.append(("choice", choice, choice.get("name_localizations") or {}))
    for option in payload.get("options", []):
        walk(option, out)


async def test_every_command_string_has_a_valid_french_translation() -> None:
    bot = ParleyBot(service=None)  # type: ignore[arg-type] - only the command tree is used
    for name in EXTENSIONS:
        await bot.load_extension(name)
    translator = ParleyTranslator()
    payloads = [
        await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()
    ]
    assert {p["name"] for p in payloads} == {
        "game",
        "orders",
        "ready",
        "gm",
        "spectate",
        "vote",
        "history",
        "replay",
        "export",
        "settings",
        "tournament",
        "press",
        "absence",
        "absences",
    }
    items: list[tuple[str, dict, dict]] = []
    for payload in payloads:
        walk(payload, items)
    for kind, node, localised in items:
        english = node["name"] if kind in ("name", "choice") else node["description"]
        assert discord.Locale.french.value in localised, f"no French for {kind} {english!r}"
        french = localised[discord.Locale.french.value]
        if kind == "name":
            assert NAME.fullmatch(french), french
            assert french == french.lower(), french
    assert (
        await translator.translate(
            app_commands.locale_str("game"),
            discord.Locale.american_english,
            None,  # type: ignore[arg-type]
        )
        is None
    )
    await bot.close()
