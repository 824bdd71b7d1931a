"""What a game plugs into the engine: one ``Game`` object per game package (``game.py: GAME``).

The engine (batch, backends, stats, report, sweep, CLI) only talks to this interface, so a new game
gets play/compare/sweep/report/replay for free. A game supplies:

- ``Config``: its pydantic model (``sim.config.Strict``); ``load`` reads TOML + ``--set`` overrides.
- ``policies``: valid policy names; ``report_policies``: those the default report plays.
- ``options``: game-specific CLI options and defaults (e.g. ``{"players": 1}``); values arrive
  validated by ``check_options``.
- ``simulate(cfg, policies, seed, start, count, options)``: the per-run table of runs
  ``start .. start + count - 1`` as a dict of equal-length numpy arrays. It must be a pure function of
  (cfg, policies, seed, run index, options): chunking, threads and workers never change a number.
  ``policies`` is one name per seat (games with one actor get a one-element list).
- ``metrics(table, options)``: ``{name: {"value": v, "ci95": [lo, hi]}}`` (rates and means carry ci95).
- ``charts(tables, out_dir)``: PNGs from the per-policy tables; returns the paths written.
- ``replay(cfg, policies, seed, run, options)``: one run, human-readable, identical to run ``run``
  of a batch with the same seed.
- ``describe(cfg)``: derived rule tables as JSON-ready dict; ``solve(cfg, options)``: exact solution
  summary (``{"value": …}``), or ``DicesimError`` where the game has none.
- ``compare_plan(policies)``: how ``compare`` pairs policies: a list of (label, seat policies) played
  on the same seeds. Default: each policy alone (solitaire pairing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from sim.config import DicesimError, Strict, load_config


class Game:
    """Base class with the shared defaults; games override what they need."""

    name: ClassVar[str]
    title: ClassVar[str]
    Config: ClassVar[type[Strict]]
    policies: ClassVar[tuple[str, ...]]
    report_policies: ClassVar[tuple[str, ...]]
    options: ClassVar[dict[str, Any]] = {}
    seats: ClassVar[int] = 1  # seats a policy list must fill (after options); see seat_count
    chunk: ClassVar[int] = 65_536  # runs per chunk (never changes results; larger favours shared plans)

    def load(self, path: str | Path | None = None, overrides: list[str] | None = None) -> Strict:
        return load_config(self.Config, self.name, path, overrides)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults; reject options this game does not know."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise DicesimError(f"option --{sorted(unknown)[0]} does not apply to {self.name}")
        return {**self.options, **options}

    def seat_count(self, options: dict[str, Any]) -> int:
        return self.seats

    def seat_policies(self, policy: str, options: dict[str, Any]) -> list[str]:
        """Expand a ``--policy`` value (``a`` or ``a,b,…`` cycled over the seats) to one per seat."""
        names = [p.strip() for p in policy.split(",") if p.strip()]
        if not names:
            raise DicesimError("no policy given")
        for p in names:
            self.check_policy(p)
        k = self.seat_count(options)
        return [names[i % len(names)] for i in range(k)]

    def check_policy(self, policy: str) -> None:
        if policy not in self.policies:
            raise DicesimError(f"unknown policy {policy!r} for {self.name} (choose from {', '.join(self.policies)})")

    def prepare(self, cfg: Strict, policies: list[str], options: dict[str, Any]) -> None:
        """Build what the policies need before a batch (solved tables); default: nothing."""

    def use_config(self, cfg: Strict) -> None:
        """Adopt ``cfg`` for what ``charts`` draws beyond the tables (``dicesim report`` passes the config stored
        in manifest.json); default: nothing."""

    def simulate(
        self, cfg: Strict, policies: list[str], seed: int, start: int, count: int, options: dict[str, Any]
    ) -> dict[str, np.ndarray]:
        raise DicesimError(f"{self.name} cannot be simulated")

    def metrics(self, table: pd.DataFrame, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {}

    def charts(self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any]) -> list[Path]:
        return []

    def replay(self, cfg: Strict, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> str:
        raise DicesimError(f"{self.name} has no replay")

    def describe(self, cfg: Strict, options: dict[str, Any]) -> dict[str, Any]:
        return {"game": self.name, "config": cfg.model_dump(mode="json")}

    def solve(self, cfg: Strict, options: dict[str, Any]) -> dict[str, Any]:
        raise DicesimError(f"{self.name} has no exact solver")

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        return [(p, self.seat_policies(p, options)) for p in policies]

    def balance_extras(self, cfg: Strict, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """Extra analyses for the default balance report: (title, file name in ``out``) pairs."""
        return []

    primary_metric: ClassVar[str] = "score"  # per-run column compared pairwise by ``paired``

    def paired(self, tables: dict[str, pd.DataFrame], options: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Paired differences of ``primary_metric`` between the first label and each other (same runs)."""
        from sim import stats

        labels = list(tables)
        col = self.primary_metric
        if len(labels) < 2 or any(col not in t.columns for t in tables.values()):
            return {}
        base = tables[labels[0]]
        return {
            f"{col}: {lab} - {labels[0]}": stats.paired_difference(tables[lab][col].to_numpy(), base[col].to_numpy())
            for lab in labels[1:]
            if len(tables[lab]) == len(base)
        }
