"""`parley adjudicate --jsonl` over many lines (issue 18): the engine's caches (orders completed
with the board, positions, the output's fragments) change no byte of any answer."""

from __future__ import annotations

import gc
import gzip
import io
import json
import random
import weakref

from bench.batch import phases
from bot.cli.adjudicate import make_engine
from bot.cli.adjudicate_engine import Engine, run_jsonl
from bot.core.map import load_map
from bot.core.presets import load_rules
from tests.shared import CORPUS

DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _fresh() -> Engine:
    return Engine(load_rules("datc"), load_map("standard"))


def _lines() -> list[str]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        corpus = [line.strip() for line in fh]
    random_boards, _ = phases(150, 28, 18)
    return corpus + random_boards


def test_a_long_run_answers_each_line_as_a_fresh_engine_does() -> None:
    lines = _lines()
    out = io.StringIO()
    assert run_jsonl(make_engine("datc"), lines, out) == 0
    answers = out.getvalue().splitlines()
    assert len(answers) == len(lines)
    rng = random.Random(18)
    checked = rng.sample(range(len(lines)), 400) + list(range(len(lines) - 150, len(lines)))
    for i in checked:  # a fresh engine has nothing cached; its document goes to the encoder
        assert answers[i] == DUMPS(_fresh().run_line(lines[i])), f"line {i + 1}"


def _phase(units: dict[str, list[str]], orders: dict[str, list[str]]) -> str:
    position = {"phase": "S1901M", "units": units, "centers": {}}
    return json.dumps({"position": position, "orders": orders})


def test_an_order_given_twice_is_used_once_after_it_was_cached() -> None:
    units = {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}
    once = _phase(units, {"FRANCE": ["A PAR - BUR"]})
    twice = _phase(units, {"FRANCE": ["A PAR - BUR", "A PAR - BUR"]})
    out = io.StringIO()
    run_jsonl(make_engine("datc"), [once, twice, twice], out)
    first, second, third = (json.loads(line) for line in out.getvalue().splitlines())
    assert [r["outcome"] for r in first["results"]] == ["succeeds", "succeeds"]  # + the hold
    # the second copy is not the order used (DATC 4.D.3), in every phase that repeats it
    for doc in (second, third):
        got = [(r["order"], r["outcome"], r.get("detail")) for r in doc["results"][:2]]
        assert got[0] == ("A PAR - BUR", "succeeds", None)
        assert got[1][:2] == ("A PAR - BUR", "fails")
    assert second == third == json.loads(DUMPS(_fresh().run_line(twice)))


def test_a_cached_order_is_completed_again_when_the_board_changes() -> None:
    # "F SPA - MAO": the fleet's coast comes from the board, so the cached order must not be
    # reused when another fleet stands there; "A PAR S BRE" takes the supported unit's type.
    a = _phase(
        {"FRANCE": ["F SPA/NC", "A PAR", "A BRE"]}, {"FRANCE": ["F SPA - MAO", "A PAR S BRE"]}
    )
    b = _phase(
        {"FRANCE": ["F SPA/SC", "A PAR", "F BRE"]}, {"FRANCE": ["F SPA - MAO", "A PAR S BRE"]}
    )
    out = io.StringIO()
    run_jsonl(make_engine("datc"), [a, b, a], out)
    docs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert docs[0]["results"][0]["order"] == "F SPA/NC - MAO"
    assert docs[1]["results"][0]["order"] == "F SPA/SC - MAO"
    assert docs[2] == docs[0]
    assert docs[1]["results"][1]["order"] == "A PAR S F BRE"


class _CyclingEngine(Engine):
    """An engine whose every line leaves a reference cycle behind (as an exception's
    traceback can), each watched by a weak reference."""

    def __init__(self) -> None:
        super().__init__(load_rules("datc"), load_map("standard"))
        self.watched: list[weakref.ref[_Node]] = []

    def line_text(self, line: str) -> tuple[str, bool]:
        node = _Node()
        node.me = node
        self.watched.append(weakref.ref(node))
        return super().line_text(line)


class _Node:
    me: object = None


def test_a_run_frees_the_cycles_its_lines_leave_and_gives_the_collector_back() -> None:
    lines = phases(1100, 20, 7)[0]  # past one collection between lines
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        engine = _CyclingEngine()
        try:
            run_jsonl(engine, lines, io.StringIO())
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
        # freed by the run itself: nothing collects between its return and this line
        assert [r for r in engine.watched if r() is not None] == []
