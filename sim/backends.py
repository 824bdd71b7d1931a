"""Where chunks run: in this process (all local cores through numba's threads) or on Dask.

Both call ``game.simulate`` on the same (start, count) chunks and return the parts in chunk
order, so the concatenated table is identical whichever backend ran it.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from sim.config import DicesimError, Strict
from sim.games.base import Game
from sim.progress import is_quiet, is_terminal


def progress_bar(total: int, label: str, enabled: bool) -> Progress:
    from rich.console import Console

    return Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} chunks"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        disable=not enabled or total < 2 or is_quiet() or not is_terminal(),
        transient=True,
    )


def simulate_chunk(game_name: str, cfg: Strict, policies: list[str], seed: int, start: int, count: int, options):
    """One chunk, by game name (so Dask workers import the game themselves)."""
    from sim.games import get_game

    game = get_game(game_name)
    game.prepare(cfg, policies, options)
    return game.simulate(cfg, policies, seed, start, count, options)


class LocalBackend:
    """Chunks one after another in this process; each chunk's kernel uses every core."""

    def map_chunks(
        self, game: Game, cfg: Strict, policies: list[str], seed: int, spans, options, progress: bool = True
    ) -> list[dict[str, np.ndarray]]:
        parts = []
        with progress_bar(len(spans), f"{game.name} {','.join(policies)}", progress) as bar:
            task = bar.add_task("play", total=len(spans))
            for start, count in spans:
                parts.append(game.simulate(cfg, policies, seed, start, count, options))
                bar.advance(task)
        return parts


class DaskBackend:
    """Chunks as tasks on a Dask distributed cluster (``--scheduler tcp://host:8786``)."""

    def __init__(self, address: str):
        try:
            from distributed import Client

            self.client = Client(address, timeout="10s")
        except Exception as e:  # noqa: BLE001 - any connection failure is a user error here
            raise DicesimError(f"cannot reach the Dask scheduler at {address}: {e}") from None

    def map_chunks(
        self, game: Game, cfg: Strict, policies: list[str], seed: int, spans, options, progress: bool = True
    ) -> list[dict[str, np.ndarray]]:
        from distributed import as_completed

        futures = [
            self.client.submit(simulate_chunk, game.name, cfg, policies, seed, s, c, options, pure=False)
            for s, c in spans
        ]
        with progress_bar(len(spans), f"{game.name} (dask)", progress) as bar:
            task = bar.add_task("play", total=len(spans))
            for _ in as_completed(futures):
                bar.advance(task)
        return self.client.gather(futures)


def make_backend(scheduler: str | None) -> Any:
    return DaskBackend(scheduler) if scheduler else LocalBackend()
