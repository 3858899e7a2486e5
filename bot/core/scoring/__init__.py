"""Scoring systems, registered by name: `score("edc2023", {FRANCE: 7, ...})`.

Each system is a small module whose docstring states its rule. All share one input, a
`Table`: the centres each power of the game holds at the end (powers missing from the mapping
hold none), the centres on the map, the draw members if the game ended by a draw vote, and the
solo threshold. Scores are plain floats; nothing is rounded (EDC truncates only tournament
totals, edc-2023 section D).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from bot.core.catalogue import meta, text
from bot.core.map import GameMap
from bot.core.model import Position, Power
from bot.core.scoring import (
    bangkok,
    c_diplo,
    c_diplo_namur,
    carnage,
    dixie,
    draw_size,
    edc2023,
    manorcon,
    open_tribute,
    sum_of_squares,
    tribute,
    whipping,
    world_classic,
)
from bot.core.scoring.table import (
    ScoringError,
    Table,
    elimination_years,
    shared_rank_bonus,
)

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.catalogue",
    "bot.core.map",
    "bot.core.model",
)

__all__ = [
    "NEEDS_YEARS",
    "SYSTEMS",
    "ScoringError",
    "Standing",
    "Table",
    "centers_from_position",
    "elimination_years",
    "make_table",
    "score",
    "shared_rank_bonus",
    "standings",
    "standings_lines",
]

_MODULES: Mapping[str, tuple[object, Callable[[Table], dict[Power, float]]]] = {
    "edc2023": (edc2023, edc2023.score),
    "sum-of-squares": (sum_of_squares, sum_of_squares.score),
    "draw-size": (draw_size, draw_size.score),
    "c-diplo": (c_diplo, c_diplo.score),
    "c-diplo-namur": (c_diplo_namur, c_diplo_namur.score),
    "carnage": (carnage, carnage.score),
    "carnage-2023": (carnage, carnage.score_2023),
    "dixie": (dixie, dixie.score),
    "bangkok": (bangkok, bangkok.score),
    "manorcon": (manorcon, manorcon.score),
    "tribute": (tribute, tribute.score),
    "open-tribute": (open_tribute, open_tribute.score),
    "world-classic": (world_classic, world_classic.score),
    "whipping": (whipping, whipping.score),
}

SYSTEMS: Mapping[str, Callable[[Table], dict[Power, float]]] = MappingProxyType(
    {name: fn for name, (_, fn) in _MODULES.items()}
)

# Systems that read each eliminated power's year of elimination (and the last year played).
NEEDS_YEARS = frozenset(
    {"carnage", "carnage-2023", "dixie", "bangkok", "manorcon", "world-classic", "whipping"}
)


def describe(system: str) -> str:
    """The rule of a system, in words (its module docstring)."""
    if system not in _MODULES:
        raise ScoringError(_unknown(system))
    return (_MODULES[system][0].__doc__ or "").strip()


def _unknown(system: str) -> str:
    return f"unknown scoring system {system!r} (known: {', '.join(sorted(SYSTEMS))})"


def make_table(
    centers: Mapping[Power, int],
    total_centers: int | None = None,
    *,
    game_map: GameMap | None = None,
    powers: Collection[Power] | None = None,
    survivors: Collection[Power] | None = None,
    draw: Collection[Power] | None = None,
    solo_centers: int | None = None,
    eliminated: Mapping[Power, int] | None = None,
    end_year: int | None = None,
    first_year: int = 1901,
) -> Table:
    """Check the input and fill the defaults from the variant's map (powers, centre count)."""
    if powers is None or total_centers is None:
        if game_map is None:
            raise ScoringError("a table needs its map, or its powers and centre count")
        if powers is None:
            powers = game_map.powers
        if total_centers is None:
            total_centers = len(game_map.supply_centers)
    if solo_centers is None and game_map is not None:
        solo_centers = game_map.solo_centers
    return Table.build(
        centers,
        total_centers,
        powers=tuple(powers),
        survivors=survivors,
        draw=draw,
        solo_centers=solo_centers,
        eliminated=eliminated,
        end_year=end_year,
        first_year=first_year,
    )


def score(
    system: str,
    centers: Mapping[Power, int],
    total_centers: int | None = None,
    *,
    game_map: GameMap | None = None,
    powers: Collection[Power] | None = None,
    survivors: Collection[Power] | None = None,
    draw: Collection[Power] | None = None,
    solo_centers: int | None = None,
    eliminated: Mapping[Power, int] | None = None,
    end_year: int | None = None,
    first_year: int = 1901,
) -> dict[Power, float]:
    """Score a finished table with the named system; one entry per power of the game.

    `total_centers` defaults to the variant's map; `survivors` to the powers holding a centre
    (a power with units but no centre can be passed explicitly); `draw` is the draw the table
    voted, if any (draw-size shares the pot among its members); `solo_centers` overrides
    "strictly more than half of the centres". `eliminated` (power -> year it was
    eliminated, `elimination_years` of the game record) and `end_year` (the last year
    played) feed the systems in `NEEDS_YEARS`.
    """
    fn = SYSTEMS.get(system)
    if fn is None:
        raise ScoringError(_unknown(system))
    table = make_table(
        centers,
        total_centers,
        game_map=game_map,
        powers=powers,
        survivors=survivors,
        draw=draw,
        solo_centers=solo_centers,
        eliminated=eliminated,
        end_year=end_year,
        first_year=first_year,
    )
    return fn(table)


def centers_from_position(position: Position) -> dict[Power, int]:
    """Centres per owner in a position (the scoring input at game end)."""
    counts: dict[Power, int] = {}
    for owner in position.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    return counts


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # 1-based; tied scores share a place (1, 2, 2, 4)
    power: Power
    centers: int
    score: float


def standings(scores: Mapping[Power, float], centers: Mapping[Power, int]) -> list[Standing]:
    """The final table from `score(...)`: every power with its centres and score, best first."""
    order = sorted(scores, key=lambda p: (-scores[p], -centers.get(p, 0), p.value))
    out: list[Standing] = []
    for i, p in enumerate(order):
        place = out[-1].place if out and out[-1].score == scores[p] else i + 1
        out.append(Standing(place, p, centers.get(p, 0), scores[p]))
    return out


def standings_lines(
    rows: Sequence[Standing], system: str, lang: str, game_map: GameMap
) -> list[str]:
    """The final standings as the table sees them: place, power, centres, score."""
    lines = [text("core", "standings.head", lang, system=system)]
    decimal = meta(lang).decimal
    for r in rows:
        name = game_map.power_name(r.power, lang)
        score = f"{round(r.score, 2):g}".replace(".", decimal)  # 22,86; 34; 33,33
        lines.append(
            text(
                "core",
                "standings.line",
                lang,
                place=r.place,
                name=name,
                centers=r.centers,
                score=score,
            )
        )
    return lines
