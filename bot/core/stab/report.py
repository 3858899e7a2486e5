"""Stab! reports (rules 2, 3, 5, 6 of seeds/stab-hidden-movement-variant.txt).

"Only contested movements are reported": `movement_report` keeps, of a phase's results, the
failed moves and their supports, the units that received an unsuccessful attack (a support of
theirs shown `S ?`), the moves that dislodged a unit or made another fail (with their
supports), the hold supports a standing unit needed, convoys by the seed's cases A, B and C;
never a misorder, a self-standoff (unless it made another player's move fail), a retreat's
destination. Each power's private report: its units, the centres it lost (to whom, with what),
where the units its attacks dislodged retreated. Winter: public centre totals, private centres.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from bot.core.catalogue import normalise, text
from bot.core.language.notation import result_line
from bot.core.map import GameMap
from bot.core.messages import render_param
from bot.core.model import DislodgedUnit, Location, Phase, Position, Power, Season, Unit
from bot.core.order_text import render
from bot.core.orders import Convoy, Disband, Move, Retreat, SupportHold, SupportMove, UnitOrder
from bot.core.outcome import OrderResult, Outcome, Reason

# Misorders and unlawful orders are never revealed (rule 2, "Mis-orders").
MISORDERS = frozenset({Reason.ILLEGAL, Reason.VOID, Reason.NO_CONVOY})


@dataclass(frozen=True, slots=True)
class CentreLost:
    centre: str
    by: Power
    unit: str  # the unit that took it, where it now stands (`F BRE`)


@dataclass(frozen=True, slots=True)
class RetreatCaused:
    """A unit the player's attack dislodged, and where it went (None: disbanded)."""

    power: Power
    unit: str
    to: str | None


@dataclass(frozen=True, slots=True)
class PrivateReport:
    power: Power
    units: tuple[str, ...] = ()
    dislodged: tuple[str, ...] = ()  # own units waiting for a retreat phase
    centres_lost: tuple[CentreLost, ...] = ()
    retreats_caused: tuple[RetreatCaused, ...] = ()
    centres: tuple[str, ...] = ()  # Winter only: the centres it owns


@dataclass(frozen=True, slots=True)
class PhaseReport:
    phase: Phase
    public: Mapping[Power, tuple[str, ...]] = field(default_factory=dict)
    private: Mapping[Power, PrivateReport] = field(default_factory=dict)
    centre_totals: Mapping[Power, int] = field(default_factory=dict)  # adjustment phases
    # Provinces the public report names: every viewer's map may show their units.
    revealed: frozenset[str] = frozenset()
    # Of those, the provinces whose order the report shows (in full or as a self-standoff);
    # the others' orders stay hidden (`F PIC S ?`), but for those it shows holding (`A BUR H`).
    orders_shown: frozenset[str] = frozenset()
    held: frozenset[str] = frozenset()
    # The others: "support" (`F PIC S ?`) or "convoy" (`F NTH C ? - ?`, convoy case A).
    obscured: Mapping[str, str] = field(default_factory=dict)


def _unit_text(unit: Unit) -> str:
    """A unit as the reports keep it (`F MAR`: ids); `say_unit` names it for a reader."""
    return f"{unit.type.value} {unit.location}"


def say_place(where: str, game_map: GameMap, lang: str) -> str:
    """A kept place (`MAR`, `STP/NC`) in the game's nomenclature (`TOU`, `STP/CN` in French)."""
    return render_param(Location.parse(where), lang, game_map)


def say_unit(kept: str, game_map: GameMap, lang: str) -> str:
    """A kept unit (`A MAR`) in the game's nomenclature (`A TOU` in French)."""
    kind, where = kept.split()
    return f"{kind} {say_place(where, game_map, lang)}"


