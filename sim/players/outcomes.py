"""Players fitted by their outcomes: each game's outcome as one of a few categories, its chance at each simulated
level a histogram of paired runs (``[level, category]``, add-½ smoothed), each player's games' likelihood read off
those histograms and interpolated between the levels. The games without action values (Würfel Dungeon, Dungeon24)
share this step: the population's level (profile interval), each player's, the mixture BIC prefers, and the
intervals widened for the simulation's own noise (``widen``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.interpolate import CubicSpline

from sim.players.fit import MAX_GROUPS, Estimate, Mixture, fit_mixture, mle

LEVELS = np.linspace(0.0, 1.0, 21)  # the levels simulated
SIM_RUNS = 4000  # runs per simulated level (default)


@dataclass
class LevelFit:
    level: Estimate
    players: pd.DataFrame  # player, level, lo, hi, games
    mixtures: list[Mixture]
    best: int
    hist: np.ndarray  # [LEVELS, categories]

    @property
    def chosen(self) -> Mixture:
        return self.mixtures[self.best]

    def predicted(self) -> np.ndarray:
        """The outcome histogram of the chosen mixture (each group's at its level, interpolated, by weight)."""
        spl = CubicSpline(LEVELS, self.hist, axis=0)
        m = self.chosen
        p = sum(w * np.clip(spl(lv), 1e-12, None) for lv, w in zip(m.levels, m.weights, strict=True))
        return p / p.sum()


def fit_levels(hist: np.ndarray, category: np.ndarray, player: np.ndarray, ids: np.ndarray, n: int,
               max_groups: int = MAX_GROUPS) -> LevelFit:
    """Fit the games (``category`` of each, ``player`` its index into ``ids``) to the histograms ``hist``
    (``[LEVELS, categories]``, each level's share of ``n`` simulated runs)."""
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
    # the simulated histograms carry their own noise: intervals widen by sqrt(1 + games / simulated runs), the
    # simulated-likelihood (indirect inference) correction
    infl = float(np.sqrt(1.0 + len(category) / n))
    level = widen(level, infl)
    players[["lo", "hi"]] = [[widen(Estimate(r.level, r.lo, r.hi, 0.0), infl).lo,
                              widen(Estimate(r.level, r.lo, r.hi, 0.0), infl).hi] for r in players.itertuples()]
    for m in mixtures:
        m.se_levels = m.se_levels * infl
        m.se_weights = m.se_weights * infl
    mixtures[0].profile = (level.lo, level.hi)
    return LevelFit(level, players, mixtures, best, hist)


def widen(e: Estimate, factor: float) -> Estimate:
    """An interval stretched about its estimate, within [0, 1]."""
    lo = max(0.0, e.value - factor * (e.value - e.lo))
    return Estimate(e.value, lo, min(1.0, e.value + factor * (e.hi - e.value)), e.loglik)
