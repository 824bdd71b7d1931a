"""The studio readies matplotlib before the first Run (``engine.ready_to_draw``, started by ``preload``): pyplot
loaded on the Agg backend, no figure left open, and a game's charts drawn after it as before."""

from __future__ import annotations

import sys

from sim import api
from sim.games import get_game
from sim.studio import engine


def test_ready_to_draw_loads_pyplot_and_leaves_no_figure(tmp_path):
    engine.ready_to_draw()
    plt = sys.modules["matplotlib.pyplot"]
    assert plt.get_backend().lower() == "agg"
    assert plt.get_fignums() == []
    r = api.play("pig", "hold-20", n=200, seed=3)
    paths = get_game("pig").charts(r.tables, tmp_path, r.options, r.config)
    assert paths and all(p.is_file() and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
    assert plt.get_fignums() == []
