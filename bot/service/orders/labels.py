"""Header lines of an order set that are not orders (house II(1), II(2)).

house II(1) B: "All orders will be considered preliminary unless marked "Final"" - the last
set sent stands either way, so a `Final` line is read and dropped. house II(2): a set is
identified by a label such as "SED 01SA" (game, year, season S/U/F/W, country) or a phase code
(`F1902M`); the label is understood, and a set labelled for another phase is refused, never
moved to the phase it names. The game and country letters are not checked (the bot knows the
game and the sender). A label is never an order (no order starts with digits or a phase code).
"""

from __future__ import annotations

import re

from bot.core.model import Phase, PhaseKind, Season

_FINAL = {"final", "finals", "définitif", "definitif", "définitifs", "definitifs"}
# "SED 01SA": any game abbreviation, then year (2 digits), season, country.
_HOUSE = re.compile(r"(?:\S+\s+)?(\d{2})([SUFW])([A-Z])", re.IGNORECASE)
_CODE = re.compile(r"([SFW])(\d{4})([MRA])", re.IGNORECASE)


def _house_matches(phase: Phase, yy: str, season: str) -> bool:
    # U (summer) = the spring retreats; W (winter) = the fall retreats and the adjustments.
    wanted = {
        "S": (Season.SPRING, PhaseKind.MOVEMENT),
        "U": (Season.SPRING, PhaseKind.RETREAT),
        "F": (Season.FALL, PhaseKind.MOVEMENT),
    }.get(season.upper())
    if phase.year % 100 != int(yy):
        return False
    if wanted is None:  # W
        return (phase.season, phase.kind) in (
            (Season.FALL, PhaseKind.RETREAT),
            (Season.WINTER, PhaseKind.ADJUSTMENT),
        )
    return (phase.season, phase.kind) == wanted


def strip_labels(text: str, phase: Phase) -> tuple[str, str | None]:
    """(the set without its label and Final lines, the label if it names another phase)."""
    kept: list[str] = []
    wrong: str | None = None
    for line in text.replace(";", "\n").splitlines():
        bare = line.strip().strip('"').strip()
        if bare.lower().rstrip(".!") in _FINAL:
            continue
        if m := _HOUSE.fullmatch(bare):
            if not _house_matches(phase, m.group(1), m.group(2)):
                wrong = bare
            continue
        if m := _CODE.fullmatch(bare):
            if bare.upper() != str(phase):
                wrong = bare
            continue
        kept.append(line)
    if len(kept) == len(text.replace(";", "\n").splitlines()):
        return text, None  # no header: the set as written
    return "\n".join(kept), wrong


def labelled_phase(label: str, current: Phase) -> Phase | None:
    """The phase a label names (`F1914R`; house `SED 14WF` = W, the Fall retreats and the
    adjustments, keyed by the adjustment phase), its century taken from the current phase."""
    bare = label.strip().strip('"').strip()
    if m := _CODE.fullmatch(bare):
        try:
            return Phase.parse(bare.upper())
        except ValueError:
            return None
    if m := _HOUSE.fullmatch(bare):
        year = current.year - current.year % 100 + int(m.group(1))
        code = {"S": "S{}M", "U": "S{}R", "F": "F{}M", "W": "W{}A"}[m.group(2).upper()]
        return Phase.parse(code.format(year))
    return None
