"""The compare loop, once: play a game's policy plan (label -> seat policies) on the same seeds and measure it.

``compare`` (CLI and ``sim.api``), the default balance report and the games' own multi-arm analyses all run
through ``run_plan``, so every arm gets the same runs (paired: common random numbers), the same backend and
the same metrics, and the paired differences are computed one way (``Game.paired``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sim.core.backends import LocalBackend
from sim.core.batch import check_n, run_batch
from sim.core.config import Strict
from sim.core.names import compared, policy_text
from sim.games.base import Game


@dataclass
class Arm:
    """One label of the plan: its seats, per-run table, timing and metrics."""
    label: str
    seats: list[str]
    table: pd.DataFrame
    seconds: float
    runs_per_second: float
    metrics: dict[str, dict[str, Any]]

    def summary(self, digits: int = 4) -> dict[str, Any]:
        return {"seats": self.seats, "seconds": round(self.seconds, digits),
                "runs_per_second": round(self.runs_per_second, 1), "metrics": self.metrics}


@dataclass
class Experiment:
    """Every arm of a plan played on runs 0..n-1 with one seed, and their paired differences."""
    game: Game
    cfg: Strict
    options: dict[str, Any]
    n: int
    seed: int
    arms: dict[str, Arm] = field(default_factory=dict)
    paired: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return {k: a.table for k, a in self.arms.items()}

    @property
    def metrics(self) -> dict[str, dict[str, dict[str, Any]]]:
        return {k: a.metrics for k, a in self.arms.items()}


def policy_names(game: Game, policies: str | list[str]) -> list[str]:
    """``"a,b"`` or a list (any case) -> checked policy names, each once."""
    names = compared(policy_text(policies, "policies"))
    for p in names:
        game.check_policy(p)
    return names


def run_plan(game: Game, cfg: Strict, plan: list[tuple[str, list[str]]], n: int, seed: int, options: dict[str, Any],
             chunk: int | None = None, backend: Any = None, progress: bool = False,
             with_metrics: bool = True) -> Experiment:
    """Play each (label, seats) of ``plan`` on the same runs through one backend; metrics and paired differences."""
    check_n(n)
    backend = backend or LocalBackend()
    exp = Experiment(game, cfg, options, n, seed)
    for label, seats in plan:
        b = run_batch(game, cfg, seats, n, seed, options, chunk=chunk or game.chunk, backend=backend, progress=progress)
        metrics = game.metrics(b.table, options, cfg) if with_metrics else {}
        exp.arms[label] = Arm(label, list(seats), b.table, b.seconds, b.runs_per_second, metrics)
    if with_metrics:
        exp.paired = game.paired(exp.tables, options, cfg)
    return exp


def compare(game: Game, cfg: Strict, policies: str | list[str], n: int, seed: int, options: dict[str, Any],
            chunk: int | None = None, backend: Any = None, progress: bool = False) -> Experiment:
    """The game's ``compare_plan`` of ``policies`` (each alone, or head to head), played by ``run_plan``."""
    return run_plan(game, cfg, game.compare_plan(policy_names(game, policies), options), n, seed, options, chunk,
                    backend, progress)
