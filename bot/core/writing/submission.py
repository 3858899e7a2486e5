"""What the rule set decides when an order set comes in (pure; the table service asks).

- `accepts_orders`: is the phase still taking orders? The deadline closes it (a set sent
  before it is still taken while read within a short grace), unless the preset's
  `late_orders_accepted` (house VII(3) Alternative B: "accepted until the start of
  adjudication") keeps it open until the adjudication starts.
- `combine_mode`: how a new set meets the standing one (DATC 4.D.1, `order_sets`).
- `keeps_readable_orders`: an unreadable line refuses the set, or only that line is void
  (`unreadable_orders`; edc-2023 E: "an unambiguous order must be applied and an order deemed
  ambiguous not applied").
"""

from __future__ import annotations

from enum import StrEnum

from bot.core.rules import Choice, RuleSet, UnreadableOrders


class Combine(StrEnum):
    REPLACE = "replace"  # the new set replaces the standing one
    BY_UNIT = "by-unit"  # the new set replaces the orders of the units it names
    APPEND = "append"  # every set counts: the new orders join the standing ones
    REFUSE = "refuse"  # the rule set takes whole sets only: a partial set is refused


def accepts_orders(
    rules: RuleSet,
    *,
    status: str,
    now: float,
    deadline: float | None,
    paused_at: float | None,
    sent: float | None = None,
    received: float | None = None,
    grace: float = 0.0,
) -> bool:
    """Whether a set read at `now` is taken for a phase in `status` ('open' while it takes
    orders, 'adjudicating' once the adjudication has started). `sent`: when the player sent
    it (its message's time); `received`: when it reached the bot (default: `now`). A set
    sent before the deadline is still taken if it arrived within `grace` seconds after it
    (issue 19: at a crowded deadline orders sent in time are read late)."""
    if status != "open" or deadline is None:
        return False
    if rules.late_orders_accepted:
        return True  # house VII(3) B: until the adjudication starts (the status says so)
    effective = paused_at if paused_at is not None else now
    if effective < deadline:
        return True
    arrived = effective if received is None else min(received, effective)
    return sent is not None and min(sent, arrived) < deadline and arrived < deadline + grace


def combine_mode(rules: RuleSet, *, merge_requested: bool) -> Combine:
    """DATC 4.D.1: a (stabbeurfou 'SF a'): all sets are combined; b and c: only the latest
    set, unless it says otherwise (here: the player asked to add to the standing orders);
    d (house III(4) Alternative A: "previous order sets are disregarded"): the latest only, so
    a set asking to be added is refused rather than silently replacing the standing one."""
    choice = rules.order_sets
    if choice is Choice.A:
        return Combine.APPEND
    if choice is Choice.D:
        return Combine.REFUSE if merge_requested else Combine.REPLACE
    return Combine.BY_UNIT if merge_requested else Combine.REPLACE


def keeps_readable_orders(rules: RuleSet, *, readable: int) -> bool:
    """With unreadable lines in a set: keep its `readable` orders (and tell the player which
    lines are void) rather than refuse the whole set."""
    return rules.unreadable_orders is UnreadableOrders.VOID_LINE and readable > 0