class _Movement:
    """The facts of one adjudicated movement phase, indexed by province."""

    def __init__(self, position: Position, outcome: Outcome) -> None:
        self.position = position
        self.outcome = outcome
        self.res: dict[str, OrderResult] = {}
        for r in outcome.results:
            o = r.order
            if isinstance(o, UnitOrder) and not isinstance(o, Retreat | Disband):
                self.res.setdefault(o.unit.province, r)
        self.dislodged: dict[str, DislodgedUnit] = {d.unit.province: d for d in outcome.dislodged}
        self.movers_to: dict[str, list[str]] = {}
        for pid, r in self.res.items():
            if isinstance(r.order, Move) and r.reason not in MISORDERS:
                self.movers_to.setdefault(r.order.dest.province, []).append(pid)

    def power(self, pid: str) -> Power:
        return self.position.units[pid].power

    def moved(self, pid: str) -> bool:
        r = self.res.get(pid)
        return r is not None and isinstance(r.order, Move) and r.succeeded

    def stays(self, pid: str) -> bool:
        return pid in self.position.units and not self.moved(pid)

    def supports_of(self, pid: str, dest: str | None) -> list[str]:
        """Supporting units of the unit at `pid` (moving to `dest`, or holding if None)."""
        out = []
        for spid, r in self.res.items():
            o = r.order
            if r.reason in MISORDERS or spid == pid:
                continue
            if (dest is None and isinstance(o, SupportHold) and o.target.province == pid) or (
                dest is not None
                and isinstance(o, SupportMove)
                and o.target.province == pid
                and o.dest.province == dest
            ):
                out.append(spid)
        return out

    def convoys_of(self, pid: str, dest: str) -> list[str]:
        return [
            cpid
            for cpid, r in self.res.items()
            if isinstance(r.order, Convoy)
            and r.reason not in MISORDERS
            and r.order.target.province == pid
            and r.order.dest.province == dest
        ]

    def attack(self, pid: str) -> int:
        dest = self.res[pid].order
        assert isinstance(dest, Move)
        live = [s for s in self.supports_of(pid, dest.dest.province) if self.res[s].succeeded]
        return 1 + len(live)


class _Reveal:
    """What the public report shows: province -> "full" | "obscure" | "self-standoff"."""

    def __init__(self, mv: _Movement, preferences: Mapping[Power, Sequence[str]]) -> None:
        self.mv = mv
        self.prefs = preferences
        self.how: dict[str, str] = {}

    def full(self, pid: str) -> None:
        self.how[pid] = "full"

    def weak(self, pid: str, how: str = "obscure") -> None:
        self.how.setdefault(pid, how)

    def run(self) -> dict[str, str]:
        mv = self.mv
        for dest, movers in mv.movers_to.items():
            for m in movers:
                if not mv.res[m].succeeded:
                    self._failed_move(m, dest, movers)
        for d in mv.dislodged.values():  # rule 2: "the fact that a unit is dislodged"
            self.weak(d.unit.province)
            if d.attacker_from in mv.res:
                self._successful(d.attacker_from)
        self._convoys()
        return self.how

    def _failed_move(self, m: str, dest: str, movers: list[str]) -> None:
        mv = self.mv
        me = mv.power(m)
        others = [p for p in movers if p != m]
        occupant = dest if mv.stays(dest) else None
        contest = others + ([occupant] if occupant else [])
        mine = all(mv.power(p) == me for p in contest)
        if contest and mine and not any(mv.res[p].succeeded for p in others):
            return  # a self-standoff: hidden unless another player's move failed on it
        self.full(m)
        for s in mv.supports_of(m, dest):
            self.full(s)
        for p in others:
            if mv.res[p].succeeded:
                self._successful(p)  # "the reason why another move ... failed"
        if occupant is not None and mv.power(occupant) != me:
            self._recipient(occupant)

    def _recipient(self, pid: str) -> None:
        """A unit that received an unsuccessful attack: it exists, and the hold supports it
        needed (rule 2's exception), by the player's preference, else alphabetically with
        other players' supports first."""
        mv = self.mv
        r = mv.res.get(pid)
        standoff = (
            r is not None
            and isinstance(r.order, Move)
            and r.reason not in MISORDERS
            and pid not in self.how
        )
        self.weak(pid, "self-standoff" if standoff else "obscure")
        if pid in mv.dislodged:
            return
        strongest = max(
            (mv.attack(a) for a in mv.movers_to.get(pid, []) if not mv.res[a].succeeded),
            default=1,
        )
        live = [s for s in mv.supports_of(pid, None) if mv.res[s].succeeded]
        owner = mv.power(pid)
        pref = [p.upper() for p in self.prefs.get(owner, ())]

        def key(s: str) -> tuple[int, int, str]:
            rank = pref.index(s) if s in pref else len(pref)
            return (rank, mv.power(s) == owner, s)

        for s in sorted(live, key=key)[: max(0, strongest - 1)]:
            self.full(s)

    def _successful(self, pid: str) -> None:
        mv = self.mv
        o = mv.res[pid].order
        assert isinstance(o, Move)
        self.full(pid)
        for s in mv.supports_of(pid, o.dest.province):
            self.full(s)

    def _convoys(self) -> None:
        """Cases A, B, C: the convoys of a revealed army move are revealed with it (in full,
        or `C ? - ?` when the fleet was dislodged); an attacked fleet whose army's move stays
        hidden is reported as holding."""
        mv = self.mv
        for pid, r in mv.res.items():
            if not isinstance(r.order, Move) or self.how.get(pid) != "full":
                continue
            for c in mv.convoys_of(pid, r.order.dest.province):
                if c not in mv.dislodged:
                    self.full(c)


