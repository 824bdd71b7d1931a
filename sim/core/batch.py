"""Play N runs of one (game, config, policies) in fixed-size chunks and collect the per-run table.

A chunk is the runs ``start .. start + count - 1``; each run draws only from its own streams, so the
table is identical for any chunk size, thread count or backend. Chunks run on a backend
(``sim.core.backends``: ``run(game, jobs)`` yields parts as they finish): in-process by default (the game's
kernel uses every core via ``prange``), on a Dask cluster, or the studio's cancellable one. Parts are
joined in run order whatever order they finished in. A progress bar goes to stderr for long batches.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.core import limits
from sim.core.backends import Job, LocalBackend, progress_bar
from sim.core.config import Strict
from sim.games.base import Game
from sim.jit.progress import compiling
from sim.jit.warmup import wait_for

DEFAULT_CHUNK = 65_536


def chunks(n: int, chunk: int) -> Iterator[tuple[int, int]]:
    """(start, count) pairs covering runs 0..n-1."""
    for start in range(0, n, chunk):
        yield start, min(chunk, n - start)


def check_n(n: int) -> None:
    """A positive number of runs below the hard limit (the command checked the soft one, with its --force)."""
    limits.check_n(n, force=True)


@dataclass
class Batch:
    """A finished batch: the per-run table and how long it took."""
    game: str
    policies: list[str]
    n: int
    seed: int
    table: pd.DataFrame
    seconds: float

    @property
    def runs_per_second(self) -> float:
        return self.n / self.seconds if self.seconds > 0 else float("inf")


def _join(chunks: list) -> np.ndarray | pd.Categorical:
    """Concatenate one column's chunks; categorical columns stay categorical (cheap, compact)."""
    first = chunks[0]
    if isinstance(first, pd.Categorical) and all(c.categories.equals(first.categories) for c in chunks):
        return pd.Categorical.from_codes(np.concatenate([c.codes for c in chunks]), first.categories)
    return np.concatenate([np.asarray(c) for c in chunks])


def _part_bytes(part: dict[str, Any]) -> int:
    """The bytes of one chunk's columns."""
    return sum(v.codes.nbytes if isinstance(v, pd.Categorical) else np.asarray(v).nbytes for v in part.values())


def concat(parts: list[dict[str, np.ndarray]]) -> pd.DataFrame:
    """The per-run table from its chunks' columns (no block consolidation: columns stay as built)."""
    cols = parts[0].keys()
    return pd.DataFrame({c: _join([p[c] for p in parts]) for c in cols}, copy=False)


def run_batch(
    game: Game,
    cfg: Strict,
    policies: list[str],
    n: int,
    seed: int,
    options: dict[str, Any],
    chunk: int = DEFAULT_CHUNK,
    backend: Any = None,
    progress: bool = True,
    n_said: str = "--n",
) -> Batch:
    """Play runs 0..n-1 on ``backend`` (default: this process) and return their table (a ``run`` column first);
    ``n_said`` names where ``n`` was given (a targets file's ``n``) in a refusal of it."""
    check_n(n)
    limits.check_seed(seed)
    limits.check_chunk(chunk)
    backend = backend or LocalBackend()
    jobs = (Job(cfg, policies, seed, start, count, options) for start, count in chunks(n, chunk))  # lazy: n may be
    n_jobs = -(-n // chunk)  # huge (--force), the jobs are made as the backend takes them
    wait_for(game.name, game.title)
    with compiling(game.name, game.title):
        game.prepare(cfg, policies, options)
        if isinstance(backend, LocalBackend):  # compile (or load) the kernels here, outside the timed batch
            game.simulate(cfg, policies, seed, 0, 1, options)
    t0 = time.perf_counter()
    parts: dict[int, dict[str, Any]] = {}
    label = f"{game.name} {','.join(policies)}"
    with progress_bar(n_jobs, label, progress) as bar:
        task = bar.add_task("play", total=n_jobs)
        for job, part in backend.run(game, jobs):
            if not parts:  # the first chunk tells a run's bytes: the whole table must fit before the rest plays
                limits.check_table_memory(n, _part_bytes(part) / job.count, limits.free_memory(), n_said)
            parts[job.start] = part
            bar.advance(task)
    table = concat([parts[s] for s in sorted(parts)])
    secs = time.perf_counter() - t0
    return Batch(game.name, policies, n, seed, table, secs)
