"""Where chunks run, behind one interface: ``backend.run(game, jobs)`` yields ``(job, part)`` as chunks finish.

A job is the runs ``start .. start + count - 1`` of one (config, seats, seed, options); its part is the named
per-run table of those runs (``chunk_table``). Batch, compare, sweep, balance, calibrate and the studio all go
through this, so there is one execution path: in this process (``LocalBackend``: chunk after chunk, each
kernel using every core through numba's threads) or on a Dask cluster (``DaskBackend``: chunks as tasks, in
the order they finish). Every run draws only from its own streams, so the numbers never depend on the backend,
the chunking or the order parts come back in.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from sim.core.config import DicesimError, Strict
from sim.core.errors import raise_kept_interrupt
from sim.core.limits import check_scheduler
from sim.core.schema import validate
from sim.games import get_game
from sim.games.base import Game
from sim.jit.progress import is_quiet, is_terminal


@dataclass(frozen=True)
class Job:
    """Runs ``start .. start + count - 1`` of one (config, seats, seed, options); ``tag`` is the caller's
    (e.g. a sweep's point and policy slot) and travels back with the part."""
    cfg: Strict
    policies: list[str]
    seed: int
    start: int
    count: int
    options: dict[str, Any] = field(default_factory=dict)
    tag: Any = None

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.count

    def part(self, start: int, count: int) -> Job:
        """The same job over a sub-span (the studio splits chunks into short kernel calls)."""
        return Job(self.cfg, self.policies, self.seed, start, count, self.options, self.tag)


class Backend(Protocol):
    def run(self, game: Game, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]: ...


def chunk_table(game: Game, job: Job) -> dict[str, Any]:
    """The named per-run table of one job, checked against the game's declared columns (names, order, dtypes)."""
    part = game.simulate(job.cfg, job.policies, job.seed, job.start, job.count, job.options)
    return validate(game.table_columns(job.cfg, job.options), part)


def simulate_chunk(game_name: str, job: Job) -> dict[str, Any]:
    """One job by game name (so Dask workers import the game and build its tables themselves)."""
    game = get_game(game_name)
    game.prepare(job.cfg, job.policies, job.options)
    return chunk_table(game, job)


def progress_bar(total: int, label: str, enabled: bool) -> Progress:

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


def _setup_key(job: Job) -> tuple:
    return id(job.cfg), tuple(job.policies), repr(sorted(job.options.items()))


class LocalBackend:
    """Jobs one after another in this process, in the order given; each chunk's kernel uses every core."""
    def run(self, game: Game, jobs: Iterable[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        prepared = None
        for job in jobs:
            raise_kept_interrupt()  # a Ctrl-C a kernel's load swallowed stops the run here
            key = _setup_key(job)
            if key != prepared:  # solved tables etc. for these rules and seats (memoised by the game)
                game.prepare(job.cfg, job.policies, job.options)
                prepared = key
            yield job, chunk_table(game, job)
        raise_kept_interrupt()  # a one-chunk run: before anything is written

    def close(self) -> None:
        """Nothing to release."""


def _answers(address: str, wait_s: float = 3.0) -> None:
    """Refuse at once a scheduler address where nothing listens: Dask retries a refused connection until its
    10 s timeout and needs a second to import; one socket connect says it in milliseconds (``ucx://`` is Dask's)."""
    protocol, _, rest = address.rpartition("://")
    if protocol not in ("", "tcp", "tls", "ws", "wss"):
        return
    host, _, port = rest.rstrip("/").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=wait_s).close()
    except ConnectionRefusedError:
        raise DicesimError(f"cannot reach the Dask scheduler at {address}: nothing listens there (connection "
                           "refused); start one with `dask scheduler` or check the address") from None
    except socket.gaierror:
        raise DicesimError(f"cannot reach the Dask scheduler at {address}: no such host {host!r}") from None
    except (OSError, ValueError) as e:
        raise DicesimError(f"cannot reach the Dask scheduler at {address}: {e or 'no answer'}") from None


class DaskBackend:
    """Jobs as tasks on a Dask distributed cluster (``--scheduler tcp://host:8786``), yielded as they finish."""
    def __init__(self, address: str):
        _answers(address)
        try:
            from distributed import Client  # heavy optional library (dask): only for --scheduler

            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as e:  # a connection that failed: its own words
            raise DicesimError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        except Exception:  # noqa: BLE001 - something answered, not as a scheduler: its bytes read as nonsense
            # (a 3-EiB array allocation); what is there, not the decoder's complaint
            raise DicesimError(f"cannot reach the Dask scheduler at {address}: something answers there, but not as "
                               "a Dask scheduler; check the address and port") from None

    def run(self, game: Game, jobs: Iterable[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        from distributed import as_completed  # heavy optional library (dask)

        futures = {self.client.submit(simulate_chunk, game.name, job, pure=False): job for job in jobs}
        for fut, part in as_completed(list(futures), with_results=True):
            yield futures.pop(fut), part
            fut.release()

    def close(self) -> None:
        self.client.close()


def make_backend(scheduler: str | None) -> Backend:
    """Dask at ``scheduler`` (an address, checked as the command line checks it), else this process."""
    return DaskBackend(check_scheduler(scheduler)) if scheduler is not None else LocalBackend()
