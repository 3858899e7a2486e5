"""Movement resolution: Kruijswijk's guess-and-backtrack algorithm as a resolver object.

Decisions are numbered: node i (0 <= i < n) is the order of unit i (a move succeeds, a support
is given, a convoying fleet is not dislodged); node n + i is the convoy path of move i.
Strengths (attack, hold, defend, prevent) are computed on demand from the decisions.
Reference: DATC section 5 and L. B. Kruijswijk, "The Math of Adjudication".
"""

from __future__ import annotations

from typing import Final

from bot.core.adjudicator.legality import CONVOY, HOLD, MOVE, SUPH, SUPM, Eff
from bot.core.adjudicator.mapindex import MapIndex
from bot.core.messages import Message, Prov, msg
from bot.core.model import ARMY, Location, Power, Unit
from bot.core.orders import Order
from bot.core.rules import AdjacentConvoy, ConvoyParadox, MultiRoute, RuleSet

# How a move travels (4.A.3).
LAND: Final = 0
BY_CONVOY: Final = 1
FALLBACK: Final = 2
OPPOSITE: Final = 3
UNRESOLVED: Final = 0
GUESSING: Final = 1
RESOLVED: Final = 2
# Enum members read once (a class attribute of an Enum costs ~900 instructions: issue 18).
EXPLICIT_ONLY: Final = AdjacentConvoy.EXPLICIT_ONLY
RULE_2000_FALLBACK: Final = AdjacentConvoy.RULE_2000_FALLBACK
ADJ_1971: Final = AdjacentConvoy.RULE_1971
SZYKMAN: Final = ConvoyParadox.SZYKMAN
ALL_HOLD: Final = ConvoyParadox.ALL_HOLD
PARADOX_1982: Final = ConvoyParadox.RULE_1982
PARADOX_1971: Final = ConvoyParadox.RULE_1971
ANY_ROUTE_DISRUPTED: Final = MultiRoute.ANY_ROUTE_DISRUPTED


def _used(e: Eff) -> Order | str:
    """The order a unit's effective order came from (a move always has one)."""
    return e[2] if e[2] is not None else "?"