def _shown_as(r: OrderResult, mv: _Movement) -> str:
    """What the report says a unit whose order stays hidden did: "support" (`S ?`), "convoy"
    (case A, `C ? - ?`) or "hold" (anything else, a misorder too: rule 2)."""
    o = r.order
    if r.reason not in MISORDERS and isinstance(o, SupportHold | SupportMove):
        return "support"
    if r.reason not in MISORDERS and isinstance(o, Convoy) and o.unit.province in mv.dislodged:
        return "convoy"
    return "hold"


def _obscure(r: OrderResult, unit: Unit, mv: _Movement, lang: str, game_map: GameMap) -> str:
    """The line of a unit whose order stays hidden: `F PIC S ?; (cut) (dislodged)`."""
    head = render_param(unit, lang, game_map)
    words = ["notation.hold"]
    notes: list[str] = []
    shown = _shown_as(r, mv)
    if shown == "support":
        words = ["notation.support"]
        if not r.succeeded:
            notes.append("notation.cut")
    elif shown == "convoy":
        words = ["notation.convoy"]
    d = mv.dislodged.get(unit.province)
    if d is not None:
        # (stabbeurfou 3(a) destroys some at once: in `removed`, with options never used)
        kept = d.retreats and d.unit not in mv.outcome.removed
        notes.append("notation.dislodged" if kept else "notation.destroyed")
    body = " ".join(text("core", w, lang) for w in words)
    if words == ["notation.support"]:
        body += " ?"
    elif words == ["notation.convoy"]:
        body += " ? - ?"
    line = f"{head} {body}"
    if notes:
        line += "; " + " ".join(f"({text('core', n, lang)})" for n in notes)
    return line


def _lines(
    mv: _Movement, how: Mapping[str, str], lang: str, game_map: GameMap
) -> dict[Power, list[str]]:
    out: dict[Power, list[str]] = {}
    for pid, r in mv.res.items():
        kind = how.get(pid)
        unit = mv.position.units.get(pid)
        if kind is None or unit is None:
            continue
        if kind == "full":
            line = result_line(r, mv.outcome, lang, game_map)
        elif kind == "self-standoff":
            ss = text("core", "stab.self_standoff", lang)
            line = f"{render(r.order, lang, game_map=game_map)}; ({ss})"
        else:
            line = _obscure(r, unit, mv, lang, game_map)
        out.setdefault(unit.power, []).append(line)
    return out


def _centres_lost(before: Position, after: Position, phase: Phase) -> dict[Power, list[CentreLost]]:
    """In the Fall (and its retreats), an owned centre now held by another power's unit."""
    out: dict[Power, list[CentreLost]] = {}
    if phase.season is not Season.FALL:
        return out
    for pid, owner in before.centers.items():
        now = after.units.get(pid)
        if now is not None and now.power != owner and before.units.get(pid) != now:
            out.setdefault(owner, []).append(CentreLost(pid, now.power, _unit_text(now)))
    return out


def _nmr_lines(public: dict[Power, list[str]], nmr: Iterable[Power], lang: str) -> None:
    for p in nmr:  # rule 6: "All NMRs are reported as such"
        public.setdefault(p, []).insert(0, text("core", "stab.nmr", lang))


def _freeze(public: Mapping[Power, list[str]]) -> Mapping[Power, tuple[str, ...]]:
    return MappingProxyType({p: tuple(v) for p, v in public.items()})


