"""The fast path of movement resolution: a phase with no convoy, settled by direct strengths.

`settle(r)` takes a `Resolver` after its matching (voids, supports, modes are the general
resolver's own) and, when every move goes over land and no convoy is matched, decides every
order without Kruijswijk's guesses: it fills `r.state`/`r.result` exactly as `Resolver.run`
would, so the results, dislodgements and retreats built from them are the same. It returns
False, having changed nothing, for any phase it cannot settle with certainty (a convoy, a move
by convoy, a support whose fate it cannot see at once): the caller then runs the resolver.

Why strengths can be computed once without convoys (DATC 5 and the cases cited below):
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

from bot.core.adjudicator.legality import CONVOY, MOVE, SUPH
from bot.core.adjudicator.movement import RESOLVED, Resolver


def settle(r: Resolver) -> bool:
    """Decide every order of a convoy-free phase in `r`, or return False untouched."""
    if r.cfleets:  # a move by convoy (or a matched convoy): the general resolver
        return False
    n, kind, prov, power, dest = r.n, r.kind, r.prov, r.power, r.dest
    unit_at, moves_into, sups, hsups = r.unit_at, r.moves_into, r.sups, r.hsups
    sup_into, voids, state = r.sup_into, r.voids, r.state
    given = [False] * n  # supports given (settled below)
    threatened: list[tuple[int, int]] = []  # (support, the attacker from where it supports into)
    for s in range(n):
        k_s = kind[s]
        if k_s < SUPH or s in voids:  # a hold or a move (kinds 0 and 1)
            continue
        if state[s] == RESOLVED:  # not attacked: given at matching
            given[s] = True
            continue
        if k_s == CONVOY:  # a convoy that is not void: never here (cfleets is empty)
            return False
        ps, into = power[s], sup_into[s]
        threat = -1
        cut = False
        for k in moves_into[prov[s]]:
            if power[k] is ps:  # 6.D.20: no cut (and no dislodgement, 6.D.10)
                continue
            if prov[k] == into:  # 6.D.15: not cut by the unit it supports against
                threat = k
            else:
                cut = True  # 6.D.1
                break
        if cut:
            continue
        if threat < 0:
            given[s] = True
        elif k_s == SUPH:  # its target would be moving (void): not a case this path knows
            return False
        else:
            threatened.append((s, threat))
    result = r.result
    # Supports into a threatened supporter's province are themselves settled (only the unit in
    # that province could cut them, and it stays): the attacker's strength is known now.
    dislodges: dict[int, bool] = {}
    for s, x in threatened:
        pj = power[s]
        atk = 1
        for t in sups.get(x, ()):
            if power[t] is not pj and given[t]:  # 6.D.12: not the defender's own support
                atk += 1
        held = 1
        for t in hsups.get(s, ()):
            if given[t]:
                held += 1
        ok = atk > held
        if ok:
            for k in moves_into[prov[s]]:
                if k != x and atk <= _plain_prevent(k, sups, given):
                    ok = False
                    break
        dislodges[x] = ok
        given[s] = not ok  # 6.D.17: cut by its dislodgement only
    for s in range(n):
        k_s = kind[s]
        if k_s >= SUPH and s not in voids:
            result[s] = given[s]
            state[s] = RESOLVED
    # Moves. done: 0 unknown, 1 on the current chain, 2 settled.
    done = [0] * n
    for x, ok in dislodges.items():
        result[x] = ok
        done[x] = 2
    for i0 in range(n):
        if kind[i0] != MOVE or done[i0]:
            continue
        chain: list[int] = []
        i = i0
        while True:  # follow moves into provinces whose unit moves away (not head to head)
            done[i] = 1
            chain.append(i)
            j = unit_at.get(dest[i])
            if j is None or kind[j] != MOVE or dest[j] == prov[i] or done[j] == 2:
                break
            if done[j] == 1:  # a circle of moves: 6.C.1-6.C.3
                start = chain.index(j)
                circle = chain[start:]
                del chain[start:]
                _circle(circle, r, given, done)
                break
            i = j
        for i in reversed(chain):
            result[i] = _move(i, r, given)
            done[i] = 2
    for i in range(n):
        if kind[i] == MOVE:
            state[i] = RESOLVED
    return True


def _plain_prevent(k: int, sups: dict[int, list[int]], given: list[bool]) -> int:
    """Prevent strength of a move that is not in a head-to-head battle (DATC 5, prevent)."""
    st = 1
    for t in sups.get(k, ()):
        if given[t]:
            st += 1
    return st


def _attack(i: int, r: Resolver, given: list[bool], defender: int | None) -> int:
    """Attack strength of move i; with a defender, its own power's supports do not count
    (6.D.12, 6.D.13)."""
    atk = 1
    sups = r.sups.get(i)
    if sups:
        if defender is None:
            for t in sups:
                if given[t]:
                    atk += 1
        else:
            power, pj = r.power, r.power[defender]
            for t in sups:
                if power[t] is not pj and given[t]:
                    atk += 1
    return atk


def _prevents_beaten(i: int, atk: int, r: Resolver, given: list[bool]) -> bool:
    """Does attack `atk` of move i beat the prevent strength of every other move into its
    destination? A move that lost a head-to-head battle prevents nothing (4.A.7, 6.E.9)."""
    kind, dest, prov, result = r.kind, r.dest, r.prov, r.result
    here = r.unit_at.get(dest[i])
    for k in r.moves_into[dest[i]]:
        if k == i:
            continue
        if here is not None and kind[here] == MOVE and dest[here] == prov[k] and result[here]:
            continue  # k lost its head-to-head battle with the unit that moved out
        if atk <= _plain_prevent(k, r.sups, given):
            return False
    return True


def _move(i: int, r: Resolver, given: list[bool]) -> bool:
    """Move i, the unit at its destination (if it moves away, not head to head) settled."""
    kind, power = r.kind, r.power
    j = r.unit_at.get(r.dest[i])
    if j is None:  # an empty province: only the other moves can stop it
        return _prevents_beaten(i, _attack(i, r, given, None), r, given)
    if kind[j] == MOVE and r.dest[j] != r.prov[i] and r.result[j]:
        return _prevents_beaten(i, _attack(i, r, given, None), r, given)  # it left (6.C.1)
    if power[j] is power[i]:  # 6.D.10: no self-dislodgement (6.E.2 head to head too)
        return False
    atk = _attack(i, r, given, j)
    if kind[j] == MOVE:
        if r.dest[j] == r.prov[i]:  # head to head: the defend strength (6.E.4)
            defend = _plain_prevent(j, r.sups, given)
            if atk <= defend:
                return False
        elif atk <= 1:  # its move failed: it holds with strength 1 (6.D.7)
            return False
    else:
        held = 1
        for t in r.hsups.get(j, ()):
            if given[t]:
                held += 1
        if atk <= held:
            return False
    return _prevents_beaten(i, atk, r, given)


def _circle(circle: list[int], r: Resolver, given: list[bool], done: list[int]) -> None:
    """A circle of moves, each into the next one's province (none head to head)."""
    result = r.result
    # Each move as if its destination were vacated (the prevent strengths do not depend on the
    # circle: a move in it is not head to head with anything).
    vacated = [_prevents_beaten(i, _attack(i, r, given, None), r, given) for i in circle]
    if all(vacated):  # 6.C.1, 6.C.2: the circle moves
        for i in circle:
            result[i] = True
            done[i] = 2
        return
    # 6.C.3: a move that fails even into a vacated province stays; the one before it in the
    # circle meets a unit that stays, and so on around the circle.
    first = vacated.index(False)
    m = len(circle)
    b = circle[first]
    result[b] = False
    done[b] = 2
    for step in range(1, m):
        i = circle[(first - step) % m]
        result[i] = _move(i, r, given)
        done[i] = 2
