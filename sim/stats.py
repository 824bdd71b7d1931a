"""Statistics for balance questions: intervals that say how sure a number is.

Rates get Wilson score intervals, means a normal interval from the sample standard error,
paired differences the interval of the mean per-run difference (same seeds on both sides).
Every function returns plain floats so results drop straight into JSON.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial rate."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact arithmetic puts p inside; keep it there against rounding at p = 0 or 1
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def rate(mask: np.ndarray) -> dict[str, object]:
    """A share with its Wilson interval."""
    mask = np.asarray(mask, dtype=bool)
    n = int(mask.size)
    k = int(mask.sum())
    lo, hi = wilson(k, n)
    return {"value": k / n if n else float("nan"), "ci95": [lo, hi]}


def mean(x: np.ndarray) -> dict[str, object]:
    """A mean with its normal-approximation interval (standard error of the mean)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    m = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return {"value": m, "ci95": [m - Z95 * se, m + Z95 * se]}


def value(v: float) -> dict[str, object]:
    """A metric without an interval (quantiles, counts)."""
    return {"value": float(v)}


def quantiles(x: np.ndarray, qs: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9)) -> dict[str, dict[str, object]]:
    """Named quantiles ``p10, p25, …`` of a sample."""
    x = np.asarray(x, dtype=np.float64)
    return {f"p{round(q * 100):d}": value(np.quantile(x, q)) for q in qs}


def paired_difference(a: np.ndarray, b: np.ndarray) -> dict[str, object]:
    """Mean of ``a - b`` over the same runs, with its interval (common random numbers)."""
    return mean(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))


def bands(values: np.ndarray, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> np.ndarray:
    """Quantile bands per column of a 2-D array, ignoring NaN (e.g. LP per room of runs alive)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a column of only NaN (no run got there) gives NaN
        return np.nanquantile(np.asarray(values, dtype=np.float64), qs, axis=0)


def survival(last_index: np.ndarray, n_points: int) -> list[dict[str, object]]:
    """Share still alive entering each point 0..n_points-1, given the last point each run reached."""
    last_index = np.asarray(last_index)
    return [rate(last_index >= i) for i in range(n_points)]
