"""Double posts across N phases on the fake Discord, with and without Discord's nonce memory,
each phase's results hit by one fault in turn:

    hang       the table post is created but its reply never comes: the process is killed
    after      the process is killed after the posts, before the event is marked delivered
    spectator  the spectator post fails (503, which discord.py does not retry): delivery retried
    lost       the table post is created, then answered 502: discord.py posts it again

    python3 bench/delivery.py            # N=8 phases, both modes
    python3 bench/delivery.py -n 14      # the most an edc2023 game has (1901-1907)

A double post is a bot message beyond the first with the same nonce in the same channel (the
nonce is stable per event, channel and part, so this counts every repeat of one message).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.*

from bot.core.map import load_map
from bot.service import FakeClock
from tests.cogs.conftest import Table
from tests.fake_discord import FakeDiscord

SCENARIOS = ("hang", "after", "spectator", "lost")


class CrashError(Exception):
    pass


def results_in(table: Table, channel_id: int) -> int:
    return sum("Results of" in m.content for m in table.fake.state.messages_in(channel_id))


async def until_pending_done(table: Table) -> None:
    """Open the next phase if it is still in its reading window."""
    assert table.service is not None
    for _ in range(3):
        st = await table.service.status(1)  # one game per database here
        if st.deadline is not None and st.phase_status == "open":
            return
        if st.opens_at is not None:
            table.clock.set(st.opens_at)
        await table.settle()


async def one_phase(table: Table, scenario: str, done: int) -> bool:
    assert table.service is not None
    await until_pending_done(table)
    st = await table.service.status(1)
    if st.phase_status == "final":
        return False  # edc2023 ends after 1907: 14 phases at most
    assert st.deadline is not None, (st.phase, st.phase_status, st.window, st.opens_at)
    tid, sid = table.table.id, table.spectators.id
    if scenario == "after":
        crashed = asyncio.Event()

        def fault(point: str) -> None:
            posted = results_in(table, tid) > done
            if point == "deliver.before_mark" and posted and not crashed.is_set():
                crashed.set()
                raise CrashError(point)

        await table.kill()
        await table.boot(faults=fault)
        table.clock.set(st.deadline)
        with contextlib.suppress(CrashError):
            await table.settle()
        await asyncio.wait_for(crashed.wait(), 20)
        await table.kill()
        await table.boot()
    elif scenario == "hang":
        hit = table.fake.after_post(f"/channels/{tid}/messages")
        table.clock.set(st.deadline)
        task = asyncio.ensure_future(table.settle())
        await asyncio.wait_for(hit.wait(), 20)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await table.kill()
        await table.boot()
    elif scenario == "spectator":
        table.fake.server_errors(f"/channels/{sid}/messages", count=1, status=503)
        table.clock.set(st.deadline)
        await table.settle()
    else:
        table.fake.after_post(f"/channels/{tid}/messages", status=502)
        table.clock.set(st.deadline)
        await table.settle()
    for _ in range(40):  # the 5 s delivery retry, on the fake clock
        await table.settle()
        if results_in(table, tid) > done and results_in(table, sid) > done:
            break
        table.clock.advance(6)
        await asyncio.sleep(0.1)
    await table.settle()
    return True


async def run(n: int, nonce_memory: bool) -> dict[str, int]:
    async with FakeDiscord() as fake:
        fake.state.nonce_memory = nonce_memory
        guild = fake.add_guild("Parley club", ["table", "press", "spectators"])
        players = {p: fake.add_user(p.value.lower()) for p in load_map("standard").powers}
        fake.join(guild, *players.values())
        with tempfile.TemporaryDirectory() as tmp:
            table = Table(
                fake=fake,
                clock=FakeClock(),
                db=Path(tmp) / "parley.db",
                guild=guild,
                table=fake.state.channel_named("table"),
                press=fake.state.channel_named("press"),
                spectators=fake.state.channel_named("spectators"),
                gm=fake.state.owner,
                players=players,
                outsider=fake.add_user("kibitzer"),
            )
            await table.boot()
            try:
                gid = await table.create_started_game()
                assert gid == 1
                await table.command(table.gm, "spectate", {"game": gid}, channel=table.spectators)
                await table.settle()
                played = 0
                while played < n and await one_phase(table, SCENARIOS[played % 4], played):
                    played += 1
            finally:
                await table.shutdown()
        state = fake.state
        return {
            "phases": played,
            "double_posts": state.double_posts(),
            "table_results": results_in(table, table.table.id),
            "spectator_results": results_in(table, table.spectators.id),
            "deduplicated_by_discord": state.deduplicated,
            "deleted_repeats": len(state.deleted),
        }


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=8, help="phases (default 8)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    for memory in (True, False):
        t0 = time.perf_counter()
        figures = await run(args.n, memory)
        took = time.perf_counter() - t0
        shown = " ".join(f"{k}={v}" for k, v in figures.items())
        print(f"nonce_memory={memory!s:5} {shown} ({took:.1f} s)")


if __name__ == "__main__":
    asyncio.run(main())
