"""The contract every registered game keeps with the engine (``sim.games.available()``), checked the same way for
all of them: chunk and thread invariance, replay = the batch row, metrics JSON-able with intervals, charts
written, Dask = local, the declared columns/events/options/capabilities, and the golden hashes.

Game-specific behaviour stays in ``tests/games/``. Small N throughout: the file runs in well under a minute warm.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.games import available, get_game
from sim.games.base import CAPABILITIES
from tests.conftest import ROOT, cli_here
from tests.golden.cases import TABLE_CASES, hash_path, play_hash, table_hash

GAMES = available()


@dataclass(frozen=True)
class Case:
    """What the contract plays of a game: seats that exercise its options (two seats where it has them)."""

    policy: str
    options: dict[str, Any] = field(default_factory=dict)
    n: int = 400


CASES = {
    "kniffel": Case("optimal,greedy", {"players": 2}, 300),
    "dadox": Case("optimal-turn,threshold", {"players": 2}, 300),
    "dungeon24": Case("greedy", {"opponent": "random", "people": "dunkelelfen"}, 1000),
    "dungeon": Case("vorschlag", {"difficulty": "leicht"}, 200),
}


def case_of(name: str) -> Case:
    g = get_game(name)
    return CASES.get(name, Case(g.report_policies[-1]))


def setup(name: str):
    g = get_game(name)
    c = case_of(name)
    opts = g.check_options(dict(c.options))
    return g, g.load(), g.seat_policies(c.policy, opts), opts, c


def batch(name: str, chunk: int | None = None, backend=None) -> pd.DataFrame:
    g, cfg, seats, opts, c = setup(name)
    return run_batch(g, cfg, seats, c.n, 3, opts, chunk=chunk or g.chunk, backend=backend, progress=False).table


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    return {name: batch(name) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_chunking_does_not_change_the_table(name, tables):
    pd.testing.assert_frame_equal(tables[name], batch(name, chunk=case_of(name).n // 3 + 7))


_THREADS = """
import json, sys
from tests.test_game_api import GAMES, batch
from tests.golden.cases import table_hash
print(json.dumps({name: table_hash(batch(name)) for name in GAMES}))
"""


@pytest.fixture(scope="module")
def two_thread_hashes() -> dict[str, str]:
    """Every game's table hash played with two numba threads in a fresh process."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    r = subprocess.run([sys.executable, "-c", _THREADS], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", GAMES)
def test_thread_count_does_not_change_the_table(name, tables, two_thread_hashes):
    import numba

    numba.set_num_threads(1)
    assert table_hash(batch(name)) == table_hash(tables[name]) == two_thread_hashes[name]


@pytest.mark.parametrize("name", GAMES)
def test_declared_columns_are_the_table(name, tables):
    g, cfg, _, opts, _ = setup(name)
    cols = g.table_columns(cfg, opts)
    assert cols, f"{name} declares no columns"
    t = tables[name]
    assert list(t.columns) == [c.name for c in cols]
    for c in cols:
        if c.dtype == "str":
            assert pd.api.types.is_string_dtype(t[c.name]), c.name
        else:
            assert str(t[c.name].dtype) == c.dtype, c.name
        assert c.doc, f"{c.name} has no doc"


