"""Text of Parley's Discord messages: pure functions from service values to message strings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.core import catalogue as texts
from bot.core.language.notation import notation_lines
from bot.core.map import MapError, load_map
from bot.core.model import ModelError, Phase, Power
from bot.core.outcome import Outcome
from bot.discord_app.embeds import joined
from bot.i18n import DEFAULT_LANG, catalogue, t
from bot.service import GameSettings, GameStatus, SubmitReply

MESSAGE_LIMIT = 2000  # Discord's limit on a message's content


def stamp(epoch: float | None) -> str:
    """A deadline as Discord timestamps: relative, and the time in each reader's time zone."""
    if epoch is None:
        return "—"
    when = int(epoch)
    return f"<t:{when}:R> (<t:{when}:T>)"


def power_name(power: Power | str, lang: str, variant: str) -> str:
    """A power's name in `lang`, from the game's variant (power names are variant data)."""
    try:
        return load_map(variant).power_name(Power.of(str(power)), lang)
    except (MapError, ModelError):
        return str(power)


def phase_name(phase: str | None, lang: str) -> str:
    if not phase:
        return "—"
    try:
        return Phase.parse(phase).describe(lang)
    except ValueError:
        return phase


def window_name(window: str | None, lang: str) -> str:
    """negotiation/writing/reading in words; anything else (e.g. "over") as it is."""
    return t(f"window.{window}", lang) if window in WINDOWS else str(window or "")


def reason_name(reason: str, lang: str) -> str:
    known = catalogue(DEFAULT_LANG).messages
    return t(f"reason.{reason}", lang) if f"reason.{reason}" in known else reason


def mention(user: str | int) -> str:
    return f"<@{user}>"


