"""Players fitted by their outcomes: each game's outcome as one of a few categories, its chance at each simulated
level a histogram of paired runs (``[level, category]``, add-½ smoothed), each player's games' likelihood read off
those histograms and interpolated between the levels. The games without action values (Würfel Dungeon, Dungeon24)
share this step: the population's level (profile interval), each player's, the mixture BIC prefers, and the
intervals widened for the simulation's own noise.

That noise is measured, not assumed: the simulated runs are counted in ``BLOCKS`` blocks (run number modulo
``BLOCKS``, so each block keeps its runs' paired dice across the levels), and the population's level is fitted
again with each block left out (a delete-a-group jackknife). Its variance is added to each interval's own, side by
side (``widen``). The factor ``sqrt(1 + games / runs)`` used before assumed the simulated chances as noisy as the
log's at the same count; at a Würfel Dungeon level of 0.35 (1,000 games, 4,000 runs a level) the jackknife measured
1.3-1.5 times the noise that factor adds, as did the spread of the fitted level over 16 simulation seeds."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.interpolate import CubicSpline

from sim.core.stats import Z95
from sim.players.fit import MAX_GROUPS, Estimate, Mixture, fit_mixture, mle

LEVELS = np.linspace(0.0, 1.0, 21)  # the levels simulated
SIM_RUNS = 4000  # runs per simulated level (default)
BLOCKS = 10  # the jackknife's groups of simulated runs


@dataclass
class LevelFit:
    level: Estimate
    players: pd.DataFrame  # player, level, lo, hi, games
    mixtures: list[Mixture]
    best: int
    hist: np.ndarray  # [LEVELS, categories]
    sim_se: float = 0.0  # the standard error the simulated histograms add to the population's level (jackknife)

    @property
    def chosen(self) -> Mixture:
        return self.mixtures[self.best]

    def predicted(self) -> np.ndarray:
        """The outcome histogram of the chosen mixture (each group's at its level, interpolated, by weight)."""
        spl = CubicSpline(LEVELS, self.hist, axis=0)
        m = self.chosen
        p = sum(w * np.clip(spl(lv), 1e-12, None) for lv, w in zip(m.levels, m.weights, strict=True))
        return p / p.sum()


def counted(category: np.ndarray, runs: np.ndarray, n_categories: int) -> np.ndarray:
    """``[BLOCKS, categories]``: the simulated runs' outcomes counted by block (run number modulo ``BLOCKS``)."""
    return np.bincount(runs % BLOCKS * n_categories + category, minlength=BLOCKS * n_categories).reshape(
        BLOCKS, n_categories).astype(float)


def shares(counts: np.ndarray) -> np.ndarray:
    """``[levels, categories]`` chances from counts (add-½ smoothed: an outcome never simulated is not impossible)."""
    h = counts + 0.5
    return h / h.sum(axis=1, keepdims=True)


def fit_levels(counts: np.ndarray, category: np.ndarray, player: np.ndarray, ids: np.ndarray,
               max_groups: int = MAX_GROUPS) -> LevelFit:
    """Fit the games (``category`` of each, ``player`` its index into ``ids``) to the simulated outcomes ``counts``
    (``[blocks, LEVELS, categories]``: the runs at each level counted by block, ``counted``; one block: taken as
    exact, no simulation noise added)."""
    hist = shares(counts.sum(axis=0))
    logp = np.log(hist)[:, category]  # [level, game]
    P = len(ids)
    grid = np.stack([np.bincount(player, logp[g], P) for g in range(len(LEVELS))], axis=1)  # [player, level]
    spl = CubicSpline(LEVELS, grid.sum(axis=0))
    level = mle(lambda x: float(spl(x)), grid.sum(axis=0), LEVELS)
    rows = []
    for p, pid in enumerate(ids):
        sp = CubicSpline(LEVELS, grid[p])
        est = mle(lambda x, sp=sp: float(sp(x)), grid[p], LEVELS)
        rows.append({"player": pid, "level": est.value, "lo": est.lo, "hi": est.hi,
                     "games": int((player == p).sum())})
    players = pd.DataFrame(rows)
    kmax = max(1, min(max_groups, P // 5))
    mixtures = [fit_mixture(grid, k, players["level"].to_numpy(), LEVELS) for k in range(1, kmax + 1)]
    best = int(np.argmin([m.bic for m in mixtures]))
    sim_se = simulation_se(counts, category)
    own_se = max(level.hi - level.lo, 1e-12) / (2 * Z95)  # the log's own standard error, from its interval
    infl = float(np.sqrt(1.0 + (sim_se / own_se) ** 2))  # the same share of noise in the groups' weights
    level = widen(level, sim_se)
    players[["lo", "hi"]] = [[e.lo, e.hi] for e in (widen(Estimate(r.level, r.lo, r.hi, 0.0), sim_se)
                                                    for r in players.itertuples())]
    for m in mixtures:
        m.se_levels = np.sqrt(m.se_levels ** 2 + sim_se ** 2)
        m.se_weights = m.se_weights * infl
    mixtures[0].profile = (level.lo, level.hi)
    return LevelFit(level, players, mixtures, best, hist, sim_se)


def simulation_se(counts: np.ndarray, category: np.ndarray) -> float:
    """The standard error the simulated histograms add to the population's level: a delete-a-block jackknife over
    the simulated runs' blocks (0 with one block)."""
    k = counts.shape[0]
    if k < 2:
        return 0.0
    games = np.bincount(category, minlength=counts.shape[2]).astype(float)  # the log's outcome counts
    total = counts.sum(axis=0)
    fits = []
    for b in range(k):
        ll = np.log(shares(total - counts[b])) @ games  # [level]
        spl = CubicSpline(LEVELS, ll)
        fits.append(mle(lambda x, spl=spl: float(spl(x)), ll, LEVELS).value)
    fits = np.asarray(fits)
    return float(np.sqrt((k - 1) / k * np.sum((fits - fits.mean()) ** 2)))


def widen(e: Estimate, se: float) -> Estimate:
    """An interval with a further standard error ``se`` added to each side's own (in quadrature), within [0, 1]."""
    add = (Z95 * se) ** 2
    lo = max(0.0, e.value - float(np.sqrt((e.value - e.lo) ** 2 + add)))
    return Estimate(e.value, lo, min(1.0, e.value + float(np.sqrt((e.hi - e.value) ** 2 + add))), e.loglik)