@pytest.mark.parametrize("name", GAMES)
def test_replay_is_the_batch_row(name, tables):
    """The replay's own account of its run (the table rows it produced) equals that run's rows in the batch."""
    from sim.core.events import replay, replay_json

    g, cfg, seats, opts, c = setup(name)
    g.prepare(cfg, seats, opts)
    t = tables[name]
    for run in (0, c.n // 2, c.n - 1):
        js = replay_json(g, cfg, seats, 3, run, opts)
        json.dumps(js)  # JSON-ready as printed by ``replay --json``
        assert js["run"] == run and js["text"].strip() and js["text"] == g.replay(cfg, seats, 3, run, opts)
        rep = replay(g, cfg, seats, 3, run, opts)
        assert rep.table_rows and rep.logged == sum(len(s["events"]) for s in rep.sections) > 0
        assert not rep.truncated
        for row in rep.table_rows:
            sel = t[(t["run"] == run) & ((t["seat"] == row["seat"]) if "seat" in row else True)]
            assert len(sel) == 1
            for k, v in row.items():
                assert sel[k].iloc[0] == v, (run, k)


@pytest.mark.parametrize("name", GAMES)
def test_truncation_is_reported_by_the_engine(name):
    """A log that filled its room is reported, in the text and the JSON, the same way for every game."""
    from sim.core import events

    g, cfg, seats, opts, _ = setup(name)
    assert g.events is not None, f"{name} declares no event log"
    g.prepare(cfg, seats, opts)
    log = g.replay_log(cfg, seats, 3, 0, opts)
    for s in log.sections:
        s.limit = len(s.rows)  # as if the kernel had had room for exactly these rows
    rep = events.decode(g, log, 3, 0, seats)
    assert rep.truncated and rep.to_json()["truncated"] is True
    text = events.with_truncation(g.render_replay(rep, cfg, opts), rep)
    assert text.endswith(f"(log truncated after {rep.logged} events)")


@pytest.mark.parametrize("name", GAMES)
def test_metrics_are_json_with_intervals(name, tables):
    g, cfg, _, opts, _ = setup(name)
    m = g.metrics(tables[name], opts, cfg)
    assert m and json.loads(json.dumps(m, default=float))
    with_ci = 0
    for key, v in m.items():
        assert isinstance(v["value"], int | float | np.integer | np.floating), key
        if "ci95" in v:
            lo, hi = v["ci95"]
            with_ci += 1
            if all(math.isfinite(x) for x in (lo, hi, v["value"])):
                assert lo <= v["value"] + 1e-9 and v["value"] <= hi + 1e-9, key
    assert with_ci > 0
    for h in g.headline:
        if h in m:
            assert "ci95" in m[h], f"headline {h} without an interval"


@pytest.mark.parametrize("name", GAMES)
def test_charts_are_written(name, tables, tmp_path):
    g, cfg, _, opts, c = setup(name)
    paths = g.charts({c.policy: tables[name]}, tmp_path, opts, cfg)
    assert paths
    for p in paths:
        data = open(p, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000, p


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None) as c:
        yield c


@pytest.mark.parametrize("name", GAMES)
def test_dask_equals_local(name, tables, cluster):
    from sim.core.backends import DaskBackend

    backend = DaskBackend(cluster.scheduler_address)
    try:
        remote = batch(name, chunk=case_of(name).n // 2 + 1, backend=backend)
    finally:
        backend.close()
    pd.testing.assert_frame_equal(tables[name], remote)


@pytest.mark.parametrize("name", GAMES)
def test_options_and_capabilities_are_declared(name):
    from sim.cli.common import game_options
    from sim.games import declared_options

    g = get_game(name)
    defaults = g.check_options({})
    assert defaults == {o.name: o.default for o in g.option_specs} == g.options
    flags = game_options()
    light = declared_options(name)  # what the command line reads without importing the game
    assert [(o.name, o.default) for o in light] == [(o.name, o.default) for o in g.option_specs]
    for o in g.option_specs:
        assert o.name in flags and o.help
        for choice in o.choices:
            assert g.check_options({o.name: choice})[o.name] == choice
    assert g.capabilities <= CAPABILITIES
    for cap in CAPABILITIES:
        assert g.supports(cap) == (cap in g.capabilities)


@pytest.mark.parametrize("name", GAMES)
def test_golden_hash_of_the_first_case(name):
    cases = [c for c in TABLE_CASES if c.game == name]
    assert cases, f"{name} has no golden table cases (tests/golden/cases.py)"
    stored = json.loads(hash_path(name).read_text())
    assert set(c.id for c in cases) <= set(stored)
    assert play_hash(cases[0]) == stored[cases[0].id]


def test_replay_json_on_the_command_line():
    res = cli_here("replay", "dadox", "--seed", "2", "--run", "1", "--policy", "threshold", "--json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    evs = d["sections"][0]["events"]
    assert d["game"] == "dadox" and evs and {"event", "turn", "seat", "dice", "score"} <= set(evs[0])
    assert d["truncated"] is False and d["events"] == len(evs)
    assert d["text"].splitlines()[-1].startswith("After ")