def chunks(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into as few messages as fit Discord's limit (a long line is cut)."""
    return joined(lines, limit) or [""]


def result_line(line: dict[str, Any], lang: str) -> str:
    mark = t("result.ok" if line.get("succeeded") else "result.failed", lang)
    text = f"{mark} {line['order']}"
    reason = line.get("reason") or ""
    notes = []
    if reason:
        notes.append(reason_name(reason, lang))
    if line.get("detail"):
        notes.append(str(line["detail"]))
    if line.get("implied"):
        notes.append(t("result.implied", lang))
    return f"{text} ({'; '.join(notes)})" if notes else text


def results_lines(
    game: GameStatus,
    phase: str | None,
    payload: dict[str, Any],
    lang: str,
    outcome: Outcome | None = None,
) -> list[str]:
    """The results of a phase, per power, for the table and spectator channels: in the
    stabbeurfou section-4 notation (bot.core.language.notation) when the typed outcome is at
    hand."""
    lines = [_head(game, phase, lang)]
    if outcome is not None:
        lines.extend(notation_lines(outcome, lang, load_map(game.variant)))
    by_power: dict[str, list[dict[str, Any]]] = {}
    for line in payload.get("lines", []) if outcome is None else []:
        by_power.setdefault(line.get("power") or "", []).append(line)
    for power in sorted(by_power):
        label = power_name(power, lang, game.variant) if power else "—"
        lines.append(f"__{label}__")
        lines.extend(result_line(line, lang) for line in by_power[power])
    if payload.get("skipped"):
        skipped = ", ".join(phase_name(p, lang) for p in payload["skipped"])
        lines.append(t("event.skipped", lang, phases=skipped))
    centers = payload.get("centers") or {}
    if centers:
        lines.append(t("game.centers", lang, centers=centers_text(centers, lang, game.variant)))
    lines.append(
        t(
            "event.results_next",
            lang,
            phase=phase_name(payload.get("next_phase"), lang),
            until=stamp(payload.get("reading_until")),
        )
    )
    return lines


def _head(game: GameStatus, phase: str | None, lang: str) -> str:
    return t("event.results_head", lang, phase=phase_name(phase, lang), name=game.name, id=game.id)


def centers_text(centers: dict[str, int], lang: str, variant: str) -> str:
    ranked = sorted(centers.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{power_name(p, lang, variant)} {n}" for p, n in ranked)


def submit_reply_lines(reply: SubmitReply, lang: str) -> list[str]:
    """The service's reading of a submission: summary, canonical orders, errors, warnings."""
    lines = [reply.message]
    lines.extend(f"• {order}" for order in reply.orders)
    if reply.errors:
        lines.append(t("orders.errors", lang))
        lines.extend(f"• {e}" for e in reply.errors)
    if reply.warnings:
        lines.append(t("orders.warnings", lang))
        lines.extend(f"• {w}" for w in reply.warnings)
    return lines


def powers_text(powers: Sequence[Power | str], lang: str, variant: str) -> str:
    return ", ".join(power_name(p, lang, variant) for p in powers) or "—"


def status_lines(game: GameStatus, lang: str) -> list[str]:
    lines = [t("game.status_head", lang, name=game.name, id=game.id, state=game.status)]
    if game.status == "forming":
        lines.append(t("game.status_forming", lang, count=len(game.players)))
    elif game.phase:
        window = window_name(game.window, lang)
        lines.append(
            t(
                "game.status_phase",
                lang,
                phase=phase_name(game.phase, lang),
                window=window,
                deadline=stamp(game.deadline),
            )
        )
        lines.append(
            t("game.status_submitted", lang, powers=powers_text(game.submitted, lang, game.variant))
        )
        waiting = [p for p in game.to_order if p not in game.submitted]
        lines.append(
            t("game.status_waiting", lang, powers=powers_text(waiting, lang, game.variant))
        )
        if game.centers:
            centers = {p.value: n for p, n in game.centers.items()}
            lines.append(t("game.centers", lang, centers=centers_text(centers, lang, game.variant)))
    if game.players:
        players = ", ".join(
            t("game.player_line", lang, power=power_name(p, lang, game.variant), user=mention(u))
            for p, u in sorted(game.players.items())
        )
        lines.append(t("game.status_players", lang, players=players))
    return lines


WINDOWS = ("negotiation", "writing", "reading")


def duration(seconds: float) -> str:
    """`1h30m`, `2m`, `45s`, `0` (the clock text's own units, read alike in en and fr)."""
    if seconds <= 0:
        return "0"
    whole = round(seconds)
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if whole >= size:
            parts.append(f"{whole // size}{unit}")
            whole %= size
    return "".join(parts)


def settings_lines(s: GameSettings, game_id: int) -> list[str]:
    """The summary of a new game's settings, posted to its table."""
    lang = s.lang
    lines = [
        t("game.settings_head", lang, name=s.name, id=game_id),
        t(
            "game.settings_board",
            lang,
            variant=s.variant,
            rules=s.rules,
            scoring=s.scoring,
            lang=texts.meta(lang).name,
        ),
        t(
            "game.settings_clock",
            lang,
            clock=s.clock,
            negotiation=duration(s.negotiation),
            writing=duration(s.writing),
            reading=duration(s.reading),
            retreats=duration(s.retreats),
            adjustments=duration(s.adjustments),
        ),
    ]
    if s.schedule:  # the deadlines are the schedule's, not the windows' lengths
        lines[-1] = s.schedule
    if s.winter_combined:
        lines.append(t("game.settings_winter_combined", lang, writing=duration(s.retreats)))
    if s.years:
        lines.append(t("game.settings_years", lang, years=s.years))
    else:
        lines.append(t("game.settings_no_limit", lang))
    lines.append(t("game.settings_early" if s.early else "game.settings_no_early", lang))
    if s.palette == "colorblind":
        lines.append(t("game.settings_colorblind", lang))
    if s.stab_retreats:  # Stab! rule 4, chosen at creation
        lines.append(t(f"game.settings_stab_{s.stab_retreats}", lang))
    return lines
