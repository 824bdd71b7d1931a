"""Würfel Dungeon's players fitted by their outcomes: the rooms each game cleared (a win: every room).

The dungeon's policies have no action values, so no choice has a likelihood; what a level does shows in how far the
runs get. The log is the outcome table (one row per game: rooms cleared, won, coins, difficulty). The fit plays
``vorschlag`` at a grid of levels on the same seeds (paired: each level's runs share their dice, so the simulated
rooms histogram moves smoothly with the level, as in ``sim.experiments.calibrate``), and reads each player's games'
likelihood off those histograms (add-½ smoothed): ``[player, level]`` log-likelihoods, interpolated between the grid's
levels, that the population's level, each player's and the mixtures (``sim.players.fit``) are fitted from. The
intervals widen for the simulation's own noise (``widen``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.interpolate import CubicSpline

from sim.core.batch import run_batch
from sim.core.skill import at_level
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.game import GAME
from sim.games.dungeon.options import DIFFICULTIES
from sim.players.fit import MAX_GROUPS, Estimate, Mixture, fit_mixture, mle
from sim.players.logs import LogColumn, LogError, columns, refuse

POLICY = "vorschlag"  # the policy whose level the outcomes say
LEVELS = np.linspace(0.0, 1.0, 21)  # the levels simulated
SIM_RUNS = 4000  # runs per simulated level (default)

OUTCOME_COLUMNS = (
    LogColumn("player", "str", "the player's id"),
    LogColumn("game", "int", "the player's game", 0),
    LogColumn("rooms_cleared", "int", "rooms won (all of them: the run won)", 0, 50),
    LogColumn("win", "int", "1 when the run cleared every room", 0, 1),
    LogColumn("coins", "int", "coins at the end", 0, 10**9, required=False),
    LogColumn("difficulty", "str", "leicht | normal | schwer (the same for every game)", required=False),
    LogColumn("level", "float", "the level the simulator played at (simulated logs only)", required=False),
)
DECISION_COLUMNS = OUTCOME_COLUMNS

__all__ = ["GAME", "LogError", "OUTCOME_COLUMNS", "fit_outcomes", "load", "record"]


def record(cfg: DungeonConfig, policy: str, n: int, seed: int, options: dict[str, Any]) -> tuple[pd.DataFrame,
                                                                                                 pd.DataFrame]:
    """Runs 0..n-1 of the batch as outcome rows (the log of a game fitted by outcomes): (outcomes, outcomes)."""
    opts = GAME.check_options(options)
    t = run_batch(GAME, cfg, GAME.seat_policies(policy, opts), n, seed, opts, progress=False).table
    G = cfg.skill.games_per_player
    runs = t["run"].to_numpy()
    out = pd.DataFrame({"player": [f"p{r // G:04d}" for r in runs], "game": runs % G, "run": runs,
                        "rooms_cleared": t["rooms_cleared"].to_numpy(), "win": t["win"].to_numpy().astype(int),
                        "coins": t["coins"].to_numpy(), "difficulty": t["difficulty"].astype(str).to_numpy(),
                        "level": float(cfg.skill.level)})
    return out, out


@dataclass
class Outcomes:
    """A checked outcome log: each game's player and rooms cleared."""

    ids: np.ndarray
    player: np.ndarray
    rooms: np.ndarray
    n_rooms: int
    difficulty: str
    table: pd.DataFrame

    @property
    def n_games(self) -> int:
        return len(self.rooms)


def load(cfg: DungeonConfig, out_df: pd.DataFrame, where: str) -> Outcomes:
    """Check every row: rooms within the dungeon, a win exactly when every room is cleared, one difficulty."""
    col = columns(out_df, OUTCOME_COLUMNS, where)
    R = int(cfg.rooms.count)
    bad = np.flatnonzero(col["rooms_cleared"] > R)
    if len(bad):
        raise refuse(where, bad[0], f"rooms_cleared {col['rooms_cleared'][bad[0]]}: the dungeon has {R} rooms")
    bad = np.flatnonzero(col["win"] != (col["rooms_cleared"] == R))
    if len(bad):
        raise refuse(where, bad[0], f"win {col['win'][bad[0]]} with {col['rooms_cleared'][bad[0]]} of {R} rooms "
                     "cleared (a win clears every room)")
    diff = col.get("difficulty")
    level = GAME.options["difficulty"]
    if diff is not None:
        bad = np.flatnonzero(~np.isin(diff, DIFFICULTIES))
        if len(bad):
            raise refuse(where, bad[0], f"difficulty {diff[bad[0]]!r} is not one of {', '.join(DIFFICULTIES)}")
        bad = np.flatnonzero(diff != diff[0])
        if len(bad):
            raise refuse(where, bad[0], f"difficulty {diff[bad[0]]} after {diff[0]}: fit one difficulty at a time")
        level = str(diff[0])
    pairs = pd.MultiIndex.from_arrays([col["player"], col["game"]])
    dup = np.flatnonzero(pairs.duplicated())
    if len(dup):
        raise refuse(where, dup[0], f"player {col['player'][dup[0]]!r} game {col['game'][dup[0]]} is logged twice")
    ids, pidx = np.unique(col["player"], return_inverse=True)
    return Outcomes(ids, pidx, col["rooms_cleared"], R, level, pd.DataFrame(dict(col)))


