"""The skill level of players from their logged choices: maximum likelihood under the model the simulator plays.

The model (``sim.core.skill``): at level ``ℓ`` a decision lapses with probability ``ε = (1 - ℓ)²`` into a uniformly
random alternative (each of the 32 holds, each legal box), else picks alternative ``a`` with probability
``exp(-Δ_a / τ) / Σ_b exp(-Δ_b / τ)``, ``Δ`` its loss against the best in points and ``τ = u (1 - ℓ) / ℓ``. So the
chance of a logged choice ``c`` (several alternatives may make the same choice: holds keeping the same faces) is

    p(c | ℓ) = ε · n_c / n + (1 - ε) · Σ_{a ∈ c} exp(-Δ_a / τ) / Σ_a exp(-Δ_a / τ)

and a player's log-likelihood is the sum over their decisions, computed with numpy over the ``[decision,
alternative]`` arrays of ``Decisions`` in chunks of ``CHUNK`` decisions: the likelihood's ``[decision, alternative]``
temporaries (the weights, their masked sums) stay the size of one chunk, so a log of a million decisions costs its
stored losses and masks, not several copies of them. Each decision's value is computed in its own row, so a
chunked evaluation is the whole one. Fitted here:

- each player's level and the population's single level: the maximum (bounded scalar search) with a 95 % profile
  likelihood interval (where the log-likelihood falls ``χ²₁(0.95) / 2 = 1.92`` below its maximum);
- mixtures of ``K = 1, 2, 3`` groups of players (each player at one group's level): EM over the players, each
  player's log-likelihood read from a cubic spline through a grid of levels; ``K`` chosen by BIC
  (``-2 log L + (2K - 1) ln players``); the groups' intervals from the observed Fisher information.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.interpolate import CubicSpline
from scipy.optimize import brentq, minimize_scalar
from scipy.special import logsumexp

from sim.core.stats import Z95

DROP = Z95**2 / 2  # chi2(1).ppf(0.95) / 2: the likelihood drop of a 95 % profile interval
TOP = 1.0 - 1e-6  # the highest level fitted (at 1 every non-best choice is impossible)
TINY = 1e-300
GRID = np.concatenate([np.linspace(0.0, 0.98, 50), [0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, TOP]])
MAX_GROUPS = 3
CHUNK = 1 << 15  # decisions per block of the likelihood (32 alternatives: 8 MB per float64 temporary)


@dataclass
class Decisions:
    """Every decision of a log with its alternatives: ``delta[d, a]`` the loss of alternative ``a`` against the best
    (points), ``valid`` which alternatives exist, ``chosen`` those that make the logged choice."""

    game: str
    unit: float  # the game's value unit of the temperature (``policies.<game>.skill.UNIT``)
    ids: np.ndarray  # player ids, index = player number
    player: np.ndarray  # player number of each decision
    sheet: np.ndarray  # game number (over all players) of each decision
    n_games: int
    delta: np.ndarray
    valid: np.ndarray
    chosen: np.ndarray
    row: np.ndarray  # the log's row (0-based) of each decision
    implied: np.ndarray  # decisions the log implies (a box scored with rolls left: holds of every die)
    kind: np.ndarray  # the decision kind (``hold after roll 1``, ``box``)
    turn: np.ndarray
    detail: np.ndarray  # the box written (box decisions)
    start_value: float  # the optimum's expected score of one game
    outcomes: pd.DataFrame | None = None
    # a game whose decisions are not one softmax (Dadox: an option, then bank or throw on) sets these; None: the
    # lapse picks one alternative uniformly, nothing is forced and the choice is the softmax's alone
    lapse: np.ndarray | None = None  # chance of the logged choice under a lapse
    gate: np.ndarray | None = None  # 0 where the softmax cannot make the choice, else 1
    forced: np.ndarray | None = None  # -1, or 0/1: the rules force a move (1: the logged one)
    binary: np.ndarray | None = None  # a second two-way softmax: the other way's value minus the chosen's (NaN: none)
    loss: np.ndarray | None = None  # each decision's regret (None: the chosen alternative's delta)

    def __post_init__(self) -> None:
        if self.lapse is None:
            self.lapse = self.chosen.sum(axis=1) / self.valid.sum(axis=1)

    def blocks(self, chunk: int | None = None) -> Iterator[slice]:
        """The decisions in consecutive blocks of ``chunk`` (default ``CHUNK``: the likelihood's unit of work)."""
        chunk = chunk or CHUNK
        for a in range(0, len(self.player), chunk):
            yield slice(a, a + chunk)

    def __len__(self) -> int:
        return len(self.player)

    def subset(self, idx: np.ndarray) -> Decisions:
        """The decisions ``idx`` (for one player's fit)."""
        def cut(a: np.ndarray | None) -> np.ndarray | None:
            return None if a is None else a[idx]

        return Decisions(self.game, self.unit, self.ids, self.player[idx], self.sheet[idx], self.n_games,
                         self.delta[idx], self.valid[idx], self.chosen[idx], self.row[idx], self.implied[idx],
                         self.kind[idx], self.turn[idx], self.detail[idx], self.start_value, self.outcomes,
                         cut(self.lapse), cut(self.gate), cut(self.forced), cut(self.binary), cut(self.loss))

    @property
    def regret(self) -> np.ndarray:
        """Points each decision cost against the best alternative (the chosen ones' loss)."""
        if self.loss is not None:
            return self.loss
        out = np.empty(len(self.player))
        for b in self.blocks():
            out[b] = np.where(self.chosen[b], self.delta[b], np.inf).min(axis=1)
        return out

    @property
    def one_softmax(self) -> bool:
        """Every decision is one softmax over its alternatives (the predicted regret of ``expected_regret``)."""
        return self.binary is None and self.forced is None and self.gate is None


def losses(vals: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Each alternative's loss against its decision's best valid one, 0 where not valid: ``vals`` is turned into
    it in place (a log's ``[decision, alternative]`` array is not copied), block by block."""
    for a in range(0, len(vals), CHUNK):
        v, ok = vals[a:a + CHUNK], valid[a:a + CHUNK]
        best = np.where(ok, v, -np.inf).max(axis=1)
        np.subtract(best[:, None], v, out=v)
        v[~ok] = 0.0
    return vals


def probabilities(dec: Decisions, level: float, b: slice = slice(None)) -> np.ndarray:
    """``[decision, alternative]`` chances of each alternative at ``level`` of the decisions ``b`` (rows sum to 1
    over valid ones)."""
    eps = (1.0 - level) ** 2
    valid = dec.valid[b]
    n = valid.sum(axis=1, keepdims=True)
    if level <= 0.0:
        return valid / n
    tau = dec.unit * (1.0 - level) / level
    w = np.exp(-np.where(valid, dec.delta[b], np.inf) / tau)
    return eps * valid / n + (1.0 - eps) * w / w.sum(axis=1, keepdims=True)


def log_p(dec: Decisions, level: float, chunk: int | None = None) -> np.ndarray:
    """The log-likelihood of each logged choice at ``level`` (``chunk`` decisions at a time; default ``CHUNK``)."""
    out = np.empty(len(dec.player))
    for b in dec.blocks(chunk):
        out[b] = _log_p(dec, level, b)
    return out


def _log_p(dec: Decisions, level: float, b: slice) -> np.ndarray:
    """``log_p`` of the decisions ``b``."""
    eps = (1.0 - level) ** 2
    valid, chosen = dec.valid[b], dec.chosen[b]
    binary = None if dec.binary is None else dec.binary[b]
    if level <= 0.0:  # an infinite temperature: uniform alternatives, a fair coin for the two-way choice
        n_ok = (valid & np.isfinite(dec.delta[b])).sum(axis=1)
        soft = (chosen & valid).sum(axis=1) / np.maximum(n_ok, 1)
        if binary is not None:
            soft = soft * np.where(np.isnan(binary), 1.0, 0.5)
    else:
        tau = dec.unit * (1.0 - level) / level
        w = np.where(valid, dec.delta[b], np.inf)
        np.divide(w, -tau, out=w)
        np.exp(w, out=w)
        soft = np.where(chosen, w, 0.0).sum(axis=1) / np.maximum(w.sum(axis=1), TINY)
        if binary is not None:
            gap = np.clip(np.nan_to_num(binary, nan=-np.inf) / tau, -700.0, 700.0)
            soft = soft / (1.0 + np.exp(gap))
    if dec.gate is not None:
        soft = soft * dec.gate[b]
    if dec.forced is not None:
        soft = np.where(dec.forced[b] >= 0, dec.forced[b], soft)
    return np.log(np.maximum(eps * dec.lapse[b] + (1.0 - eps) * soft, TINY))


def log_lik(dec: Decisions, level: float) -> float:
    return float(log_p(dec, level).sum())


@dataclass(frozen=True)
class Estimate:
    value: float
    lo: float
    hi: float
    loglik: float

    def json(self, digits: int = 4) -> dict[str, Any]:
        return {"value": round(self.value, digits), "ci95": [round(self.lo, digits), round(self.hi, digits)]}


def mle(f: Any, grid_ll: np.ndarray | None = None, levels: np.ndarray = GRID) -> Estimate:
    """The maximum of a log-likelihood ``f(level)`` on [0, top] and its profile interval. ``grid_ll``: ``f`` at
    ``levels`` when known (its best point brackets the search; ``levels`` end at the top of the range)."""
    if grid_ll is None:
        grid_ll = np.array([f(x) for x in levels])
    top = float(levels[-1])
    i = int(np.argmax(grid_ll))
    lo_b, hi_b = levels[max(i - 1, 0)], levels[min(i + 1, len(levels) - 1)]
    if hi_b > lo_b:
        r = minimize_scalar(lambda x: -f(x), bounds=(lo_b, hi_b), method="bounded", options={"xatol": 1e-6})
        x, best = (float(r.x), -float(r.fun)) if -r.fun >= grid_ll[i] else (float(levels[i]), float(grid_ll[i]))
    else:
        x, best = float(levels[i]), float(grid_ll[i])
    target = best - DROP
    below = np.flatnonzero((levels < x) & (grid_ll < target))
    above = np.flatnonzero((levels > x) & (grid_ll < target))
    # the grid point nearest x on each side that lies under the target brackets the crossing; none: the edge is in
    lo = float(brentq(lambda y: f(y) - target, levels[below[-1]], x, xtol=1e-7)) if len(below) else 0.0
    hi = float(brentq(lambda y: f(y) - target, x, levels[above[0]], xtol=1e-7)) if len(above) else top
    return Estimate(x, min(lo, x), max(hi, x), best)


def grid_loglik(dec: Decisions) -> np.ndarray:
    """``[player, grid level]`` log-likelihoods of every player on ``GRID``."""
    P = len(dec.ids)
    return np.stack([np.bincount(dec.player, log_p(dec, x), P) for x in GRID], axis=1)


def player_levels(dec: Decisions, grid: np.ndarray) -> pd.DataFrame:
    """Each player's level (maximum and profile interval, exact), decisions and mean regret per game."""
    order = np.argsort(dec.player, kind="stable")
    cuts = np.searchsorted(dec.player[order], np.arange(len(dec.ids) + 1))
    rows = []
    reg = dec.regret
    for p, pid in enumerate(dec.ids):
        idx = order[cuts[p]:cuts[p + 1]]
        sub = dec.subset(idx)
        est = mle(lambda x, s=sub: log_lik(s, x), grid[p])
        games = len(np.unique(dec.sheet[idx]))
        rows.append({"player": pid, "level": est.value, "lo": est.lo, "hi": est.hi, "decisions": len(idx),
                     "games": games, "regret_per_game": float(reg[idx].sum()) / max(games, 1)})
    return pd.DataFrame(rows)


@dataclass
class Mixture:
    """``K`` groups of players, each at one level (sorted), with their weights, fit and standard errors."""

    levels: np.ndarray
    weights: np.ndarray
    loglik: float
    bic: float
    se_levels: np.ndarray
    se_weights: np.ndarray
    resp: np.ndarray  # [player, group]
    profile: tuple[float, float] | None = None  # one group: the population level's own (profile) interval

    def groups(self, digits: int = 4) -> list[dict[str, Any]]:
        """Each group as ``{level, ci95, weight, weight_ci95}`` (Wald intervals; no information: [0, 1]). One group is
        the population at one level: its interval is that level's profile interval (the Wald one, from the curvature
        at a level of 1.0, read [0.96, 1] for one game whose profile interval is [0.46, 1])."""
        if len(self.levels) == 1 and self.profile is not None:
            lo, hi = self.profile
            return [{"level": round(float(self.levels[0]), digits), "ci95": [round(lo, digits), round(hi, digits)],
                     "weight": 1.0, "weight_ci95": [1.0, 1.0]}]

        def ci(x: float, se: float) -> list[float]:
            if not np.isfinite(se):
                return [0.0, 1.0]
            return [round(max(0.0, x - Z95 * se), digits), round(min(1.0, x + Z95 * se), digits)]

        out = []
        for k in range(len(self.levels)):
            lv, w = float(self.levels[k]), float(self.weights[k])
            out.append({"level": round(lv, digits), "ci95": ci(lv, float(self.se_levels[k])),
                        "weight": round(w, digits), "weight_ci95": ci(w, float(self.se_weights[k]))})
        return out


def _mix_ll(spl: CubicSpline, levels: np.ndarray, weights: np.ndarray) -> tuple[float, np.ndarray]:
    ll = spl(np.clip(levels, 0.0, spl.x[-1])).T  # spline over the grid axis: [group, player] -> [player, group]
    a = ll + np.log(np.maximum(weights, TINY))
    tot = logsumexp(a, axis=1)
    return float(tot.sum()), np.exp(a - tot[:, None])


def fit_mixture(grid: np.ndarray, K: int, start: np.ndarray, levels_at: np.ndarray = GRID) -> Mixture:
    """EM for ``K`` groups over the players' log-likelihood splines (``grid``: ``[player, levels_at]``)."""
    P = grid.shape[0]
    spl = CubicSpline(levels_at, grid.T, axis=0)
    top = float(levels_at[-1])
    levels = np.sort(np.quantile(start, (np.arange(K) + 0.5) / K))
    weights = np.full(K, 1.0 / K)
    prev = -np.inf
    for _ in range(500):
        ll, resp = _mix_ll(spl, levels, weights)
        weights = resp.mean(axis=0)
        for k in range(K):
            r = resp[:, k]
            if r.sum() < 1e-9:
                continue
            res = minimize_scalar(lambda x, r=r: -float(r @ spl(x)), bounds=(0.0, top), method="bounded",
                                  options={"xatol": 1e-7})
            levels[k] = float(res.x)
        if ll - prev < 1e-7:
            break
        prev = ll
    order = np.argsort(levels)
    levels, weights = levels[order], weights[order]
    ll, resp = _mix_ll(spl, levels, weights)
    se_l, se_w = _fisher(spl, levels, weights)
    return Mixture(levels, weights, ll, -2 * ll + (2 * K - 1) * np.log(P), se_l, se_w, resp)


def _fisher(spl: CubicSpline, levels: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Standard errors from the observed information (a finite-difference Hessian in levels and the first K - 1
    weights; the last weight is 1 minus the others, its error follows)."""
    K = len(levels)
    theta = np.concatenate([levels, weights[:-1]])

    def f(t: np.ndarray) -> float:
        w = np.append(t[K:], 1.0 - t[K:].sum())
        return _mix_ll(spl, t[:K], np.maximum(w, TINY))[0]

    n = len(theta)
    h = 1e-4
    H = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            e_i, e_j = np.eye(n)[i] * h, np.eye(n)[j] * h
            H[i, j] = H[j, i] = (f(theta + e_i + e_j) - f(theta + e_i - e_j) - f(theta - e_i + e_j)
                                 + f(theta - e_i - e_j)) / (4 * h * h)
    try:
        cov = np.linalg.inv(-H)
    except np.linalg.LinAlgError:
        return np.full(K, np.nan), np.full(K, np.nan)
    var = np.diag(cov)
    se_l = np.sqrt(np.maximum(var[:K], 0.0))
    g = np.full(K - 1, -1.0)  # d(last weight) / d(others)
    se_w = np.append(np.sqrt(np.maximum(var[K:], 0.0)), np.sqrt(max(float(g @ cov[K:, K:] @ g), 0.0))) if K > 1 \
        else np.zeros(1)
    return se_l, se_w


@dataclass
class Fit:
    decisions: Decisions
    level: Estimate
    players: pd.DataFrame
    mixtures: list[Mixture]
    best: int  # index into ``mixtures`` (BIC)

    @property
    def chosen(self) -> Mixture:
        return self.mixtures[self.best]


def fit(dec: Decisions, max_groups: int = MAX_GROUPS) -> Fit:
    """Players, the population's single level, and the mixture BIC prefers (1..``max_groups`` groups)."""
    grid = grid_loglik(dec)
    level = mle(lambda x: log_lik(dec, x), grid.sum(axis=0))
    players = player_levels(dec, grid)
    kmax = max(1, min(max_groups, len(dec.ids) // 5))  # a group needs players to stand on
    mixtures = [fit_mixture(grid, k, players["level"].to_numpy()) for k in range(1, kmax + 1)]
    mixtures[0].profile = (level.lo, level.hi)
    best = int(np.argmin([m.bic for m in mixtures]))
    return Fit(dec, level, players, mixtures, best)


def expected_regret(dec: Decisions, level: float) -> np.ndarray:
    """Each decision's expected loss (points) at ``level``: what the model predicts the logged regret to be."""
    out = np.empty(len(dec.player))
    for b in dec.blocks():
        out[b] = (probabilities(dec, level, b) * np.where(dec.valid[b], dec.delta[b], 0.0)).sum(axis=1)
    return out
