"""The phase machine (bot/service/phases/phase_machine.py): closing, computing, committing."""

from __future__ import annotations

from bot.core.map import load_map
from bot.core.records.jsonio import position_to_json
from bot.service import EventKind, MemoryNotifier
from bot.service.phases.compute import compute_phase
from tests.bot.service.conftest import SimpleEngine, seven_player_game


class BrokenRenderer(SimpleEngine):
    def render(self, *args, **kw):
        raise RuntimeError("no fonts")


def test_a_map_that_cannot_be_drawn_never_holds_back_the_results() -> None:
    start = position_to_json(load_map("standard").start)
    done = compute_phase(BrokenRenderer(), "standard", "datc", start, [], "en", True)
    assert done["png"] is None
    assert done["map_error"] == "RuntimeError: no fonts"
    assert done["next_phase"] == "F1901M"
    quiet = compute_phase(SimpleEngine(), "standard", "datc", start, [], "en", False)
    assert (quiet["png"], quiet["map_error"]) == (None, "")


async def test_nothing_happens_before_the_deadline_unless_forced(opener, clock) -> None:
    notes = MemoryNotifier()
    svc = await opener(notifier=notes)
    gid = await seven_player_game(svc)
    ctx = await svc.table.load_ctx(gid)
    ph = await svc.table.current_phase(gid)
    await svc.machine.adjudicate(gid, ctx, ph)
    assert (await svc.status(gid)).phase == "S1901M"
    await svc.machine.adjudicate(gid, ctx, ph, force=True)
    await svc.machine.adjudicate(gid, ctx, ph, force=True)  # once per phase row
    await svc.deliver()
    assert notes.kinds().count(EventKind.RESULTS_READY.value) == 1
    st = await svc.status(gid)
    assert (st.phase, st.phase_status, st.window) == ("F1901M", "pending", "reading")


async def test_metrics_get_the_timings_of_each_adjudication(opener, clock) -> None:
    seen: list[dict[str, float]] = []
    svc = await opener(metrics=seen.append)
    gid = await seven_player_game(svc)
    clock.set((await svc.status(gid)).deadline)
    await svc.run_due()
    assert len(seen) == 1
    assert set(seen[0]) == {"adjudicate", "render", "compute"}
    assert all(v >= 0 for v in seen[0].values())
