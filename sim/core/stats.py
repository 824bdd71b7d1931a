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
# Student's t quantile for a 95 % interval with 1 .. 30 degrees of freedom (scipy.stats.t.ppf(0.975, df), checked in
# tests/test_stats_t.py); beyond, the Cornish-Fisher expansion below agrees to 3e-8. Not scipy at run time: importing
# scipy.stats costs a command ~0.3 s.
_T95 = (12.706204736, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252, 2.306004135,
        2.262157163, 2.228138852, 2.20098516, 2.17881283, 2.160368656, 2.144786688, 2.131449546, 2.119905299,
        2.109815578, 2.10092204, 2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.06865761, 2.063898562,
        2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456)


def t95(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom: a mean's 95 % interval from ``df + 1``
    values (the normal 1.96 made an interval of two runs ~16x too narrow: +24.0 points [+12.2, +35.8])."""
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4))


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


def mean(x: np.ndarray, most: float | None = None) -> dict[str, object]:
    """A mean with its t interval (standard error of the mean, ``_mean``). A mean of values none of which
    is negative (a count, points, LP) cannot be negative: its interval is clipped at 0, so a rare count (last chances
    used) never shows a negative lower bound; ``most``: the largest value a run can have (the rooms of a dungeon),
    where the interval ends too (rooms cleared read 7.0 [1.1, 12.9] of 10 rooms in two runs)."""
    x = np.asarray(x, dtype=np.float64)
    m = _floored(_mean(x), x)
    if most is not None and x.size and not (x > most).any():
        lo, hi = m["ci95"]  # type: ignore[misc]
        m["ci95"] = [lo, min(float(most), hi) if math.isfinite(hi) else hi]
    return m


def _mean(x: np.ndarray) -> dict[str, object]:
    """A mean with Student's t interval (the values' own spread; at thousands of runs the normal one)."""
    n = x.size
    m = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    q = t95(n - 1) if n > 1 else Z95
    return {"value": m, "ci95": [m - q * se, m + q * se]}


def _floored(m: dict[str, object], *samples: np.ndarray) -> dict[str, object]:
    """``m`` with its lower bound raised to 0 when every sample is non-negative."""
    if all(s.size and not (s < 0).any() for s in samples):
        lo, hi = m["ci95"]  # type: ignore[misc]
        m["ci95"] = [max(0.0, lo) if math.isfinite(lo) else lo, hi]
    return m


def score_mean(x: np.ndarray) -> dict[str, object]:
    """The mean of scores in [0, 1] (a game's result: win 1, draw 1/2, loss 0, or a mean of such) with an interval
    inside [0, 1]: the t interval of the mean (``_mean``), ended at 0 and 1; where every score is the same (few
    games, or a one-sided cell) that interval has no width, and Wilson's interval of the scores' sum over the games
    takes its place (a score in [0, 1] varies no more than a win or loss, so it is the wider, safe one)."""
    x = np.asarray(x, dtype=np.float64)
    m = _mean(x)
    n = x.size
    lo, hi = m["ci95"]  # type: ignore[misc]
    if n and (not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo == 0):
        lo, hi = wilson(float(x.sum()), n)
    return {"value": m["value"], "ci95": [max(0.0, lo), min(1.0, hi)]}


def share(successes: float, n: float) -> dict[str, object]:
    """A share from counts (``successes`` of ``n`` trials, e.g. busts of throws) with its Wilson interval."""
    lo, hi = wilson(successes, int(n))
    return {"value": float(successes / n) if n else float("nan"), "ci95": [lo, hi]}


def game_shares(run: np.ndarray, policy: np.ndarray, won: np.ndarray) -> dict[str, dict[str, object]]:
    """Each policy's share of the games (runs) one of its seats won, with its Wilson interval over the games: a
    policy on several seats of a table wins a game when any of them does (its per-seat rate times its seats is
    the same share, but its interval is not: the seats of one game are not independent trials)."""
    run, policy, won = np.asarray(run), np.asarray(policy), np.asarray(won, dtype=bool)
    games = len(np.unique(run))
    return {str(p): share(len(np.unique(run[(policy == p) & won])), games) for p in sorted(set(policy.tolist()))}


def ratio(y: np.ndarray, x: np.ndarray) -> dict[str, object]:
    """Σy / Σx over runs (e.g. points per turn) with a linearised (delta-method) interval: runs are the
    independent units, so the per-run residuals ``y - r x`` carry the sampling error."""
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0 or x.sum() == 0:
        return {"value": float("nan"), "ci95": [float("nan"), float("nan")]}
    r = y.sum() / x.sum()
    se = float(np.sqrt(((y - r * x) ** 2).sum() / max(1, n * (n - 1))) / x.mean()) if n > 1 else float("nan")
    return _floored({"value": float(r), "ci95": [float(r - Z95 * se), float(r + Z95 * se)]}, y, x)


def interval(value: float, se: float) -> dict[str, object]:
    """A normal 95 % interval around ``value`` from its standard error."""
    return {"value": float(value), "ci95": [float(value - Z95 * se), float(value + Z95 * se)]}


def shifted(m: dict[str, object], by: float) -> dict[str, object]:
    """A metric and its interval moved by a constant (e.g. a win rate minus the fair share)."""
    lo, hi = m["ci95"]  # type: ignore[misc]
    return {"value": float(m["value"]) - by, "ci95": [lo - by, hi - by]}  # type: ignore[arg-type]


def error_bars(metrics: Sequence[dict[str, object]]) -> np.ndarray:
    """``[2, k]`` distances below and above each value to its interval ends, for matplotlib's ``yerr``."""
    v = np.array([float(m["value"]) for m in metrics])  # type: ignore[arg-type]
    lo = np.array([float(m["ci95"][0]) for m in metrics])  # type: ignore[index]
    hi = np.array([float(m["ci95"][1]) for m in metrics])  # type: ignore[index]
    return np.vstack([np.maximum(0.0, v - lo), np.maximum(0.0, hi - v)])


def value(v: float) -> dict[str, object]:
    """A metric without an interval (quantiles, counts)."""
    return {"value": float(v)}


def quantiles(x: np.ndarray, qs: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9)) -> dict[str, dict[str, object]]:
    """Named quantiles ``p10, p25, …`` of a sample. A sample of whole numbers (turns, points, rooms) gets the
    smallest value with at least that share of the runs at or below it (a value a run had: "75 % of the games end
    within 21 turns", not an interpolated 21.25); other samples the interpolated quantile."""
    x = np.asarray(x, dtype=np.float64)
    whole = x.size > 0 and bool(np.all(np.isfinite(x))) and bool(np.all(x == np.round(x)))
    method = "inverted_cdf" if whole else "linear"
    return {f"p{round(q * 100):d}": value(np.quantile(x, q, method=method)) for q in qs}


