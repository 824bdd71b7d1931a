"""What the input limits accept (``sim.core.limits``): whole numbers as people type them, every seed below 2^64 with
its own exact streams, lazily made jobs; the refusals themselves are in ``test_hostile_inputs.py``."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core import limits
from sim.core.config import DicesimError

M64 = 2**64 - 1


@pytest.mark.parametrize("text, value", [("20000", 20000), ("20_000", 20000), ("2e4", 20000), ("2E4", 20000),
                                         ("1.5e6", 1_500_000), ("1e0", 1), (" 7 ", 7), ("10.0", 10), (300, 300),
                                         ("1e10", 10**10), ("123456789012345678901", 123456789012345678901),
                                         ("+10", 10), ("+2e4", 20000), ("1e-0", 1), ("10e-1", 1),
                                         ("2.5e-0", None)])
def test_counts_as_typed(text, value):
    """``1e-0`` is 1 as ``1e+0`` is (a minus in the exponent was refused as no number); ``2.5e-0`` a fraction."""
    if value is None:
        with pytest.raises(DicesimError, match="--n must be a whole number, got '2.5e-0'"):
            limits.parse_count(text)
    else:
        assert limits.parse_count(text) == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "2.25e1", "-5", "x", "", "1e", "e5", "1__0_", "nan", "inf", "0x10",
                                  "++1", "+-1", "+"])
def test_counts_that_are_no_whole_numbers(text):
    with pytest.raises(DicesimError, match="--n"):
        limits.parse_count(text)


def test_run_limits_name_force():
    limits.check_n(limits.MAX_RUNS)
    with pytest.raises(DicesimError, match="--force"):
        limits.check_n(limits.MAX_RUNS + 1)
    assert limits.check_n(limits.MAX_RUNS + 1, force=True) == limits.MAX_RUNS + 1
    with pytest.raises(DicesimError, match="2\\^53"):
        limits.check_n(limits.HARD_MAX_RUNS + 1, force=True)


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**63 - 1])
def test_seeds_below_2_63_reach_the_kernels_unchanged(seed):
    assert limits.kernel_seed(seed) == seed


def _splitmix_key(seed: int, run: int, a: int = 0, b: int = 0) -> int:
    """``sim.core.rng.stream_key`` in plain Python integers mod 2^64: the reference for any uint64 seed."""
    g, m1, m2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * m1) & M64
        z = ((z ^ (z >> 27)) * m2) & M64
        return z ^ (z >> 31)

    h = mix((seed + g) & M64)
    h = mix(h ^ ((run * m1 + g) & M64))
    h = mix(h ^ ((a * m2 + g) & M64))
    return mix(h ^ ((b * g + m1) & M64))


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 2**63, 2**63 + 12345, M64])
def test_every_seed_below_2_64_gets_its_exact_streams(seed):
    """The kernels hash ``uint64(seed)``: the int64 that ``kernel_seed`` hands over carries the same 64 bits, so a
    seed from 2^63 on is that seed exactly (not a wrapped or clipped one)."""
    from numba import njit

    from sim.core.rng import stream_key

    key = njit(lambda s, r, a, b: stream_key(s, r, a, b))
    ks = limits.kernel_seed(seed)
    assert -(2**63) <= ks < 2**63  # an int64: the kernels' one signature
    for run, a, b in ((0, 0, 0), (7, 3, 2)):
        assert int(key(np.int64(ks), np.int64(run), np.int64(a), np.int64(b))) == _splitmix_key(seed, run, a, b)
    assert limits.check_seed(seed) == seed


def test_jobs_are_made_lazily(monkeypatch):
    """``play --n 1e12 --force`` made about 15 million job objects before the first chunk; now the backend takes
    them one at a time."""
    from sim.core import batch
    from sim.games import get_game

    g = get_game("kniffel")
    monkeypatch.setattr(type(g), "prepare", lambda *a, **k: None)
    seen = []

    class Stop(Exception):
        pass

    class FirstTwo:
        def run(self, game, jobs):
            assert not isinstance(jobs, list | tuple)
            for job in jobs:
                seen.append((job.start, job.count))
                if len(seen) == 2:
                    raise Stop
                yield job, {}

    with pytest.raises(Stop):
        batch.run_batch(g, g.load(), ["greedy"], 10**12, 1, {}, chunk=65_536, backend=FirstTwo(), progress=False)
    assert seen == [(0, 65_536), (65_536, 65_536)]


def test_files_take_every_seed_below_2_64():
    from sim.experiments.sweep_spec import sweep_from_dict

    s = sweep_from_dict({"game": "kniffel", "policies": ["greedy"], "n": 100, "seed": M64,
                         "grid": {"bonus.value": [25, 35]}})
    assert s.spec.seed == M64 and len(s.points) == 2


def test_a_big_grid_passes_with_force():
    """Above the point limit only with ``force`` (checked before the points are built)."""
    from sim.experiments.sweep_spec import sweep_from_dict

    grid = {"bonus.value": list(range(101)), "bonus.threshold": list(range(1, 102))}
    spec = {"game": "kniffel", "policies": ["greedy"], "n": 10, "grid": grid}
    with pytest.raises(DicesimError, match="10,201 points"):
        sweep_from_dict(spec)
    assert len(sweep_from_dict(spec, force=True).points) == 101 * 101


def test_a_table_beyond_the_free_memory_is_refused_with_the_runs_that_fit():
    """``--n 100000000`` of the Würfel Dungeon (1,160 bytes a run) is a table of ~116 GB: refused in words, with the
    most runs that fit, not a machine swapping for hours and a process killed at the end."""
    with pytest.raises(DicesimError) as e:
        limits.check_table_memory(10**8, 1160, 16 * 2**30)
    most = int(16 * 2**30 / (3 * 1160))
    assert str(e.value) == (f"--n 100,000,000 runs need about 324.1 GB of memory (1,160 bytes a run, 3 times over "
                            f"while the table is built), more than is free here (16.0 GB): play at most about "
                            f"{most:,} runs")
    limits.check_table_memory(most, 1160, 16 * 2**30)  # the runs it names fit
    limits.check_table_memory(10**8, 1160, None)  # free memory unknown: not refused
    assert limits.free_memory() is None or limits.free_memory() > 0


def test_a_play_whose_table_would_not_fit_stops_after_its_first_chunk(tmp_path, monkeypatch):
    """The first chunk tells a run's bytes; the rest is not played and nothing is written."""
    import re

    from tests.conftest import cli_here

    monkeypatch.setattr(limits, "free_memory", lambda: 8 * 2**20)  # 8 MB free
    out = cli_here("play", "kniffel", "--policy", "greedy", "--n", "200000", "--chunk", "1000", "--out",
                   str(tmp_path / "o"))
    assert out.returncode == 2, out.stderr
    said = re.fullmatch(r"error: --n 200,000 runs need about [\d.]+ MB of memory \(([\d,]+) bytes a run, 3 times "
                        r"over while the table is built\), more than is free here \(8\.0 MB\): play at most about "
                        r"([\d,]+) runs", out.stderr.strip().splitlines()[-1])
    assert said, out.stderr
    row, most = (int(x.replace(",", "")) for x in said.groups())
    assert 3 * row * most <= 8 * 2**20 < 3 * row * 200_000
    assert not (tmp_path / "o").exists()
    monkeypatch.setattr(limits, "free_memory", lambda: 10 * 2**30)
    assert cli_here("play", "kniffel", "--policy", "greedy", "--n", "2000", "--no-report").returncode == 0


def test_a_targets_files_runs_are_named_as_its_field(tmp_path, monkeypatch):
    """A targets file's ``n`` whose table would not fit was refused as ``--n``, which the command was not given."""
    from tests.conftest import cli_here

    monkeypatch.setattr(limits, "free_memory", lambda: 4 * 2**20)
    (tmp_path / "t.toml").write_text('game = "kniffel"\nn = 200000\n[[target]]\nname = "greedy"\npolicy = "greedy"\n'
                                     'metric = "mean_score"\nmin = 200\nmax = 215\n')
    done = cli_here("check", str(tmp_path / "t.toml"))
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].startswith(
        "error: target 1 ("), done.stderr
    assert ": n = 200,000 runs need about " in done.stderr and "--n" not in done.stderr
