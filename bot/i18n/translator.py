"""discord.py's `Translator` for Parley's slash commands: names and help in the user's locale."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import DEFAULT_LANG, catalogue, normalise_lang


class ParleyTranslator(app_commands.Translator):
    """Looks the English text of a command, option or choice up in `[commands]` of a catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,  # noqa: ARG002 - text is the key
    ) -> str | None:
        lang = normalise_lang(locale)
        if lang == DEFAULT_LANG:
            return None  # English is the text itself
        return catalogue(lang).commands.get(string.message)
