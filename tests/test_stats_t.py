"""Means get Student's t interval: the normal 1.96 made two runs' interval ~16x too narrow."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import t

from sim.core import stats


@pytest.mark.parametrize("df", [*range(1, 41), 50, 99, 100, 1000, 19_999, 10**6])
def test_t95_is_students_quantile(df):
    assert stats.t95(df) == pytest.approx(float(t.ppf(0.975, df)), abs=5e-8)


def test_a_mean_of_few_runs_has_the_t_interval():
    """Two runs 12 and 36 points apart of a mean 24: t with 1 degree of freedom, ±12.706 × 12 = ±152.5."""
    m = stats.paired_difference(np.array([36.0, 12.0]), np.array([0.0, 0.0]))
    assert m["value"] == 24.0 and m["ci95"] == pytest.approx([24 - 12.706204736 * 12, 24 + 12.706204736 * 12])
    x = np.random.default_rng(3).normal(5.0, 2.0, 20_000)  # thousands of runs: the normal interval, to 1e-4
    lo, hi = stats.mean(x)["ci95"]
    half = 1.959963984540054 * x.std(ddof=1) / np.sqrt(x.size)
    assert (hi - lo) / 2 == pytest.approx(half, rel=1e-4)


def test_quantiles_of_whole_numbers_are_values_a_run_had():
    """Turns and points are whole numbers: "turns, 75th percentile 21.25 turns" read as no game could end; a sample
    of whole numbers gets the smallest value with at least that share at or below it, others the interpolated one."""
    import numpy as np

    from sim.core.stats import quantiles

    turns = np.array([18, 19, 20, 21, 21, 22, 25, 30])
    q = {k: v["value"] for k, v in quantiles(turns).items()}
    assert q == {"p10": 18, "p25": 19, "p50": 21, "p75": 22, "p90": 30}
    for name, share in (("p10", 0.1), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p90", 0.9)):
        assert (turns <= q[name]).mean() >= share and (turns < q[name]).mean() < share  # the smallest such value
    lp = np.array([0.5, 1.5, 2.0, 3.25])
    assert quantiles(lp, (0.5,))["p50"]["value"] == np.quantile(lp, 0.5)  # not whole: interpolated (1.75)
