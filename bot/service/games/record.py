"""A game's public record: every phase's position, orders and results, the votes, the end and
the final standings; as JSON (`/export`, docs/formats.md "Game record") and as a plain-text
report. Only what the table may see: the orders of the phase still open are never included.

    record = await game_record(svc, game_id)       (the notation lines in the game's language)
    text = report_text(record, "fr")
    system, rows = final_standings(record)          (None when the game is not over)
    history = year_end_positions(record)            (for renderer.chart.centre_chart)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bot.core import catalogue
from bot.core.ending.endgame import centre_counts_by_year, survivors
from bot.core.language.notation import notation_lines
from bot.core.map import load_map
from bot.core.model import Phase, PhaseKind, Position, Power, Season
from bot.core.outcome import Outcome
from bot.core.records.jsonio import outcome_to_json, position_from_json
from bot.core.scoring import (
    ScoringError,
    Standing,
    centers_from_position,
    elimination_years,
    score,
    standings,
)
from bot.service.games.settings import scoring_system
from bot.service.storage import codec

if TYPE_CHECKING:
    from bot.core.ending.votes import VoteRecord
    from bot.service.games.values import GameStatus
    from bot.service.storage import Storage


class TableService(Protocol):
    """What a game's record reads of the table service (`bot.service.service.TableService`,
    whose facade imports this package: the record is read through it, never imports it)."""

    @property
    def storage(self) -> Storage: ...

    async def status(self, game_id: int) -> GameStatus: ...

    async def votes(self, game_id: int) -> list[VoteRecord]: ...


FORMAT = "parley-game-record"
VERSION = 1


async def _end(svc: TableService, game_id: int) -> dict[str, Any] | None:
    payload = await svc.storage.event_payload(f"{game_id}:over")
    return dict(json.loads(payload)) if payload is not None else None


async def phase_outcomes(svc: TableService, game_id: int) -> list[tuple[int, Position, Outcome]]:
    """(phase row id, position ordered in, outcome) of every adjudicated phase as played."""
    rows = await svc.storage.played_phases(game_id, adjudicated_only=True)
    return [
        (
            r.id,
            position_from_json(json.loads(r.position_json)),
            codec.outcome_from_json(json.loads(r.result.outcome_json)),
        )
        for r in rows
        if r.result is not None
    ]


async def game_record(svc: TableService, game_id: int, lang: str | None = None) -> dict[str, Any]:
    """The public record of a game (see docs/formats.md, "Game record")."""
    game = await svc.status(game_id)
    lang = lang or game.lang
    game_map = load_map(game.variant)
    # A rolled-back row was replaced by a new one: the rest is the game as played.
    rows = await svc.storage.played_phases(game_id, adjudicated_only=False)
    phases: list[dict[str, Any]] = []
    for r in rows:
        entry: dict[str, Any] = {
            "phase": r.phase,
            "status": r.status,
            "position": json.loads(r.position_json),
        }
        if r.result is not None:
            outcome = codec.outcome_from_json(json.loads(r.result.outcome_json))
            orders: dict[str, list[str]] = {}
            for o in codec.orders_from_json(json.loads(r.result.orders_json)):
                if o.power is not None:
                    orders.setdefault(o.power.value, []).append(o.canonical())
            adjudicated = outcome_to_json(outcome, game_map)
            entry.update(
                orders=orders,
                results=adjudicated["results"],
                dislodged=adjudicated["dislodged"],
                notation=notation_lines(outcome, lang, game_map),
                adjudicated_at=r.result.adjudicated_at,
            )
        phases.append(entry)
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "id": game.id,
            "name": game.name,
            "variant": game.variant,
            "rules": game.rules,
            "clock": game.clock,
            "lang": game.lang,
            "status": game.status,
            "end_reason": game.end_reason,
        },
        "players": {p.value: u for p, u in sorted(game.players.items())},
        "phases": phases,
        "votes": await svc.votes(game_id),
        "lang": lang,
    }
    record["centers_by_year"] = [
        {"year": year, "centers": {p.value: n for p, n in sorted(counts.items())}}
        for year, counts in centre_counts_by_year(year_end_positions(record))
    ]
    end = await _end(svc, game_id) if game.status == "over" else None
    if end is not None:
        system = scoring_system(game.rules, game.meta)
        end["scoring"] = system
        rows_ = _standings(record, system, end)
        if rows_ is not None:
            end["standings"] = [
                {"place": s.place, "power": s.power.value, "centers": s.centers, "score": s.score}
                for s in rows_
            ]
        record["end"] = end
    return record


def final_position(record: Mapping[str, Any]) -> Position:
    return position_from_json(record["phases"][-1]["position"])


def year_end_positions(record: Mapping[str, Any]) -> list[Position]:
    """The position at the start of the game and after each game year (each Spring
    movement phase as played), for `centre_chart` and `centers_by_year`."""
    by_phase: dict[str, Position] = {}
    for entry in record["phases"]:
        phase = Phase.parse(entry["phase"])
        if phase.season is Season.SPRING and phase.kind is PhaseKind.MOVEMENT:
            by_phase[entry["phase"]] = position_from_json(entry["position"])
    return list(by_phase.values())


def _standings(
    record: Mapping[str, Any], system: str, end: Mapping[str, Any]
) -> list[Standing] | None:
    if not record["phases"]:
        return None
    position = final_position(record)
    centers = centers_from_position(position)
    alive = survivors(position)
    draw: list[Power] | None = None
    passed = [v for v in record["votes"] if v["status"] == "passed"]
    if end.get("reason") in ("draw", "concession") and passed:
        draw = [Power(p) for p in passed[-1]["powers"] if Power(p) in alive]
    elif end.get("winner"):
        draw = [Power(end["winner"])]
    # Years of elimination for the systems that pay eliminated powers by years played.
    by_year = [
        (int(e["year"]), {Power(k): int(n) for k, n in e["centers"].items()})
        for e in record.get("centers_by_year", [])
    ]
    end_year = by_year[-1][0] if by_year else None
    years = elimination_years(by_year)
    powers = load_map(record["game"]["variant"]).powers
    eliminated = {p: years.get(p, end_year) for p in powers if p not in alive}
    try:
        scores = score(
            system,
            centers,
            game_map=load_map(record["game"]["variant"]),
            survivors=alive,
            draw=draw or None,
            eliminated={p: y for p, y in eliminated.items() if y is not None},
            end_year=end_year,
            first_year=by_year[0][0] + 1 if by_year else 1901,
        )
    except ScoringError:
        return None
    return standings(scores, centers)


def final_standings(record: Mapping[str, Any]) -> tuple[str, list[Standing]] | None:
    """(system, standings) of a finished game, from its record."""
    end = record.get("end")
    if not end or "standings" not in end:
        return None
    rows = [
        Standing(int(s["place"]), Power(s["power"]), int(s["centers"]), float(s["score"]))
        for s in end["standings"]
    ]
    return str(end["scoring"]), rows


def report_text(record: Mapping[str, Any], lang: str = "en") -> str:
    """A plain-text game report: header, players, each phase's results in the stabbeurfou
    notation, the votes, the centres by year and the final standings."""
    from bot.core.scoring import standings_lines  # noqa: PLC0415 - one use

    lang = lang if lang in catalogue.languages() else catalogue.DEFAULT_LANG
    prefix = "report."
    w = {
        k[len(prefix) :]: v
        for k, v in catalogue.texts("service", lang).items()
        if k.startswith(prefix)
    }
    g = record["game"]
    game_map = load_map(g["variant"])
    lines = [
        f"{w['game']} #{g['id']} {g['name']}".rstrip(),
        f"{w['variant']} {g['variant']}, {w['rules']} {g['rules']}, {w['clock']} {g['clock']}",
        "",
        f"{w['players']}:",
    ]
    lines.extend(
        f"  {game_map.power_name(Power(p), lang)}: {u}" for p, u in record["players"].items()
    )
    for entry in record["phases"]:
        if "notation" not in entry:
            continue
        lines.extend(["", f"== {Phase.parse(entry['phase']).describe(lang)} =="])
        lines.extend(entry["notation"] or [w["none"]])
    if record["votes"]:
        lines.extend(["", f"{w['votes']}:"])
        for v in record["votes"]:
            powers = ", ".join(game_map.power_name(Power(p), lang) for p in v["powers"])
            counts = v.get("counts")
            tally = f" {counts['yes']}/{counts['no']}/{counts['abstain']}" if counts else ""
            lines.append(f"  #{v['id']} {v['kind']} ({powers}) {v['opened']}: {v['status']}{tally}")
    if record["centers_by_year"]:
        lines.extend(["", f"{w['centres']}:"])
        for row in record["centers_by_year"]:
            counts_text = ", ".join(
                f"{game_map.power_name(Power(p), lang)} {n}" for p, n in row["centers"].items()
            )
            lines.append(f"  {row['year']}: {counts_text}")
    end = record.get("end")
    if end:
        lines.extend(["", f"{w['end']}: {end.get('reason', '')}"])
        if end.get("winner"):
            lines.append(f"  {w['winner']}: {game_map.power_name(Power(end['winner']), lang)}")
        found = final_standings(record)
        if found is not None:
            lines.extend(standings_lines(found[1], found[0], lang, game_map))
    return "\n".join(lines) + "\n"