def paired_difference(a: np.ndarray, b: np.ndarray) -> dict[str, object]:
    """Mean of ``a - b`` over the same runs, with its interval (common random numbers; never clipped at 0: a
    difference may be negative). Two 0/1 indicators (wins, a bonus reached) are a difference of paired rates: its
    interval is Newcombe's (``paired_rates``), which stays within ±1 and keeps a width when few runs agree (the normal
    interval of the mean read −112 pp at 30 runs and [−100, −100] at 2); other values get the t interval of the mean
    (``_mean``)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.size and a.shape == b.shape and _indicator(a) and _indicator(b) and not np.array_equal(a, b):
        return paired_rates(a > 0, b > 0)
    return _mean(a - b)  # the same outcome in every run (an upgrade owned already, one that does nothing): [0, 0]


def deal_difference(win_a: np.ndarray, deal_a: np.ndarray, win_b: np.ndarray, deal_b: np.ndarray) -> dict[str, object]:
    """Two policies' win rates per seat on seat-rotated deals (a deal: the games that share its dice, each policy in
    every seat once), A's minus B's, with its interval. The value is the difference of the two rates over every game,
    as the shares say it (a deal the batch ended early counts its games, not a whole deal). The interval treats the
    deals as the independent units (a cluster-robust Wald interval) with one deal won wholly by each side added to
    its spread (Agresti and Caffo's adjustment): a few deals that all split 1 : 1 no longer read [0, 0], and it stays
    within ±100 pp."""
    ua, ia = np.unique(np.asarray(deal_a), return_inverse=True)
    ub, ib = np.unique(np.asarray(deal_b), return_inverse=True)
    deals = np.union1d(ua, ub)
    ia, ib = np.searchsorted(deals, ua)[ia], np.searchsorted(deals, ub)[ib]
    d = len(deals)
    sa = np.bincount(ia, weights=np.asarray(win_a, dtype=np.float64), minlength=d)
    sb = np.bincount(ib, weights=np.asarray(win_b, dtype=np.float64), minlength=d)
    na, nb = np.bincount(ia, minlength=d).astype(float), np.bincount(ib, minlength=d).astype(float)
    if not d or not na.sum() or not nb.sum():
        return {"value": float("nan"), "ci95": [float("nan"), float("nan")]}
    value = float(sa.sum() / na.sum() - sb.sum() / nb.sum())
    ma, mb = na.mean(), nb.mean()  # the added deals: one won by A in every seat, one by B
    sa, na = np.append(sa, [ma, 0.0]), np.append(na, [ma, ma])
    sb, nb = np.append(sb, [0.0, mb]), np.append(nb, [mb, mb])
    z = (sa - sa.sum() / na.sum() * na) / na.sum() - (sb - sb.sum() / nb.sum() * nb) / nb.sum()
    se = math.sqrt(len(z) / (len(z) - 1) * float((z**2).sum()))
    return {"value": value, "ci95": [max(-1.0, value - Z95 * se), min(1.0, value + Z95 * se)]}


def _indicator(x: np.ndarray) -> bool:
    return bool(((x == 0.0) | (x == 1.0)).all())


def paired_rates(a: np.ndarray, b: np.ndarray) -> dict[str, object]:
    """The difference of two rates measured on the same runs (``a``, ``b``: True where each happened), with
    Newcombe's hybrid score interval for paired proportions (Statistics in Medicine 17, 1998, pp. 2635-2650, method
    10): the Wilson intervals of both rates, combined with the correlation of the pairs."""
    n = int(a.size)
    both, only_a, only_b = int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum())
    neither = n - both - only_a - only_b
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    (l1, u1), (l2, u2) = wilson(both + only_a, n), wilson(both + only_b, n)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    agree = both * neither - only_a * only_b  # the pairs' correlation, corrected for continuity as Newcombe's:
    agree = agree - n / 2 if agree > n / 2 else min(agree, 0)  # pairs that all agree keep an interval's width
    phi = agree / math.sqrt(margins) if margins else 0.0
    d = p1 - p2
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return {"value": d, "ci95": [max(-1.0, d - below), min(1.0, d + above)]}


def bands(values: np.ndarray, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> np.ndarray:
    """Quantile bands per column of a 2-D array, ignoring NaN (e.g. LP per room of runs alive)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a column of only NaN (no run got there) gives NaN
        return np.nanquantile(np.asarray(values, dtype=np.float64), qs, axis=0)


def survival(last_index: np.ndarray, n_points: int) -> list[dict[str, object]]:
    """Share still alive entering each point 0..n_points-1, given the last point each run reached."""
    last_index = np.asarray(last_index)
    return [rate(last_index >= i) for i in range(n_points)]
