"""When an order set is in time (issue 19): by the time its Discord message was created.

At a tournament deadline hundreds of orders arrive together and some, sent before the
deadline, are read after it. So lateness is judged by when the player sent the set (the
message's own time, never later than its reading: a time from the future is not trusted;
bot.core.submission.accepts_orders), and a phase closes `grace` seconds after its deadline
so that what was sent in time and is still being read gets in. The public deadline (what
players are told, reminders, the next phase's times) is unchanged.
"""

from __future__ import annotations

# Seconds a phase waits after its deadline for sets sent before it (`parley run --grace`).
# bench/round.py, 60 tables: the latest set sent in time was read ~1 s after the deadline.
GRACE = 2.0


def sent_time(created_at: float | None, received: float) -> float:
    """When a set was sent: its message's creation time, clamped to its reading."""
    return received if created_at is None else min(created_at, received)
