"""What one viewer may see of a Stab! phase: the units, orders and results their map draws.

`sight(game_map, position, orders, results, report, viewer)` is the one place that decides it;
the renderer draws a `Sight` and nothing else, the service picks the map of each viewer with it.
A viewer is a power, `PUBLIC` (the table and spectators) or `GM` (everything).

- A power: its own units and orders (rule 5: "the position of his units"), and what the public
  report revealed this phase (rule 2); in a retreat phase also the retreats of the units its
  attacks dislodged (rule 5: "what retreat moves other players have made as a consequence of
  that player's attacks").
- The public: what the public report revealed, nothing else.
- Another power's unit whose order the report keeps hidden is drawn as the report shows it:
  holding (`A BUR H`, a convoying fleet of case B), or marked `S ?` (crossed when cut) or `C ?`
  (`F PIC S ?; (cut)`, `F NTH C ? - ?`), its dislodgement marked.
- Hidden everywhere but on the GM's map: a retreat's destination (rule 2, "Dislodgments"); the
  retreat options, which would tell which spaces next to the dislodged unit are occupied (rule
  4: "If a unit cannot retreat to a province ... he is not told why"); builds and removals
  (rule 3 publishes totals only).
- Centres: rule 3 publishes "the seven supply centre totals for each power, but will not
  reveal who owns which supply centre"; rule 5 tells each player "which supply centres he
  owns". So a power's map colours its own centres, the public map none; every map's legend
  gives each power's centre total (the last Winter's, which the position carries until the
  next Winter) and a unit count only for the viewer's own units.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from bot.core.map import GameMap
from bot.core.model import PhaseKind, Position, Power
from bot.core.orders import Disband, Hold, Order, Retreat, UnitOrder, UnitRef
from bot.core.outcome import OrderResult, Reason, Verdict
from bot.core.stab.report import MISORDERS, PhaseReport

PUBLIC: Final = "public"
GM: Final = "gm"
Viewer = Power | str  # a power, PUBLIC or GM


@dataclass(frozen=True, slots=True)
class Sight:
    """What one viewer's map of one phase shows."""

    viewer: Viewer
    # Provinces whose unit (or unit awaiting retreat) the viewer sees.
    units: frozenset[str]
    orders: tuple[Order, ...]
    results: tuple[OrderResult, ...]
    # Units dislodged this phase that the viewer sees dislodged (rule 2: every dislodgement
    # is reported), marked even when their order stays hidden.
    dislodged: frozenset[str] = frozenset()
    centres: Mapping[str, Power] = field(default_factory=dict)  # ownership the viewer knows
    centre_totals: Mapping[Power, int] = field(default_factory=dict)
    unit_counts: Mapping[Power, int] = field(default_factory=dict)  # only the counts it knows
    retreat_options: bool = False  # the GM's map only (rule 4)
    # Units the report names with their order hidden: province -> ("support" | "convoy",
    # whether it failed: a cut support, `F PIC S ?; (cut)`).
    obscured: Mapping[str, tuple[str, bool]] = field(default_factory=dict)

    @property
    def everything(self) -> bool:
        return self.viewer == GM


def parse_viewer(word: str, game_map: GameMap) -> Viewer:
    """`public`, `gm` or a power's name (`france`, `FRA`); a ModelError names a bad power."""
    low = word.strip().lower()
    if low in (PUBLIC, GM):
        return low
    return game_map.parse_power(word)


