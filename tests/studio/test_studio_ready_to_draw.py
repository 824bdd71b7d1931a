"""The studio readies matplotlib before the first Run (``engine.ready_to_draw``, started by ``preload``): pyplot
loaded on the Agg backend, no figure left open, and a game's charts drawn after it as before."""

from __future__ import annotations

import sys

from sim import api
from sim.games import get_game
from sim.studio import engine


def open_figures() -> set[int]:
    plt = sys.modules.get("matplotlib.pyplot")
    return set(plt.get_fignums()) if plt else set()


def test_ready_to_draw_loads_pyplot_and_leaves_no_figure(tmp_path):
    before = open_figures()  # what earlier tests in this worker left open is not this test's business
    engine.ready_to_draw()
    plt = sys.modules["matplotlib.pyplot"]
    assert plt.get_backend().lower() == "agg"
    assert open_figures() == before
    r = api.play("kniffel", "greedy", n=200, seed=3)
    paths = get_game("kniffel").charts(r.tables, tmp_path, r.options, r.config)
    assert paths and all(p.is_file() and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
    assert open_figures() == before
