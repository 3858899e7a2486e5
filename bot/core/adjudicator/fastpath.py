"""The fast path of movement resolution: a phase whose convoys cannot fail, settled by direct
strengths.

`settle(r)` takes a `Resolver` after its matching (voids, supports, modes are the general
resolver's own) and, when no convoying fleet is attacked (so every convoy route is fixed at
matching and no paradox can arise; the older paradox rules aside), decides every order without
Kruijswijk's guesses: it fills `r.state`/`r.result` exactly as `Resolver.run` would, so the
results, dislodgements and retreats built from them are the same. It returns False, having
changed nothing, for any phase it cannot settle with certainty (an attacked convoy, a support
whose fate it cannot see at once): the caller then runs the resolver.

A move by convoy with its route is a move like another, but no head-to-head battle (DATC
6.G.*; two units may swap by convoy, 6.C.6) and, under 4.A.4 b, it cuts the support against it;
a move by convoy without a route neither cuts, dislodges nor prevents (it fails).

Why strengths can be computed once (DATC 5 and the cases cited below):
- an attack on a supporter from anywhere but the province the support goes into cuts it
  (6.D.1, 6.D.15); an attack by the supporter's own power never cuts nor dislodges (6.D.20,
  6.D.10); so a support is cut, given, or - when attacked from the province it supports into
  by another power - given unless that attacker dislodges it (6.D.17, 6.D.21);
- that attacker's move into the supporter's province meets a unit that stays: its strength
  and the prevent strengths there only count supports into that same province, which only a
  unit *in* it could cut - and it does not move. So every support is settled in two passes;
- then a move into an empty province or a staying unit, and a head-to-head battle (6.E.1-6.E.15:
  defend strength), are settled by numbers; a move into a province whose unit moves away
  depends on that move alone: chains are followed to their end, a circle of moves succeeds
  when each of its moves would succeed with its destination vacated (6.C.1, 6.C.2), and else
  a move that fails even then breaks it (6.C.3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.core.adjudicator.legality import MOVE, SUPH
from bot.core.adjudicator.movement import BY_CONVOY, GUESSING, RESOLVED, Resolver
from bot.core.rules import ConvoyParadox

# The paradox rules under which a convoy nobody attacks leaves nothing to the resolver (read once:
# a class attribute of an Enum costs ~900 instructions, issue 18).
_SETTLED_PARADOX_RULES: Final = (ConvoyParadox.SZYKMAN, ConvoyParadox.ALL_HOLD)


def settle(r: Resolver) -> bool:
    """Decide every order of a phase in `r` whose convoys cannot fail, or return False
    untouched."""
    n, kind, prov, power, dest = r.n, r.kind, r.prov, r.power, r.dest
    unit_at, moves_into, sups, hsups = r.unit_at, r.moves_into, r.sups, r.hsups
    sup_into, voids, state, result = r.sup_into, r.voids, r.state, r.result
    no_route = r.no_route
    conv: set[int] = set()  # moves that go by convoy (`Resolver.is_convoyed`)
    dead: set[int] = set()  # moves by convoy without a route (not `Resolver.has_path`)
    cuts_self = False
    if r.cfleets:
        # A convoying fleet nobody attacks is never dislodged (it was decided at matching):
        # each route is then fixed, found at matching, and no paradox can arise. The older
        # paradox rules (4.A.2 a-c) spare some convoyed attacks' cuts: the general resolver.
        if r.rules.convoy_paradox not in _SETTLED_PARADOX_RULES:
            return False
        for f in r.convoyed_by:
            if state[f] != RESOLVED:  # attacked: the general resolver
                return False
        mode = r.mode
        for i in r.cfleets:
            if mode[i] == BY_CONVOY:
                conv.add(i)
                if i in no_route:
                    dead.add(i)
            elif i not in no_route:  # 4.A.3: by convoy if it can be (else over land)
                conv.add(i)
        cuts_self = r.rules.convoyed_attack_cuts_support_on_itself  # 4.A.4 b
    # Supports: `result` holds "given" (True already for those not attacked, set at matching);
    # the states are written once every support is known (a bail-out leaves them untouched).
    attacked: list[int] = []
    threatened: list[tuple[int, int]] = []  # (support, the attacker from where it supports into)
    for s in r.supports:
        if state[s] == RESOLVED or s in voids:  # decided at matching (not attacked), void
            continue
        ps, into = power[s], sup_into[s]
        threat = -1
        for k in moves_into[prov[s]]:
            if power[k] is ps:  # 6.D.20: no cut (and no dislodgement, 6.D.10)
                continue
            if k in dead:  # no route: no cut, no dislodgement
                continue
            if prov[k] != into or (cuts_self and k in conv):  # 6.D.1 (4.A.4 b): cut
                break
            threat = k  # 6.D.15: not cut by the unit it supports against
        else:
            if threat < 0:
                result[s] = True
            elif kind[s] == SUPH:  # its target would be moving (void): not a case known here
                for t in attacked:
                    result[t] = False
                return False
            else:
                threatened.append((s, threat))
        attacked.append(s)
    # Supports into a threatened supporter's province are themselves settled (only the unit in
    # that province could cut them, and it stays): the attacker's strength is known now.
    for s, x in threatened:
        pj = power[s]
        atk = 1
        for t in sups.get(x, ()):
            if power[t] is not pj and result[t]:  # 6.D.12: not the defender's own support
                atk += 1
        held = 1
        for t in hsups.get(s, ()):
            if result[t]:
                held += 1
        ok = atk > held
        if ok:
            for k in moves_into[prov[s]]:
                if k != x and k not in dead and atk <= _plain_prevent(k, sups, result):
                    ok = False
                    break
        result[x] = ok  # the attacker's move is decided too
        state[x] = RESOLVED
        result[s] = not ok  # 6.D.17: cut by its dislodgement only
    for s in attacked:
        state[s] = RESOLVED
    if r.cfleets:  # the convoy paths as `Resolver.run` decides them, and the moves without one
        for i in r.cfleets:
            result[n + i] = i not in no_route
            state[n + i] = RESOLVED
        for i in dead:
            state[i] = RESOLVED  # result stays False
    # 4.A.7 a: a move whose target moved into its origin prevents nothing, head to head or
    # not (b: only head to head, between two moves over land; DATC 6.G.*)
    any_swap = not r.rules.dislodged_bounces_convoyed_attacker_origin

    def decide(i: int) -> bool:
        """Move i, the unit at its destination settled if it moves away (not head to head)."""
        d = dest[i]
        j = unit_at.get(d)
        pj = None
        if j is not None:
            if kind[j] == MOVE and (dest[j] != prov[i] or (conv and (i in conv or j in conv))):
                if not result[j]:  # its move failed: it holds with strength 1 (6.D.7)
                    pj = power[j]
                    if pj is power[i]:  # 6.D.10: no self-dislodgement
                        return False
                    atk = 1
                    for t in sups.get(i, ()):
                        if power[t] is not pj and result[t]:  # 6.D.12
                            atk += 1
                    if atk <= 1:
                        return False
                    return _beats_prevents(i, atk, r, dead, conv, any_swap)
                # it left (6.C.1): as into an empty province
            else:
                pj = power[j]
                if pj is power[i]:  # 6.D.10 (6.E.2 head to head too)
                    return False
                atk = 1
                for t in sups.get(i, ()):
                    if power[t] is not pj and result[t]:  # 6.D.12
                        atk += 1
                if kind[j] == MOVE:  # head to head: the defend strength (6.E.4)
                    if atk <= _plain_prevent(j, sups, result):
                        return False
                else:
                    held = 1
                    for t in hsups.get(j, ()):
                        if result[t]:
                            held += 1
                    if atk <= held:
                        return False
                return _beats_prevents(i, atk, r, dead, conv, any_swap)
        if len(moves_into[d]) == 1:  # the only move there, nothing stays: it succeeds
            return True
        atk = 1
        for t in sups.get(i, ()):
            if result[t]:
                atk += 1
        return _beats_prevents(i, atk, r, dead, conv, any_swap)

    # Moves; the state is the walk's mark: GUESSING on the current chain, RESOLVED settled.
    for i0 in r.moves:
        if state[i0]:
            continue
        chain = [i0]
        i = i0
        while True:  # follow moves into provinces whose unit moves away (not head to head)
            state[i] = GUESSING
            j = unit_at.get(dest[i])
            if (
                j is None
                or kind[j] != MOVE
                or state[j] == RESOLVED
                or (dest[j] == prov[i] and not (conv and (i in conv or j in conv)))
            ):
                break
            if state[j] == GUESSING:  # a circle of moves: 6.C.1-6.C.3
                start = chain.index(j)
                _circle(chain[start:], r, decide, dead, conv, any_swap)
                del chain[start:]
                break
            chain.append(j)
            i = j
        for i in reversed(chain):
            result[i] = decide(i)
            state[i] = RESOLVED
    return True


def _plain_prevent(k: int, sups: dict[int, list[int]], given: list[bool]) -> int:
    """Prevent strength of a move that is not in a head-to-head battle (DATC 5, prevent)."""
    st = 1
    for t in sups.get(k, ()):
        if given[t]:
            st += 1
    return st


def _beats_prevents(  # noqa: PLR0917 - the hot path: no keyword arguments
    i: int, atk: int, r: Resolver, dead: set[int], conv: set[int], any_swap: bool
) -> bool:
    """Does attack `atk` of move i beat the prevent strength of every other move into its
    destination? A move that lost a head-to-head battle prevents nothing (4.A.7 b, 6.E.9;
    under 4.A.7 a nor does one whose target moved into its origin), nor one without a route."""
    movers = r.moves_into[r.dest[i]]
    if len(movers) == 1:
        return True
    kind, dest, prov, result = r.kind, r.dest, r.prov, r.result
    here = r.unit_at.get(dest[i])
    for k in movers:
        if k == i or k in dead:
            continue
        if (
            here is not None
            and kind[here] == MOVE
            and dest[here] == prov[k]
            and result[here]
            and (any_swap or not (conv and (k in conv or here in conv)))
        ):
            continue  # k lost its head-to-head battle with the unit that moved out
        if atk <= _plain_prevent(k, r.sups, result):
            return False
    return True


def _circle(  # noqa: PLR0917 - the walk's state
    circle: list[int],
    r: Resolver,
    decide: Callable[[int], bool],
    dead: set[int],
    conv: set[int],
    any_swap: bool,
) -> None:
    """A circle of moves, each into the next one's province (none head to head)."""
    result, state = r.result, r.state
    # Each move as if its destination were vacated (the prevent strengths do not depend on the
    # circle: a move in it is not head to head with anything).
    vacated = []
    for i in circle:
        atk = 1
        for t in r.sups.get(i, ()):
            if result[t]:
                atk += 1
        vacated.append(_beats_prevents(i, atk, r, dead, conv, any_swap))
    if all(vacated):  # 6.C.1, 6.C.2: the circle moves
        for i in circle:
            result[i] = True
            state[i] = RESOLVED
        return
    # 6.C.3: a move that fails even into a vacated province stays; the one before it in the
    # circle meets a unit that stays, and so on around the circle.
    first = vacated.index(False)
    m = len(circle)
    b = circle[first]
    result[b] = False
    state[b] = RESOLVED
    for step in range(1, m):
        i = circle[(first - step) % m]
        result[i] = decide(i)
        state[i] = RESOLVED