class Resolver:
    """Owns every decision of one movement adjudication; build one per phase."""

    __slots__ = (
        "cfleets",
        "convoyed_by",
        "deps",
        "dest",
        "dest_loc",
        "effs",
        "hsups",
        "idle",
        "idx",
        "kind",
        "mode",
        "moves",
        "moves_into",
        "n",
        "no_route",
        "paradox",
        "power",
        "prov",
        "result",
        "rules",
        "state",
        "sup_into",
        "supports",
        "sups",
        "unit_at",
        "units",
        "voids",
    )

    def __init__(
        self,
        effs: list[Eff],
        idx: MapIndex,
        rules: RuleSet,
        idle: frozenset[Power] = frozenset(),
    ) -> None:
        self.idle = idle  # powers that gave no order at all (civil disorder, 4.D.9)
        self.effs = effs
        self.idx = idx
        self.rules = rules
        n = self.n = len(effs)
        # the columns read, never changed: zip's own tuples, not list copies (issue 18)
        cols = list(zip(*effs, strict=True)) if effs else [()] * 8
        self.kind: tuple[int, ...] = cols[0]
        self.units: tuple[Unit, ...] = cols[1]
        self.dest: tuple[str, ...] = cols[3]
        self.dest_loc: tuple[Location | None, ...] = cols[4]
        self.prov: list[str] = [u.location.province for u in self.units]
        self.power: list[Power] = [u.power for u in self.units]
        self.unit_at: dict[str, int] = {p: i for i, p in enumerate(self.prov)}
        self.moves_into: dict[str, list[int]] = {}
        # supporters of unit i's move / of unit i holding (only units that have some)
        self.sups: dict[int, list[int]] = {}
        self.hsups: dict[int, list[int]] = {}
        self.sup_into: list[str] = [""] * n
        self.mode: list[int] = [LAND] * n
        self.cfleets: dict[int, dict[str, int]] = {}  # convoyed move -> sea -> fleet
        self.convoyed_by: dict[int, int] = {}  # convoying fleet -> the move it carries
        self.voids: dict[int, Message] = {}
        self.no_route: set[int] = set()
        self.paradox: set[int] = set()
        self.state: list[int] = [UNRESOLVED] * (2 * n)
        self.result: list[bool] = [False] * (2 * n)
        self.deps: list[int] = []
        self._match()

    # --- setup: modes, matching -------------------------------------------------------

    def _match(self) -> None:
        effs, kind, prov, unit_at, dest = self.effs, self.kind, self.prov, self.unit_at, self.dest
        units, power, n = self.units, self.power, self.n
        convoys: dict[tuple[str, str], list[int]] = {}
        # the moves and the supports, in board order (the fast path walks these alone)
        moves: list[int] = []
        supports: list[int] = []
        self.moves, self.supports = moves, supports
        moves_into = self.moves_into
        for i, k in enumerate(kind):
            if k == MOVE:
                moves.append(i)
                d = dest[i]
                if d in moves_into:
                    moves_into[d].append(i)
                else:
                    moves_into[d] = [i]
            elif k == CONVOY:
                convoys.setdefault((effs[i][5], dest[i]), []).append(i)
            elif k != HOLD:
                supports.append(i)
        rule = self.rules.adjacent_convoy
        army_adj = self.idx.army_adj
        army = ARMY
        mode, cfleets, convoyed_by = self.mode, self.cfleets, self.convoyed_by
        state, result = self.state, self.result
        for i in moves:
            if units[i].type is not army:
                continue
            src, dst = prov[i], dest[i]
            cands = convoys.get((src, dst), []) if convoys else []
            if dst not in army_adj[src]:
                m = BY_CONVOY
            elif not cands and not effs[i][7]:
                continue
            else:
                via = effs[i][7]
                own = any(power[f] is power[i] for f in cands)
                if rule is EXPLICIT_ONLY:
                    m = BY_CONVOY if via else LAND
                elif rule is RULE_2000_FALLBACK:
                    m = FALLBACK if via or own else LAND
                elif rule is ADJ_1971:
                    j = unit_at.get(dst)
                    opposite = j is not None and kind[j] == MOVE and dest[j] == src
                    m = OPPOSITE if cands and opposite else LAND
                else:  # 2000/2023 (and 1982 read the same way): via convoy or own fleet
                    m = BY_CONVOY if via or own else LAND
            mode[i] = m
            if m != LAND:
                fleets = cfleets[i] = {}
                for f in cands:
                    fleets[prov[f]] = f
                    convoyed_by[f] = i
                if not self.idx.route_exists(src, dst, fleets):
                    self.no_route.add(i)
                    state[n + i] = RESOLVED  # result stays False
        for group in convoys.values():
            for i in group:
                if i not in convoyed_by:
                    self.voids[i] = self._convoy_void(effs[i])
                elif prov[i] not in moves_into:  # not attacked: it cannot be dislodged
                    state[i] = RESOLVED
                    result[i] = True
        if not supports:
            return
        sup_into, voids, sups, hsups = self.sup_into, self.voids, self.sups, self.hsups
        # the common support of a move: it names no coast and none is required (else see
        # _support_move_void)
        plain = not self.rules.support_requires_coast
        hold_for_idle = self.rules.hold_support_for_civil_disorder
        for i in supports:
            e = effs[i]
            target = e[5]
            j = unit_at.get(target)
            if kind[i] == SUPH:
                sup_into[i] = target
                if j is None:
                    voids[i] = msg("void.no_unit_support", province=Prov(target))
                elif kind[j] == MOVE:  # DATC 6.D.7
                    voids[i] = msg("void.moves_not_holds", unit=units[j], order=_used(effs[j]))
                elif (
                    not hold_for_idle and power[j] in self.idle and power[j] is not power[i]
                ):  # 4.D.9 a
                    voids[i] = msg("void.civil_disorder", unit=units[j])
                else:
                    if j in hsups:
                        hsups[j].append(i)
                    else:
                        hsups[j] = [i]
                    if prov[i] not in moves_into:  # not attacked: given
                        state[i] = RESOLVED
                        result[i] = True
            else:
                d = e[3]
                sup_into[i] = d
                if j is not None and kind[j] == MOVE and dest[j] == d and e[6] is None and plain:
                    why = None
                else:
                    why = self._support_move_void(e, j)
                if why is not None:
                    voids[i] = why
                else:
                    assert j is not None
                    if j in sups:
                        sups[j].append(i)
                    else:
                        sups[j] = [i]
                    if prov[i] not in moves_into:  # not attacked: given
                        state[i] = RESOLVED
                        result[i] = True

    def _convoy_void(self, e: Eff) -> Message:
        target, dest = e[5], e[3]
        j = self.unit_at.get(target)
        if j is None:
            return msg("void.no_army_convoy", province=Prov(target))
        if self.kind[j] != MOVE or self.dest[j] != dest:
            return msg("void.not_ordered_to", unit=self.units[j], place=Prov(dest))
        return msg("void.over_land", order=_used(self.effs[j]))

    def _support_move_void(self, e: Eff, j: int | None) -> Message | None:
        if j is None:
            return msg("void.no_unit_support", province=Prov(e[5]))
        if self.kind[j] != MOVE or self.dest[j] != e[3]:
            what = self.effs[j][2]
            return msg(
                "void.not_ordered_to_doing",
                unit=self.units[j],
                place=Prov(e[3]),
                doing=what if what is not None else msg("void.holds"),
            )
        loc = self.dest_loc[j]
        tc = e[6]
        if tc is not None and loc is not None and loc.coast is not None and tc != loc:
            return msg("void.other_coast", place=loc, written=tc)  # DATC 6.B.9
        if (
            tc is None
            and self.rules.support_requires_coast
            and loc is not None
            and loc.coast is not None
            # stabbeurfou 4.B.4 / gm-order-correction II(3)c: only "when two coasts are
            # possible"; F MAO S F GAS - SPA names the one coast GAS can reach.
            and len(self.idx.fleet_reach.get(self.units[j].location, {}).get(loc.province, ())) > 1
        ):
            return msg("void.name_coast", place=loc)  # 4.B.4 strict
        return None

    # --- Kruijswijk's resolve -----------------------------------------------------------

    def resolve(self, nd: int) -> bool:
        state = self.state
        st = state[nd]
        if st == RESOLVED:
            return self.result[nd]
        deps = self.deps
        if st == GUESSING:
            # Always recorded (even if listed already): whoever asked now depends on a guess.
            deps.append(nd)
            return self.result[nd]
        old = len(deps)
        self.result[nd] = False
        state[nd] = GUESSING
        # the common decision (a move) without the dispatch
        first = self._move(nd) if nd < self.n and self.kind[nd] == MOVE else self._adjudicate(nd)
        if len(deps) == old:
            if state[nd] != RESOLVED:
                self.result[nd] = first
                state[nd] = RESOLVED
            return first
        if deps[old] != nd:
            deps.append(nd)
            self.result[nd] = first
            return first
        while len(deps) > old:
            state[deps.pop()] = UNRESOLVED
        self.result[nd] = True
        state[nd] = GUESSING
        second = self._adjudicate(nd)
        if first == second:
            while len(deps) > old:
                state[deps.pop()] = UNRESOLVED
            self.result[nd] = first
            state[nd] = RESOLVED
            return first
        self._backup(old)
        return self.resolve(nd)

    def _backup(self, old: int) -> None:
        """No or two consistent resolutions: circular movement or a convoy paradox (4.A.2)."""
        n, kind, state, result = self.n, self.kind, self.state, self.result
        cycle = self.deps[old:]
        del self.deps[old:]
        for nd in cycle:
            state[nd] = UNRESOLVED
        paths = {nd for nd in cycle if nd >= n}
        for nd in cycle:
            if nd < n and kind[nd] == CONVOY and nd in self.convoyed_by:
                paths.add(n + self.convoyed_by[nd])
        if not paths:  # DATC 6.C.1: a circle of moves all succeed
            for nd in cycle:
                if kind[nd] == MOVE:
                    result[nd] = True
                    state[nd] = RESOLVED
            return
        if self.rules.convoy_paradox is ALL_HOLD:
            for nd in cycle:
                if nd >= n or kind[nd] == MOVE:
                    result[nd] = False
                    state[nd] = RESOLVED
                    self.paradox.add(nd)
        # Szykman (and the backup when an older paradox rule leaves a paradox): the convoys
        # in the paradox fail, as if their fleets held (DATC 6.F.14-6.F.24).
        for nd in paths:
            result[nd] = False
            state[nd] = RESOLVED
            self.paradox.add(nd)

    def _adjudicate(self, nd: int) -> bool:
        n = self.n
        if nd >= n:
            return self._path(nd - n)
        k = self.kind[nd]
        if k == MOVE:
            return self._move(nd)
        if k == CONVOY:
            return not any(self.resolve(m) for m in self.moves_into.get(self.prov[nd], ()))
        return self._support(nd)

    # --- decisions ----------------------------------------------------------------------

    def has_path(self, i: int) -> bool:
        return self.resolve(self.n + i) if self.mode[i] == BY_CONVOY else True

    def is_convoyed(self, i: int) -> bool:
        m = self.mode[i]
        if m == LAND:
            return False
        if m == BY_CONVOY:
            return True
        return self.resolve(self.n + i)

    def _h2h(self, i: int, j: int) -> bool:
        return (
            self.kind[j] == MOVE
            and self.dest[j] == self.prov[i]
            and not self.is_convoyed(i)
            and not self.is_convoyed(j)
        )

    def _move(self, i: int) -> bool:
        """Does move i succeed? Its attack strength must beat the hold strength of the
        destination (or the defend strength of a head-to-head opponent) and the prevent
        strength of every other move there. Attack and hold are computed inline (hot path)."""
        resolve = self.resolve
        if self.mode[i] == BY_CONVOY and not resolve(self.n + i):
            return False
        d = self.dest[i]
        j = self.unit_at.get(d)
        sups = self.sups.get(i)
        atk = 1  # (plain loops below, not sum() over a generator: the hot path)
        if j is None:
            if sups:
                for s in sups:
                    if resolve(s):
                        atk += 1
            # an empty province has hold strength 0: only the other moves can stop it
        else:
            stays = True
            h2h = False
            if self.kind[j] == MOVE:
                h2h = self._h2h(i, j)
                if not h2h and resolve(j):  # the unit there leaves
                    stays = False
            if stays:
                pj = self.power[j]
                if pj is self.power[i]:  # no self-dislodgement (DATC 6.D.10)
                    return False
                if sups:
                    power = self.power
                    # DATC 6.D.12: support from the defender's own power does not count
                    for s in sups:
                        if power[s] is not pj and resolve(s):
                            atk += 1
                if h2h:
                    if atk <= self.defend(j):
                        return False
                elif self.kind[j] == MOVE:
                    if atk <= 1:  # a unit whose move failed holds with strength 1
                        return False
                else:
                    hs = self.hsups.get(j)
                    held = 1
                    if hs:
                        for s in hs:
                            if resolve(s):
                                held += 1
                    if atk <= held:
                        return False
            elif sups:
                for s in sups:
                    if resolve(s):
                        atk += 1
        for k in self.moves_into[d]:  # noqa: SIM110 - plain loop, hot path
            if k != i and atk <= self.prevent(k):
                return False
        return True

    def defend(self, j: int) -> int:
        sups = self.sups.get(j)
        if not sups:
            return 1
        resolve = self.resolve
        return 1 + sum(1 for s in sups if resolve(s))

    def prevent(self, k: int) -> int:
        if not self.has_path(k):
            return 0
        j = self.unit_at.get(self.dest[k])
        if j is not None and self.kind[j] == MOVE and self.dest[j] == self.prov[k]:
            if self.rules.dislodged_bounces_convoyed_attacker_origin:  # 4.A.7 b
                if self._h2h(k, j) and self.resolve(j):
                    return 0
            elif self.resolve(j):  # 4.A.7 a
                return 0
        sups = self.sups.get(k)
        if not sups:
            return 1
        resolve = self.resolve
        return 1 + sum(1 for s in sups if resolve(s))

    def cutter(self, s: int) -> int | None:
        """The first attack that cuts support s (a dislodgement aside), if any."""
        into = self.sup_into[s]
        ps = self.power[s]
        for k in self.moves_into.get(self.prov[s], ()):
            if self.power[k] is ps:  # DATC 6.D.20
                continue
            if self.prov[k] == into and not (
                self.rules.convoyed_attack_cuts_support_on_itself and self.is_convoyed(k)
            ):
                continue  # DATC 6.D.15 (and 4.A.4 a, 6.G.13)
            if not self.has_path(k):
                continue
            if self._paradox_rule_spares(s, k):
                continue
            return k
        return None

    def _support(self, s: int) -> bool:
        attackers = self.moves_into.get(self.prov[s])
        if not attackers:
            return True
        if self.cutter(s) is not None:
            return False
        for k in attackers:  # noqa: SIM110
            # Under the 1971/1982/2000 paradox rules even a dislodgement by the spared convoyed
            # army leaves the support standing (DATC 6.F.17: the paradox rule takes precedence).
            if self.resolve(k) and not self._paradox_rule_spares(s, k):
                return False
        return True

    def _paradox_rule_spares(self, s: int, k: int) -> bool:
        """The 1971/1982/2000 rules (4.A.2 a-c): some convoyed attacks do not cut support."""
        rule = self.rules.convoy_paradox
        if rule in (SZYKMAN, ALL_HOLD) or not self.is_convoyed(k):
            return False
        into = self.sup_into[s]
        if rule is PARADOX_1982:
            j = self.unit_at.get(into)
            return j is not None and self.kind[j] == CONVOY and j in self.convoyed_by
        if self.kind[s] != SUPM or into not in self.cfleets[k]:
            return False
        if rule is PARADOX_1971:
            return True
        rest = [p for p in self.cfleets[k] if p != into]  # 2000: a fleet necessary to it
        return not self.idx.route_exists(self.prov[k], self.dest[k], rest)

    def _path(self, i: int) -> bool:
        fl = self.cfleets[i]
        src, dst = self.prov[i], self.dest[i]
        shores, seas = self.idx.sea_shores, self.idx.sea_seas
        resolve = self.resolve
        if self.rules.multi_route is ANY_ROUTE_DISRUPTED:  # 4.A.1 a
            return all(resolve(fl[p]) for p in self._on_route(i))
        todo = [p for p in fl if src in shores[p]]
        seen = set(todo)
        while todo:
            p = todo.pop()
            if not resolve(fl[p]):
                continue
            if dst in shores[p]:
                return True
            for q in seas[p]:
                if q in fl and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    def _on_route(self, i: int) -> list[str]:
        """Convoying fleets that lie on some route (DATC 6.F.12: others do not matter)."""
        fl = self.cfleets[i]
        shores, seas = self.idx.sea_shores, self.idx.sea_seas

        def reach(start: str) -> set[str]:
            todo = [p for p in fl if start in shores[p]]
            seen = set(todo)
            while todo:
                p = todo.pop()
                for q in seas[p]:
                    if q in fl and q not in seen:
                        seen.add(q)
                        todo.append(q)
            return seen

        return sorted(reach(self.prov[i]) & reach(self.dest[i]))

    # --- after resolution -----------------------------------------------------------------

    def run(self) -> None:
        n, kind, voids, mode, state, resolve = (
            self.n,
            self.kind,
            self.voids,
            self.mode,
            self.state,
            self.resolve,
        )
        for i in range(n):
            # a decision made at setup (a support or convoy not attacked) needs no call
            if kind[i] != HOLD and state[i] != RESOLVED and i not in voids:
                resolve(i)
            if mode[i] != LAND:
                resolve(n + i)

    def dislodger(self, i: int) -> int | None:
        """The move that dislodged unit i, if any."""
        if self.kind[i] == MOVE and self.result[i]:
            return None
        for k in self.moves_into.get(self.prov[i], ()):
            if self.result[k]:
                return k
        return None

    def standoffs(self, occupied: set[str]) -> set[str]:
        """Vacant provinces where a bounce happened (a move that could not reach does not
        count, nor a unit beaten in a head-to-head battle)."""
        out: set[str] = set()
        for p, movers in self.moves_into.items():
            if p in occupied or p in out:
                continue
            for k in movers:
                if not self.result[k] and self.prevent(k) > 0:
                    out.add(p)
                    break
        return out

    def retreats(self, i: int, k: int, occupied: set[str], standoffs: set[str]) -> frozenset[str]:
        unit = self.units[i]
        idx = self.idx
        if unit.type is ARMY:
            near = idx.army_adj.get(unit.province, frozenset())
        else:
            near = idx.fleet_adj_prov.get(unit.location, frozenset())
        origin = self.prov[k]
        if self.rules.retreat_to_convoyed_attacker_origin and self.is_convoyed(k):
            origin = ""  # 4.A.5 b (DATC 6.H.11)
        return frozenset(
            p for p in near if p != origin and p not in occupied and p not in standoffs
        )
