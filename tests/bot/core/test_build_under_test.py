"""Which build these tests ran on. tests/run.sh runs the game core's and CLI's tests twice: on
the checkout (pure Python, the editable install) and on the compiled wheel installed in a venv,
and says which in PARLEY_TEST_BUILD; a run on the wrong one would pass without testing it."""

from __future__ import annotations

import os
from pathlib import Path

import bot.core.adjudicator.movement as movement
import bot.core.model as model

CHECKOUT = Path(__file__).resolve().parents[3]


def test_the_build_is_the_one_run_sh_asked_for() -> None:
    compiled = not model.__file__.endswith(".py")
    assert compiled == model.NATIVE
    # The batch path is compiled together or not at all (setup.py's AllOrNothing).
    assert movement.__file__.endswith(".py") != compiled
    want = os.environ.get("PARLEY_TEST_BUILD")
    if want == "compiled":  # the installed wheel's, not the checkout's
        assert compiled, model.__file__
        assert not Path(model.__file__).is_relative_to(CHECKOUT), model.__file__
    elif want == "pure":
        assert not compiled, (
            f"{model.__file__} is compiled: `python3 tools/build_native.py clean` removes the"
            " checkout's compiled modules (the compiled build is tested from its wheel)"
        )
        assert Path(model.__file__).is_relative_to(CHECKOUT), model.__file__
    else:
        assert want is None, want
