"""The run manager: plays, sweeps and calibrations in a background thread, one at a time.

The page only submits work and polls a ``Job`` (status, progress, message, result), so a long batch
never blocks it. One worker is enough: every batch already uses all cores through numba, and one at
a time keeps the numbers of a run independent of what else the studio does. A user error becomes the
job's one-line ``error:`` message; any other exception is reported the same way (with its type) and
logged, so nothing a job does can take the server down.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sim.core.config import DicesimError
from sim.studio.engine import Cancelled

log = logging.getLogger("dicesim.studio")


@dataclass
class Job:
    """One unit of background work and what the page shows of it."""

    kind: str  # play | sweep | calibrate
    total: float = 1.0  # progress units (runs, chunk files, …)
    done: float = 0.0
    status: str = "queued"  # queued | running | done | failed | cancelled
    error: str = ""
    result: Any = None
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    probe: Callable[[], float] | None = None  # reads progress from outside (e.g. files written)

    @property
    def progress(self) -> float:
        done = self.probe() if self.probe is not None and self.status == "running" else self.done
        if self.status == "done":
            return 1.0
        return max(0.0, min(1.0, done / self.total)) if self.total > 0 else 0.0

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed", "cancelled")

    def advance(self, units: float) -> None:
        self.done += units


class RunManager:
    """A single background worker thread and the jobs it ran."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicesim-studio")

    def submit(self, job: Job, work: Callable[[Job], Any]) -> Job:
        """Run ``work(job)`` in the background; its return value becomes ``job.result``."""
        self.pool.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Job], Any]) -> None:
        job.status = "running"
        job.started = time.monotonic()
        try:
            job.result = work(job)
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
            job.error = "stopped"
        except DicesimError as e:
            job.status = "failed"
            job.error = f"error: {e}"
        except Exception as e:  # noqa: BLE001 - a failed job must never take the server down
            log.exception("studio job %s failed", job.kind)
            job.status = "failed"
            job.error = f"error: {type(e).__name__}: {e}"

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


MANAGER = RunManager()