def histograms(cfg: DungeonConfig, levels: np.ndarray, n: int, seed: int, difficulty: str) -> np.ndarray:
    """``[level, rooms cleared]``: the share of ``n`` paired runs at each level (add-½ smoothed)."""
    opts = GAME.check_options({"difficulty": difficulty})
    seats = GAME.seat_policies(POLICY, opts)
    out = np.zeros((len(levels), cfg.rooms.count + 1))
    for g, lv in enumerate(levels):
        t = run_batch(GAME, at_level(cfg, float(lv)), seats, n, seed, opts, progress=False).table
        h = np.bincount(t["rooms_cleared"].to_numpy(), minlength=cfg.rooms.count + 1) + 0.5
        out[g] = h / h.sum()
    return out


@dataclass
class OutcomeFit:
    outcomes: Outcomes
    level: Estimate
    players: pd.DataFrame
    mixtures: list[Mixture]
    best: int
    hist: np.ndarray  # [LEVELS, rooms]

    @property
    def chosen(self) -> Mixture:
        return self.mixtures[self.best]

    def predicted(self) -> np.ndarray:
        """The rooms histogram of the chosen mixture (each group's at its level, interpolated, by weight)."""
        spl = CubicSpline(LEVELS, self.hist, axis=0)
        m = self.chosen
        p = sum(w * np.clip(spl(lv), 1e-12, None) for lv, w in zip(m.levels, m.weights, strict=True))
        return p / p.sum()


def fit_outcomes(cfg: DungeonConfig, log: Outcomes, n: int = SIM_RUNS, seed: int = 1,
                 max_groups: int = MAX_GROUPS) -> OutcomeFit:
    """The population's level (profile interval), each player's, and the mixture BIC prefers."""
    hist = histograms(cfg, LEVELS, n, seed, log.difficulty)
    logp = np.log(hist)[:, log.rooms]  # [level, game]
    P = len(log.ids)
    grid = np.stack([np.bincount(log.player, logp[g], P) for g in range(len(LEVELS))], axis=1)  # [player, level]
    spl = CubicSpline(LEVELS, grid.sum(axis=0))
    level = mle(lambda x: float(spl(x)), grid.sum(axis=0), LEVELS)
    rows = []
    for p, pid in enumerate(log.ids):
        sp = CubicSpline(LEVELS, grid[p])
        est = mle(lambda x, sp=sp: float(sp(x)), grid[p], LEVELS)
        rows.append({"player": pid, "level": est.value, "lo": est.lo, "hi": est.hi,
                     "games": int((log.player == p).sum()), "rooms_per_game": float(log.rooms[log.player == p].mean())})
    players = pd.DataFrame(rows)
    kmax = max(1, min(max_groups, P // 5))
    mixtures = [fit_mixture(grid, k, players["level"].to_numpy(), LEVELS) for k in range(1, kmax + 1)]
    best = int(np.argmin([m.bic for m in mixtures]))
    # the simulated histograms carry their own noise: intervals widen by sqrt(1 + games / simulated runs), the
    # simulated-likelihood (indirect inference) correction
    infl = float(np.sqrt(1.0 + log.n_games / n))
    level = widen(level, infl)
    players[["lo", "hi"]] = [[widen(Estimate(r.level, r.lo, r.hi, 0.0), infl).lo,
                              widen(Estimate(r.level, r.lo, r.hi, 0.0), infl).hi] for r in players.itertuples()]
    for m in mixtures:
        m.se_levels = m.se_levels * infl
        m.se_weights = m.se_weights * infl
    return OutcomeFit(log, level, players, mixtures, best, hist)


def widen(e: Estimate, factor: float) -> Estimate:
    """An interval stretched about its estimate, within [0, 1]."""
    lo = max(0.0, e.value - factor * (e.value - e.lo))
    return Estimate(e.value, lo, min(1.0, e.value + factor * (e.hi - e.value)), e.loglik)