def sight(  # noqa: PLR0917 - the one stable signature the renderer and the service share
    game_map: GameMap,
    position: Position,
    orders: Sequence[Order] | None,
    results: Sequence[OrderResult] | None,
    report: PhaseReport | None,
    viewer: Viewer,
) -> Sight:
    """What `viewer` may see of the phase played from `position` with these orders and results
    (`orders` None: the orders of the results, but those the engine supplied). `report` is the
    phase's Stab! report (`movement_report`, `retreat_report`, `adjustment_report`); only the
    GM's sight may do without it."""
    given = (
        list(orders) if orders is not None else [r.order for r in results or () if not r.implied]
    )
    all_results = tuple(results or ())
    totals = MappingProxyType({p: len(position.centers_of(p)) for p in game_map.powers})
    struck = frozenset(
        r.order.unit.province
        for r in all_results
        if r.reason is Reason.DISLODGED and isinstance(r.order, UnitOrder)
    )
    if viewer == GM:
        counts = {p: len(position.units_of(p)) for p in game_map.powers}
        return Sight(
            GM,
            frozenset(position.units) | {d.unit.province for d in position.dislodged},
            tuple(given),
            all_results,
            struck,
            MappingProxyType(dict(position.centers)),
            totals,
            MappingProxyType(counts),
            retreat_options=True,
        )
    if report is None:
        raise ValueError("a player's or the public sight needs the phase's report")
    power = viewer if isinstance(viewer, Power) else None
    own = {u.province for u in position.units.values() if u.power is power}
    own |= {d.unit.province for d in position.dislodged if d.unit.power is power}
    units = frozenset(own | report.revealed)
    kind = position.phase.kind

    def mine(o: Order) -> bool:
        return power is not None and o.power is power

    shown: list[Order] = []
    if kind is PhaseKind.MOVEMENT:
        shown = [o for o in given if mine(o)]
        shown += _reported(given, all_results, report.orders_shown, mine)
    elif kind is PhaseKind.ADJUSTMENT:
        shown = [o for o in given if mine(o)]  # builds and removals stay hidden (rule 3)
    shown_set = set(shown)
    out_results = [r for r in all_results if r.order in shown_set]
    if kind is PhaseKind.MOVEMENT:
        for pid in sorted(report.held - own):
            # Drawn as the report says it: holding (`A BUR H`, `F NTH H` of convoy case B).
            unit = position.units[pid]
            hold = Hold(unit.power, UnitRef.of(unit))
            shown.append(hold)
            if pid in struck:
                out_results.append(OrderResult(unit.power, hold, Verdict.FAILS, Reason.DISLODGED))
            else:
                out_results.append(OrderResult(unit.power, hold, Verdict.SUCCEEDS))
    if kind is PhaseKind.RETREAT:
        shown, out_results = _retreats(position, given, all_results, report, power)
    centres = {pid: p for pid, p in position.centers.items() if p is power}
    counts = {power: len(position.units_of(power))} if power is not None else {}
    first: dict[str, OrderResult] = {}
    for r in all_results:
        if isinstance(r.order, UnitOrder) and not isinstance(r.order, Retreat | Disband):
            first.setdefault(r.order.unit.province, r)
    obscured = {
        pid: (how, pid in first and not first[pid].succeeded)
        for pid, how in report.obscured.items()
        if pid in units and pid not in own
    }
    return Sight(
        viewer,
        units,
        tuple(shown),
        tuple(out_results),
        struck & units,
        MappingProxyType(centres),
        totals,
        MappingProxyType(counts),
        obscured=MappingProxyType(obscured),
    )


def _reported(
    given: Sequence[Order],
    results: Sequence[OrderResult],
    provinces: frozenset[str],
    mine: Callable[[Order], bool],
) -> list[Order]:
    """The others' orders the public report shows: per province the one order it reports (the
    first ruled on), never a misorder beside it (rule 2: "A mis-order or an unlawful order is
    not revealed")."""
    lawful = {r.order for r in results if r.reason not in MISORDERS}
    out: list[Order] = []
    taken: set[str] = set()
    for o in given:
        if not isinstance(o, UnitOrder) or mine(o) or o.unit.province not in provinces:
            continue
        if o.unit.province not in taken and o in lawful:
            taken.add(o.unit.province)
            out.append(o)
    return out


def _retreats(
    position: Position,
    given: Sequence[Order],
    results: Sequence[OrderResult],
    report: PhaseReport,
    power: Power | None,
) -> tuple[list[Order], list[OrderResult]]:
    """A retreat phase: the viewer's own retreats; the retreats its attacks caused (rule 5);
    of the others only that they disbanded (rule 2), a refused retreat drawn as the disband
    the report says it was (rule 4: "he is not told why")."""
    caused: set[str] = set()
    if power is not None and power in report.private:
        caused = {c.unit.split()[-1].split("/")[0] for c in report.private[power].retreats_caused}
    result_of = {r.order: r for r in results}
    ordered: dict[str, Order] = {}
    for g in [*given, *(r.order for r in results)]:  # then those the engine supplied
        if isinstance(g, UnitOrder) and position.dislodged_in(g.unit.province) is not None:
            ordered.setdefault(g.unit.province, g)
    shown: list[Order] = []
    out: list[OrderResult] = []
    for d in position.dislodged:
        pid = d.unit.province
        o = ordered.get(pid)
        res = result_of.get(o) if o is not None else None
        if d.unit.power is power or pid in caused:
            if o is not None:
                shown.append(o)
                if res is not None:
                    out.append(res)
            continue
        went = res is not None and isinstance(o, Retreat) and res.succeeded
        if went:
            continue  # where it went stays hidden (rule 2)
        disband = Disband(d.unit.power, UnitRef.of(d.unit))
        shown.append(disband)
        out.append(OrderResult(d.unit.power, disband, Verdict.SUCCEEDS))
    return shown, out
