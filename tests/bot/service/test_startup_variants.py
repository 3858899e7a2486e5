"""The start-up data check loads the bundled variants and each game's own variant, not just the
standard map: a game whose variant file is gone or broken is stopped alone (its GM told),
forming games included."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from bot.core.map import GameMap, bundled_maps, load_map
from bot.service import CorruptGameError, MemoryNotifier
from bot.service.engine import CoreEngine
from tests.variants import TRI_PATH


class CountingEngine(CoreEngine):
    """The real core, remembering which maps were asked for."""

    def __init__(self) -> None:
        self.maps: list[str] = []

    def load_map(self, name: str) -> GameMap:
        self.maps.append(name)
        return super().load_map(name)


def own_tri(folder: Path) -> Path:
    """A copy of the tri variant (with its names and geometry) the test may break."""
    for suffix in ("", "_names", "_geometry"):
        shutil.copy(TRI_PATH.with_name(f"tri{suffix}.json"), folder / f"tri{suffix}.json")
    return folder / "tri.json"


async def test_start_up_checks_the_games_variants_and_not_the_standard_map(
    opener, tmp_path: Path
) -> None:
    svc = await opener(engine=CoreEngine())
    game = await svc.create_game("gm", variant=str(own_tri(tmp_path)))
    await svc.close()
    engine = CountingEngine()
    await opener(engine=engine)
    # The bundled variants (what /game create offers) and the game's own file, nothing else.
    assert set(engine.maps) == {*bundled_maps(), str(tmp_path / "tri.json")}, engine.maps
    assert "sandard" in engine.maps
    assert game.id == 1


@pytest.mark.parametrize("damage", ["delete", "garble"])
async def test_a_game_whose_variant_is_broken_is_stopped_alone(
    opener, tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await opener(engine=CoreEngine())
    path = own_tri(tmp_path)
    forming = await svc.create_game("gm-a", variant=str(path))
    active = await svc.create_game("gm-b", variant=str(path))
    for user in ("u1", "u2", "u3"):
        await svc.join(active.id, user)
    await svc.start_game(active.id, "gm-b")
    other = await svc.create_game("gm-c", variant="sandard")
    await svc.close()
    if damage == "delete":
        path.unlink()
    else:
        path.write_text('{"powers": [', encoding="utf-8")
    load_map.cache_clear()  # a restart is a new process: nothing of the old file is cached
    notes = MemoryNotifier()
    with caplog.at_level(logging.ERROR):
        svc2 = await opener(engine=CoreEngine(), notifier=notes)
    for gid in (forming.id, active.id):
        assert any(f"game {gid} is stopped" in r.getMessage() for r in caplog.records)
        st = await svc2.status(gid)
        assert st.broken
        assert "tri.json" in st.broken, st.broken
        with pytest.raises(CorruptGameError):
            await svc2.join(gid, "u9")
    await svc2.deliver()
    told = sorted(e.game_id for e in notes.events if e.kind.value == "game_broken")
    assert told == [forming.id, active.id]
    # The Sandard game runs on.
    assert not (await svc2.status(other.id)).broken
    await svc2.join(other.id, "u1")
