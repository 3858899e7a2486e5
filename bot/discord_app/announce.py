"""From the service's values to the facts the embeds show (bot/discord_app/embeds.py): what
each announcement may say in public. Pure but for reading the variant's map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.catalogue import meta, text, texts
from bot.core.language.notation import notation_lines
from bot.core.map import load_map
from bot.core.model import ModelError, Phase, PhaseKind, Power
from bot.core.scoring import Standing
from bot.discord_app.embeds import (
    DISORDER,
    NOT_YET,
    NOTHING,
    ORDERED,
    READY,
    BoardFacts,
    OpeningFacts,
    OverFacts,
    ResultsFacts,
    ScoreRow,
    VoteFacts,
)
from bot.discord_app.format import phase_name, powers_text, reason_name, window_name
from bot.i18n import t
from bot.service import Event, GameStatus


def _powers(raw: dict[str, Any] | None) -> dict[Power, int]:
    out: dict[Power, int] = {}
    for p, n in (raw or {}).items():
        try:
            out[Power.of(str(p))] = int(n)
        except (ModelError, ValueError):
            continue
    return out


def result_text_lines(game: GameStatus, event: Event) -> list[str]:
    """The public results of a phase in the notation, under a heading per power: from the
    typed outcome, else from the payload's lines (an event read back after a restart)."""
    lang, game_map = game.lang, load_map(game.variant)
    if event.outcome is not None:
        return notation_lines(event.outcome, lang, game_map)
    by_power: dict[str, list[str]] = {}
    for line in event.payload.get("lines", []):
        order, reason = str(line.get("order", "")), line.get("reason") or ""
        if not line.get("succeeded") and not reason:
            reason = "failed"
        text = f"{order}; ({reason_name(reason, lang)})" if reason else order
        by_power.setdefault(str(line.get("power") or ""), []).append(text)
    colon = meta(lang).colon + ":"
    out: list[str] = []
    for power in game_map.powers:
        if by_power.get(power.value):
            out += [f"{game_map.power_name(power, lang)}{colon}", *by_power[power.value]]
    return out


def results_facts(game: GameStatus, event: Event, lines: Sequence[str]) -> ResultsFacts:
    lang, p = game.lang, event.payload
    skipped = ", ".join(phase_name(x, lang) for x in p.get("skipped") or [])
    return ResultsFacts(
        game_id=game.id,
        game_name=game.name,
        phase=phase_name(event.phase, lang),
        lines=tuple(lines),
        centers=_powers(p.get("centers")),
        next_phase=phase_name(p.get("next_phase"), lang),
        next_at=p.get("reading_until"),
        skipped=skipped,
        image="map.png" if event.png else None,
    )


def opening_facts(game: GameStatus, event: Event) -> OpeningFacts:
    p = event.payload
    to_order = tuple(Power.of(str(x)) for x in p.get("to_order") or [])
    if game.hidden and _after_moves(event.phase):
        to_order = ()  # Stab! rule 3: who owes retreats or adjustments tells of hidden units
    return OpeningFacts(
        game_id=game.id,
        game_name=game.name,
        phase=phase_name(event.phase, game.lang),
        window=str(p.get("window") or "writing"),
        writing_at=p.get("writing_at"),
        deadline=p.get("deadline"),
        to_order=to_order,
        press_open=bool(p.get("press_open", game.press_open)),
    )


def vote_facts(game: GameStatus, event: Event, *, opened: bool) -> VoteFacts:
    record: dict[str, Any] = event.payload.get("record") or {}
    counts = record.get("counts")
    return VoteFacts(
        game_id=game.id,
        game_name=game.name,
        vote_id=int(record.get("id") or 0),
        opened=opened,
        text=str(event.payload.get("text", "")),
        status=str(record.get("status") or ("open" if opened else "failed")),
        counts={k: int(v) for k, v in counts.items()} if counts else None,
        closes_at=game.deadline if opened else None,
    )


def over_facts(
    game: GameStatus, event: Event, found: tuple[str, list[Standing]] | None, chart: bool
) -> OverFacts:
    lang, p = game.lang, event.payload
    decimal = meta(lang).decimal
    rows = tuple(
        ScoreRow(s.place, s.power, s.centers, f"{round(s.score, 2):g}".replace(".", decimal))
        for s in (found[1] if found else [])
    )
    winner = p.get("winner")
    return OverFacts(
        game_id=game.id,
        game_name=game.name,
        reason=_reason(str(p.get("reason", "")), lang),
        winner=Power.of(str(winner)) if winner else None,
        system=found[0] if found else "",
        rows=rows,
        image="centres.png" if chart else None,
        centers=_powers(p.get("centers")),
    )


def _reason(reason: str, lang: str) -> str:
    """A known end (solo, year limit...) in words; the GM's own text as written."""
    if f"reason.{reason}" in texts("embeds", "en"):
        return text("embeds", f"reason.{reason}", lang)
    return reason


def power_state(game: GameStatus, power: Power) -> str:
    """ordered / ready / not yet / nothing to order / civil disorder (never what)."""
    if power not in game.players:
        return DISORDER
    if power not in game.to_order:
        return NOTHING
    if power in game.ready:
        return READY
    return ORDERED if power in game.submitted else NOT_YET


def open_votes(records: Sequence[Any], game: GameStatus) -> list[tuple[int, str]]:
    """(id, what) of the votes in progress: "a draw between France, Italy" (never who
    proposed it nor who voted what)."""
    out = []
    for v in records:
        if v.get("status") != "open":
            continue
        kind = "vote.what_draw" if v.get("kind") == "draw" else "vote.what_concede"
        powers = powers_text(v.get("powers") or [], game.lang, game.variant)
        out.append((int(v["id"]), t(kind, game.lang, powers=powers)))
    return out


def board_facts(game: GameStatus, votes: Sequence[tuple[int, str]] = ()) -> BoardFacts:
    """The board's facts: in Stab! after the moves, the powers' states stay secret (who owes
    retreats or adjustments tells of hidden units, rule 3); civil disorder is public."""
    lang, game_map = game.lang, load_map(game.variant)
    secret = game.hidden and _after_moves(game.phase)
    states = []
    for power in game_map.powers:
        state = power_state(game, power) if game.status in ("active", "paused") else ""
        if (secret and state != DISORDER) or (game.hidden and state == NOTHING):
            state = ""  # (Stab!: no units to order is a fact about units)
        states.append((power, state))
    return BoardFacts(
        game_id=game.id,
        game_name=game.name,
        status=game.status,
        phase=phase_name(game.phase, lang) if game.phase and game.status != "forming" else "",
        window=window_name(game.window, lang),
        deadline=game.deadline if game.window not in (None, "reading", "closed") else None,
        powers=tuple(states) if game.status != "forming" else (),
        centers=dict(game.centers),
        press_open=game.press_open,
        votes=tuple(votes),
        secret_states=secret and game.status == "active",
    )


def _after_moves(phase: str | None) -> bool:
    try:
        return phase is not None and Phase.parse(phase).kind is not PhaseKind.MOVEMENT
    except ValueError:
        return False