def movement_report(
    position: Position,
    outcome: Outcome,
    game_map: GameMap,
    *,
    nmr: Iterable[Power] = (),
    preferences: Mapping[Power, Sequence[str]] | None = None,
    retreats: Outcome | None = None,
    lang: str = "en",
) -> PhaseReport:
    """The reports of a movement phase. `preferences`: per power, the provinces of its hold
    supports in the order it wants them revealed; `retreats`: the conditional retreats
    (rule 4) already adjudicated, when the game takes them with the movement orders."""
    lang = normalise(lang)
    mv = _Movement(position, outcome)
    how = _Reveal(mv, preferences or {}).run()
    public = _lines(mv, how, lang, game_map)
    _nmr_lines(public, nmr, lang)
    after = retreats.position if retreats is not None else outcome.position
    lost = _centres_lost(position, after, position.phase)
    went = _retreat_moves(retreats) if retreats is not None else {}
    caused = _caused(mv.dislodged.values(), outcome.position, went)
    waiting = () if retreats is not None else outcome.position.dislodged
    private = {
        p: PrivateReport(
            p,
            units=tuple(sorted(_unit_text(u) for u in after.units_of(p))),
            dislodged=tuple(sorted(_unit_text(d.unit) for d in waiting if d.unit.power == p)),
            centres_lost=tuple(lost.get(p, ())),
            retreats_caused=tuple(caused.get(p, ())),
        )
        for p in game_map.powers
    }
    revealed = frozenset(how)
    shown = frozenset(pid for pid, k in how.items() if k != "obscure")
    shown_as = {
        pid: _shown_as(mv.res[pid], mv)
        for pid, k in how.items()
        if k == "obscure" and pid in mv.res
    }
    return PhaseReport(
        position.phase,
        _freeze(public),
        MappingProxyType(private),
        {},
        revealed,
        shown,
        frozenset(pid for pid, a in shown_as.items() if a == "hold"),
        MappingProxyType({pid: a for pid, a in shown_as.items() if a != "hold"}),
    )


def _retreat_moves(outcome: Outcome) -> dict[str, str | None]:
    """Dislodged unit's province -> where it retreated (None: disbanded or destroyed)."""
    went: dict[str, str | None] = {}
    for r in outcome.results:
        o = r.order
        if isinstance(o, Retreat):
            went[o.unit.province] = o.dest.province if r.succeeded else None
        elif isinstance(o, Disband):
            went[o.unit.province] = None
    return went


def _caused(
    dislodged: Iterable[DislodgedUnit], retreat_position: Position, went: Mapping[str, str | None]
) -> dict[Power, list[RetreatCaused]]:
    """Rule 5: "what retreat moves other players have made as a consequence of that player's
    attacks": the attacker now stands where the dislodged unit was."""
    out: dict[Power, list[RetreatCaused]] = {}
    for d in dislodged:
        pid = d.unit.province
        attacker = retreat_position.units.get(pid)
        if attacker is None or pid not in went:
            continue
        out.setdefault(attacker.power, []).append(
            RetreatCaused(d.unit.power, _unit_text(d.unit), went[pid])
        )
    return out


def retreat_report(
    position: Position,
    outcome: Outcome,
    game_map: GameMap,
    *,
    nmr: Iterable[Power] = (),
    lang: str = "en",
) -> PhaseReport:
    """A separate retreat phase: publicly only the disbands (rule 2: "If a unit is disbanded
    through choice or because no retreat was ordered, this will be reported"; a refused
    retreat is not explained, rule 4); privately where the retreats went."""
    lang = normalise(lang)
    went = _retreat_moves(outcome)
    for d in position.dislodged:
        went.setdefault(d.unit.province, None)  # no order: disbanded
    public: dict[Power, list[str]] = {}
    disband = text("core", "notation.disband", lang)
    for d in position.dislodged:
        if went[d.unit.province] is None:
            shown = render_param(d.unit, lang, game_map)
            public.setdefault(d.unit.power, []).append(f"{shown} {disband}")
    _nmr_lines(public, nmr, lang)
    after = outcome.position
    lost = _centres_lost(position, after, position.phase)
    caused = _caused(position.dislodged, position, went)
    private = {
        p: PrivateReport(
            p,
            units=tuple(sorted(_unit_text(u) for u in after.units_of(p))),
            centres_lost=tuple(lost.get(p, ())),
            retreats_caused=tuple(caused.get(p, ())),
        )
        for p in game_map.powers
    }
    revealed = frozenset(d.unit.province for d in position.dislodged)
    return PhaseReport(position.phase, _freeze(public), MappingProxyType(private), {}, revealed)


def adjustment_report(position: Position, game_map: GameMap) -> PhaseReport:
    """Rules 3 and 5, Winter: "the seven supply centre totals for each power", publicly; each
    player privately "which supply centres he owns". Builds and removals stay hidden."""
    totals = {p: len(position.centers_of(p)) for p in game_map.powers}
    private = {
        p: PrivateReport(p, centres=tuple(sorted(position.centers_of(p)))) for p in game_map.powers
    }
    return PhaseReport(
        position.phase, {}, MappingProxyType(private), MappingProxyType(totals), frozenset()
    )


def visible_provinces(
    viewer: Power | None, position: Position, report: PhaseReport
) -> frozenset[str]:
    """What a viewer's map may show after the phase: their own units (None: the public map)
    and the provinces the public report named."""
    own = {u.province for u in position.units.values() if viewer is not None and u.power == viewer}
    return frozenset(own) | report.revealed
